// Layout of the signed-in area: sidebar (Ctrl/Cmd+B, not while typing), the phone menu (closes on navigation,
// Escape and a tap outside), account banners, theme menu and sign-out.
// Presence and session rules run for every signed-in page, this layout's or not (SignedInRules in app.tsx).
import { Suspense, useEffect, useRef, useState } from 'react';
import { LogOut, Menu } from 'lucide-react';
import { Link, Outlet, useLocation } from 'react-router-dom';
import { DeletionBanner, PauseBanner } from '../features/accounts/account-banners.tsx';
import { MemberNav, SidebarAccount, useSidebarSignOut } from './member-sidebar.tsx';
import { MemberTabBar } from './member-tab-bar.tsx';
import { ThemeMenu } from '../ui/theme-menu.tsx';
import { LovyLauncher } from '../features/lovy/lovy-launcher.tsx';
import { PageLoading } from '../ui/loading-screen.tsx';
import { useAuth } from '../session/auth-context.tsx';
import { restoreHeldUnsentTexts } from '../data/held-unsent-text.ts';

import {
  CallHost,
  LovyPanel,
  MatchPopupHost,
  MemberBackground,
  ReplicaProvider,
  WhenReplicaOpen,
} from './member-layout-parts.ts';

const SIDEBAR_COOKIE = 'sidebar_state';
const SIDEBAR_COOKIE_MAX_AGE_S = 7 * 24 * 60 * 60;

function readSidebarCookie(): boolean {
  const m = document.cookie.match(/(?:^|; )sidebar_state=(true|false)/);
  return m ? m[1] === 'true' : true;
}

export function MemberLayout() {
  const { user } = useAuth();
  // Before any page reads an unsent text: what a sign-out this member did not ask for set aside comes back
  // (decision 0114); what it set aside for another member goes.
  useState(() => {
    if (user) restoreHeldUnsentTexts(user.id);
  });
  const [expanded, setExpanded] = useState(readSidebarCookie);

  useEffect(() => {
    document.cookie = `${SIDEBAR_COOKIE}=${expanded}; path=/; max-age=${SIDEBAR_COOKIE_MAX_AGE_S}; SameSite=Lax`;
  }, [expanded]);

  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      // Ctrl+B in a text field is the field's (bold, or nothing): never the sidebar.
      const t = e.target as HTMLElement | null;
      if (t && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName))) return;
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'b') {
        e.preventDefault();
        setExpanded((x) => !x);
      }
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const signOut = useSidebarSignOut();
  const mobileMenu = useClosingMenu();

  return (
    <div className="flex min-h-screen bg-bg text-fg">
      <a
        href="#main"
        className="btn-primary sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50"
      >
        Skip to content
      </a>
      <aside
        aria-label="Sidebar"
        data-state={expanded ? 'expanded' : 'collapsed'}
        className={`sticky top-0 hidden h-screen shrink-0 flex-col border-r border-border bg-card transition-[width] md:flex ${
          expanded ? 'w-[20.8rem]' : 'w-12'
        }`}
      >
        <div className="flex items-center justify-between p-3">
          {expanded && (
            <Link to="/" className="text-lg font-bold text-primary">
              HeartSync
            </Link>
          )}
          <button
            type="button"
            className="btn-ghost px-2"
            aria-label={expanded ? 'Collapse sidebar (Ctrl+B)' : 'Expand sidebar (Ctrl+B)'}
            aria-expanded={expanded}
            onClick={() => setExpanded((x) => !x)}
          >
            <Menu aria-hidden="true" className="size-5" />
          </button>
        </div>
        <nav aria-label="Member" className="flex-1 overflow-y-auto px-1">
          <MemberNav expanded={expanded} />
        </nav>
        <SidebarAccount expanded={expanded} />
      </aside>
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="flex items-center justify-between gap-1 border-b border-border px-2 py-2 md:gap-2 md:px-4">
          <nav aria-label="Member mobile" className="md:hidden">
            <details ref={mobileMenu}>
              <summary className="btn-ghost flex cursor-pointer items-center gap-1">
                <Menu aria-hidden="true" className="size-5" />
                Menu
              </summary>
              <div className="absolute z-50 mt-2 max-h-[80vh] w-[min(23.4rem,90vw)] overflow-y-auto rounded-lg border border-border bg-card p-2 shadow-lg">
                <MemberNav expanded />
              </div>
            </details>
          </nav>
          <Link to="/" className="text-lg font-bold text-primary md:hidden">
            HeartSync
          </Link>
          <div className="flex items-center gap-0.5 md:gap-1">
            <LovyLauncher />
            <span className="md:hidden">
              <ThemeMenu compact />
            </span>
            <button
              type="button"
              className="btn-ghost px-2 whitespace-nowrap md:hidden"
              title="Sign Out"
              onClick={() => void signOut()}
            >
              <LogOut aria-hidden="true" className="size-5" />
              <span className="sr-only">Sign Out</span>
            </button>
          </div>
        </header>
        <Suspense fallback={null}>
          <MatchPopupHost />
        </Suspense>
        <DeletionBanner />
        <PauseBanner />
        {/* Room for the phone's tab bar under the page. */}
        <div className="flex-1 pb-16 md:pb-0">
          <Suspense fallback={<PageLoading />}>
            <ReplicaProvider>
              <WhenReplicaOpen>
                <MemberBackground />
                <Suspense fallback={null}>
                  <CallHost />
                </Suspense>
              </WhenReplicaOpen>
              <MemberPage />
              <WhenReplicaOpen>
                <Suspense fallback={null}>
                  <LovyPanel />
                </Suspense>
              </WhenReplicaOpen>
            </ReplicaProvider>
          </Suspense>
        </div>
      </div>
      <MemberTabBar />
    </div>
  );
}

/**
 * The pages that paint their last rows (a screen snapshot) while the replica opens, rather than the page loader:
 * the match list, a returning member's first screen (decision 0093), the dashboard, the conversation list, the
 * notifications (decision 0104), the likes (decision 0106) and Find Matches (decision 0107). Each reads `useReplicaOpening()` (the lists
 * through `useSnapshotRows`).
 */
const PAINTED_BEFORE_THE_REPLICA: ReadonlySet<string> = new Set([
  '/match-list',
  '/dashboard',
  '/messages',
  '/notifications',
  '/likes',
  '/find-matches',
]);

/**
 * The page at the address: at once if it paints before the replica has opened, else once it has (the page
 * loader meanwhile). The one outlet in both places keeps the page's state when the replica opens.
 */
function MemberPage() {
  const { pathname } = useLocation();
  const painted = PAINTED_BEFORE_THE_REPLICA.has(pathname.replace(/\/+$/, ''));
  return (
    <WhenReplicaOpen opening={painted ? <Outlet /> : <PageLoading />}>
      <Outlet />
    </WhenReplicaOpen>
  );
}

/**
 * A <details> menu that closes when the page changes (a link inside followed), on Escape (focus back on its
 * button) and on a tap or click outside it.
 */
function useClosingMenu() {
  const ref = useRef<HTMLDetailsElement>(null);
  const location = useLocation();
  // The address the menu was opened at. A page change commits once its page is ready (a lazy page's code may
  // still be loading), while the address bar changes at once: a menu opened again after the change began is not
  // closed by its commit.
  const openedAt = useRef<string>(undefined);
  useEffect(() => {
    const menu = ref.current;
    if (!menu) return;
    const onToggle = () => {
      if (menu.open) openedAt.current = window.location.pathname + window.location.search;
    };
    menu.addEventListener('toggle', onToggle);
    return () => menu.removeEventListener('toggle', onToggle);
  }, []);
  useEffect(() => {
    const menu = ref.current;
    if (menu?.open && openedAt.current !== location.pathname + location.search) menu.open = false;
  }, [location.pathname, location.search]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const menu = ref.current;
      if (e.key !== 'Escape' || !menu?.open) return;
      menu.open = false;
      menu.querySelector('summary')?.focus();
    };
    const onPointer = (e: PointerEvent) => {
      const menu = ref.current;
      if (menu?.open && !menu.contains(e.target as Node)) menu.open = false;
    };
    const onClick = (e: MouseEvent) => {
      // A link to the page already shown changes no location: close on following any link inside.
      const menu = ref.current;
      if (menu?.open && (e.target as Element | null)?.closest?.('a') && menu.contains(e.target as Node))
        menu.open = false;
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('click', onClick);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('click', onClick);
    };
  }, []);
  return ref;
}
