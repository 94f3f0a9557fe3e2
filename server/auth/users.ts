// auth.users rows: lookup, e-mail and metadata rules, and the one mapping from a row to GoTrue's user JSON.
import crypto from 'node:crypto';
import type { Queryable } from '../db/database.ts';
import { AuthHttpError, validationFailed } from './errors.ts';

export interface UserRow {
  id: string;
  email: string;
  encrypted_password: string | null;
  email_confirmed_at: Date | null;
  confirmation_sent_at: Date | null;
  recovery_sent_at: Date | null;
  last_sign_in_at: Date | null;
  raw_app_meta_data: Record<string, unknown>;
  raw_user_meta_data: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
  banned_until: Date | null;
  deleted_at: Date | null;
}

const USER_COLUMNS = `id, email, encrypted_password, email_confirmed_at, confirmation_sent_at, recovery_sent_at,
  last_sign_in_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at, banned_until, deleted_at`;

// Run on every sign-in and token refresh: prepared once per connection under a name (parsed and planned once).
export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | undefined> {
  const r = await db.query<UserRow>(
    `select ${USER_COLUMNS} from auth.users where lower(email) = $1`,
    [email],
    { name: 'hs_auth_user_by_email' },
  );
  return r.rows[0];
}

export async function findUserById(db: Queryable, id: string): Promise<UserRow | undefined> {
  const r = await db.query<UserRow>(`select ${USER_COLUMNS} from auth.users where id = $1`, [id], {
    name: 'hs_auth_user_by_id',
  });
  return r.rows[0];
}

/** A user may act when not banned and not soft-deleted. */
export function isUserActive(u: UserRow): boolean {
  const now = Date.now();
  return !u.deleted_at && !(u.banned_until && new Date(u.banned_until).getTime() > now);
}

const EMAIL_PATTERN = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;

/** Lower-cased, trimmed address; throws 400 email_address_invalid when it is not one. */
export function getNormalizedEmail(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw validationFailed('An email address is required');
  const email = value.trim().toLowerCase();
  if (email.length > 254 || !EMAIL_PATTERN.test(email))
    throw new AuthHttpError(400, 'email_address_invalid', 'Unable to validate email address: invalid format');
  return email;
}

export const NAME_MAX_LENGTH = 100;

/** Keeps only the metadata the app sends (name), with angle brackets escaped, trimmed and capped. */
export function sanitizeUserMetadata(data: unknown): Record<string, unknown> {
  if (data === undefined || data === null) return {};
  if (typeof data !== 'object' || Array.isArray(data)) throw validationFailed('data must be an object');
  const name = (data as Record<string, unknown>)['name'];
  if (name === undefined) return {};
  if (typeof name !== 'string') throw validationFailed('data.name must be a string');
  const clean = [...name.replace(/</g, '&lt;').replace(/>/g, '&gt;').trim()]
    .slice(0, NAME_MAX_LENGTH)
    .join('');
  return { name: clean };
}

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : undefined);

/** The user as GoTrue returns it (null fields left out, as GoTrue's omitempty does). */
export function toUserJson(u: UserRow): Record<string, unknown> {
  const identityData = {
    email: u.email,
    email_verified: !!u.email_confirmed_at,
    phone_verified: false,
    sub: u.id,
  };
  return {
    id: u.id,
    aud: 'authenticated',
    role: 'authenticated',
    email: u.email,
    email_confirmed_at: iso(u.email_confirmed_at),
    phone: '',
    confirmation_sent_at: iso(u.confirmation_sent_at),
    confirmed_at: iso(u.email_confirmed_at),
    recovery_sent_at: iso(u.recovery_sent_at),
    last_sign_in_at: iso(u.last_sign_in_at),
    app_metadata: { provider: 'email', providers: ['email'], ...u.raw_app_meta_data },
    user_metadata: { ...u.raw_user_meta_data, ...identityData },
    identities: [
      {
        identity_id: u.id,
        id: u.id,
        user_id: u.id,
        identity_data: identityData,
        provider: 'email',
        last_sign_in_at: iso(u.last_sign_in_at ?? u.created_at),
        created_at: iso(u.created_at),
        updated_at: iso(u.updated_at),
        email: u.email,
      },
    ],
    created_at: iso(u.created_at),
    updated_at: iso(u.updated_at),
    is_anonymous: false,
  };
}

/**
 * The answer to a sign-up for an address that is already registered and confirmed: the same fields as a
 * fresh unconfirmed user, with a random id and no identities, as GoTrue answers it.
 */
export function toObfuscatedUserJson(
  email: string,
  metadata: Record<string, unknown>,
): Record<string, unknown> {
  const now = new Date();
  const id = crypto.randomUUID();
  const json = toUserJson({
    id,
    email,
    encrypted_password: null,
    email_confirmed_at: null,
    confirmation_sent_at: now,
    recovery_sent_at: null,
    last_sign_in_at: null,
    raw_app_meta_data: {},
    raw_user_meta_data: metadata,
    created_at: now,
    updated_at: now,
    banned_until: null,
    deleted_at: null,
  });
  return { ...json, identities: [] };
}

/**
 * The answer to a repeated sign-up of an address nobody has confirmed yet: shaped like the answer to a first
 * sign-up (an identity, so the app says "check your e-mail" as for a new account), with a made-up id, so the
 * account's real id is never revealed to whoever typed the address (issue 13).
 */
export function toNewLookingUserJson(
  email: string,
  metadata: Record<string, unknown>,
): Record<string, unknown> {
  const json = toObfuscatedUserJson(email, metadata);
  const id = json['id'] as string;
  const now = new Date().toISOString();
  return {
    ...json,
    identities: [
      {
        identity_id: id,
        id,
        user_id: id,
        identity_data: { email, email_verified: false, phone_verified: false, sub: id },
        provider: 'email',
        last_sign_in_at: now,
        created_at: now,
        updated_at: now,
        email,
      },
    ],
  };
}
