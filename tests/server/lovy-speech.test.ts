// Lovy's voice from the model server's speech endpoint (issue 16): the lovy-speech function through the real
// `openai` package against the local peer's /v1/audio/speech. Only the member's own stored answers are spoken;
// bad input, no session, someone else's answer, the per-minute limit and a failing speech server are refused
// in words; without a speech model the app is told to speak itself (503 NOT_CONFIGURED).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PEER_SPEECH_BYTES, startOpenAIPeer, type OpenAIPeer } from '../support/openai-peer.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { createSignedInMember } from './auth-support.ts';

type Member = Awaited<ReturnType<typeof createSignedInMember>>;

function callSpeech(t: TestServer, token: string | undefined, body: unknown): Promise<Response> {
  return fetch(`${t.url}/functions/v1/lovy-speech`, {
    method: 'POST',
    headers: {
      apikey: t.anonKey,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  });
}

async function storeAnswer(
  t: TestServer,
  m: Member,
  content: string,
): Promise<{ question: string; answer: string }> {
  const q = await t.db.query<{ id: string }>(
    `insert into public.lovy_messages (user_id, role, content) values ($1, 'user', 'How do I stand out?') returning id`,
    [m.id],
  );
  const a = await t.db.query<{ id: string }>(
    `insert into public.lovy_messages (user_id, role, content, reply_to, source)
     values ($1, 'assistant', $2, $3, 'model') returning id`,
    [m.id, content, q.rows[0]!.id],
  );
  return { question: q.rows[0]!.id, answer: a.rows[0]!.id };
}

describe('lovy-speech with a speech model', () => {
  let t: TestServer;
  let peer: OpenAIPeer;
  let ada: Member;
  let ben: Member;

  beforeAll(async () => {
    peer = await startOpenAIPeer();
    t = await startTestServer('pglite', {
      OPENAI_BASE_URL: peer.url,
      OPENAI_API_KEY: 'sk-test-voice',
      OPENAI_TTS_MODEL: 'test-tts',
    });
    ada = await createSignedInMember(t, 'voice-ada');
    ben = await createSignedInMember(t, 'voice-ben');
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await peer?.close();
  });

  beforeEach(async () => {
    peer.mode = 'ok';
    peer.speechRequests.length = 0;
    await t.db.query(`update public.ai_usage set created_at = created_at - interval '2 minutes'`);
  });

  it('speaks the member’s own stored answer with the chosen voice and logs it without the text', async () => {
    const { answer } = await storeAnswer(t, ada, 'Lead with what you love doing.');
    const res = await callSpeech(t, ada.token, { answer_id: answer, voice: 'nova', speed: 1.2 });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
    expect(Buffer.from(await res.arrayBuffer())).toEqual(PEER_SPEECH_BYTES);
    expect(peer.speechRequests).toEqual([
      {
        authorization: 'Bearer sk-test-voice',
        body: expect.objectContaining({
          model: 'test-tts',
          input: 'Lead with what you love doing.',
          voice: 'nova',
          speed: 1.2,
          response_format: 'mp3',
        }) as unknown,
      },
    ]);
    const { rows } = await t.db.query(
      `select purpose, model, outcome from public.ai_usage where user_id = $1`,
      [ada.id],
    );
    expect(rows).toEqual([{ purpose: 'speech', model: 'test-tts', outcome: 'answered' }]);
  });

  it('speaks only answers: not a question, not someone else’s answer, not text sent by the app', async () => {
    const { question, answer } = await storeAnswer(t, ada, 'Smile in your first photo.');
    expect((await callSpeech(t, ada.token, { answer_id: question })).status).toBe(404);
    expect((await callSpeech(t, ben.token, { answer_id: answer })).status).toBe(404);
    const res = await callSpeech(t, ada.token, { answer_id: answer, text: 'Say something else' });
    expect(res.status).toBe(200);
    expect(peer.speechRequests.map((r) => r.body.input)).toEqual(['Smile in your first photo.']);
  });

  it('refuses bad input and no session in words, asking the speech server nothing', async () => {
    const { answer } = await storeAnswer(t, ada, 'Be kind.');
    for (const body of [
      {},
      { answer_id: 'nope' },
      { answer_id: answer, voice: 'robot' },
      { answer_id: answer, speed: 9 },
      { answer_id: answer, speed: '1' },
    ]) {
      const res = await callSpeech(t, ada.token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as { code: string }).code).toBe('BAD_REQUEST');
    }
    expect((await callSpeech(t, undefined, { answer_id: answer })).status).toBe(401);
    expect(peer.speechRequests).toEqual([]);
  });

  it('holds the per-minute limit in SQL and says when the speech server fails', async () => {
    const { answer } = await storeAnswer(t, ada, 'Ask open questions.');
    for (let i = 0; i < 10; i++)
      expect((await callSpeech(t, ada.token, { answer_id: answer })).status).toBe(200);
    const limited = await callSpeech(t, ada.token, { answer_id: answer });
    expect(limited.status).toBe(429);
    expect(((await limited.json()) as { code: string }).code).toBe('RATE_LIMIT');
    await t.db.query(`update public.ai_usage set created_at = created_at - interval '2 minutes'`);
    peer.mode = 'server-error';
    const failed = await callSpeech(t, ada.token, { answer_id: answer });
    expect(failed.status).toBe(502);
    expect(((await failed.json()) as { code: string }).code).toBe('API_ERROR');
  });
});

describe('lovy-speech without a speech model', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer('pglite');
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  it('tells the app to speak with the browser', async () => {
    const ada = await createSignedInMember(t, 'voice-none');
    const { answer } = await storeAnswer(t, ada, 'Hello');
    const res = await callSpeech(t, ada.token, { answer_id: answer });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: 'No speech model is configured.', code: 'NOT_CONFIGURED' });
  });
});
