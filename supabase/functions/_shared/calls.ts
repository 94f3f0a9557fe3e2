// Call settings for functions (issue 18): which transport this instance uses, its ICE servers, and Stream user
// tokens. The Stream secret never leaves the server; the ICE servers (TURN credentials included) reach only
// signed-in members.
import { SignJWT } from 'jose';
import { findEnv } from './env.ts';

export interface IceServer {
  urls: string | string[];
  username?: string;
  credential?: string;
}

export type CallProvider = 'webrtc' | 'getstream';

/** Stream when both of its keys are set; else peer-to-peer WebRTC signalled over our realtime channel. */
export function getCallProvider(): CallProvider {
  return findEnv('STREAM_API_KEY') && findEnv('STREAM_API_SECRET') ? 'getstream' : 'webrtc';
}

const ICE_URL = /^(stun|stuns|turn|turns):[^\s]{1,300}$/;

function isIceUrl(u: unknown): u is string {
  return typeof u === 'string' && ICE_URL.test(u);
}

/**
 * ICE_SERVERS as JSON: a list of {urls, username?, credential?}, as RTCPeerConnection takes it. Entries that are
 * not STUN/TURN servers are dropped (an operator's typo must not reach browsers as something else); a setting
 * that is not such a list at all is an error, so a misconfigured instance says so instead of calling without
 * its TURN server. Unset: none (host candidates only: the same machine or network).
 */
export function parseIceServers(raw: string | undefined): IceServer[] {
  if (!raw || raw.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error('ICE_SERVERS is not JSON: expected a list like [{"urls":"stun:stun.example.org:3478"}]');
  }
  if (!Array.isArray(parsed))
    throw new Error('ICE_SERVERS must be a JSON list of {urls, username?, credential?}');
  const servers: IceServer[] = [];
  for (const entry of parsed as unknown[]) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { urls, username, credential } = entry as Record<string, unknown>;
    const list = Array.isArray(urls) ? urls.filter(isIceUrl) : isIceUrl(urls) ? [urls] : [];
    if (list.length === 0) continue;
    servers.push({
      urls: list.length === 1 ? list[0]! : list,
      ...(typeof username === 'string' ? { username } : {}),
      ...(typeof credential === 'string' ? { credential } : {}),
    });
  }
  return servers;
}

export const STREAM_TOKEN_TTL_SECONDS = 60 * 60;

/** A Stream user token: HS256 over {user_id}, signed with the API secret, valid for an hour. */
export async function signStreamToken(userId: string, secret: string, now = Date.now()): Promise<string> {
  const iat = Math.floor(now / 1000);
  return new SignJWT({ user_id: userId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(iat)
    .setExpirationTime(iat + STREAM_TOKEN_TTL_SECONDS)
    .sign(new TextEncoder().encode(secret));
}
