// Layout of the signed-in area: sidebar (Ctrl/Cmd+B), account banners, presence, session rules, theme menu and sign-out.
import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, NavLink, Outlet } from 'react-router-dom';
import { DeletionBanner, PauseBanner } from '../features/accounts/account-banners.tsx';
import { signOut } from '../features/accounts/auth-actions.ts';
import { OnlineIndicator } from '../ui/online-indicator.tsx';
import { ThemeMenu } from '../ui/theme-menu.tsx';
import { useAuth } from './auth-context.tsx';
import { PageLoading } from './loading-screen.tsx';
import { usePresence } from './use-presence.ts';
import { useSessionRules } from './use-session-rules.ts';

// The local replica (PowerSync, wa-sqlite) is heavy: loaded only once a member is inside.
const ReplicaProvider = lazy(() =>
  import('../data/replica.tsx').then((m) => ({ default: m.ReplicaProvider })),
);

const SIDEBAR_COOKIE = 'sidebar_state';
const SIDEBAR_COOKIE_MAX_AGE_S = 7 * 24 * 60 * 60;

export const MEMBER_LINKS = [
  { to: '/find-matches', label: 'Find Matches', icon: '🔍' },
  { to: '/match-list', label: 'Matches', icon: '💞' },
  { to: '/likes', label: 'Likes', icon: '❤️' },
  { to: '/messages', label: 'Messages', icon: '💬' },
  { to: '/notifications', label: 'Notifications', icon: '🔔' },
  { to: '/profile', label: 'Profile', icon: '👤' },
  { to: '/agent-settings', label: 'AI Agents', icon: '🤖' },
  { to: '/dating-resources', label: 'Resources', icon: '📚' },
  { to: '/pricing', label: 'Pricing', icon: '⭐' },
  { to: '/account', label: 'Account', icon: '⚙️' },
];

function readSidebarCookie(): boolean {
  const m = document.cookie.match(/(?:^|; )sidebar_state=(true|false)/);
  return m ? m[1] === 'true' : true;
}

export function MemberLayout() {
  const { user } = useAuth();
  const [expanded, setExpanded] = useState(readSidebarCookie);
  usePresence(user?.id);
  useSessionRules(!!user);

  useEffect(() => {
    document.cookie = `${SIDEBAR_COOKIE}=${expanded}; path=/; max-age=${SIDEBAR_COOKIE_MAX_AGE_S}; SameSite=Lax`;
  }, [expanded]);

  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'b') {
        e.preventDefault();
        setExpanded((x) => !x);
      }
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const name = (user?.user_metadata?.['name'] as string | undefined) ?? user?.email ?? '';

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
            ☰
          </button>
        </div>
        <nav aria-label="Member" className="flex-1 overflow-y-auto px-1">
          <ul>
            {MEMBER_LINKS.map((l) => (
              <li key={l.to}>
                <NavLink
                  to={l.to}
                  title={l.label}
                  className={({ isActive }) =>
                    `flex items-center gap-3 rounded-lg px-2 py-2 text-sm hover:bg-subtle ${isActive ? 'font-semibold text-primary' : ''}`
                  }
                >
                  <span aria-hidden="true">{l.icon}</span>
                  <span className={expanded ? '' : 'sr-only'}>{l.label}</span>
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </aside>
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="flex items-center justify-between gap-2 border-b border-border px-4 py-2">
          <nav aria-label="Member mobile" className="md:hidden">
            <details>
              <summary className="btn-ghost cursor-pointer">Menu</summary>
              <ul className="absolute z-50 mt-2 w-[min(23.4rem,90vw)] rounded-lg border border-border bg-card p-2 shadow-lg">
                {MEMBER_LINKS.map((l) => (
                  <li key={l.to}>
                    <NavLink to={l.to} className="block rounded px-2 py-2 hover:bg-subtle">
                      {l.label}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </details>
          </nav>
          <div className="hidden items-center gap-2 text-sm md:flex">
            <span className="font-medium">{name}</span>
            <OnlineIndicator userId={user?.id} />
          </div>
          <div className="flex items-center gap-1">
            <ThemeMenu />
            <button type="button" className="btn-ghost" onClick={() => void signOut()}>
              Sign Out
            </button>
          </div>
        </header>
        <DeletionBanner />
        <PauseBanner />
        <div className="flex-1">
          <Suspense fallback={<PageLoading />}>
            <ReplicaProvider>
              <Outlet />
            </ReplicaProvider>
          </Suspense>
        </div>
      </div>
    </div>
  );
}
