// Auth state for the whole app (session, user, isAuthenticated, isLoading) and the effects of spec §4 auth events.
import type { Session, User } from '@supabase/supabase-js';
import { createContext, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { getSupabase } from '../data/supabase-client.ts';
import { isStoredSessionKey } from '../data/storage-keys.ts';
import { clearAllUnsentTexts } from '../data/unsent-text.ts';
import {
  PENDING_EMAIL_ADDRESS_KEY,
  PENDING_EMAIL_CONFIRMATION_KEY,
  readSessionFlag,
} from './pending-confirmation.ts';
import { hasAuthRedirectParams } from './auth-redirect.ts';
import { markStart } from './pwa-start-marks.ts';
// Imported last: first among the data imports, it made the build split supabase-client.ts into a chunk of its
// own, 0.4 kB more on the landing's way to live (bench:landing).
import { readStoredSession } from '../data/stored-session.ts';

/**
 * What else a sign-out clears on this device (the shell registers the local replica): registered from above,
 * so the session never imports the data layer that itself reads the session. `keptFor`: the member whose
 * unsent writes stay on the device for them alone (a sign-out they did not ask for, decision 0114), or null.
 */
const signOutCleanups = new Set<(keptFor: string | null) => Promise<void>>();
export function registerSignOutCleanup(cleanup: (keptFor: string | null) => Promise<void>): () => void {
  signOutCleanups.add(cleanup);
  return () => signOutCleanups.delete(cleanup);
}

/**
 * Set while a member is signed in, by the signed-in rules (a lazy chunk, out of the landing's bytes): at a
 * sign-out, sets aside what the member has not sent when they did not ask to sign out and says for whom, else
 * null (decision 0114). Without it, everything unsent goes, as at a sign-out asked for.
 */
let signOutKeeper: (() => string | null) | undefined;
export function setSignOutKeeper(keeper: (() => string | null) | undefined): void {
  signOutKeeper = keeper;
}

export interface AuthState {
  session: Session | null;
  user: User | null;
  isAuthenticated: boolean;
  isLoading: boolean;
  pendingEmailConfirmation: boolean;
  /** Set when the backend could not be reached at start. */
  loadError: string | null;
  /** True from a sign-out until the next page change, so guards let the move to / happen instead of sending to /login. */
  justSignedOut: boolean;
}

const AuthContext = createContext<AuthState | undefined>(undefined);

export function AuthProvider({
  children,
  knownSignedOut = false,
}: {
  children: ReactNode;
  /**
   * The initial session check already found no stored session (src/main.tsx, for the pre-rendered landing):
   * loading is over at once. A visitor on / cannot sign in there, so the auth client is loaded only when
   * it can matter: on leaving / (sign-in and sign-up pages), or when another tab stores a session.
   */
  knownSignedOut?: boolean;
}) {
  const navigate = useNavigate();
  // BrowserRouter's navigate changes with every address: read through a ref, so a navigation does not
  // subscribe to the auth client again (each new subscription is told INITIAL_SESSION, and every page
  // change re-ran the sign-in effects and replaced the session object the whole app reads).
  const navigateRef = useRef(navigate);
  useEffect(() => {
    navigateRef.current = navigate;
  }, [navigate]);
  // A returning member's pages start from the session this device stores, before the auth client has loaded
  // and restored it (decision 0112); an auth redirect's answer is the client's to read first.
  const [storedAtStart] = useState(() =>
    knownSignedOut || hasAuthRedirectParams(window.location) ? null : readStoredSession(),
  );
  const [session, setSession] = useState<Session | null>(storedAtStart);
  const [initialised, setInitialised] = useState(knownSignedOut || storedAtStart !== null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [pending, setPending] = useState(() => readSessionFlag(PENDING_EMAIL_CONFIRMATION_KEY) === 'true');
  const [justSignedOut, setJustSignedOut] = useState(false);
  const { pathname } = useLocation();
  const [clientWanted, setClientWanted] = useState(!knownSignedOut);

  useEffect(() => {
    setJustSignedOut(false);
    if (pathname !== '/') setClientWanted(true);
  }, [pathname]);

  useEffect(() => {
    if (clientWanted) return;
    const onStorage = (e: StorageEvent) => {
      if (e.key === null || isStoredSessionKey(e.key)) setClientWanted(true);
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [clientWanted]);

  useEffect(() => {
    if (!clientWanted) return;
    const endPendingConfirmation = () => {
      try {
        sessionStorage.removeItem(PENDING_EMAIL_CONFIRMATION_KEY);
        sessionStorage.removeItem(PENDING_EMAIL_ADDRESS_KEY);
      } catch {
        /* storage unavailable */
      }
      setPending(false);
    };
    let unsubscribe: (() => void) | undefined;
    let cancelled = false;
    getSupabase()
      .then(async (sb) => {
        if (cancelled) return;
        const { data } = sb.auth.onAuthStateChange((event, next) => {
          switch (event) {
            case 'INITIAL_SESSION': {
              markStart('hs:session-restored');
              // No session from the client while the device still stores one: the client could not confirm it
              // (an expired token it could not renew with no network or no server), and it removes a session
              // the server refused. The member stays signed in on this device; the session check renews the
              // token once the network is back (decision 0112).
              const restored = next ?? readStoredSession();
              // The same token as the session the pages started from: keep that object, so nothing re-runs.
              setSession((shown) => (shown?.access_token === restored?.access_token ? shown : restored));
              setInitialised(true);
              if (restored) endPendingConfirmation();
              break;
            }
            case 'SIGNED_IN':
              console.info('[auth] signed in', next?.user.id);
              setSession(next);
              setInitialised(true);
              // A session needs a confirmed address: a confirmation still marked as pending in this tab
              // (confirmed from another device or the mail app) is over, or a reload would send the
              // member to the sign-in page before the session is restored.
              endPendingConfirmation();
              break;
            case 'SIGNED_OUT': {
              console.info('[auth] signed out');
              setSession(null);
              setJustSignedOut(true);
              endPendingConfirmation();
              // The next person on this device must see nothing of this member's data; what the member has not
              // sent stays theirs alone when they did not ask to sign out (decision 0114).
              const keptFor = signOutKeeper?.() ?? null;
              if (!keptFor) clearAllUnsentTexts();
              for (const cleanup of signOutCleanups)
                void cleanup(keptFor).catch((e: unknown) => console.warn('[auth] local data not cleared', e));
              void navigateRef.current('/');
              break;
            }
            case 'USER_UPDATED':
              console.info('[auth] user updated');
              setSession(next);
              break;
            case 'PASSWORD_RECOVERY':
              setSession(next);
              void navigateRef.current('/reset-password');
              break;
            case 'TOKEN_REFRESHED':
              setSession(next);
              break;
          }
        });
        unsubscribe = () => data.subscription.unsubscribe();
      })
      .catch((e: unknown) => {
        setLoadError(e instanceof Error ? e.message : String(e));
        setInitialised(true);
      });
    return () => {
      cancelled = true;
      unsubscribe?.();
    };
  }, [clientWanted]);

  // The pending flag is written by the sign-up and auth callback pages; re-read it when storage changes.
  useEffect(() => {
    const sync = () => setPending(readSessionFlag(PENDING_EMAIL_CONFIRMATION_KEY) === 'true');
    window.addEventListener('heartsync:pending-confirmation', sync);
    return () => window.removeEventListener('heartsync:pending-confirmation', sync);
  }, []);

  const value = useMemo<AuthState>(
    () => ({
      session,
      user: session?.user ?? null,
      isAuthenticated: session !== null,
      // Loading lasts until the first session check, and while an e-mail confirmation is pending.
      isLoading: !initialised || (pending && session === null),
      pendingEmailConfirmation: pending,
      loadError,
      justSignedOut,
    }),
    [session, initialised, pending, loadError, justSignedOut],
  );
  return <AuthContext value={value}>{children}</AuthContext>;
}

export function useAuth(): AuthState {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth outside AuthProvider');
  return ctx;
}

/** True once the initial session check has finished (ignores a pending confirmation). */
export function useAuthReady(): boolean {
  const { isLoading, pendingEmailConfirmation, session } = useAuth();
  return !isLoading || (pendingEmailConfirmation && session === null);
}
