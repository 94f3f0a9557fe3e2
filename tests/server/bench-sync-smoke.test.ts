// The sync benchmark still runs (issue 21): its write-to-replica part once waited forever after the server began
// refusing member tokens whose sub is not a UUID, and nothing noticed until someone ran it. Three samples each,
// on PGlite, with no figure judged: speed is the benchmark's business, running to the end is this test's.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

describe('bench:sync', () => {
  it('measures the relays and a write reaching the other replica, then exits', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, BENCH_ONLY: 'latency', BENCH_SAMPLES: '3' };
    delete env['TEST_DATABASE_URL'];
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'bench/sync/run.ts'], {
      cwd: root,
      env,
      // About 80 s on a slow 2-core machine (2026-11-30): the kill leaves room for a busy one.
      timeout: 180_000,
    });
    for (const part of [
      'raw WebSocket relay',
      'WebSocket relay storing',
      'PowerSync write-to-replica \\(pglite',
    ])
      expect(stdout).toMatch(new RegExp(`${part}[^\\n]*: p50 [0-9.]+ ms, p95 [0-9.]+ ms, p99 [0-9.]+ ms`));
  }, 200_000);
});
