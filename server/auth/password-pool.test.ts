// The argon2 worker pool: same hashes as @node-rs/argon2 on the event loop, more jobs than threads
// queue and all finish, a busy thread holds its next job, unreadable hashes are errors, and closing rejects
// what is left.
import fs from 'node:fs';
import { hash as hashHere, verify as verifyHere } from '@node-rs/argon2';
import { afterAll, describe, expect, it } from 'vitest';
import { PasswordPool } from './password-pool.ts';
import { ARGON2_OPTIONS } from './passwords.ts';

// Small memory keeps the test quick; the pool passes the options through unchanged.
const FAST = { ...ARGON2_OPTIONS, memoryCost: 1024, timeCost: 1 };

describe('PasswordPool', () => {
  const pool = new PasswordPool(2);
  afterAll(async () => {
    await pool.close();
  });

  it('hashes in argon2id with the given options, interchangeably with the library', async () => {
    const stored = await pool.hash('correct horse 1', FAST);
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    expect(await verifyHere(stored, 'correct horse 1')).toBe(true);
    const made = await hashHere('correct horse 2', FAST);
    expect(await pool.verify(made, 'correct horse 2')).toBe(true);
    expect(await pool.verify(made, 'correct horse 3')).toBe(false);
  });

  it('runs more jobs than threads, each answered for its own input', async () => {
    const passwords = Array.from({ length: 7 }, (_, i) => `password number ${i}`);
    const hashes = await Promise.all(passwords.map((p) => pool.hash(p, FAST)));
    expect(new Set(hashes).size).toBe(7);
    const checks = await Promise.all(hashes.map((h, i) => pool.verify(h, passwords[(i + 1) % 7]!)));
    expect(checks).toEqual(Array(7).fill(false));
    const rights = await Promise.all(hashes.map((h, i) => pool.verify(h, passwords[i]!)));
    expect(rights).toEqual(Array(7).fill(true));
    expect(pool.queued).toBe(0);
  });

  it.runIf(process.platform === 'linux')(
    'hashes on threads below the event loop in the scheduler',
    async () => {
      // Field 19 of /proc/<pid>/task/<tid>/stat is the thread's nice value (fields counted from the pid).
      const niceOf = (tid: string) =>
        Number(fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ').at(-1)!.split(' ')[16]);
      const here = niceOf(fs.readlinkSync('/proc/thread-self').split('/').pop()!);
      await Promise.all([pool.hash('one', FAST), pool.hash('two', FAST)]);
      const lowered = fs
        .readdirSync('/proc/self/task')
        .filter((tid) => niceOf(tid) === Math.min(19, here + 10));
      expect(lowered.length).toBeGreaterThanOrEqual(2);
    },
  );

  it('rejects a hash it cannot read, and keeps working', async () => {
    await expect(pool.verify('not a hash', 'whatever')).rejects.toThrow();
    expect(await pool.verify(await pool.hash('still fine', FAST), 'still fine')).toBe(true);
  });

  it('gives a busy thread its next job to hold, so it goes on without waiting for the event loop', async () => {
    const one = new PasswordPool(1);
    try {
      const passwords = ['first of three', 'second of three', 'third of three'];
      const hashes = passwords.map((p) => one.hash(p, FAST));
      // The thread runs the first and holds the second; only the third waits in the pool.
      expect(one.queued).toBe(1);
      const stored = await Promise.all(hashes);
      expect(await Promise.all(stored.map((h, i) => one.verify(h, passwords[i]!)))).toEqual([
        true,
        true,
        true,
      ]);
      expect(one.queued).toBe(0);
    } finally {
      await one.close();
    }
  });

  it('rejects queued, held and running jobs when closed', async () => {
    const closing = new PasswordPool(1);
    const jobs = ['a password', 'another one', 'a third one'].map((p) => closing.hash(p, ARGON2_OPTIONS));
    const outcomes = jobs.map((job) =>
      job.then(
        () => 'resolved',
        (e: Error) => e.message,
      ),
    );
    expect(closing.queued).toBe(1);
    await closing.close();
    expect(await Promise.all(outcomes)).toEqual(Array(3).fill('password pool closed'));
  });

  it('refuses a size that is not a positive integer', () => {
    expect(() => new PasswordPool(0)).toThrow();
    expect(() => new PasswordPool(1.5)).toThrow();
  });
});
