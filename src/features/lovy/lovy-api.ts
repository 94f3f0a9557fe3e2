// Asking the lovy-chat function to answer a question already in the member's history (decision 0059), and
// reading its server-sent events as they arrive. The stored answer reaches the panel through the replica;
// the streamed text only shows it being written.
import { getAppConfig } from '../../data/app-config.ts';
import { getSupabase } from '../../data/supabase-client.ts';
import { isOnline } from '../../data/network.ts';

export type LovyOutcome =
  | { kind: 'answered'; id: string | null; content: string; source: string }
  /** The function refused (limit, no agent...): its words, shown under the question, not stored. */
  | { kind: 'refused'; status: number; code: string; message: string }
  /** No answer could be fetched (offline, server down): the question waits and is asked again later. */
  | { kind: 'unreachable' };

interface DoneEvent {
  id?: string | null;
  content: string;
  source: string;
}

/** Reads `event:`/`data:` blocks from a server-sent-events body. */
async function readEvents(
  body: ReadableStream<Uint8Array>,
  onEvent: (event: string, data: unknown) => void,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.+)$/m.exec(block)?.[1];
      const data = /^data: (.+)$/m.exec(block)?.[1];
      if (event && data) onEvent(event, JSON.parse(data) as unknown);
    }
  }
}

export async function askLovy(
  request: { questionId: string; conversationId?: string | undefined },
  onDelta: (textSoFar: string) => void,
  signal?: AbortSignal,
): Promise<LovyOutcome> {
  let res: Response;
  try {
    const [config, sb] = await Promise.all([getAppConfig(), getSupabase()]);
    const { data } = await sb.auth.getSession();
    if (!data.session)
      return { kind: 'refused', status: 401, code: 'NOT_SIGNED_IN', message: 'Please sign in again.' };
    res = await fetch(`${config.supabaseUrl}/functions/v1/lovy-chat`, {
      method: 'POST',
      headers: {
        apikey: config.anonKey,
        authorization: `Bearer ${data.session.access_token}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        question_id: request.questionId,
        ...(request.conversationId ? { conversation_id: request.conversationId } : {}),
      }),
      ...(signal ? { signal } : {}),
    });
  } catch {
    return { kind: 'unreachable' };
  }
  if (res.status >= 500) return { kind: 'unreachable' };
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as { error?: string; code?: string };
    return {
      kind: 'refused',
      status: res.status,
      code: body.code ?? 'ERROR',
      message: body.error ?? 'Something went wrong. Please try again later.',
    };
  }
  if (!(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    // Answered before: the stored answer as JSON.
    const body = (await res.json().catch(() => ({}))) as { answer?: DoneEvent };
    return body.answer
      ? {
          kind: 'answered',
          id: body.answer.id ?? null,
          content: body.answer.content,
          source: body.answer.source,
        }
      : { kind: 'unreachable' };
  }
  let text = '';
  let done: DoneEvent | undefined;
  try {
    await readEvents(res.body!, (event, data) => {
      if (event === 'delta') {
        text += (data as { text: string }).text;
        onDelta(text);
      } else if (event === 'done') done = data as DoneEvent;
    });
  } catch {
    return { kind: 'unreachable' };
  }
  return done
    ? { kind: 'answered', id: done.id ?? null, content: done.content, source: done.source }
    : { kind: 'unreachable' };
}

/** Set once the server said it has no speech model: the browser speaks for the rest of the visit. */
let serverSpeechMissing = false;

/**
 * Lovy's stored answer as audio from the model server's speech endpoint (lovy-speech), or undefined when
 * there is none (not configured, refused, offline): the caller then speaks with the browser.
 */
export async function fetchSpokenAnswer(
  answerId: string,
  voice: string,
  speed: number,
): Promise<Blob | undefined> {
  if (serverSpeechMissing || !isOnline()) return undefined;
  try {
    const [config, sb] = await Promise.all([getAppConfig(), getSupabase()]);
    const { data } = await sb.auth.getSession();
    if (!data.session) return undefined;
    const res = await fetch(`${config.supabaseUrl}/functions/v1/lovy-speech`, {
      method: 'POST',
      headers: {
        apikey: config.anonKey,
        authorization: `Bearer ${data.session.access_token}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ answer_id: answerId, voice, speed }),
    });
    if (res.status === 503) serverSpeechMissing = true;
    if (!res.ok || !(res.headers.get('content-type') ?? '').startsWith('audio/')) return undefined;
    return await res.blob();
  } catch {
    return undefined;
  }
}
