// Tokens of signed object URLs: HS256 with a storage-only key in DATA_DIR, so a signed-URL token can
// never be used as an API access token (those are ES256 from ctx.keys).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import * as jose from 'jose';

export interface SignedUrlSigner {
  sign(
    claims: { bucket: string; name: string; version: string; member?: string | undefined },
    expiresInSeconds: number,
  ): Promise<string>;
  /**
   * Returns the claims when the token is valid for this object key; undefined otherwise. `member` is the
   * member who asked for the URL (none for the service role), whose sight of the object is checked again
   * at every use.
   */
  findClaims(
    token: string,
    bucket: string,
    name: string,
  ): Promise<{ version: string; member?: string } | undefined>;
}

const AUDIENCE = 'storage-signed-url';

export function loadOrCreateSigner(dataDir: string): SignedUrlSigner {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'storage-url-key');
  let secret: Buffer;
  try {
    secret = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64url');
  } catch {
    secret = crypto.randomBytes(32);
    fs.writeFileSync(file, secret.toString('base64url'), { mode: 0o600 });
  }
  if (secret.length < 32) throw new Error(`${file} holds a key shorter than 32 bytes`);
  return {
    async sign({ bucket, name, version, member }, expiresInSeconds) {
      return new jose.SignJWT({ url: `${bucket}/${name}`, v: version, ...(member ? { m: member } : {}) })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + expiresInSeconds)
        .sign(secret);
    },
    async findClaims(token, bucket, name) {
      try {
        const { payload } = await jose.jwtVerify(token, secret, {
          algorithms: ['HS256'],
          audience: AUDIENCE,
          // exp is the signing second plus the seconds asked, and verification compares whole seconds: a URL
          // signed late in a second would work for only N - 1 seconds and a bit. The second it was signed
          // in is given back, so a URL works for at least the N seconds asked and less than N + 1.
          clockTolerance: 1,
        });
        if (payload['url'] !== `${bucket}/${name}` || typeof payload['v'] !== 'string') return undefined;
        const member = payload['m'];
        return typeof member === 'string' ? { version: payload['v'], member } : { version: payload['v'] };
      } catch {
        return undefined;
      }
    },
  };
}
