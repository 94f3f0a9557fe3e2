// The Wingman in a conversation (issue 17), above the message box: a draft the member's agent prepared (medium
// autonomy: the first message of a new match, or a reply when the conversation waits on the member, asked for
// when it is opened) to send as it is, edit or discard, and, in a conversation nobody has written in yet, two or three
// conversation starters from what both share (from the agent, or the built-in coach for a member without one). Each is labelled as AI help and
// takes a thumbs up or down; a turned-down topic is never offered again. Nothing is sent without the member.
import { Check, Pencil, Sparkles, ThumbsDown, ThumbsUp, X } from 'lucide-react';
import type { ReplicaColumns } from '../../data/schema.ts';
import { useEffect, useMemo } from 'react';
import { useQuery, useReplica } from '../../data/replica.tsx';
import { normalizeInterest } from '../../domain/compatibility.ts';
import { getConversationStarters } from '../../domain/wingman.ts';
import { toast } from '../../ui/toast-store.ts';
import { parseList } from '../profile/member-photo.tsx';
import { requestReplyDraft } from './wingman-api.ts';

interface AgentRow {
  name: string;
  autonomy_level: string | null;
}
type DraftRow = ReplicaColumns<'agent_drafts', 'id' | 'content' | 'reply_to', 'id' | 'content'>;
interface FeedbackRow {
  subject: string;
  subject_ref: string;
  rating: 'up' | 'down';
}

export interface WingmanThreadHelpProps {
  me: string;
  conversationId: string;
  otherId: string;
  otherName: string;
  /** Whether anyone has written in the conversation yet. */
  isEmpty: boolean;
  /** The other member's message the conversation waits on the member to answer, if it does. */
  waitingOn?: string | undefined;
  /** Sends the agent's text as it is, marked as AI-written. */
  onSendAsIs: (content: string, agentName: string) => Promise<void>;
  /** Puts the agent's (or, with no agent, the built-in coach's) text in the message box for the member to change. */
  onUse: (content: string, agentName: string | undefined) => void;
}

export function WingmanThreadHelp(props: WingmanThreadHelpProps) {
  const { me, conversationId, otherId, otherName, isEmpty, waitingOn, onSendAsIs, onUse } = props;
  const db = useReplica();
  const { data: agents } = useQuery<AgentRow>(
    'select name, autonomy_level from ai_agents where user_id = ? and is_active = 1 limit 1',
    [me],
  );
  const { data: drafts } = useQuery<DraftRow>(
    `select id, content, reply_to from agent_drafts where user_id = ? and conversation_id = ? and status = 'pending'
     order by created_at limit 1`,
    [me, conversationId],
  );
  const { data: answered, isLoading: answeredLoading } = useQuery<{ id: string }>(
    'select id from agent_drafts where user_id = ? and conversation_id = ? and reply_to = ? limit 1',
    [me, conversationId, waitingOn ?? ''],
  );
  const { data: feedback } = useQuery<FeedbackRow>(
    'select subject, subject_ref, rating from agent_feedback where user_id = ?',
    [me],
  );
  const { data: interests } = useQuery<{ mine: string | null; theirs: string | null }>(
    `select (select interests from profiles where id = ?) as mine,
       (select interests from public_profiles where id = ?) as theirs`,
    [me, otherId],
  );
  const agent = agents[0];
  const draft = drafts[0];
  const drafting = agent?.autonomy_level === 'medium' || agent?.autonomy_level === 'high';
  // A conversation waiting on the member, opened: the agent drafts a reply (the server decides whether it may).
  useEffect(() => {
    if (!drafting || !waitingOn || draft || answeredLoading || answered.length > 0) return;
    requestReplyDraft(conversationId, waitingOn);
  }, [drafting, waitingOn, draft, answeredLoading, answered.length, conversationId]);
  const ratingOf = (subject: string, ref: string) =>
    feedback.find((f) => f.subject === subject && f.subject_ref === ref)?.rating;
  const starters = useMemo(
    () =>
      getConversationStarters({
        mine: parseList(interests[0]?.mine),
        theirs: parseList(interests[0]?.theirs),
        theirName: otherName,
        turnedDown: feedback
          .filter((f) => f.subject === 'starter' && f.rating === 'down')
          .map((f) => f.subject_ref),
      }),
    [interests, feedback, otherName],
  );
  async function rate(subject: 'draft' | 'starter', ref: string, rating: 'up' | 'down') {
    try {
      await db.writeTransaction(async (tx) => {
        const existing = await tx.getOptional<{ id: string }>(
          'select id from agent_feedback where user_id = ? and subject = ? and subject_ref = ?',
          [me, subject, ref],
        );
        if (existing)
          await tx.execute('update agent_feedback set rating = ? where id = ?', [rating, existing.id]);
        else
          await tx.execute(
            `insert into agent_feedback (id, user_id, subject, subject_ref, rating, created_at)
             values (?, ?, ?, ?, ?, ?)`,
            [crypto.randomUUID(), me, subject, ref, rating, new Date().toISOString()],
          );
      });
    } catch {
      toast({ title: 'Error', description: 'Failed to save your feedback', variant: 'destructive' });
    }
  }

  async function settleDraft(status: 'sent' | 'edited' | 'discarded') {
    if (!draft) return;
    await db.execute('update agent_drafts set status = ?, updated_at = ? where id = ?', [
      status,
      new Date().toISOString(),
      draft.id,
    ]);
  }

  const thumbs = (subject: 'draft' | 'starter', ref: string, what: string) => {
    const rating = ratingOf(subject, ref);
    return (
      <span className="flex gap-1">
        <button
          type="button"
          className="btn-ghost p-1"
          aria-pressed={rating === 'up'}
          onClick={() => void rate(subject, ref, 'up')}
        >
          <ThumbsUp aria-hidden="true" className="size-4" />
          <span className="sr-only">Helpful: {what}</span>
        </button>
        <button
          type="button"
          className="btn-ghost p-1"
          aria-pressed={rating === 'down'}
          onClick={() => void rate(subject, ref, 'down')}
        >
          <ThumbsDown aria-hidden="true" className="size-4" />
          <span className="sr-only">Not for me: {what}</span>
        </button>
      </span>
    );
  };

  if (draft && agent)
    return (
      <section
        aria-label="Draft from your Wingman"
        className="mx-3 mb-2 space-y-2 rounded-lg border border-border p-3"
      >
        <p className="flex items-center gap-1 text-xs font-medium text-muted">
          <Sparkles aria-hidden="true" className="size-3" />
          {agent.name} (AI) {draft.reply_to ? `drafted a reply to ${otherName}` : 'drafted this for you'}
        </p>
        <p className="whitespace-pre-wrap break-words text-sm">{draft.content}</p>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              className="btn-primary flex items-center gap-1 text-sm"
              onClick={() => void onSendAsIs(draft.content, agent.name).then(() => settleDraft('sent'))}
            >
              <Check aria-hidden="true" className="size-4" />
              Send draft
            </button>
            <button
              type="button"
              className="btn-secondary flex items-center gap-1 text-sm"
              onClick={() => {
                onUse(draft.content, agent.name);
                void settleDraft('edited');
              }}
            >
              <Pencil aria-hidden="true" className="size-4" />
              Edit
            </button>
            <button
              type="button"
              className="btn-ghost flex items-center gap-1 text-sm"
              onClick={() => void settleDraft('discarded')}
            >
              <X aria-hidden="true" className="size-4" />
              Discard
            </button>
          </div>
          {thumbs('draft', draft.id, 'this draft')}
        </div>
      </section>
    );

  if (!isEmpty || starters.length === 0) return null;
  return (
    <section
      aria-label="Conversation starters"
      className="mx-3 mb-2 space-y-2 rounded-lg border border-border p-3"
    >
      <p className="flex items-center gap-1 text-xs font-medium text-muted">
        <Sparkles aria-hidden="true" className="size-3" />
        {agent
          ? `${agent.name} (AI) suggests talking about`
          : 'Conversation starters from the built-in coach'}
      </p>
      <ul className="space-y-1">
        {starters.map((s) => (
          <li key={s.topic} className="flex items-center justify-between gap-2" data-testid="starter">
            <button
              type="button"
              className="btn-ghost text-left text-sm"
              onClick={() => onUse(s.opener, agent?.name)}
            >
              <span className="font-medium">{s.topic}</span>
              {s.shared ? ' (you both like it)' : ''}
              <span className="sr-only">: use the opener “{s.opener}”</span>
            </button>
            {thumbs('starter', normalizeInterest(s.topic), s.topic)}
          </li>
        ))}
      </ul>
    </section>
  );
}
