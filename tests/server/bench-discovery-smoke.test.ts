// The discovery benchmark still runs (issue 21): like bench:sync once did, it could stop working unseen, since
// nothing runs it but a person measuring. The smallest size it takes (3000 members), three calls per shape, on
// the PostgreSQL test server; no figure is judged: speed is the benchmark's business, running to the end and
// printing every shape is this test's.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { getDatabaseKinds } from '../support/test-databases.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const SHAPES = [
  'wide',
  'narrow-distance',
  'mid-distance',
  'narrow-age',
  'narrow-both',
  'empty',
  'heavy-wide',
  'heavy-mid-distance',
];

describe.runIf(getDatabaseKinds().includes('postgres'))('bench:discovery', () => {
  it('generates members, measures every shape raw and through REST, and prints the goal line', async () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      BENCH_DATABASE_URL: process.env['TEST_DATABASE_URL'],
      BENCH_SIZES: '3000',
      BENCH_CALLS: '3',
    };
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'bench/discovery/run.ts'], {
      cwd: root,
      env,
      timeout: 150_000,
    });
    expect(stdout).toMatch(/3000 profiles: generated in [0-9.]+ s/);
    for (const shape of SHAPES) expect(stdout).toMatch(new RegExp(` ${shape} \\([0-9]+ found\\):`));
    expect(stdout).toMatch(
      /ratio REST\/raw p50: [0-9.]+x \(REST - raw: -?[0-9.]+ ms; the same HTTP exchange answered 404 without the database: [0-9.]+ ms\)/,
    );
    expect(stdout).toMatch(/HTTP 404: p50 [0-9.]+ ms/);
  }, 180_000);
});
