// Runs the journeys in lanes side by side (`npm test`'s browser tier): each lane is one Playwright run with
// its own server, port, data folder and results folder (global-setup.ts), on one build made first. The spec
// files are dealt out longest first, by the durations measured in CI (below), so the lanes end together.
// E2E_LANES sets how many (default 1: on 2 cores two lanes saved about a third of the journeys' time, but
// the offline-airplane journey failed under their load in 2 of 3 CI runs, decision 0070). Arguments go to
// every lane's Playwright (`--grep ...`); to run a few files, call `npx playwright test <files>` instead.
import { spawn, execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { chromiumPath } from '../../bench/support/chromium.ts';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * Seconds each spec file took in CI, one lane (refresh them from a run's list output when they drift; these from
 * a clean-clone run of 2026-11-29, whose journeys took 13.1 min). Only their proportions matter.
 */
const MEASURED_SECONDS: Record<string, number> = {
  'account-status.spec.ts': 32,
  'accounts.spec.ts': 36,
  'agents.spec.ts': 21,
  'any-address.spec.ts': 9,
  'app-shell.spec.ts': 1,
  'calls.spec.ts': 49,
  'deck-swipe.spec.ts': 14,
  'discovery-journeys.spec.ts': 35,
  'first-sync.spec.ts': 20,
  'games.spec.ts': 52,
  'landing-prerender.spec.ts': 15,
  'likes.spec.ts': 22,
  'lovy.spec.ts': 42,
  'members-core.spec.ts': 42,
  'messages-privacy-media.spec.ts': 31,
  'messages-thread-actions.spec.ts': 11,
  'messages-thread-pages.spec.ts': 23,
  'messages-two-members.spec.ts': 22,
  'navigation.spec.ts': 16,
  'offline-airplane.spec.ts': 15,
  'offline-replica.spec.ts': 140,
  'payments-journeys.spec.ts': 16,
  'payments.spec.ts': 20,
  'plan-offline.spec.ts': 5,
  'profile-offline.spec.ts': 31,
  'profile-photos.spec.ts': 18,
  'public-area.spec.ts': 60,
  'pwa-install.spec.ts': 6,
  'pwa-update.spec.ts': 8,
  'resources.spec.ts': 12,
  'visual.spec.ts': 58,
  'wingman.spec.ts': 34,
};
/** A spec file not measured yet counts as this long (about the average above). */
const DEFAULT_SECONDS = 30;

/** Deals `files` out to `lanes` lanes, longest first, each to the lane with the least so far. */
export function dealFiles(
  files: readonly string[],
  lanes: number,
  seconds: (file: string) => number,
): string[][] {
  const out = Array.from({ length: Math.max(1, lanes) }, () => ({ files: [] as string[], total: 0 }));
  const ordered = [...files].sort((a, b) => seconds(b) - seconds(a) || a.localeCompare(b));
  for (const file of ordered) {
    const lane = out.reduce((least, l) => (l.total < least.total ? l : least));
    lane.files.push(file);
    lane.total += seconds(file);
  }
  return out.filter((l) => l.files.length > 0).map((l) => l.files.sort());
}

function runLane(index: number, files: string[], args: string[]): Promise<number> {
  const port = 3310 + index * 10;
  const tag = `[lane ${index + 1}]`;
  const child = spawn('npx', ['playwright', 'test', ...args, ...files.map((f) => `tests/e2e/${f}`)], {
    cwd: root,
    env: {
      ...process.env,
      E2E_PORT: String(port),
      E2E_SKIP_BUILD: '1',
      E2E_OUTPUT_DIR: path.join('test-results', `lane-${index + 1}`),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout, child.stderr])
    readline.createInterface({ input: stream }).on('line', (line) => console.log(`${tag} ${line}`));
  return new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
}

async function main(): Promise<void> {
  const lanes = Number(process.env['E2E_LANES'] ?? 1);
  if (!Number.isInteger(lanes) || lanes < 1) throw new Error('E2E_LANES must be a whole number from 1');
  if (!fs.existsSync(chromiumPath)) {
    // playwright.config.ts says what to do without a browser (skip, or fail under CI).
    const plain = spawn('npx', ['playwright', 'test', ...process.argv.slice(2)], {
      cwd: root,
      stdio: 'inherit',
    });
    process.exitCode = await new Promise<number>((resolve) => plain.on('exit', (code) => resolve(code ?? 1)));
    return;
  }
  const files = fs
    .readdirSync(path.join(root, 'tests/e2e'))
    .filter((f) => f.endsWith('.spec.ts'))
    .sort();
  if (!process.env['E2E_SKIP_BUILD'])
    execSync('npx vite build --logLevel warn', { cwd: root, stdio: 'inherit' });
  const dealt = dealFiles(files, lanes, (f) => MEASURED_SECONDS[f] ?? DEFAULT_SECONDS);
  for (const [i, lane] of dealt.entries())
    console.log(`[lane ${i + 1}] ${lane.length} files: ${lane.join(' ')}`);
  const started = Date.now();
  const codes = await Promise.all(dealt.map((lane, i) => runLane(i, lane, process.argv.slice(2))));
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  for (const [i, code] of codes.entries())
    console.log(`[lane ${i + 1}] ${code === 0 ? 'passed' : `FAILED (exit ${code})`}`);
  console.log(`journeys: ${codes.every((c) => c === 0) ? 'passed' : 'FAILED'} in ${minutes} min`);
  process.exitCode = codes.every((c) => c === 0) ? 0 : 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) await main();
