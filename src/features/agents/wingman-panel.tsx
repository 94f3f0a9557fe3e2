// The Wingman's switches and log on /agent-settings (issue 17): pause every agent action at once, the daily caps,
// whether other members' agents may write to this member, and every action the agent took with its reason (undo
// for a like that made no match). Switches live in the replica (wingman_settings) and work offline; the log is
// written by the server's job (0123) and synced here.
import { Heart, MessageCircle, Pause, PenLine, Play, Undo2 } from 'lucide-react';
import type { ReplicaColumns } from '../../data/schema.ts';
import { useState } from 'react';
import { useQuery, useReplica } from '../../data/replica.tsx';
import { toast } from '../../ui/toast-store.ts';
import { isOnline } from '../../data/network.ts';
import { formatTimeLabel } from '../../ui/time-label.ts';
import { undoAgentAction } from './wingman-api.ts';

type SettingsRow = ReplicaColumns<
  'wingman_settings',
  'paused' | 'daily_like_cap' | 'daily_message_cap' | 'accept_agent_messages'
>;

interface ActivityRow {
  id: string;
  kind: 'like' | 'message' | 'draft' | 'reply';
  target_id: string | null;
  target_name: string | null;
  reason: string;
  status: 'done' | 'undone';
  created_at: string;
  matched: number;
}

/** The defaults a member without a settings row has (0123). */
export const WINGMAN_DEFAULTS = { likeCap: 10, messageCap: 5 } as const;
/** The hard caps SQL keeps whatever is set (get_wingman_hard_*_cap). */
export const WINGMAN_HARD_CAPS = { likeCap: 25, messageCap: 10 } as const;

const KIND_WORDS: Record<ActivityRow['kind'], string> = {
  like: 'Liked',
  message: 'Sent the first message to',
  draft: 'Drafted a first message to',
  reply: 'Drafted a reply to',
};

export function WingmanPanel({
  me,
  hasAgents,
  highAutonomy,
}: {
  me: string;
  /** Without an agent there is nothing to pause or limit: only whether other members' agents may write. */
  hasAgents: boolean;
  highAutonomy: boolean;
}) {
  const db = useReplica();
  const { data: rows } = useQuery<SettingsRow>(
    'select paused, daily_like_cap, daily_message_cap, accept_agent_messages from wingman_settings where id = ?',
    [me],
  );
  const { data: activity } = useQuery<ActivityRow>(
    `select a.id, a.kind, a.target_id, coalesce(p.name, a.target_name) as target_name, a.reason, a.status, a.created_at,
       exists (select 1 from matches m where (m.user_id_1 = ? and m.user_id_2 = a.target_id)
         or (m.user_id_2 = ? and m.user_id_1 = a.target_id)) as matched
     from agent_activity a left join public_profiles p on p.id = a.target_id
     where a.user_id = ? order by a.created_at desc limit 50`,
    [me, me, me],
  );
  const s = rows[0];
  const paused = s?.paused === 1;
  const likeCap = s?.daily_like_cap ?? WINGMAN_DEFAULTS.likeCap;
  const messageCap = s?.daily_message_cap ?? WINGMAN_DEFAULTS.messageCap;
  const acceptAgents = (s?.accept_agent_messages ?? 1) === 1;
  const [undoing, setUndoing] = useState<string>();

  /** Writes one switch: the row is made on the first change, with the defaults for the rest. */
  async function save(column: keyof SettingsRow, value: number) {
    const now = new Date().toISOString();
    try {
      await db.writeTransaction(async (tx) => {
        const existing = await tx.getOptional<{ id: string }>(
          'select id from wingman_settings where id = ?',
          [me],
        );
        if (existing) {
          await tx.execute(`update wingman_settings set ${column} = ?, updated_at = ? where id = ?`, [
            value,
            now,
            me,
          ]);
          return;
        }
        const row: Record<keyof SettingsRow, number> = {
          paused: 0,
          daily_like_cap: WINGMAN_DEFAULTS.likeCap,
          daily_message_cap: WINGMAN_DEFAULTS.messageCap,
          accept_agent_messages: 1,
          [column]: value,
        };
        await tx.execute(
          `insert into wingman_settings (id, paused, daily_like_cap, daily_message_cap, accept_agent_messages,
             created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?)`,
          [me, row.paused, row.daily_like_cap, row.daily_message_cap, row.accept_agent_messages, now, now],
        );
      });
    } catch {
      toast({ title: 'Error', description: 'Failed to save your Wingman settings', variant: 'destructive' });
    }
  }

  async function undo(a: ActivityRow) {
    setUndoing(a.id);
    const error = await undoAgentAction(a.id);
    setUndoing(undefined);
    if (error)
      toast({
        title: 'Could not undo',
        description: isOnline()
          ? (error.hint ?? 'Please try again.')
          : 'You are offline. Try again once back online.',
        variant: 'destructive',
      });
    else
      toast({
        title: 'Undone',
        description: `Your agent's like of ${a.target_name ?? 'this member'} is withdrawn.`,
      });
  }

  const capInput = (id: string, label: string, value: number, max: number, column: keyof SettingsRow) => (
    <label htmlFor={id} className="flex items-center justify-between gap-3 text-sm">
      <span>{label}</span>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={0}
        max={max}
        className="input w-20"
        value={value}
        onChange={(e) => {
          if (e.target.value.trim() === '') return;
          const n = Math.round(Number(e.target.value));
          if (Number.isFinite(n)) void save(column, Math.min(max, Math.max(0, n)));
        }}
      />
    </label>
  );

  return (
    <section aria-labelledby="wingman-heading" className="card space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="wingman-heading" className="text-xl font-semibold">
          What your Wingman does
        </h2>
        {hasAgents && (
          <button
            type="button"
            role="switch"
            aria-checked={!paused}
            className={`flex items-center gap-2 ${paused ? 'btn-primary' : 'btn-secondary'}`}
            onClick={() => void save('paused', paused ? 0 : 1)}
          >
            {paused ? (
              <Play aria-hidden="true" className="size-4" />
            ) : (
              <Pause aria-hidden="true" className="size-4" />
            )}
            {paused ? 'Resume Wingman' : 'Pause Wingman'}
          </button>
        )}
      </div>
      <p className="text-sm text-muted" role="status">
        {!hasAgents
          ? 'You have no agent yet: create one above, then choose here what it may do for you.'
          : paused
            ? 'Paused: your agents take no action until you resume.'
            : highAutonomy
              ? 'Your active agent likes people at or above its match threshold and sends its first message on a new match, within the limits below. Each message it writes is labelled as written with AI help.'
              : 'Your active agent only suggests: nothing is liked or sent without you. High autonomy (Connector and VIP plans) lets it like and write for you.'}
      </p>
      {hasAgents && (
        <div className="grid gap-2 sm:grid-cols-2">
          {capInput(
            'wingman-like-cap',
            'Likes a day, at most',
            likeCap,
            WINGMAN_HARD_CAPS.likeCap,
            'daily_like_cap',
          )}
          {capInput(
            'wingman-message-cap',
            'First messages a day, at most',
            messageCap,
            WINGMAN_HARD_CAPS.messageCap,
            'daily_message_cap',
          )}
        </div>
      )}
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={acceptAgents}
          onChange={(e) => void save('accept_agent_messages', e.target.checked ? 1 : 0)}
        />
        Other members&apos; agents may send me a first message
      </label>

      <h3 className="pt-2 font-semibold">Activity</h3>
      {activity.length === 0 ? (
        <p className="text-sm text-muted">
          Nothing yet: what your agent does for you appears here, with why.
        </p>
      ) : (
        <ul aria-label="Wingman activity" className="divide-y divide-border">
          {activity.map((a) => (
            <li
              key={a.id}
              className="flex items-start justify-between gap-3 py-2"
              data-testid="wingman-activity"
              data-target-id={a.target_id ?? undefined}
            >
              <div className="flex items-start gap-2">
                {a.kind === 'like' ? (
                  <Heart aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-primary" />
                ) : a.kind === 'draft' || a.kind === 'reply' ? (
                  <PenLine aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-primary" />
                ) : (
                  <MessageCircle aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-primary" />
                )}
                <div>
                  <p className="text-sm">
                    {KIND_WORDS[a.kind]} {a.target_name ?? 'a member'}
                    {a.status === 'undone' && <span className="text-muted"> (undone)</span>}
                  </p>
                  <p className="text-xs text-muted">
                    {a.reason} · <time dateTime={a.created_at}>{formatTimeLabel(a.created_at)}</time>
                  </p>
                </div>
              </div>
              {a.kind === 'like' && a.status === 'done' && a.matched !== 1 && (
                <button
                  type="button"
                  className="btn-ghost flex items-center gap-1 text-sm"
                  disabled={undoing === a.id}
                  onClick={() => void undo(a)}
                >
                  <Undo2 aria-hidden="true" className="size-4" />
                  Undo<span className="sr-only"> like of {a.target_name ?? 'this member'}</span>
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
