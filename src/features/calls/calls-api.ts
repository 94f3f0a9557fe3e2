// Calls to the server for a call (issue 18). A call is live or nothing, so its row is written online through
// the REST API (not the replica's queue): a refused call must say so at once. The rows still reach both
// replicas through sync, where the screens watch them.
import type { CallType } from '../../domain/calls.ts';
import { CALL_TEXT } from '../../domain/calls.ts';
import { getSupabase } from '../../data/supabase-client.ts';

export interface IceServer {
  urls: string | string[];
  username?: string;
  credential?: string;
}

export interface CallConfig {
  provider: 'webrtc' | 'getstream';
  iceServers: IceServer[];
  streamApiKey?: string;
}

/** Raised when the pair may not call: the spec's "Premium Required". */
export class PremiumRequiredError extends Error {
  constructor() {
    super(CALL_TEXT.premiumBody);
    this.name = 'PremiumRequiredError';
  }
}

let config: Promise<CallConfig> | undefined;

/** How this instance's calls connect (the call-config function), asked once per page load. */
export function fetchCallConfig(): Promise<CallConfig> {
  config ??= (async () => {
    const sb = await getSupabase();
    const { data, error } = await sb.functions.invoke<CallConfig>('call-config', {
      method: 'POST',
      body: {},
    });
    if (error || !data || (data.provider !== 'webrtc' && data.provider !== 'getstream'))
      throw new Error(CALL_TEXT.clientFailed);
    return { ...data, iceServers: Array.isArray(data.iceServers) ? data.iceServers : [] };
  })();
  config.catch(() => {
    config = undefined;
  });
  return config;
}

/** The spec's can_video_call: both premium, matched, not blocked. Decided in SQL. */
export async function canCall(me: string, other: string): Promise<boolean> {
  const sb = await getSupabase();
  const { data, error } = await sb.rpc('can_video_call', { caller_id: me, recipient_id: other });
  if (error) throw new Error(CALL_TEXT.createFailed);
  return data === true;
}

function isPremiumRefusal(error: { message?: string; details?: string | null }): boolean {
  return error.message === 'premium_required';
}

export async function createCallRow(input: {
  id: string;
  me: string;
  other: string;
  type: CallType;
  provider: CallConfig['provider'];
}): Promise<void> {
  const sb = await getSupabase();
  const { error } = await sb.from('video_calls').insert({
    id: input.id,
    caller_id: input.me,
    recipient_id: input.other,
    call_type: input.type,
    provider: input.provider,
    // Stream's call id is ours: one id names the call everywhere.
    stream_call_id: input.provider === 'getstream' ? input.id : null,
  });
  if (error) {
    if (isPremiumRefusal(error)) throw new PremiumRequiredError();
    throw new Error(CALL_TEXT.createFailed);
  }
}

export type CallStep = 'active' | 'declined' | 'ended' | 'missed';

/** Moves the call on (the SQL state machine decides who may, and sets the times). */
export async function setCallStatus(id: string, status: CallStep): Promise<void> {
  const sb = await getSupabase();
  const { error } = await sb.from('video_calls').update({ status }).eq('id', id);
  if (error) {
    if (isPremiumRefusal(error)) throw new PremiumRequiredError();
    throw new Error(
      error.message === 'call_already_finished' ? 'This call has already ended.' : CALL_TEXT.error,
    );
  }
}

/** The call's connection quality, written every few seconds while it is up (also the server's sign of life). */
export async function writeConnectionQuality(id: string, quality: string): Promise<void> {
  const sb = await getSupabase();
  await sb.from('video_calls').update({ connection_quality: quality }).eq('id', id);
}
