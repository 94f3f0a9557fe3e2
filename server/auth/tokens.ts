// Opaque random tokens (refresh tokens, mailed links): handed out once, only their sha256 is stored.
import crypto from 'node:crypto';

export function createOpaqueToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}
