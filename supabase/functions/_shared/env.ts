// Function settings: per request from the self-contained host, else Deno.env (Supabase), else process.env.

type EnvProvider = () => Readonly<Record<string, string>> | undefined;

// Set by server/functions/functions-part.ts: the host hands each request its env without writing it
// into process.env, where every other part of the server could read the service role key.
const PROVIDER = Symbol.for('heartsync.functions.env');

interface DenoLike {
  env: { get(name: string): string | undefined };
}

export function findEnv(name: string): string | undefined {
  const provider = (globalThis as Record<symbol, unknown>)[PROVIDER] as EnvProvider | undefined;
  const scoped = provider?.();
  if (scoped) return scoped[name];
  const deno = (globalThis as { Deno?: DenoLike }).Deno;
  if (deno) return deno.env.get(name);
  return (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env[name];
}

export function getEnv(name: string): string {
  const value = findEnv(name);
  if (!value) throw new Error(`Missing function setting ${name}`);
  return value;
}
