// supabase-js clients for functions: the only way they reach the database (portable to Supabase as is).
import { createClient, type SupabaseClient, type User } from '@supabase/supabase-js';
import { getEnv } from './env.ts';
import { findBearerToken } from './http.ts';

// Functions never use realtime; a transport that refuses to connect keeps supabase-js from looking for a
// global WebSocket, which Node 20 lacks (Deno has one, and this works there too).
class NoRealtimeTransport {
  constructor() {
    throw new Error('Realtime is not available inside functions');
  }
}

const clientOptions = {
  auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  realtime: { transport: NoRealtimeTransport as never },
};

/** Bypasses row-level security: use only after deciding who the caller is and what they may do. */
export function createServiceClient(): SupabaseClient {
  return createClient(getEnv('SUPABASE_URL'), getEnv('SUPABASE_SERVICE_ROLE_KEY'), clientOptions);
}

/** A fresh anonymous client, e.g. to re-check a password by signing in without touching the caller's session. */
export function createAnonClient(): SupabaseClient {
  return createClient(getEnv('SUPABASE_URL'), getEnv('SUPABASE_ANON_KEY'), clientOptions);
}

/** Acts as the caller: row-level security decides what it reads and writes, as for the member's own app. */
export function createCallerClient(accessToken: string): SupabaseClient {
  return createClient(getEnv('SUPABASE_URL'), getEnv('SUPABASE_ANON_KEY'), {
    ...clientOptions,
    global: { headers: { authorization: `Bearer ${accessToken}` } },
  });
}

/** The signed-in member behind the request's access token, or undefined (no token, API key, expired, ended). */
export async function findCaller(req: Request): Promise<User | undefined> {
  const token = findBearerToken(req);
  if (!token) return undefined;
  const { data, error } = await createServiceClient().auth.getUser(token);
  if (error || !data.user) return undefined;
  return data.user;
}
