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

export async function createKeys(privateJwk: jose.JWK, issuer: string): Promise<Keys> {
  const kid = privateJwk.kid ?? 'default';
  const privateKey = await jose.importJWK(privateJwk, ALG);
  const { d: _d, ...publicJwk } = privateJwk;
  const publicKey = await jose.importJWK(publicJwk, ALG);
  const sign = (claims: JwtClaims, expiresInSeconds: number) =>
    new jose.SignJWT(claims)
      .setProtectedHeader({ alg: ALG, kid, typ: 'JWT' })
      .setIssuer(issuer)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + expiresInSeconds)
      .sign(privateKey);
  const anonKey = await signStable({ role: 'anon' });
  const serviceRoleKey = await signStable({ role: 'service_role' });
  // iat is fixed so the claims are the same on every start; loadOrCreateKeys keeps the first signed keys.
  async function signStable(claims: JwtClaims) {
    const iat = 1_700_000_000;
    return new jose.SignJWT(claims)
      .setProtectedHeader({ alg: ALG, kid, typ: 'JWT' })
      .setIssuer(issuer)
      .setIssuedAt(iat)
      .setExpirationTime(iat + API_KEY_LIFETIME_SECONDS)
      .sign(privateKey);
  }
  return {
    kid,
    issuer,
    jwks: { keys: [{ ...publicJwk, kid, alg: ALG, use: 'sig' }] },
    anonKey,
    serviceRoleKey,
    sign,
    async verify(token: string) {
      const { payload } = await jose.jwtVerify(token, publicKey, { issuer, algorithms: [ALG] });
      const role = payload['role'];
      if (role !== 'anon' && role !== 'authenticated' && role !== 'service_role')
        throw new Error('invalid role claim');
      return payload as JwtClaims;
    },
  };
}
