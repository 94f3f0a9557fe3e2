// Lovy's floating panel (spec members-area §2, §4; issue 16): the history from the replica (it reads
// offline), suggested questions by page, a question box (Enter sends, Shift+Enter a new line), streamed
// answers labelled by who wrote them, and voice. A question is written to the history first, so one asked
// offline is kept, shown as waiting, and answered when the network returns; the function answers each once.
import { Mic, Send, Settings2, Sparkles, Volume2, VolumeX, X } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { usePendingIds, useQuery, useReplica, useStatus } from '../../data/replica.tsx';
import { useOnline } from '../../data/network.ts';
import { clearUnsentText, findUnsentText, keepUnsentText } from '../../data/unsent-text.ts';
import {
  DEFAULT_VOICE_SETTINGS,
  findSendableQuestion,
  getAnswerLabel,
  getLovySuggestions,
  LOVY_QUESTION_MAX,
  orderLovyThread,
  readVoiceSettings,
  type LovyRow,
  type VoiceSettings,
} from '../../domain/lovy.ts';
import { useAuth } from '../../session/auth-context.tsx';
import { toast } from '../../ui/toast-store.ts';
import { askLovy, fetchSpokenAnswer } from './lovy-api.ts';
import { setLovyOpen, useLovyOpen } from './lovy-open.ts';

const DRAFT_KEY = 'lovy:question';
const VOICE_KEY = 'heartsync.lovyVoice';

interface SpeechRecognitionLike {
  lang: string;
  interimResults: boolean;
  onresult: ((e: { results: ArrayLike<ArrayLike<{ transcript: string }>> }) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
}

function findSpeechRecognition(): (new () => SpeechRecognitionLike) | undefined {
  const w = window as unknown as Record<string, unknown>;
  return (w['SpeechRecognition'] ?? w['webkitSpeechRecognition']) as
    (new () => SpeechRecognitionLike) | undefined;
}

function loadVoiceSettings(): VoiceSettings {
  try {
    return readVoiceSettings(JSON.parse(localStorage.getItem(VOICE_KEY) ?? 'null'));
  } catch {
    return DEFAULT_VOICE_SETTINGS;
  }
}

function speakInBrowser(text: string, voice: VoiceSettings): void {
  if (typeof speechSynthesis === 'undefined') return;
  speechSynthesis.cancel();
  const utterance = new SpeechSynthesisUtterance(text);
  utterance.volume = voice.volume;
  utterance.rate = voice.rate;
  utterance.pitch = voice.pitch;
  speechSynthesis.speak(utterance);
}

let playing: HTMLAudioElement | undefined;

/**
 * Speaks a reply: with the model server's voice when the operator configured one (the stored answer, by id),
 * else, or when that fails, with the browser's speech synthesis.
 */
function speak(text: string, voice: VoiceSettings, answerId: string | null): void {
  if (!answerId) return speakInBrowser(text, voice);
  void fetchSpokenAnswer(answerId, voice.voiceId, voice.rate).then((audio) => {
    if (!audio) return speakInBrowser(text, voice);
    playing?.pause();
    const url = URL.createObjectURL(audio);
    playing = new Audio(url);
    playing.volume = voice.volume;
    playing.onended = () => URL.revokeObjectURL(url);
    playing.play().catch(() => {
      URL.revokeObjectURL(url);
      speakInBrowser(text, voice);
    });
  });
}

/** The conversation open on /messages (?c=), which "help me reply" is about. */
function findOpenConversation(pathname: string, search: string): string | undefined {
  if (!pathname.startsWith('/messages')) return undefined;
  return new URLSearchParams(search).get('c') ?? undefined;
}

export default function LovyPanel() {
  const open = useLovyOpen();
  const { user } = useAuth();
  const me = user?.id ?? '';
  const db = useReplica();
  const status = useStatus();
  const location = useLocation();
  const browserOnline = useOnline();
  // Questions reach the server through the sync connection: without it they wait, whatever the browser says.
  const online = browserOnline && status.connected;
  const { data: rows } = useQuery<LovyRow>(
    'select id, role, content, source, reply_to, created_at from lovy_messages where user_id = ?',
    [me],
  );
  const { data: agents } = useQuery<{ id: string }>('select id from ai_agents where user_id = ? limit 1', [
    me,
  ]);
  const pending = usePendingIds('lovy_messages');
  const pendingAgents = usePendingIds('ai_agents');
  // An assistant the server already holds: questions refused for want of one can be asked again.
  const hasAgentOnServer = agents.length > 0 && pendingAgents.size === 0;
  // Read by the answering effect without re-running it: an assistant exists on this device.
  const hasLocalAgent = useRef(false);
  hasLocalAgent.current = agents.length > 0;
  const thread = useMemo(() => orderLovyThread(rows), [rows]);
  const [text, setText] = useState(() => findUnsentText(DRAFT_KEY)?.text ?? '');
  // Per question: the conversation it was asked about, what is being streamed, a refusal, an answer not yet synced.
  const conversationOf = useRef(new Map<string, string>());
  const [streaming, setStreaming] = useState<{ questionId: string; text: string }>();
  const [refusals, setRefusals] = useState<Record<string, { code: string; message: string }>>({});
  const [answered, setAnswered] = useState<Record<string, { content: string; source: string }>>({});
  const inFlight = useRef(false);
  const notFoundTries = useRef(new Map<string, number>());
  // Bumped a while after the server could not be reached, so a waiting question is asked again.
  const [retryTick, setRetryTick] = useState(0);
  const [voice, setVoice] = useState(loadVoiceSettings);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [listening, setListening] = useState(false);
  const recognition = useRef<SpeechRecognitionLike>(undefined);
  const panelRef = useRef<HTMLElement>(null);
  const endRef = useRef<HTMLLIElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const Recognition = useMemo(findSpeechRecognition, []);
  const conversationHere = findOpenConversation(location.pathname, location.search);

  const answerOf = useCallback(
    (questionId: string) =>
      thread.find((r) => r.role === 'assistant' && r.reply_to === questionId) ?? answered[questionId],
    [thread, answered],
  );
  // The oldest question with no answer and no refusal that the server already holds: the next to answer.
  const nextQuestion = thread.find(
    (r) => r.role === 'user' && !pending.has(r.id) && !answerOf(r.id) && !refusals[r.id],
  );

  useEffect(() => {
    try {
      localStorage.setItem(VOICE_KEY, JSON.stringify(voice));
    } catch {
      /* storage unavailable: the settings last for this visit */
    }
  }, [voice]);

  // Answers the next question while online, one at a time; offline it waits (the history says so).
  useEffect(() => {
    if (!nextQuestion || inFlight.current || !browserOnline) return;
    inFlight.current = true;
    const questionId = nextQuestion.id;
    setStreaming({ questionId, text: '' });
    void askLovy({ questionId, conversationId: conversationOf.current.get(questionId) }, (soFar) =>
      setStreaming({ questionId, text: soFar }),
    ).then((outcome) => {
      inFlight.current = false;
      setStreaming(undefined);
      if (outcome.kind === 'answered') {
        setAnswered((a) => ({ ...a, [questionId]: { content: outcome.content, source: outcome.source } }));
        if (voice.enabled && voice.autoplay) speak(outcome.content, voice, outcome.id);
      } else if (
        outcome.kind === 'refused' &&
        (outcome.code === 'NOT_FOUND' || (outcome.code === 'NO_AGENT' && hasLocalAgent.current)) &&
        (notFoundTries.current.get(questionId) ?? 0) < 5
      ) {
        // Uploaded as far as this device knows, but not on the server yet (the sync connection was just
        // coming back, or the assistant just set up is still on its way, seen in CI: the upload finished
        // before the pending queue was ever read as non-empty): asked again shortly, a few times, before it
        // counts as refused.
        notFoundTries.current.set(questionId, (notFoundTries.current.get(questionId) ?? 0) + 1);
        setTimeout(() => setRetryTick((n) => n + 1), 2_000);
      } else if (outcome.kind === 'refused') {
        setRefusals((r) => ({ ...r, [questionId]: { code: outcome.code, message: outcome.message } }));
      }
      // Unreachable: the question stays unanswered and is asked again when the network is back, or soon.
      else setTimeout(() => setRetryTick((n) => n + 1), 15_000);
    });
  }, [nextQuestion, browserOnline, voice, retryTick]);

  // Newest at the bottom, as it arrives.
  useEffect(() => {
    if (open) endRef.current?.scrollIntoView?.({ block: 'end' });
  }, [open, thread.length, streaming?.text, refusals]);

  // Closes on Escape, a tap outside (the launcher toggles it itself) and navigation.
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setLovyOpen(false);
    };
    const onPointer = (e: PointerEvent) => {
      const target = e.target as Node | null;
      if (!target || panelRef.current?.contains(target)) return;
      if ((target as Element).closest?.('[aria-controls="lovy-panel"]')) return;
      // A dialog over the panel (It's a Match!) is answered without putting Lovy away.
      if ((target as Element).closest?.('[data-modal-layer]')) return;
      setLovyOpen(false);
    };
    window.addEventListener('keydown', onKey);
    window.addEventListener('pointerdown', onPointer);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);
  const path = location.pathname + location.search;
  const firstPath = useRef(path);
  useEffect(() => {
    if (path !== firstPath.current) setLovyOpen(false);
    firstPath.current = path;
  }, [path]);
  useEffect(() => {
    if (open) inputRef.current?.focus();
  }, [open]);

  const busy = streaming !== undefined;
  async function ask(question: string) {
    const content = findSendableQuestion(question);
    if (!content || busy) return;
    if (content.length > LOVY_QUESTION_MAX) {
      toast({
        title: 'Question too long',
        description: `At most ${LOVY_QUESTION_MAX} characters.`,
        variant: 'destructive',
      });
      return;
    }
    const id = crypto.randomUUID();
    if (conversationHere) conversationOf.current.set(id, conversationHere);
    await db.execute(
      'insert into lovy_messages (id, user_id, role, content, created_at) values (?, ?, ?, ?, ?)',
      [id, me, 'user', content, new Date().toISOString()],
    );
    setText('');
    clearUnsentText(DRAFT_KEY);
  }

  async function setUpAgent() {
    const now = new Date().toISOString();
    await db.execute(
      `insert into ai_agents (id, user_id, name, description, is_active, autonomy_level, created_at, updated_at)
       values (?, ?, 'Lovy', 'Your personal AI dating assistant', 1, 'low', ?, ?)`,
      [crypto.randomUUID(), me, now, now],
    );
  }

  // Once the new assistant has reached the server, the questions refused for want of one are asked again.
  useEffect(() => {
    if (hasAgentOnServer)
      setRefusals((r) =>
        Object.values(r).some((v) => v.code === 'NO_AGENT')
          ? Object.fromEntries(Object.entries(r).filter(([, v]) => v.code !== 'NO_AGENT'))
          : r,
      );
  }, [hasAgentOnServer]);

  // A question refused as not found after its retries (the sync connection came back slowly, so it reached
  // the server late) is asked again after the next sync: by then this device's uploads have gone through.
  const lastSynced = status.lastSyncedAt?.getTime();
  useEffect(() => {
    if (lastSynced === undefined) return;
    setRefusals((r) => {
      const lost = Object.entries(r).filter(([, v]) => v.code === 'NOT_FOUND');
      if (lost.length === 0) return r;
      for (const [id] of lost) notFoundTries.current.delete(id);
      return Object.fromEntries(Object.entries(r).filter(([, v]) => v.code !== 'NOT_FOUND'));
    });
  }, [lastSynced]);

  function dictate() {
    if (!Recognition) return;
    if (listening) {
      recognition.current?.stop();
      return;
    }
    const r = new Recognition();
    r.lang = navigator.language || 'en';
    r.interimResults = false;
    r.onresult = (e) => {
      const said = Array.from(e.results)
        .map((alternatives) => alternatives[0]?.transcript ?? '')
        .join(' ')
        .trim();
      if (said) setText((t) => (t.trim() ? `${t.trim()} ${said}` : said));
    };
    r.onend = () => setListening(false);
    recognition.current = r;
    setListening(true);
    r.start();
  }

  if (!open) return null;
  const suggestions = getLovySuggestions(location.pathname);
  return (
    <section
      id="lovy-panel"
      ref={panelRef}
      role="dialog"
      aria-modal="false"
      aria-label="Lovy"
      className="fixed inset-x-0 bottom-0 top-12 z-50 flex flex-col border-border bg-card shadow-2xl md:inset-auto md:right-6 md:bottom-6 md:h-[34rem] md:max-h-[calc(100vh-5rem)] md:w-[24rem] md:rounded-xl md:border"
    >
      <header className="flex items-center justify-between gap-2 border-b border-border px-3 py-2">
        <h2 className="flex items-center gap-2 font-semibold">
          <Sparkles aria-hidden="true" className="size-5 text-primary" />
          Lovy
        </h2>
        <div className="flex items-center gap-1">
          <button
            type="button"
            className="btn-ghost px-2"
            aria-pressed={voice.enabled}
            aria-label={voice.enabled ? 'Turn voice off' : 'Turn voice on'}
            onClick={() => {
              if (voice.enabled && typeof speechSynthesis !== 'undefined') speechSynthesis.cancel();
              setVoice((v) => ({ ...v, enabled: !v.enabled }));
            }}
          >
            {voice.enabled ? (
              <Volume2 aria-hidden="true" className="size-5" />
            ) : (
              <VolumeX aria-hidden="true" className="size-5" />
            )}
          </button>
          <button
            type="button"
            className="btn-ghost px-2"
            aria-label="Voice settings"
            aria-expanded={settingsOpen}
            onClick={() => setSettingsOpen((s) => !s)}
          >
            <Settings2 aria-hidden="true" className="size-5" />
          </button>
          <button
            type="button"
            className="btn-ghost px-2"
            aria-label="Close Lovy"
            onClick={() => setLovyOpen(false)}
          >
            <X aria-hidden="true" className="size-5" />
          </button>
        </div>
      </header>
      {settingsOpen && (
        <VoiceSettingsForm voice={voice} onChange={setVoice} onClose={() => setSettingsOpen(false)} />
      )}
      <div aria-label="Lovy chat" role="log" aria-live="polite" className="flex-1 overflow-y-auto p-3">
        <ol className="space-y-3">
          {thread.length === 0 && (
            <li className="text-sm text-muted">
              Ask me about your profile, first messages, replies or dates. Pick a suggestion below to start.
            </li>
          )}
          {thread.map((r) => (
            <LovyLine key={r.id} row={r} />
          ))}
          {thread
            .filter((r) => r.role === 'user' && !thread.some((a) => a.reply_to === r.id))
            .map((q) => {
              const local = answered[q.id];
              if (local)
                return (
                  <LovyLine key={`a-${q.id}`} row={{ ...q, role: 'assistant', ...local, reply_to: q.id }} />
                );
              const refusal = refusals[q.id];
              if (refusal)
                return (
                  <li key={`r-${q.id}`} className="max-w-[85%] rounded-lg bg-subtle p-2 text-sm">
                    <p>{refusal.message}</p>
                    {refusal.code === 'NO_AGENT' && agents.length > 0 && (
                      <p className="mt-1 text-xs text-muted">Setting up Lovy...</p>
                    )}
                    {refusal.code === 'NO_AGENT' && agents.length === 0 && (
                      <button
                        type="button"
                        className="btn-primary mt-2 text-sm"
                        onClick={() => void setUpAgent()}
                      >
                        Set up Lovy
                      </button>
                    )}
                  </li>
                );
              if (streaming?.questionId === q.id)
                return (
                  <li
                    key={`s-${q.id}`}
                    className="max-w-[85%] rounded-lg bg-subtle p-2 text-sm"
                    aria-busy="true"
                  >
                    {streaming.text ? (
                      <p className="whitespace-pre-wrap">{streaming.text}</p>
                    ) : (
                      <p className="text-muted motion-safe:animate-pulse">Lovy is typing...</p>
                    )}
                  </li>
                );
              return (
                <li key={`w-${q.id}`} className="text-xs text-muted" data-testid="lovy-waiting">
                  {online
                    ? 'Sending your question...'
                    : 'Waiting for the network: Lovy answers when you are back online.'}
                </li>
              );
            })}
          <li ref={endRef} aria-hidden="true" />
        </ol>
      </div>
      <div className="border-t border-border p-3">
        <ul aria-label="Suggested questions" className="mb-2 flex flex-wrap gap-2">
          {suggestions.map((s) => (
            <li key={s}>
              <button
                type="button"
                className="rounded-full border border-border px-3 py-1 text-xs hover:bg-subtle disabled:opacity-50"
                disabled={busy}
                onClick={() => void ask(s)}
              >
                {s}
              </button>
            </li>
          ))}
        </ul>
        <form
          className="flex items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            void ask(text);
          }}
        >
          <label htmlFor="lovy-input" className="sr-only">
            Message Lovy
          </label>
          <textarea
            id="lovy-input"
            ref={inputRef}
            rows={2}
            className="input flex-1 resize-none text-sm"
            placeholder="Ask Lovy... (Enter sends, Shift+Enter for a new line)"
            value={text}
            maxLength={LOVY_QUESTION_MAX}
            onChange={(e) => {
              setText(e.target.value);
              keepUnsentText(DRAFT_KEY, e.target.value);
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
                e.preventDefault();
                void ask(text);
              }
            }}
          />
          {Recognition && (
            <button
              type="button"
              className="btn-ghost px-2"
              aria-pressed={listening}
              aria-label={listening ? 'Stop dictation' : 'Dictate a question'}
              onClick={dictate}
            >
              <Mic aria-hidden="true" className="size-5" />
            </button>
          )}
          <button
            type="submit"
            className="btn-primary px-3"
            aria-label="Send to Lovy"
            disabled={busy || !findSendableQuestion(text)}
          >
            <Send aria-hidden="true" className="size-4" />
          </button>
        </form>
      </div>
    </section>
  );
}

function LovyLine({ row }: { row: LovyRow }) {
  const mine = row.role === 'user';
  const label = mine ? undefined : getAnswerLabel(row.source);
  return (
    <li className={`flex flex-col ${mine ? 'items-end' : 'items-start'}`} data-lovy-role={row.role}>
      <p
        className={`max-w-[85%] whitespace-pre-wrap rounded-lg p-2 text-sm ${mine ? 'bg-primary text-primary-fg' : 'bg-subtle'}`}
      >
        {row.content}
      </p>
      {label && <span className="mt-0.5 text-xs text-muted">{label}</span>}
    </li>
  );
}

function VoiceSettingsForm({
  voice,
  onChange,
  onClose,
}: {
  voice: VoiceSettings;
  onChange: (v: VoiceSettings) => void;
  onClose: () => void;
}) {
  const slider = (key: 'volume' | 'rate' | 'pitch', label: string, min: number, max: number) => (
    <label className="flex items-center justify-between gap-2 text-sm">
      <span>
        {label} ({voice[key].toFixed(1)})
      </span>
      <input
        type="range"
        min={min}
        max={max}
        step={0.1}
        value={voice[key]}
        onChange={(e) => onChange(readVoiceSettings({ ...voice, [key]: Number(e.target.value) }))}
      />
    </label>
  );
  return (
    <div
      className="space-y-2 border-b border-border p-3"
      role="group"
      aria-label="Voice settings"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onClose();
        }
      }}
    >
      {slider('volume', 'Volume', 0, 1)}
      {slider('rate', 'Speed', 0.5, 2)}
      {slider('pitch', 'Pitch', 0, 2)}
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={voice.autoplay}
          onChange={(e) => onChange({ ...voice, autoplay: e.target.checked })}
        />
        Read answers aloud as they arrive
      </label>
    </div>
  );
}
