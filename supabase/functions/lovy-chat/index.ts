// Lovy's answer to one question (issue 16). The member's question is already a row of their Lovy history
// (written through the replica, so it can be asked offline); this function answers it once: it claims the
// question in SQL (the member's own, not answered, within the rate and the plan's daily answers), builds the
// prompt from the member's agent and what the model may see (_shared/lovy-prompt.ts), asks any
// OpenAI-compatible model (or, with none configured, the built-in coach), streams the reply as server-sent
// events and stores it as the service role. Errors reach the chat as an assistant message in the spec's words.
//
// Body: {question_id, conversation_id?}. A question that names an agent (agent_id) is answered as that agent,
// else as the member's active one. Answers `text/event-stream`: `delta` events ({text}) while the
// reply is written, then one `done` event with the stored row ({id, content, source}). A question already
// answered gets its answer as JSON ({answer}); a refusal is JSON ({error, code}) with a 4xx.
import { findErrorType, findModelName, isModelConfigured, streamFromModel } from '../_shared/ai-model.ts';
import {
  AGENT_COLUMNS_FOR_MODEL,
  findConversation,
  MEMBER_COLUMNS_FOR_MODEL,
  toLovyMember,
} from '../_shared/ai-context.ts';
import { answerAsCoach } from '../_shared/coach.ts';
import { corsHeaders, findBearerToken, findJsonObject, json, preflight } from '../_shared/http.ts';
import { buildLovyMessages, type LovyAgent } from '../_shared/lovy-prompt.ts';
import { findLovyError, LOVY_FAILED_REPLY, type LovyErrorType } from '../_shared/lovy-errors.ts';
import { serveWhenDeno } from '../_shared/serve.ts';
import { createCallerClient, createServiceClient, findCaller } from '../_shared/supabase.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Source = 'model' | 'coach' | 'notice';

interface Stored {
  id: string;
  content: string;
  source: Source;
}

function sse(event: string, data: unknown): Uint8Array {
  return new TextEncoder().encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

/** The member a token names (`sub`), read without checking it: findCaller checks it. */
function findTokenSubject(token: string): string | undefined {
  try {
    const part = token.split('.')[1] ?? '';
    const payload = JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/'))) as { sub?: unknown };
    return typeof payload.sub === 'string' && UUID.test(payload.sub) ? payload.sub : undefined;
  } catch {
    return undefined;
  }
}

/** Splits a finished text into small pieces, so the coach streams like a model. */
function pieces(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [text];
}

export async function handler(req: Request): Promise<Response> {
  if (req.method === 'OPTIONS') return preflight();
  if (req.method !== 'POST') return json({ error: 'Method not allowed' }, 405);
  const token = findBearerToken(req);
  if (!token) return json({ error: 'You must be logged in to chat with Lovy.', code: 'NOT_SIGNED_IN' }, 401);
  const body = await findJsonObject(req);
  const questionId = body?.['question_id'];
  const conversationId = body?.['conversation_id'];
  if (typeof questionId !== 'string' || !UUID.test(questionId))
    return json({ error: 'question_id must be the id of your question.', code: 'BAD_REQUEST' }, 400);
  if (
    conversationId !== undefined &&
    conversationId !== null &&
    (typeof conversationId !== 'string' || !UUID.test(conversationId))
  )
    return json({ error: 'conversation_id must be the id of a conversation.', code: 'BAD_REQUEST' }, 400);

  // Everything about the member is read as the member: row-level security decides, as in their app. The
  // reads run side by side with the session check (the time to the first word counts); their answers are
  // used only once the check has confirmed the token names this member.
  const member = createCallerClient(token);
  const service = createServiceClient();
  const claimedId = findTokenSubject(token);
  if (!claimedId)
    return json({ error: 'You must be logged in to chat with Lovy.', code: 'NOT_SIGNED_IN' }, 401);
  const [caller, { data: question }, existing, { data: agents }, { data: profile }, conversation] =
    await Promise.all([
      findCaller(req),
      member
        .from('lovy_messages')
        .select('id, content, role, agent_id')
        .eq('id', questionId)
        .eq('role', 'user')
        .maybeSingle(),
      findAnswer(member, questionId),
      member
        .from('ai_agents')
        .select(AGENT_COLUMNS_FOR_MODEL)
        .order('is_active', { ascending: false })
        .order('created_at', { ascending: true })
        .limit(1),
      member.from('profiles').select(MEMBER_COLUMNS_FOR_MODEL).eq('id', claimedId).maybeSingle(),
      typeof conversationId === 'string' ? findConversation(member, claimedId, conversationId) : undefined,
    ]);
  if (!caller || caller.id !== claimedId)
    return json({ error: 'You must be logged in to chat with Lovy.', code: 'NOT_SIGNED_IN' }, 401);
  if (!question) return json({ error: 'That question was not found.', code: 'NOT_FOUND' }, 404);
  if (existing) return json({ answer: existing });
  let agent = agents?.[0] as (LovyAgent & { id: string }) | undefined;
  // A question asked of one agent ("test your agent" on the agent settings) is answered as that agent; the
  // member's own agents only (row-level security), one more read only then.
  const askedAgent = question['agent_id'] as string | null;
  if (askedAgent && askedAgent !== agent?.id) {
    const { data: asked } = await member
      .from('ai_agents')
      .select(AGENT_COLUMNS_FOR_MODEL)
      .eq('id', askedAgent)
      .maybeSingle();
    agent = (asked as (LovyAgent & { id: string }) | null) ?? undefined;
  }
  if (!agent) return json({ error: 'No AI agent available', code: 'NO_AGENT' }, 404);
  if (typeof conversationId === 'string' && !conversation)
    return json({ error: 'That conversation was not found.', code: 'NOT_FOUND' }, 404);
  const me = toLovyMember(profile);

  const useModel = isModelConfigured();
  const model = findModelName();
  const { data: usageId, error: claimError } = await service.rpc('claim_lovy_answer', {
    question: questionId,
    member: caller.id,
    use_provider: useModel ? 'model' : 'coach',
    use_model: useModel ? model : null,
  });
  if (claimError) {
    if (claimError.code === '23505') {
      const answer = await findAnswer(member, questionId);
      if (answer) return json({ answer });
    }
    if (claimError.code === 'PT409')
      return json({ error: 'Lovy is already answering this question.', code: 'IN_PROGRESS' }, 409);
    if (claimError.message === 'lovy_rate_limited')
      return json({ error: findLovyError('RATE_LIMIT'), code: 'RATE_LIMIT' }, 429);
    if (claimError.message === 'lovy_daily_limit')
      return json(
        {
          error: "You've used today's answers from Lovy. Upgrade to Premium for many more.",
          code: 'DAILY_LIMIT',
        },
        429,
      );
    if (claimError.code === 'P0002')
      return json({ error: 'That question was not found.', code: 'NOT_FOUND' }, 404);
    throw new Error(`claim_lovy_answer failed: ${claimError.message}`);
  }

  const startedAt = Date.now();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      let firstTokenMs: number | undefined;
      const send = (text: string) => {
        firstTokenMs ??= Date.now() - startedAt;
        controller.enqueue(sse('delta', { text }));
      };
      let content = '';
      let source: Source = useModel ? 'model' : 'coach';
      let errorType: LovyErrorType | undefined;
      let tokens: { prompt?: number; completion?: number } = {};
      try {
        if (useModel) {
          tokens = await streamFromModel(
            buildLovyMessages({ agent, member: me, question: question.content as string, conversation }),
            model,
            (text) => {
              content += text;
              send(text);
            },
          );
          if (content.trim() === '') {
            errorType = 'EMPTY';
            source = 'notice';
            content = LOVY_FAILED_REPLY;
          }
        } else {
          content = answerAsCoach({ question: question.content as string, member: me, conversation });
          for (const piece of pieces(content)) send(piece);
        }
      } catch (e) {
        errorType = findErrorType(e);
        source = 'notice';
        content = findLovyError(errorType);
      }
      // The member keeps whatever happened: the answer, or the reason there is none, in their history.
      const stored = await storeAnswer(service, {
        userId: caller.id,
        agentId: agent.id,
        questionId,
        content,
        source,
      });
      await service
        .from('ai_usage')
        .update({
          outcome: errorType ? 'failed' : 'answered',
          error_type: errorType ?? null,
          prompt_tokens: tokens.prompt ?? null,
          completion_tokens: tokens.completion ?? null,
          first_token_ms: firstTokenMs ?? null,
          total_ms: Date.now() - startedAt,
          finished_at: new Date().toISOString(),
        })
        .eq('id', usageId as string);
      controller.enqueue(sse('done', stored ?? { id: null, content, source }));
      controller.close();
    },
  });
  return new Response(stream, {
    headers: {
      ...corsHeaders,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
    },
  });
}

async function findAnswer(
  client: ReturnType<typeof createCallerClient>,
  questionId: string,
): Promise<Stored | undefined> {
  const { data } = await client
    .from('lovy_messages')
    .select('id, content, source')
    .eq('reply_to', questionId)
    .maybeSingle();
  return (data as Stored | null) ?? undefined;
}

async function storeAnswer(
  service: ReturnType<typeof createServiceClient>,
  row: { userId: string; agentId: string; questionId: string; content: string; source: Source },
): Promise<Stored | undefined> {
  const { data, error } = await service
    .from('lovy_messages')
    .insert({
      user_id: row.userId,
      agent_id: row.agentId,
      role: 'assistant',
      content: row.content,
      reply_to: row.questionId,
      source: row.source,
    })
    .select('id, content, source')
    .single();
  if (error) {
    // Another call answered first (the claim makes this rare): theirs is the answer.
    if (error.code === '23505') {
      const { data: other } = await service
        .from('lovy_messages')
        .select('id, content, source')
        .eq('reply_to', row.questionId)
        .maybeSingle();
      return (other as Stored | null) ?? undefined;
    }
    console.error('[lovy-chat] the answer could not be stored', error.message);
    return undefined;
  }
  return data as Stored;
}

export default handler;
serveWhenDeno(handler);
