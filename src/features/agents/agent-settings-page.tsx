// /agent-settings, the AI Wingman's settings (spec members-area §2-§9; issue 17, first part): list, create,
// edit, delete and activate the member's agents within the plan's limits, with the spec's toasts, and the
// Wingman's switches and activity log (wingman-panel.tsx). Agents
// live in the replica, so this works offline; SQL enforces the limits and the autonomy a plan allows, and a
// refused write is rolled back on the device with its reason (the upload policy's toast).
import { Bot, Check, Pencil, Plus, Trash2 } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useQuery, useReplica } from '../../data/replica.tsx';
import {
  AUTONOMY_LEVELS,
  canCreateAgent,
  getAgentLimitMessage,
  getAgentPlan,
  getNewAgentAutonomy,
  getUpdatedAutonomy,
  NEW_AGENT_DEFAULTS,
  type AutonomyLevel,
} from '../../domain/agent-limits.ts';
import { changedColumns } from '../../domain/changed-columns.ts';
import { useAuth } from '../../session/auth-context.tsx';
import { useEntitlement } from '../../session/use-entitlement.ts';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { toast } from '../../ui/toast-store.ts';
import { AgentPreview } from './agent-preview.tsx';
import { WingmanPanel } from './wingman-panel.tsx';

interface AgentRow {
  id: string;
  name: string;
  description: string | null;
  avatar: string | null;
  is_active: number;
  communication_style: string;
  humor_style: string;
  autonomy_level: AutonomyLevel;
  auto_match_threshold: number;
  personality_traits: string | null;
  interests: string | null;
  preferred_topics: string | null;
  avoid_topics: string | null;
  system_prompt: string;
  first_message: string;
  voice_id: string | null;
  created_at: string;
}

const AUTONOMY_LABELS: Record<AutonomyLevel, string> = {
  low: 'Low: suggestions only',
  medium: 'Medium: drafts you approve',
  high: 'High: acts within your limits',
};
const STYLES = ['casual', 'friendly', 'formal', 'playful', 'romantic', 'direct'];
const HUMOR = ['witty', 'playful', 'dry', 'gentle', 'none'];

const parseList = (v: string | null): string[] => {
  try {
    const parsed = JSON.parse(v ?? '[]') as unknown;
    return Array.isArray(parsed) ? parsed.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
};
const toList = (text: string): string[] =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .slice(0, 20);

const done = (title: string, description?: string) =>
  toast({ title, ...(description ? { description } : {}) });
const failed = (description: string) => toast({ title: 'Error', description, variant: 'destructive' });

export default function AgentSettingsPage() {
  const { user } = useAuth();
  const me = user?.id ?? '';
  const db = useReplica();
  const { entitlement } = useEntitlement();
  const { data: agents, isLoading } = useQuery<AgentRow>(
    'select * from ai_agents where user_id = ? order by created_at desc',
    [me],
    // A new device's replica is empty until its first sync: that is not "No agents yet".
    { emptyMeansLoading: true },
  );
  const [editing, setEditing] = useState<string>();
  const [deleting, setDeleting] = useState<AgentRow>();
  const plan = getAgentPlan(entitlement);

  // On load: agents but none active makes the newest active (§4), once.
  const activatedOnLoad = useRef(false);
  useEffect(() => {
    if (isLoading || activatedOnLoad.current || agents.length === 0) return;
    activatedOnLoad.current = true;
    if (agents.some((a) => a.is_active === 1)) return;
    const newest = agents[0]!;
    void db
      .execute('update ai_agents set is_active = 1 where id = ?', [newest.id])
      .then(() => done('Agent Activated', `${newest.name} has been set as your active agent`));
  }, [agents, isLoading, db]);

  async function create() {
    if (!user) return failed('User not authenticated');
    if (!canCreateAgent(entitlement, agents.length)) {
      toast({
        title: 'Agent Limit Reached',
        description: getAgentLimitMessage(entitlement),
        variant: 'destructive',
      });
      return;
    }
    const d = NEW_AGENT_DEFAULTS;
    const now = new Date().toISOString();
    const id = crypto.randomUUID();
    try {
      await db.execute(
        `insert into ai_agents (id, user_id, name, description, is_active, communication_style, humor_style,
           autonomy_level, auto_match_threshold, personality_traits, interests, preferred_topics, avoid_topics,
           system_prompt, first_message, created_at, updated_at)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '[]', '[]', ?, ?, ?, ?)`,
        [
          id,
          me,
          d.name,
          d.description,
          // The first agent is the active one; later ones start inactive (§4).
          agents.length === 0 ? 1 : 0,
          d.communicationStyle,
          d.humorStyle,
          getNewAgentAutonomy(entitlement, d.autonomyLevel),
          d.autoMatchThreshold,
          JSON.stringify(d.personalityTraits),
          JSON.stringify(d.interests),
          d.systemPrompt,
          d.firstMessage,
          now,
          now,
        ],
      );
      if (entitlement?.isPremium) done('Success', 'AI agent created successfully');
      else done('Success', 'Basic AI agent created! Upgrade for advanced autonomous features.');
      setEditing(id);
    } catch {
      failed('Failed to create agent');
    }
  }

  async function activate(agent: AgentRow) {
    try {
      await db.writeTransaction(async (tx) => {
        await tx.execute(
          'update ai_agents set is_active = 0 where user_id = ? and id <> ? and is_active = 1',
          [me, agent.id],
        );
        await tx.execute('update ai_agents set is_active = 1 where id = ?', [agent.id]);
      });
      done('Success', 'Active agent updated');
    } catch {
      failed('Failed to set active agent');
    }
  }

  async function remove(agent: AgentRow) {
    setDeleting(undefined);
    try {
      await db.execute('delete from ai_agents where id = ? and user_id = ?', [agent.id, me]);
      done('Success', 'Agent deleted successfully');
    } catch {
      failed('Failed to delete agent');
    }
  }

  return (
    <main id="main" className="mx-auto max-w-3xl space-y-4 p-4 md:p-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-3xl font-bold">AI Wingman</h1>
          <p className="text-sm text-muted">
            Your AI assistants: Lovy speaks as your active one. Your plan allows {plan.agentLimit} agent
            {plan.agentLimit > 1 ? 's' : ''}
            {plan.advancedAgents ? ' with advanced autonomy' : ''}.
          </p>
        </div>
        <button type="button" className="btn-primary flex items-center gap-2" onClick={() => void create()}>
          <Plus aria-hidden="true" className="size-4" />
          New agent
        </button>
      </div>
      {!entitlement?.isPremium && entitlement !== undefined && (
        <p className="text-sm">
          <Link to="/pricing" className="link">
            Upgrade
          </Link>{' '}
          for more agents and higher autonomy.
        </p>
      )}
      {isLoading ? (
        <p>Loading your agents...</p>
      ) : agents.length === 0 ? (
        <section className="card space-y-2 text-center">
          <Bot aria-hidden="true" className="mx-auto size-10 text-primary" />
          <h2 className="text-xl font-semibold">No agents yet</h2>
          <p className="text-muted">
            Create your first AI agent: it helps with openers, replies and your profile.
          </p>
        </section>
      ) : (
        <ul aria-label="Your agents" className="space-y-3">
          {agents.map((a) => (
            <li key={a.id} className="card space-y-2" data-testid="agent">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <div>
                  <h2 className="text-lg font-semibold">
                    {a.name}
                    {a.is_active === 1 && (
                      <span className="ml-2 rounded-full bg-primary px-2 py-0.5 text-xs text-primary-fg">
                        Active
                      </span>
                    )}
                  </h2>
                  <p className="text-sm text-muted">{a.description}</p>
                  <p className="text-xs text-muted">
                    Autonomy: {AUTONOMY_LABELS[a.autonomy_level] ?? a.autonomy_level}
                  </p>
                </div>
                <div className="flex gap-1">
                  {a.is_active !== 1 && (
                    <button
                      type="button"
                      className="btn-secondary flex items-center gap-1 text-sm"
                      onClick={() => void activate(a)}
                    >
                      <Check aria-hidden="true" className="size-4" />
                      Make active
                    </button>
                  )}
                  <button
                    type="button"
                    className="btn-ghost flex items-center gap-1 text-sm"
                    aria-expanded={editing === a.id}
                    onClick={() => setEditing(editing === a.id ? undefined : a.id)}
                  >
                    <Pencil aria-hidden="true" className="size-4" />
                    Edit<span className="sr-only"> {a.name}</span>
                  </button>
                  <button
                    type="button"
                    className="btn-ghost flex items-center gap-1 text-sm"
                    onClick={() => setDeleting(a)}
                  >
                    <Trash2 aria-hidden="true" className="size-4" />
                    Delete<span className="sr-only"> {a.name}</span>
                  </button>
                </div>
              </div>
              {editing === a.id && (
                <AgentForm
                  agent={a}
                  advanced={plan.advancedAgents}
                  premium={entitlement?.isPremium ?? false}
                  onSave={async (fields, opened) => {
                    try {
                      // Only what the member changed since the form opened (decision 0071): a change the
                      // agent got meanwhile on another device is not undone. A plan that no longer allows
                      // the autonomy level lowers it (SQL enforces the same).
                      const next = toAgentColumns(
                        fields,
                        getUpdatedAutonomy(entitlement, fields.autonomyLevel),
                      );
                      const changed = opened
                        ? changedColumns(toAgentColumns(opened, opened.autonomyLevel), next)
                        : next;
                      const names = Object.keys(changed);
                      if (names.length > 0)
                        await db.execute(
                          `update ai_agents set ${names.map((n) => `${n} = ?`).join(', ')}, updated_at = ?
                           where id = ? and user_id = ?`,
                          [...Object.values(changed), new Date().toISOString(), a.id, me],
                        );
                      done('Success', 'Agent updated successfully');
                      setEditing(undefined);
                    } catch {
                      failed('Failed to update agent');
                    }
                  }}
                />
              )}
              {editing === a.id && <AgentPreview me={me} agent={a} />}
            </li>
          ))}
        </ul>
      )}
      {!isLoading && (
        <WingmanPanel
          me={me}
          hasAgents={agents.length > 0}
          highAutonomy={
            plan.advancedAgents && agents.some((a) => a.is_active === 1 && a.autonomy_level === 'high')
          }
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={`Delete ${deleting.name}?`}
          text="This cannot be undone."
          confirmLabel="Delete"
          onCancel={() => setDeleting(undefined)}
          onConfirm={() => void remove(deleting)}
        />
      )}
    </main>
  );
}

/** The form's fields, or what is wrong with them. */
function readAgentFields(form: HTMLFormElement): AgentFields | string {
  const f = new FormData(form);
  const text = (k: string) => String(f.get(k) ?? '').trim();
  const name = text('name');
  if (name === '' || name.length > 60) return 'Give the agent a name of at most 60 characters.';
  const threshold = Number(f.get('threshold'));
  if (!Number.isInteger(threshold) || threshold < 0 || threshold > 100)
    return 'The auto-match threshold is a whole number from 0 to 100.';
  return {
    name,
    description: text('description').slice(0, 500),
    avatar: text('avatar') || null,
    communicationStyle: text('style') || 'casual',
    humorStyle: text('humor') || 'witty',
    autonomyLevel: (text('autonomy') as AutonomyLevel) || 'low',
    autoMatchThreshold: threshold,
    personalityTraits: toList(text('traits')),
    interests: toList(text('interests')),
    preferredTopics: toList(text('preferred')),
    avoidTopics: toList(text('avoid')),
    systemPrompt: text('prompt').slice(0, 4000) || 'You are a helpful dating assistant',
    firstMessage: text('first').slice(0, 1000) || NEW_AGENT_DEFAULTS.firstMessage,
    voiceId: text('voice') || null,
  };
}

/** The ai_agents columns a save of these fields writes, as the replica stores them. */
function toAgentColumns(f: AgentFields, autonomy: string): Record<string, string | number | null> {
  return {
    name: f.name,
    description: f.description,
    avatar: f.avatar,
    communication_style: f.communicationStyle,
    humor_style: f.humorStyle,
    autonomy_level: autonomy,
    auto_match_threshold: f.autoMatchThreshold,
    personality_traits: JSON.stringify(f.personalityTraits),
    interests: JSON.stringify(f.interests),
    preferred_topics: JSON.stringify(f.preferredTopics),
    avoid_topics: JSON.stringify(f.avoidTopics),
    system_prompt: f.systemPrompt,
    first_message: f.firstMessage,
    voice_id: f.voiceId,
  };
}

interface AgentFields {
  name: string;
  description: string;
  avatar: string | null;
  communicationStyle: string;
  humorStyle: string;
  autonomyLevel: AutonomyLevel;
  autoMatchThreshold: number;
  personalityTraits: string[];
  interests: string[];
  preferredTopics: string[];
  avoidTopics: string[];
  systemPrompt: string;
  firstMessage: string;
  voiceId: string | null;
}

function AgentForm({
  agent,
  advanced,
  premium,
  onSave,
}: {
  agent: AgentRow;
  advanced: boolean;
  premium: boolean;
  /** `opened`: the fields as the form opened, when they could be read. */
  onSave: (fields: AgentFields, opened: AgentFields | undefined) => Promise<void>;
}) {
  const [error, setError] = useState<string>();
  const id = (field: string) => `agent-${agent.id}-${field}`;
  const formRef = useRef<HTMLFormElement>(null);
  /**
   * The fields as the form opened (read like a save): a save writes only what differs from them. The autonomy
   * is the row's own: a level the plan no longer offers shows disabled and reads as none.
   */
  const opened = useRef<AgentFields | undefined>(undefined);
  const openedAutonomy = useRef(agent.autonomy_level).current;
  useEffect(() => {
    if (formRef.current) {
      const read = readAgentFields(formRef.current);
      if (typeof read !== 'string') opened.current = { ...read, autonomyLevel: openedAutonomy };
    }
  }, [openedAutonomy]);
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const read = readAgentFields(e.currentTarget);
    if (typeof read === 'string') return setError(read);
    setError(undefined);
    void onSave(read, opened.current);
  }
  const input = (field: string, label: string, value: string, props: Record<string, unknown> = {}) => (
    <div>
      <label htmlFor={id(field)} className="block text-sm font-medium">
        {label}
      </label>
      <input id={id(field)} name={field} defaultValue={value} className="input w-full" {...props} />
    </div>
  );
  const select = (field: string, label: string, value: string, options: readonly string[]) => (
    <div>
      <label htmlFor={id(field)} className="block text-sm font-medium">
        {label}
      </label>
      <select id={id(field)} name={field} defaultValue={value} className="input w-full">
        {[...new Set([value, ...options])].map((o) => (
          <option key={o} value={o}>
            {o.charAt(0).toUpperCase() + o.slice(1)}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <form
      ref={formRef}
      onSubmit={submit}
      className="grid gap-3 border-t border-border pt-3 md:grid-cols-2"
      aria-label={`Edit ${agent.name}`}
    >
      {input('name', 'Name', agent.name, { required: true, maxLength: 60 })}
      {input('description', 'Description', agent.description ?? '', { maxLength: 500 })}
      {select('style', 'Communication style', agent.communication_style, STYLES)}
      {select('humor', 'Humor style', agent.humor_style, HUMOR)}
      <div>
        <label htmlFor={id('autonomy')} className="block text-sm font-medium">
          Autonomy
        </label>
        <select
          id={id('autonomy')}
          name="autonomy"
          defaultValue={agent.autonomy_level}
          className="input w-full"
        >
          {AUTONOMY_LEVELS.map((level) => (
            <option
              key={level}
              value={level}
              disabled={(level === 'high' && !advanced) || (level === 'medium' && !premium)}
            >
              {AUTONOMY_LABELS[level]}
              {(level === 'high' && !advanced) || (level === 'medium' && !premium) ? ' (upgrade)' : ''}
            </option>
          ))}
        </select>
      </div>
      {input('threshold', 'Auto-match threshold (0-100)', String(agent.auto_match_threshold), {
        type: 'number',
        min: 0,
        max: 100,
        step: 1,
      })}
      {input(
        'traits',
        'Personality traits (comma-separated)',
        parseList(agent.personality_traits).join(', '),
      )}
      {input('interests', 'Interests (comma-separated)', parseList(agent.interests).join(', '))}
      {input('preferred', 'Preferred topics (comma-separated)', parseList(agent.preferred_topics).join(', '))}
      {input('avoid', 'Topics to avoid (comma-separated)', parseList(agent.avoid_topics).join(', '))}
      {input('avatar', 'Avatar image address (optional)', agent.avatar ?? '', {
        type: 'url',
        maxLength: 2048,
      })}
      {input('voice', 'Voice', agent.voice_id ?? 'alloy', { maxLength: 64 })}
      <div className="md:col-span-2">
        <label htmlFor={id('prompt')} className="block text-sm font-medium">
          Instructions for the agent
        </label>
        <textarea
          id={id('prompt')}
          name="prompt"
          defaultValue={agent.system_prompt}
          rows={3}
          maxLength={4000}
          className="input w-full"
        />
      </div>
      <div className="md:col-span-2">
        <label htmlFor={id('first')} className="block text-sm font-medium">
          First message
        </label>
        <textarea
          id={id('first')}
          name="first"
          defaultValue={agent.first_message}
          rows={2}
          maxLength={1000}
          className="input w-full"
        />
      </div>
      {error && (
        <p role="alert" className="text-sm text-danger md:col-span-2">
          {error}
        </p>
      )}
      <div className="md:col-span-2">
        <button type="submit" className="btn-primary">
          Save agent
        </button>
      </div>
    </form>
  );
}
