import { describe, expect, it } from 'vitest';
import {
  DEFAULT_VOICE_SETTINGS,
  findSendableQuestion,
  getAnswerLabel,
  getLovySuggestions,
  LOVY_SUGGESTIONS,
  orderLovyThread,
  readVoiceSettings,
} from './lovy.ts';

describe('Lovy', () => {
  it('suggests by path', () => {
    expect(getLovySuggestions('/find-matches')).toBe(LOVY_SUGGESTIONS['find-matches']);
    expect(getLovySuggestions('/messages')).toBe(LOVY_SUGGESTIONS.messages);
    expect(getLovySuggestions('/profile')).toBe(LOVY_SUGGESTIONS.profile);
    for (const other of ['/dashboard', '/likes', '/'])
      expect(getLovySuggestions(other)).toBe(LOVY_SUGGESTIONS.other);
  });

  it('never sends whitespace only', () => {
    expect(findSendableQuestion(' \n\t ')).toBeUndefined();
    expect(findSendableQuestion('  Hi Lovy \n')).toBe('Hi Lovy');
  });

  it('labels AI-written answers and the coach, nothing else', () => {
    expect(getAnswerLabel('model')).toBe('AI-written');
    expect(getAnswerLabel('coach')).toBe('Built-in coach');
    expect(getAnswerLabel('notice')).toBeUndefined();
    expect(getAnswerLabel(null)).toBeUndefined();
  });

  it('voice settings fall back to the defaults and stay in range', () => {
    expect(readVoiceSettings(null)).toEqual(DEFAULT_VOICE_SETTINGS);
    expect(
      readVoiceSettings({ volume: 7, rate: 0.1, pitch: -1, voiceId: '', enabled: true, autoplay: 'x' }),
    ).toEqual({
      ...DEFAULT_VOICE_SETTINGS,
      enabled: true,
      volume: 1,
      rate: 0.5,
      pitch: 0,
    });
    expect(readVoiceSettings({ volume: 0.349, rate: 1.25 })).toMatchObject({ volume: 0.3, rate: 1.3 });
  });

  it('shows each answer under its question, whatever the clocks say', () => {
    const row = (id: string, role: string, created_at: string, reply_to: string | null = null) => ({
      id,
      role,
      content: id,
      source: role === 'assistant' ? 'coach' : null,
      reply_to,
      created_at,
    });
    const ordered = orderLovyThread([
      row('a2', 'assistant', '2026-01-01T09:00:00Z', 'q2'),
      row('q1', 'user', '2026-01-01T10:00:00Z'),
      row('a1', 'assistant', '2026-01-01T08:00:00Z', 'q1'),
      row('q2', 'user', '2026-01-01T10:05:00Z'),
      row('hello', 'assistant', '2026-01-01T07:00:00Z'),
      row('q3', 'user', '2026-01-01T10:06:00Z'),
    ]);
    expect(ordered.map((r) => r.id)).toEqual(['hello', 'q1', 'a1', 'q2', 'a2', 'q3']);
  });
});
