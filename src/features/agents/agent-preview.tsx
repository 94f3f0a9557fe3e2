// "Test your agent" (issue 17): the member asks one agent something and watches it answer, through the AI
// service (lovy-chat answers a question that names an agent as that agent) or, with no model configured, the
// offline coach. The question and answer join the member's Lovy history like any other; offline, the question
// waits there and Lovy answers it once back online.
import { Send, Sparkles } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useQuery, useReplica } from '../../data/replica.tsx';
import { getAnswerLabel, LOVY_QUESTION_MAX } from '../../domain/lovy.ts';
import { askLovy, type LovyOutcome } from '../lovy/lovy-api.ts';

/** A question just written may not have reached the server yet: asked again this often, this many times. */
const NOT_FOUND_RETRY_MS = 1_000;
const NOT_FOUND_TRIES = 8;

export function AgentPreview({ me, agent }: { me: string; agent: { id: string; name: string } }) {
  const db = useReplica();
  const [question, setQuestion] = useState('');
  const [asked, setAsked] = useState<{ id: string; text: string }>();
  const [streamed, setStreamed] = useState<{ text: string; source?: string }>();
  // The stored answer, whoever fetched it (the Lovy panel may answer the same question first): it wins.
  const { data: stored } = useQuery<{ content: string; source: string | null }>(
    'select content, source from lovy_messages where reply_to = ? limit 1',
    [asked?.id ?? ''],
  );
  const answer = stored[0] ? { text: stored[0].content, source: stored[0].source ?? undefined } : streamed;
  const [notice, setNotice] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function ask(e: FormEvent) {
    e.preventDefault();
    const content = question.trim();
    if (!content || busy) return;
    setBusy(true);
    setNotice(undefined);
    const id = crypto.randomUUID();
    await db.execute(
      'insert into lovy_messages (id, user_id, agent_id, role, content, created_at) values (?, ?, ?, ?, ?, ?)',
      [id, me, agent.id, 'user', content, new Date().toISOString()],
    );
    setAsked({ id, text: content });
    setQuestion('');
    setStreamed({ text: '' });
    let outcome: LovyOutcome = { kind: 'unreachable' };
    for (let tries = 0; tries < NOT_FOUND_TRIES; tries++) {
      outcome = await askLovy({ questionId: id }, (soFar) => setStreamed({ text: soFar }));
      if (!(outcome.kind === 'refused' && outcome.code === 'NOT_FOUND')) break;
      await new Promise((r) => setTimeout(r, NOT_FOUND_RETRY_MS));
    }
    setBusy(false);
    if (outcome.kind === 'answered') setStreamed({ text: outcome.content, source: outcome.source });
    // Being answered elsewhere (the Lovy panel): the stored answer arrives through the replica.
    else if (outcome.kind === 'refused' && outcome.code === 'IN_PROGRESS') return;
    else {
      setStreamed(undefined);
      setNotice(
        outcome.kind === 'refused'
          ? outcome.message
          : 'You are offline: your question is kept in your Lovy history and answered when you are back online.',
      );
    }
  }

  return (
    <section aria-label={`Test ${agent.name}`} className="space-y-2 border-t border-border pt-3">
      <h3 className="font-semibold">Test your agent</h3>
      <form onSubmit={(e) => void ask(e)} className="flex items-end gap-2">
        <label className="flex-1 text-sm">
          <span className="block font-medium">Ask {agent.name} something</span>
          <input
            className="input w-full"
            value={question}
            maxLength={LOVY_QUESTION_MAX}
            placeholder="How would you open a chat with someone who loves hiking?"
            onChange={(e) => setQuestion(e.target.value)}
          />
        </label>
        <button
          type="submit"
          className="btn-primary flex items-center gap-1"
          disabled={busy || !question.trim()}
        >
          <Send aria-hidden="true" className="size-4" />
          Ask
        </button>
      </form>
      {asked && <p className="text-sm text-muted">You asked: {asked.text}</p>}
      {answer && (
        <div
          className="rounded-lg bg-subtle p-3 text-sm"
          aria-live="polite"
          data-testid="agent-preview-answer"
        >
          <p className="mb-1 flex items-center gap-1 text-xs font-medium">
            <Sparkles aria-hidden="true" className="size-3" />
            {agent.name} (AI){getAnswerLabel(answer.source) ? ` · ${getAnswerLabel(answer.source)}` : ''}
          </p>
          <p className="whitespace-pre-wrap break-words">{answer.text || 'Writing...'}</p>
        </div>
      )}
      {notice && !stored[0] && (
        <p role="status" className="text-sm">
          {notice}
        </p>
      )}
    </section>
  );
}
