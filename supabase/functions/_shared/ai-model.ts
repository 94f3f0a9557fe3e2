// The language model as Lovy and the Wingman's drafts use it (issue 16): any OpenAI-compatible server through
// the official package (OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL), streamed, and its failures in the
// spec's error types. With neither a base URL nor a key set, there is no model and the built-in coach answers.
import OpenAI from 'openai';
import { findEnv } from './env.ts';
import type { LovyErrorType } from './lovy-errors.ts';
import { LOVY_MAX_TOKENS, LOVY_TEMPERATURE, type buildLovyMessages } from './lovy-prompt.ts';

export function isModelConfigured(): boolean {
  return Boolean(findEnv('OPENAI_BASE_URL') || findEnv('OPENAI_API_KEY'));
}

/** The model to ask (the operator's OPENAI_MODEL, else a small default). */
export function findModelName(): string {
  return findEnv('OPENAI_MODEL') || 'gpt-4o-mini';
}

/** The configured model server's client (chat and speech): no retries, 30 s at most. */
export function createModelClient(): OpenAI {
  return new OpenAI({
    // Local servers (Ollama, llama.cpp) need no key; the package insists on one.
    apiKey: findEnv('OPENAI_API_KEY') || 'no-key',
    ...(findEnv('OPENAI_BASE_URL') ? { baseURL: findEnv('OPENAI_BASE_URL') } : {}),
    maxRetries: 0,
    timeout: 30_000,
  });
}

/** Streams the model's reply through `onText`; returns the token counts when the server reports them. */
export async function streamFromModel(
  messages: ReturnType<typeof buildLovyMessages>,
  model: string,
  onText: (text: string) => void,
): Promise<{ prompt?: number; completion?: number }> {
  const completion = await createModelClient().chat.completions.create({
    model,
    messages,
    temperature: LOVY_TEMPERATURE,
    max_tokens: LOVY_MAX_TOKENS,
    stream: true,
  });
  const tokens: { prompt?: number; completion?: number } = {};
  for await (const chunk of completion) {
    const text = chunk.choices[0]?.delta?.content;
    if (text) onText(text);
    if (chunk.usage) {
      tokens.prompt = chunk.usage.prompt_tokens;
      tokens.completion = chunk.usage.completion_tokens;
    }
  }
  return tokens;
}

/** The spec's error types, from what the openai package threw. */
export function findErrorType(e: unknown): LovyErrorType {
  if (e instanceof OpenAI.APIConnectionError) return 'NETWORK_ERROR';
  if (e instanceof OpenAI.AuthenticationError || e instanceof OpenAI.PermissionDeniedError)
    return 'API_KEY_MISSING';
  if (e instanceof OpenAI.RateLimitError) return 'RATE_LIMIT';
  if (e instanceof OpenAI.APIError) return e.status === undefined ? 'NETWORK_ERROR' : 'API_ERROR';
  // A stream cut off mid-way surfaces as a plain error from the body reader.
  if (
    e instanceof Error &&
    /terminated|aborted|socket|ECONNRESET|network/i.test(`${e.message} ${String(e.cause ?? '')}`)
  )
    return 'NETWORK_ERROR';
  return 'OTHER';
}
