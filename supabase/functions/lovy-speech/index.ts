// Lovy's reply spoken by the model server's speech endpoint (issue 16), when the operator configured a speech
// model (OPENAI_TTS_MODEL) beside the model server; otherwise the app speaks with the browser's speech
// synthesis. Only the member's own stored Lovy answers are spoken (the answer's id, never text the app sends),
// within a per-minute limit held in SQL (claim_lovy_speech), logged in ai_usage without the text.
//
// Body: {answer_id, voice?, speed?}. Answers the audio (`audio/mpeg`); 400 bad input, 401 without a session,
// 404 not the member's answer, 429 past the limit, 502 {code} when the speech server failed, 503 {code:
// 'NOT_CONFIGURED'} when no speech model is set (the app then speaks itself).
import { createModelClient, findErrorType, isModelConfigured } from '../_shared/ai-model.ts';
import { findEnv } from '../_shared/env.ts';
import { corsHeaders, findBearerToken, findJsonObject, json, preflight } from '../_shared/http.ts';
import { findLovyError } from '../_shared/lovy-errors.ts';
import { serveWhenDeno } from '../_shared/serve.ts';
import { createServiceClient, findCaller } from '../_shared/supabase.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The voices of OpenAI's speech endpoint (what compatible servers accept too); §9's default is alloy. */
export const SPEECH_VOICES = ['alloy', 'ash', 'coral', 'echo', 'fable', 'nova', 'onyx', 'sage', 'shimmer'];

export async function handler(req: Request): Promise<Response> {
  if (req.method === 'OPTIONS') return preflight();
  if (req.method !== 'POST') return json({ error: 'Method not allowed' }, 405);
  if (!findBearerToken(req)) return json({ error: 'You must be logged in.', code: 'NOT_SIGNED_IN' }, 401);
  const body = await findJsonObject(req);
  const answerId = body?.['answer_id'];
  const voice = body?.['voice'] ?? 'alloy';
  const speed = body?.['speed'] ?? 1;
  if (typeof answerId !== 'string' || !UUID.test(answerId))
    return json({ error: 'answer_id must be the id of a Lovy answer.', code: 'BAD_REQUEST' }, 400);
  if (typeof voice !== 'string' || !SPEECH_VOICES.includes(voice))
    return json({ error: `voice must be one of ${SPEECH_VOICES.join(', ')}.`, code: 'BAD_REQUEST' }, 400);
  if (typeof speed !== 'number' || !Number.isFinite(speed) || speed < 0.25 || speed > 4)
    return json({ error: 'speed must be a number from 0.25 to 4.', code: 'BAD_REQUEST' }, 400);
  const caller = await findCaller(req);
  if (!caller) return json({ error: 'You must be logged in.', code: 'NOT_SIGNED_IN' }, 401);
  const model = findEnv('OPENAI_TTS_MODEL');
  if (!model || !isModelConfigured())
    return json({ error: 'No speech model is configured.', code: 'NOT_CONFIGURED' }, 503);

  const service = createServiceClient();
  const { data: claims, error: claimError } = await service.rpc('claim_lovy_speech', {
    answer: answerId,
    member: caller.id,
    use_model: model,
  });
  if (claimError) {
    if (claimError.code === 'P0002')
      return json({ error: 'That answer was not found.', code: 'NOT_FOUND' }, 404);
    if (claimError.message === 'lovy_rate_limited')
      return json({ error: findLovyError('RATE_LIMIT'), code: 'RATE_LIMIT' }, 429);
    throw new Error(`claim_lovy_speech failed: ${claimError.message}`);
  }
  const claim = (claims as { content: string; usage_id: string }[])[0];
  if (!claim) throw new Error('claim_lovy_speech returned nothing');

  const startedAt = Date.now();
  const finish = (failure: string | undefined) =>
    service
      .from('ai_usage')
      .update({
        outcome: failure ? 'failed' : 'answered',
        error_type: failure ?? null,
        total_ms: Date.now() - startedAt,
        finished_at: new Date().toISOString(),
      })
      .eq('id', claim.usage_id);
  try {
    const speech = await createModelClient().audio.speech.create({
      model,
      voice,
      input: claim.content.slice(0, 4096),
      speed,
      response_format: 'mp3',
    });
    const audio = await speech.arrayBuffer();
    await finish(undefined);
    return new Response(audio, {
      headers: { ...corsHeaders, 'content-type': 'audio/mpeg', 'cache-control': 'private, max-age=3600' },
    });
  } catch (e) {
    const type = findErrorType(e);
    await finish(type);
    return json({ error: findLovyError(type), code: type }, 502);
  }
}

export default handler;
serveWhenDeno(handler);
