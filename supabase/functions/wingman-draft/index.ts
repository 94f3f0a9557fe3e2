// The Wingman's reply draft (issue 17, medium autonomy): the app calls this when the member opens a
// conversation that waits on them. SQL decides whether a draft may be written (claim_wingman_reply: the agent's
// autonomy, a paid plan, no pause, the pair not hidden, the conversation really waiting, no draft yet, Lovy's
// rate and daily answers); the text comes from the member's agent through any OpenAI-compatible model, or
// from the built-in coach when none is configured; store_wingman_reply keeps it as a pending draft and logs it.
// The other member's lines reach the model only here, from the conversation the member opened, wrapped as
// untrusted data (lovy-prompt.ts). Drafts the member turned down are named as what to avoid.
//
// Body: {conversation_id}. Answers {draft: {content, source}} (201), or {drafted: false, code} (200) when there
// is nothing to draft, or a refusal {error, code} with a 4xx.
import {
  AGENT_COLUMNS_FOR_MODEL,
  findConversation,
  MEMBER_COLUMNS_FOR_MODEL,
  toLovyMember,
} from '../_shared/ai-context.ts';
import { findErrorType, findModelName, isModelConfigured, streamFromModel } from '../_shared/ai-model.ts';
import { draftReplyAsCoach } from '../_shared/coach.ts';
import { findBearerToken, findJsonObject, json, preflight } from '../_shared/http.ts';
import { findLovyError } from '../_shared/lovy-errors.ts';
import { buildLovyMessages, buildReplyDraftQuestion, type LovyAgent } from '../_shared/lovy-prompt.ts';
import { serveWhenDeno } from '../_shared/serve.ts';
import { createCallerClient, createServiceClient, findCaller } from '../_shared/supabase.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The claim's refusals that only mean "nothing to draft now" (the app asks again on the next message). */
const NOTHING_TO_DRAFT: Record<string, string> = {
  wingman_reply_not_waiting: 'NOT_WAITING',
  wingman_reply_drafted: 'ALREADY_DRAFTED',
  wingman_reply_not_allowed: 'NOT_ALLOWED',
};

export async function handler(req: Request): Promise<Response> {
  if (req.method === 'OPTIONS') return preflight();
  if (req.method !== 'POST') return json({ error: 'Method not allowed' }, 405);
  const token = findBearerToken(req);
  if (!token) return json({ error: 'You must be logged in.', code: 'NOT_SIGNED_IN' }, 401);
  const body = await findJsonObject(req);
  const conversationId = body?.['conversation_id'];
  if (typeof conversationId !== 'string' || !UUID.test(conversationId))
    return json({ error: 'conversation_id must be the id of a conversation.', code: 'BAD_REQUEST' }, 400);
  const caller = await findCaller(req);
  if (!caller) return json({ error: 'You must be logged in.', code: 'NOT_SIGNED_IN' }, 401);

  const service = createServiceClient();
  const useModel = isModelConfigured();
  const model = findModelName();
  const { data: claims, error: claimError } = await service.rpc('claim_wingman_reply', {
    conversation: conversationId,
    member: caller.id,
    use_provider: useModel ? 'model' : 'coach',
    use_model: useModel ? model : null,
  });
  if (claimError) {
    const nothing = NOTHING_TO_DRAFT[claimError.message];
    if (nothing) return json({ drafted: false, code: nothing });
    if (claimError.code === 'P0002')
      return json({ error: 'That conversation was not found.', code: 'NOT_FOUND' }, 404);
    if (claimError.message === 'lovy_rate_limited')
      return json({ error: findLovyError('RATE_LIMIT'), code: 'RATE_LIMIT' }, 429);
    if (claimError.message === 'lovy_daily_limit')
      return json({ error: "You've used today's answers from your AI helpers.", code: 'DAILY_LIMIT' }, 429);
    throw new Error(`claim_wingman_reply failed: ${claimError.message}`);
  }
  const claim = (claims as { reply_to: string; other_id: string; agent_id: string; usage_id: string }[])[0];
  if (!claim) throw new Error('claim_wingman_reply returned nothing');

  // Read as the member: row-level security decides, as in their app.
  const member = createCallerClient(token);
  const [{ data: agent }, { data: profile }, conversation, turnedDown] = await Promise.all([
    member.from('ai_agents').select(AGENT_COLUMNS_FOR_MODEL).eq('id', claim.agent_id).maybeSingle(),
    member.from('profiles').select(MEMBER_COLUMNS_FOR_MODEL).eq('id', caller.id).maybeSingle(),
    findConversation(member, caller.id, conversationId),
    findTurnedDownDrafts(member, caller.id),
  ]);
  if (!agent || !conversation)
    return json({ error: 'That conversation was not found.', code: 'NOT_FOUND' }, 404);
  const me = toLovyMember(profile);

  const startedAt = Date.now();
  let content = '';
  let tokens: { prompt?: number; completion?: number } = {};
  let failure: ReturnType<typeof findErrorType> | 'EMPTY' | undefined;
  if (useModel) {
    try {
      tokens = await streamFromModel(
        buildLovyMessages({
          agent: agent as LovyAgent,
          member: me,
          question: buildReplyDraftQuestion(turnedDown),
          conversation,
        }),
        model,
        (text) => (content += text),
      );
      content = content
        .trim()
        .replace(/^"(.*)"$/s, '$1')
        .trim();
      if (content === '') failure = 'EMPTY';
    } catch (e) {
      failure = findErrorType(e);
    }
  } else {
    content = draftReplyAsCoach(me, conversation, turnedDown);
  }
  await service
    .from('ai_usage')
    .update({
      outcome: failure ? 'failed' : 'answered',
      error_type: failure ?? null,
      prompt_tokens: tokens.prompt ?? null,
      completion_tokens: tokens.completion ?? null,
      total_ms: Date.now() - startedAt,
      finished_at: new Date().toISOString(),
    })
    .eq('id', claim.usage_id);
  // A draft is a help, never a notice: a failed model leaves no draft (the member writes their own, and the
  // next message from the other member asks again).
  if (failure) return json({ drafted: false, code: failure });
  const { data: stored, error: storeError } = await service.rpc('store_wingman_reply', {
    member: caller.id,
    conversation: conversationId,
    answered: claim.reply_to,
    agent: claim.agent_id,
    recipient: claim.other_id,
    draft: content,
  });
  if (storeError) throw new Error(`store_wingman_reply failed: ${storeError.message}`);
  if (stored !== true) return json({ drafted: false, code: 'ANSWERED' });
  return json({ draft: { content: content.slice(0, 1000), source: useModel ? 'model' : 'coach' } }, 201);
}

/** The texts of the member's drafts they gave a thumbs down, newest first (their own agent's words). */
async function findTurnedDownDrafts(
  member: ReturnType<typeof createCallerClient>,
  me: string,
): Promise<string[]> {
  const { data: down } = await member
    .from('agent_feedback')
    .select('subject_ref')
    .eq('user_id', me)
    .eq('subject', 'draft')
    .eq('rating', 'down')
    .order('created_at', { ascending: false })
    .limit(10);
  const ids = (down ?? []).map((f) => String(f['subject_ref'])).filter((id) => UUID.test(id));
  if (ids.length === 0) return [];
  const { data: drafts } = await member.from('agent_drafts').select('content').in('id', ids);
  return (drafts ?? []).map((d) => String(d['content']));
}

export default handler;
serveWhenDeno(handler);
