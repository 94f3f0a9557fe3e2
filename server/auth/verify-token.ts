// The session-aware token check every part uses through ctx.verifyToken: the signature, and for a member's
// token that its session is still live (a signed-out or revoked session is refused everywhere at once).
import { TokenCheckUnavailableError } from '../context.ts';
import type { JwtClaims, Keys } from './keys.ts';
import type { SessionStore } from './sessions.ts';

export function createTokenVerifier(
  keys: Pick<Keys, 'verify'>,
  sessions: Pick<SessionStore, 'isSessionLive'>,
): (token: string) => Promise<JwtClaims> {
  // Tokens without session_id are only ever minted by this server itself (API keys, internal calls).
  return async (token) => {
    const claims = await keys.verify(token);
    if (claims.role === 'authenticated' && typeof claims.session_id === 'string') {
      let live: boolean;
      try {
        live = await sessions.isSessionLive(claims.session_id, claims.sub);
      } catch (e) {
        throw new TokenCheckUnavailableError(e);
      }
      if (!live) throw new Error('session ended');
    }
    return claims;
  };
}
