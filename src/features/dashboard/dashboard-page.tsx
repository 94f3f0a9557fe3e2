// /dashboard: new likes, matches, unread messages, profile completeness with the next step and the subscription, from the replica.
import { Link } from 'react-router-dom';
import { useAuth } from '../../app/auth-context.tsx';
import { useQuery } from '../../data/replica.tsx';
import { getTierName } from '../../domain/subscription.ts';
import { useUnreadMessageCount } from '../messages/messages-data.ts';
import { useUnreadNotificationCount } from '../notifications/notifications-data.ts';
import { getProfileCompleteness, type CompletenessInput } from './profile-completeness.ts';

interface SubscriptionRow {
  plan_id: string;
  billing_cycle: string;
  status: string;
  current_period_end: string | null;
}

function getSubscriptionText(s: SubscriptionRow | undefined): string {
  if (!s || s.billing_cycle === 'free') return 'Free Member';
  const ended = s.current_period_end !== null && new Date(s.current_period_end).getTime() < Date.now();
  const tier = getTierName(s.plan_id);
  const name = tier.charAt(0).toUpperCase() + tier.slice(1);
  if (ended) return `${name} plan expired`;
  if (s.status !== 'active' && s.status !== 'incomplete') return `${name} plan ${s.status}`;
  const until = s.current_period_end ? ` until ${new Date(s.current_period_end).toLocaleDateString()}` : '';
  return `${name} plan, active${until}`;
}

function Stat({ label, value, to }: { label: string; value: number | string; to: string }) {
  return (
    <Link to={to} className="card block hover:bg-subtle">
      <span className="block text-sm text-muted">{label}</span>
      <span
        className="block text-3xl font-bold"
        data-testid={`stat-${label.toLowerCase().replace(/\s+/g, '-')}`}
      >
        {value}
      </span>
    </Link>
  );
}

export default function DashboardPage() {
  const { user } = useAuth();
  const me = user?.id ?? '';
  const { data: likes } = useQuery<{ n: number }>(
    `select count(*) as n from user_interactions ui
     where ui.target_id = ?1 and ui.interaction_type = 'like'
       and ui.created_at > coalesce((select likes_seen_at from profiles where id = ?1), '')`,
    [me],
  );
  const { data: matches } = useQuery<{ n: number }>(
    'select count(*) as n from matches where user_id_1 = ?1 or user_id_2 = ?1',
    [me],
  );
  const { data: profile, isLoading } = useQuery<CompletenessInput>(
    `select name, birthday, gender, bio, city, career, photos, interests, match_preferences_completed,
       (select count(*) from profile_answers where user_id = ?1) as answers
     from profiles where id = ?1`,
    [me],
  );
  const { data: subs } = useQuery<SubscriptionRow>(
    'select plan_id, billing_cycle, status, current_period_end from subscriptions where user_id = ? order by created_at desc limit 1',
    [me],
  );
  const unreadMessages = useUnreadMessageCount(me);
  const unreadNotifications = useUnreadNotificationCount(me);
  const completeness = profile[0] && getProfileCompleteness(profile[0]);
  const name = profile[0]?.name;

  return (
    <main id="main" className="mx-auto max-w-5xl space-y-6 p-6">
      <h1 className="text-3xl font-bold">{name ? `Welcome back, ${name}` : 'Welcome!'}</h1>
      <section aria-labelledby="activity-heading">
        <h2 id="activity-heading" className="mb-3 text-xl font-semibold">
          Your activity
        </h2>
        <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
          <Stat label="New likes" value={likes[0]?.n ?? 0} to="/likes" />
          <Stat label="Matches" value={matches[0]?.n ?? 0} to="/match-list" />
          <Stat label="Unread messages" value={unreadMessages} to="/messages" />
          <Stat label="Notifications" value={unreadNotifications} to="/notifications" />
        </div>
      </section>
      <section aria-labelledby="profile-heading" className="card">
        <h2 id="profile-heading" className="text-xl font-semibold">
          Profile completeness
        </h2>
        {isLoading || !completeness ? (
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
          <p className="mt-1">{getSubscriptionText(subs[0])}</p>
        </div>
        <Link to="/pricing" className="btn-secondary">
          {!subs[0] || subs[0].billing_cycle === 'free' ? 'Upgrade Now' : 'See plans'}
        </Link>
      </section>
    </main>
  );
}
