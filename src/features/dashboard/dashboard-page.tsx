// /dashboard: new likes, matches, unread messages, profile completeness with the next step and the subscription, from the replica.
// It paints before the replica has opened (decision 0104): the way to the deck at once, and the figures it showed
// last on this device (a screen snapshot, decision 0093) until the replica answers.
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { Bell, Heart, HeartHandshake, MessageCircle, Search, type LucideIcon } from 'lucide-react';
import { useAuth } from '../../session/auth-context.tsx';
import { IconBadge } from '../../ui/icon-badge.tsx';
import { useFirstSyncPending, useQuery, useReplicaOpening } from '../../data/replica.tsx';
import { readScreenSnapshot, saveScreenSnapshot } from '../../data/screen-snapshots.ts';
import type { Entitlement } from '../../domain/subscription.ts';
import { useShownEntitlement } from '../../session/use-entitlement.ts';
import { useUnreadMessageCount } from '../messages/messages-data.ts';
import { useUnreadNotificationCount } from '../notifications/notifications-data.ts';
import { parseDashboardFigures, type DashboardFigures } from './dashboard-figures.ts';
import { getProfileCompleteness, type CompletenessInput } from './profile-completeness.ts';

/** The plan in words, from the one derivation the sidebar uses too (src/domain/subscription.ts). */
function getSubscriptionText(e: Entitlement | undefined): string {
  if (!e) return 'Loading...';
  if (e.isFreeUser || e.status === 'none') return 'Free Member';
  const name = e.tier.charAt(0).toUpperCase() + e.tier.slice(1);
  if (e.status === 'expired') return `${name} plan expired`;
  if (!e.isSubscribed) return `${name} plan ${e.status}`;
  const until = e.expiryDate ? ` until ${new Date(e.expiryDate).toLocaleDateString()}` : '';
  return `${name} plan, active${until}`;
}

function Stat({
  label,
  value,
  to,
  icon,
}: {
  label: string;
  /** Undefined while not known yet (a new device's first sync): a placeholder, never a false 0. */
  value: number | undefined;
  to: string;
  icon: LucideIcon;
}) {
  // Something waiting stands out: the icon in the brand's colour.
  const waiting = typeof value === 'number' && value > 0;
  return (
    <Link to={to} className="card flex items-center gap-3 p-4 hover:bg-subtle md:p-5">
      <IconBadge icon={icon} active={waiting} />
      <span className="min-w-0">
        <span
          className="block text-2xl leading-tight font-bold"
          data-testid={`stat-${label.toLowerCase().replace(/\s+/g, '-')}`}
        >
          {value ?? (
            <span
              role="status"
              aria-label="Loading"
              className="inline-block h-7 w-8 animate-pulse rounded bg-subtle align-middle motion-reduce:animate-none"
            />
          )}
        </span>
        <span className="block text-sm text-muted">{label}</span>
      </span>
    </Link>
  );
}

/** The screen snapshot's name (screen-snapshots.ts). */
const SNAPSHOT = 'dashboard';

export default function DashboardPage() {
  const { user } = useAuth();
  const me = user?.id ?? '';
  // The likes page's count: likes received and not answered yet (no like back or skip, no block).
  const likes = useQuery<{ n: number }>(
    `select count(*) as n from user_interactions ui
     where ui.target_id = ?1 and ui.interaction_type = 'like'
       and not exists (select 1 from user_interactions back where back.user_id = ?1 and back.target_id = ui.user_id)
       and not exists (select 1 from blocked_users b where b.blocker_id = ?1 and b.blocked_id = ui.user_id)`,
    [me],
  );
  const matches = useQuery<{ n: number }>(
    'select count(*) as n from matches where user_id_1 = ?1 or user_id_2 = ?1',
    [me],
  );
  const profile = useQuery<CompletenessInput>(
    `select name, birthday, gender, looking_for, relationship_goals, bio, city, career, education_level, photos,
       interests, (select count(*) from profile_answers where user_id = ?1) as answers,
       exists (select 1 from match_preferences where id = ?1) as has_preferences
     from profiles where id = ?1`,
    [me],
  );
  const entitlement = useShownEntitlement();
  const unreadMessages = useUnreadMessageCount(me);
  const unreadNotifications = useUnreadNotificationCount(me);
  const opening = useReplicaOpening();
  // A new device's replica is empty until its first sync: its counts are not known yet, not 0 (also true while
  // the replica opens). A figure is known once its query has answered.
  const counting = useFirstSyncPending();
  const known = (q: { data: { n: number }[]; isLoading: boolean; error: Error | undefined }) =>
    counting || q.isLoading || q.error ? undefined : (q.data[0]?.n ?? 0);
  const profileRow = opening || profile.isLoading ? undefined : profile.data[0];
  const live = {
    likes: known(likes),
    matches: known(matches),
    messages: counting ? undefined : unreadMessages,
    notifications: counting ? undefined : unreadNotifications,
    // Greeted by first name, as every card shows a member.
    firstName: profileRow ? (profileRow.name?.trim().split(/\s+/)[0] ?? null) : undefined,
    completeness: profileRow && getProfileCompleteness(profileRow),
  };
  // Until the replica answers, what this screen showed last on this device; each full answer is the next one.
  const [last] = useState(() => parseDashboardFigures(readScreenSnapshot(SNAPSHOT, me)));
  const figures = {
    likes: live.likes ?? last?.likes,
    matches: live.matches ?? last?.matches,
    messages: live.messages ?? last?.messages,
    notifications: live.notifications ?? last?.notifications,
    firstName: live.firstName === undefined ? last?.firstName : live.firstName,
    completeness: live.completeness ?? last?.completeness,
  };
  const complete =
    live.likes !== undefined &&
    live.matches !== undefined &&
    live.messages !== undefined &&
    live.notifications !== undefined &&
    live.firstName !== undefined &&
    live.completeness !== undefined;
  const figuresKey = JSON.stringify(live);
  useEffect(() => {
    if (complete) saveScreenSnapshot(SNAPSHOT, me, [JSON.parse(figuresKey) as DashboardFigures]);
  }, [complete, figuresKey, me]);
  const { firstName, completeness } = figures;

  return (
    <main id="main" className="mx-auto max-w-5xl space-y-6 p-6">
      <h1 className="text-3xl font-bold">{firstName ? `Welcome back, ${firstName}` : 'Welcome!'}</h1>
      {/* The way on, first: the deck. */}
      <section
        aria-labelledby="swipe-heading"
        className="card flex flex-wrap items-center justify-between gap-3 bg-gradient-to-br from-primary/10 to-transparent"
      >
        <div>
          <h2 id="swipe-heading" className="text-xl font-semibold">
            Find your next match
          </h2>
          <p className="mt-1 text-sm text-muted">New people near you are waiting in your deck.</p>
        </div>
        <Link to="/find-matches" className="btn-primary">
          <Search aria-hidden="true" className="size-4" />
          Start swiping
        </Link>
      </section>
      <section aria-labelledby="activity-heading">
        <h2 id="activity-heading" className="mb-3 text-xl font-semibold">
          Your activity
        </h2>
        <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
          <Stat label="Likes waiting" value={figures.likes} to="/likes" icon={Heart} />
          <Stat label="Matches" value={figures.matches} to="/match-list" icon={HeartHandshake} />
          <Stat label="Unread messages" value={figures.messages} to="/messages" icon={MessageCircle} />
          <Stat label="Notifications" value={figures.notifications} to="/notifications" icon={Bell} />
        </div>
      </section>
      <section aria-labelledby="profile-heading" className="card">
        <h2 id="profile-heading" className="text-xl font-semibold">
          Profile completeness
        </h2>
        {!completeness ? (
          <p className="mt-2">Loading...</p>
        ) : (
          <>
            <div
              role="progressbar"
              aria-label="Profile completeness"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={completeness.percent}
              className="mt-3 h-3 w-full overflow-hidden rounded-full bg-subtle"
            >
              <div className="h-full bg-primary" style={{ width: `${completeness.percent}%` }} />
            </div>
            <p className="mt-2">{completeness.percent}% complete</p>
            {completeness.next ? (
              <p className="mt-1">
                Next step:{' '}
                <Link to={completeness.next.to} className="font-semibold text-primary underline">
                  {completeness.next.label}
                </Link>
              </p>
            ) : (
              <p className="mt-1">Your profile is complete.</p>
            )}
          </>
        )}
      </section>
      <section
        aria-labelledby="subscription-heading"
        className="card flex flex-wrap items-center justify-between gap-3"
      >
        <div>
          <h2 id="subscription-heading" className="text-xl font-semibold">
            Subscription
          </h2>
          <p className="mt-1">{getSubscriptionText(entitlement)}</p>
        </div>
        <Link to="/pricing" className="btn-secondary">
          {entitlement?.isPremium ? 'See plans' : 'Upgrade Now'}
        </Link>
      </section>
    </main>
  );
}
