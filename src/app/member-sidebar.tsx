// The member sidebar of spec §2: grouped links, likes badge, premium markers, the member's card, Upgrade Now and Sign Out.
import {
  Bell,
  BookOpen,
  Bot,
  CircleHelp,
  Crown,
  Heart,
  HeartHandshake,
  House,
  LogOut,
  MessageCircle,
  Search,
  Settings,
  ShieldCheck,
  Star,
  User,
  Users,
  type LucideIcon,
  Gamepad2,
} from 'lucide-react';
import { NavLink, useNavigate } from 'react-router-dom';
import { useAuth } from '../session/auth-context.tsx';
import { getMembershipLabel } from '../domain/subscription.ts';
import { OnlineIndicator } from '../ui/online-indicator.tsx';
import { ThemeMenu } from '../ui/theme-menu.tsx';
import { toast } from '../ui/toast-store.ts';
import { MemberPhoto } from '../features/profile/member-photo.tsx';
import { useOwnCard } from '../features/profile/own-card-store.ts';
import { useUnreadCounts } from '../features/notifications/unread-store.ts';
import { useShownEntitlement } from '../session/use-entitlement.ts';
import { signOutAsked } from '../session/sign-out.ts';

export interface NavItem {
  label: string;
  to: string;
  icon: LucideIcon;
  badge?: 'likes' | 'messages' | 'notifications';
  premium?: boolean;
}

export const MEMBER_NAV_GROUPS: { group: string; items: NavItem[] }[] = [
  {
    group: 'Main',
    items: [
      { label: 'Dashboard', to: '/dashboard', icon: House },
      { label: 'Find Matches', to: '/find-matches', icon: Search },
      { label: 'My Matches', to: '/match-list', icon: HeartHandshake },
      { label: 'Likes', to: '/likes', icon: Heart, badge: 'likes' },
      { label: 'Messages', to: '/messages', icon: MessageCircle, premium: true, badge: 'messages' },
      { label: 'Games', to: '/games', icon: Gamepad2 },
    ],
  },
  {
    group: 'Profile & Agent',
    items: [
      { label: 'My Profile', to: '/profile', icon: User },
      { label: 'AI Wingman', to: '/agent-settings', icon: Bot, premium: true },
    ],
  },
  {
    group: 'Notifications & Help',
    items: [
      { label: 'Notifications', to: '/notifications', icon: Bell, badge: 'notifications' },
      { label: 'Help', to: '/help', icon: CircleHelp },
    ],
  },
  {
    group: 'Settings',
    items: [
      { label: 'Account Settings', to: '/account', icon: Settings },
      { label: 'Pricing', to: '/pricing', icon: Star },
    ],
  },
  {
    group: 'Community',
    items: [
      { label: 'Dating Resources', to: '/dating-resources', icon: BookOpen },
      { label: 'Community', to: '/community', icon: Users },
      { label: 'Safety Center', to: '/safety-center', icon: ShieldCheck },
    ],
  },
];

export function MemberNav({ expanded, onNavigate }: { expanded: boolean; onNavigate?: () => void }) {
  const entitlement = useShownEntitlement();
  const unreadCounts = useUnreadCounts();
  // Markers only once the plan is known (the last known one until the replica answers): a premium member never
  // sees them flash while the replica opens.
  const showPremium = entitlement !== undefined && !entitlement.isPremium;
  return (
    <>
      {MEMBER_NAV_GROUPS.map((g) => (
        <div key={g.group} className="mb-2">
          <h2 className={expanded ? 'px-2 pt-2 text-xs font-semibold uppercase text-muted' : 'sr-only'}>
            {g.group}
          </h2>
          <ul>
            {g.items.map((l) => (
              <li key={l.to}>
                <NavLink
                  to={l.to}
                  title={l.label}
                  onClick={onNavigate}
                  className={({ isActive }) =>
                    `flex items-center gap-3 rounded-lg px-2 py-2 text-sm hover:bg-subtle ${isActive ? 'font-semibold text-primary' : ''}`
                  }
                >
                  <l.icon aria-hidden="true" className="size-5 shrink-0" />
                  <span className={expanded ? 'flex-1' : 'sr-only'}>{l.label}</span>
                  {l.badge === 'likes' && unreadCounts.likes > 0 && (
                    <span
                      className="rounded-full bg-primary px-1.5 text-xs text-white"
                      data-testid="likes-badge"
                    >
                      {unreadCounts.likes}
                      <span className="sr-only"> new likes</span>
                    </span>
                  )}
                  {(l.badge === 'messages' || l.badge === 'notifications') && unreadCounts[l.badge] > 0 && (
                    <span
                      className="rounded-full bg-primary px-1.5 text-xs text-white"
                      data-testid={`${l.badge}-badge`}
                    >
                      {unreadCounts[l.badge]}
                      <span className="sr-only"> unread</span>
                    </span>
                  )}
                  {l.premium && showPremium && (
                    <span className="text-xs" title="Premium feature">
                      <Crown aria-hidden="true" className="size-4 text-amber-500" />
                      <span className="sr-only"> (premium)</span>
                    </span>
                  )}
                </NavLink>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </>
  );
}

/** Signs out with the sidebar's toasts (spec §8) and goes to /. */
export function useSidebarSignOut(): () => Promise<void> {
  const navigate = useNavigate();
  return async () => {
    try {
      // This device only: signing out on a phone must not end the member's session on a laptop.
      const { error } = await signOutAsked('local');
      if (error) {
        toast({
          title: 'Error',
          description: 'Failed to sign out. Please try again.',
          variant: 'destructive',
        });
        return;
      }
      toast({ title: 'Signed Out', description: 'You have been successfully signed out.' });
      void navigate('/');
    } catch {
      toast({
        title: 'Error',
        description: 'An unexpected error occurred. Please try again.',
        variant: 'destructive',
      });
    }
  };
}

export function SidebarAccount({ expanded }: { expanded: boolean }) {
  const { user } = useAuth();
  const card = useOwnCard(user?.id);
  const entitlement = useShownEntitlement();
  const signOut = useSidebarSignOut();
  const name = card?.name?.trim() || 'Welcome!';
  return (
    <div className="space-y-2 border-t border-border p-2">
      <div className="flex items-center gap-2">
        <MemberPhoto
          path={card?.photo ?? undefined}
          alt=""
          className="size-9 shrink-0 rounded-full object-cover"
        />
        <div className={expanded ? 'min-w-0' : 'sr-only'}>
          <p className="truncate text-sm font-medium" data-testid="sidebar-name">
            {name}
          </p>
          <OnlineIndicator userId={user?.id} />
          {entitlement && <p className="text-xs text-muted">{getMembershipLabel(entitlement)}</p>}
        </div>
      </div>
      {expanded && entitlement && !entitlement.isPremium && (
        <NavLink to="/pricing" className="btn-primary block text-center text-sm">
          Upgrade Now
        </NavLink>
      )}
      <div
        className={expanded ? 'flex items-center justify-between gap-1' : 'flex flex-col items-center gap-1'}
      >
        <ThemeMenu placement="above" compact={!expanded} />
        <button type="button" className="btn-ghost text-sm" onClick={() => void signOut()}>
          <LogOut aria-hidden="true" className={`inline size-4 ${expanded ? 'mr-1' : ''}`} />
          <span className={expanded ? '' : 'sr-only'}>Sign Out</span>
        </button>
      </div>
    </div>
  );
}
