// The phone's bottom tab bar (issue 20): the five places a member goes most, always one tap away, with the same
// counts as the sidebar. Hidden from md up, where the sidebar is.
import { Heart, HeartHandshake, MessageCircle, Search, User, type LucideIcon } from 'lucide-react';
import { NavLink } from 'react-router-dom';
import { useUnreadCounts } from '../features/notifications/unread-store.ts';

const TABS: { label: string; to: string; icon: LucideIcon; badge?: 'likes' | 'messages' }[] = [
  { label: 'Discover', to: '/find-matches', icon: Search },
  { label: 'Likes', to: '/likes', icon: Heart, badge: 'likes' },
  { label: 'Matches', to: '/match-list', icon: HeartHandshake },
  { label: 'Messages', to: '/messages', icon: MessageCircle, badge: 'messages' },
  { label: 'Profile', to: '/profile', icon: User },
];

export function MemberTabBar() {
  const unread = useUnreadCounts();
  return (
    <nav
      aria-label="Tabs"
      className="fixed inset-x-0 bottom-0 z-40 border-t border-border bg-card/95 pb-[env(safe-area-inset-bottom)] backdrop-blur md:hidden"
    >
      <ul className="grid h-16 grid-cols-5">
        {TABS.map((t) => {
          const count = t.badge === 'likes' ? unread.likes : t.badge === 'messages' ? unread.messages : 0;
          return (
            <li key={t.to}>
              <NavLink
                to={t.to}
                className={({ isActive }) =>
                  `relative flex h-full flex-col items-center justify-center gap-0.5 text-xs ${isActive ? 'font-semibold text-primary' : 'text-muted'}`
                }
              >
                <t.icon aria-hidden="true" className="size-6" />
                {t.label}
                {count > 0 && (
                  <span
                    className="absolute top-1.5 left-1/2 ml-2 min-w-5 rounded-full bg-primary px-1 text-center text-[0.7rem] leading-5 text-white"
                    data-testid={`tab-${t.badge}-badge`}
                  >
                    {count > 99 ? '99+' : count}
                    <span className="sr-only">{t.badge === 'likes' ? ' new likes' : ' unread'}</span>
                  </span>
                )}
              </NavLink>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
