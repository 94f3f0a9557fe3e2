// The instance's JWT signing key (ES256), made on first start and kept in DATA_DIR; signs access
// tokens and the long-lived anon and service_role API keys, and publishes the public half as JWKS.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import * as jose from 'jose';

export type ApiRole = 'anon' | 'authenticated' | 'service_role';

export interface JwtClaims extends jose.JWTPayload {
  role: ApiRole;
  sub?: string;
  email?: string;
  session_id?: string;
  aal?: string;
  is_anonymous?: boolean;
  app_metadata?: Record<string, unknown>;
  user_metadata?: Record<string, unknown>;
}

export interface Keys {
  kid: string;
  issuer: string;
  jwks: { keys: jose.JWK[] };
  anonKey: string;
  serviceRoleKey: string;
  /** Signs claims; `expiresInSeconds` sets exp from now. */
  sign(claims: JwtClaims, expiresInSeconds: number): Promise<string>;
  /** Verifies signature, issuer and expiry; throws on any failure. */
  verify(token: string): Promise<JwtClaims>;
}

const ALG = 'ES256';
const API_KEY_LIFETIME_SECONDS = 10 * 365 * 24 * 3600;

export async function loadOrCreateKeys(dataDir: string, issuer: string): Promise<Keys> {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'jwt-key.json');
  let privateJwk: jose.JWK;
  if (fs.existsSync(file)) {
    privateJwk = JSON.parse(fs.readFileSync(file, 'utf8')) as jose.JWK;
  } else {
    const { privateKey } = await jose.generateKeyPair(ALG, { extractable: true });
    privateJwk = { ...(await jose.exportJWK(privateKey)), kid: crypto.randomUUID(), alg: ALG, use: 'sig' };
    fs.writeFileSync(file, JSON.stringify(privateJwk), { mode: 0o600 });
  }
  const keys = await createKeys(privateJwk, issuer);
  // ES256 signatures are randomised, so re-signing on each start would print new API keys and make the
  // ones deployed clients hold fail after a restart: keep the first ones while they still verify.
  const apiKeysFile = path.join(dataDir, 'api-keys.json');
  try {
    const stored = JSON.parse(fs.readFileSync(apiKeysFile, 'utf8')) as {
      anonKey: string;
      serviceRoleKey: string;
    };
    if (
      (await keys.verify(stored.anonKey)).role === 'anon' &&
      (await keys.verify(stored.serviceRoleKey)).role === 'service_role'
    )
      return { ...keys, anonKey: stored.anonKey, serviceRoleKey: stored.serviceRoleKey };
  } catch {
    /* none yet, or made with another key or issuer: write the current ones */
  }
  const { anonKey, serviceRoleKey } = keys;
  fs.writeFileSync(apiKeysFile, JSON.stringify({ anonKey, serviceRoleKey }), { mode: 0o600 });
  return keys;
}

/** Verified tokens kept so a token seen again skips the signature check; bounded, cleared when full. */
const VERIFIED_CACHE_MAX = 10_000;

function base64UrlJson(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

export async function createKeys(privateJwk: jose.JWK, issuer: string): Promise<Keys> {
  const kid = privateJwk.kid ?? 'default';
  const { d: _d, ...publicJwk } = privateJwk;
  const publicKey = await jose.importJWK(publicJwk, ALG);
  // Signing runs synchronously on the event loop (about 0.1 ms for P-256): WebCrypto would queue each
  // signature on libuv's thread pool, behind every argon2 hash in flight during a burst of sign-ins.
  const privateKey = crypto.createPrivateKey({ key: { ...privateJwk }, format: 'jwk' });
  const header = base64UrlJson({ alg: ALG, kid, typ: 'JWT' });
  function signAt(claims: JwtClaims, iat: number, exp: number): string {
    const payload = base64UrlJson({ ...claims, iss: issuer, iat, exp });
    const input = `${header}.${payload}`;
    const signature = crypto.sign('sha256', Buffer.from(input), {
      key: privateKey,
      dsaEncoding: 'ieee-p1363',
    });
    return `${input}.${signature.toString('base64url')}`;
  }
  const sign = async (claims: JwtClaims, expiresInSeconds: number) => {
    const now = Math.floor(Date.now() / 1000);
    return signAt(claims, now, now + expiresInSeconds);
  };
  // iat is fixed so the claims are the same on every start; loadOrCreateKeys keeps the first signed keys.
  const stableIat = 1_700_000_000;
  const anonKey = signAt({ role: 'anon' }, stableIat, stableIat + API_KEY_LIFETIME_SECONDS);
  const serviceRoleKey = signAt({ role: 'service_role' }, stableIat, stableIat + API_KEY_LIFETIME_SECONDS);

  // A token's signature, issuer and role never change, so a verified token is remembered until it expires:
  // the API key on every request and an access token used again skip the ECDSA check (and the thread pool).
  const verified = new Map<string, JwtClaims>();
  return {
    kid,
    issuer,
    jwks: { keys: [{ ...publicJwk, kid, alg: ALG, use: 'sig' }] },
    anonKey,
    serviceRoleKey,
    sign,
    async verify(token: string) {
      const hit = verified.get(token);
      if (hit && typeof hit.exp === 'number' && hit.exp > Math.floor(Date.now() / 1000)) return { ...hit };
      const { payload } = await jose.jwtVerify(token, publicKey, { issuer, algorithms: [ALG] });
      const role = payload['role'];
      if (role !== 'anon' && role !== 'authenticated' && role !== 'service_role')
        throw new Error('invalid role claim');
      const claims = payload as JwtClaims;
      // Only tokens whose validity is a plain expiry are remembered (no not-before to wait for).
      if (typeof claims.exp === 'number' && claims.nbf === undefined) {
        if (verified.size >= VERIFIED_CACHE_MAX) verified.clear();
        verified.set(token, { ...claims });
      }
      return claims;
    },
  };
}
