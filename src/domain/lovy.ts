// Lovy's rules that the panel and its tests share (spec members-area §2, §4, §9): suggested questions by
// path, what may be sent, how an answer is labelled, and the voice settings' ranges.

/** Suggested questions on each part of the app (§2: bio, first message, standing out on /find-matches...). */
export const LOVY_SUGGESTIONS = {
  'find-matches': ['How can I improve my bio?', "What's a good first message?", 'How do I stand out?'],
  messages: [
    'Help me reply to this message',
    'Suggest a conversation starter',
    'How do I keep the conversation engaging?',
  ],
  profile: [
    'How can I improve my profile?',
    'Any tips for my photos?',
    'What should I highlight about myself?',
  ],
  other: ['Give me some dating advice', 'Any tips for my profile?', 'Help me with conversation ideas'],
} as const;

export function getLovySuggestions(pathname: string): readonly string[] {
  if (pathname.startsWith('/find-matches')) return LOVY_SUGGESTIONS['find-matches'];
  if (pathname.startsWith('/messages')) return LOVY_SUGGESTIONS.messages;
  if (pathname.startsWith('/profile')) return LOVY_SUGGESTIONS.profile;
  return LOVY_SUGGESTIONS.other;
}

export { OPEN_LOVY_KEY } from './lovy-open-key.ts';

/** The longest question SQL accepts (0121). */
export const LOVY_QUESTION_MAX = 2000;

/** The question to send, or undefined: whitespace-only is never sent. */
export function findSendableQuestion(text: string): string | undefined {
  const trimmed = text.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** The label an answer carries (AI-written text is labelled as such). */
export function getAnswerLabel(source: string | null | undefined): string | undefined {
  if (source === 'model') return 'AI-written';
  if (source === 'coach') return 'Built-in coach';
  return undefined;
}

export interface VoiceSettings {
  /** Replies are spoken. */
  enabled: boolean;
  volume: number;
  rate: number;
  pitch: number;
  autoplay: boolean;
  voiceId: string;
}

/** §9: volume 1, rate 1, pitch 1, autoplay on, voice "alloy"; off until the member turns voice on. */
export const DEFAULT_VOICE_SETTINGS: VoiceSettings = {
  enabled: false,
  volume: 1,
  rate: 1,
  pitch: 1,
  autoplay: true,
  voiceId: 'alloy',
};

const clamp = (value: unknown, min: number, max: number, fallback: number) => {
  const n = typeof value === 'number' && Number.isFinite(value) ? value : fallback;
  return Math.round(Math.min(max, Math.max(min, n)) * 10) / 10;
};

/** Stored settings made safe: volume 0 to 1, speed 0.5 to 2, pitch 0 to 2 (steps of 0.1). */
export function readVoiceSettings(stored: unknown): VoiceSettings {
  const s = (typeof stored === 'object' && stored !== null ? stored : {}) as Partial<
    Record<keyof VoiceSettings, unknown>
  >;
  const d = DEFAULT_VOICE_SETTINGS;
  return {
    enabled: typeof s.enabled === 'boolean' ? s.enabled : d.enabled,
    volume: clamp(s.volume, 0, 1, d.volume),
    rate: clamp(s.rate, 0.5, 2, d.rate),
    pitch: clamp(s.pitch, 0, 2, d.pitch),
    autoplay: typeof s.autoplay === 'boolean' ? s.autoplay : d.autoplay,
    voiceId: typeof s.voiceId === 'string' && s.voiceId.trim() !== '' ? s.voiceId.slice(0, 64) : d.voiceId,
  };
}

export interface LovyRow {
  id: string;
  role: string;
  content: string;
  source: string | null;
  reply_to: string | null;
  created_at: string;
}

/**
 * The history as the panel shows it: questions in the order they were asked, each followed by its answer;
 * answers to no question (greetings) by time. Orders by the question, never by the answer's server time,
 * so a device whose clock differs from the server's still shows each answer under its question.
 */
export function orderLovyThread(rows: readonly LovyRow[]): LovyRow[] {
  const answers = new Map<string, LovyRow>();
  for (const r of rows) if (r.role === 'assistant' && r.reply_to) answers.set(r.reply_to, r);
  const heads = rows
    .filter((r) => r.role === 'user' || !r.reply_to || !rows.some((q) => q.id === r.reply_to))
    .sort((a, b) =>
      a.created_at === b.created_at ? a.id.localeCompare(b.id) : a.created_at < b.created_at ? -1 : 1,
    );
  return heads.flatMap((r) => {
    const answer = r.role === 'user' ? answers.get(r.id) : undefined;
    return answer ? [r, answer] : [r];
  });
}
