// Password hashing (argon2id, ~19 MiB, t=2) and the server-side password policy.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as zxcvbnCommon from '@zxcvbn-ts/language-common';
import { AuthHttpError } from './errors.ts';
import { PasswordPool } from './password-pool.ts';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
/** Bytes cap so a 128-character password of 4-byte characters still fits while megabyte inputs do not. */
const PASSWORD_MAX_BYTES = 512;

// Algorithm.Argon2id is a const enum, which isolatedModules cannot import: its value is 2.
export const ARGON2_OPTIONS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/** Every hash and verification of the process runs on these threads, never on the event loop. */
export const passwordPool = new PasswordPool();

const commonPasswords = new Set(
  fs
    .readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'common-passwords.txt'), 'utf8')
    .split('\n')
    .map((l) => l.trim().toLowerCase())
    .filter((l) => l && !l.startsWith('#')),
);

/**
 * zxcvbn-ts with its common dictionary (about 30,000 leaked passwords, names and words) and keyboard graphs:
 * it estimates guesses from dictionary words, l33t spellings, repeats ("aaaaaaaa"), sequences ("abcdefgh")
 * and keyboard walks ("qwertyuiop") (ASVS 6.2.4, 6.2.12). A password it rates below 10^6 guesses (score 0
 * or 1) is refused, which the short list above cannot catch.
 */
const strength = new ZxcvbnFactory({
  dictionary: { ...zxcvbnCommon.dictionary },
  graphs: zxcvbnCommon.adjacencyGraphs,
});
const MIN_STRENGTH_SCORE = 2;

/** The same characters typed on different keyboards can differ in composition; NFC makes them one. */
export function normalizePassword(password: string): string {
  return password.normalize('NFC');
}

/** Throws a 422 weak_password error (GoTrue's shape) when the password does not meet the policy. */
export function assertPasswordAllowed(password: string): void {
  const p = normalizePassword(password);
  const length = [...p].length;
  if (length < PASSWORD_MIN_LENGTH)
    throw weak(`Password should be at least ${PASSWORD_MIN_LENGTH} characters.`, 'length');
  if (length > PASSWORD_MAX_LENGTH || Buffer.byteLength(p) > PASSWORD_MAX_BYTES)
    throw weak(`Password should be at most ${PASSWORD_MAX_LENGTH} characters.`, 'length');
  if (commonPasswords.has(p.trim().toLowerCase()) || strength.check(p).score < MIN_STRENGTH_SCORE)
    throw weak('Password is known to be weak and easy to guess, please choose a different one.', 'pwned');
}

function weak(message: string, reason: 'length' | 'pwned') {
  return new AuthHttpError(422, 'weak_password', message, { body: { weak_password: { reasons: [reason] } } });
}

export function hashPassword(password: string): Promise<string> {
  return passwordPool.hash(normalizePassword(password), ARGON2_OPTIONS);
}

let dummyHash: Promise<string> | undefined;

/** Checks a password; with no stored hash it still spends the same time, so timing shows nothing. */
export async function verifyPassword(
  storedHash: string | null | undefined,
  password: string,
): Promise<boolean> {
  const p = normalizePassword(password);
  if (Buffer.byteLength(p) > PASSWORD_MAX_BYTES) return false;
  if (!storedHash) {
    dummyHash ??= hashPassword('not a real password, only spends time');
    await passwordPool.verify(await dummyHash, p).catch(() => false);
    return false;
  }
  try {
    return await passwordPool.verify(storedHash, p);
  } catch {
    return false;
  }
}
