// Builds the PWA and starts one server for the whole run on a fresh data folder (PGlite, demo data off
// unless a test asks); E2E_DATABASE_URL switches it to PostgreSQL.
import { spawn, execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const port = Number(process.env['E2E_PORT'] ?? 3310);
  const root = path.resolve(import.meta.dirname, '../../..');
  // E2E_DIST_DIR gives a run its own build folder, so two runs side by side never clash over dist/.
  const distDir = process.env['E2E_DIST_DIR'] ? path.resolve(process.env['E2E_DIST_DIR']) : undefined;
  if (!process.env['E2E_SKIP_BUILD'])
    execSync(`npx vite build --logLevel warn${distDir ? ` --outDir ${distDir} --emptyOutDir` : ''}`, {
      cwd: root,
      stdio: 'inherit',
    });
  // A server already answering there (another run, a stale one) would be taken for this run's own.
  const busy = await fetch(`http://127.0.0.1:${port}/health`).then(
    () => true,
    () => false,
  );
  if (busy)
    throw new Error(`port ${port} already answers: another run is using it (give this one its own E2E_PORT)`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-e2e-'));
  // Specs that act as the service role (e.g. to insert a notification) read the server's key from here.
  process.env['E2E_DATA_DIR'] = dataDir;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      NODE_ENV: 'test',
      DEMO: process.env['E2E_DEMO'] ?? '0',
      OUTBOX: '1',
      // The demo checkout, without seeding the demo community (journeys make their own members).
      DEMO_PAYMENTS: '1',
      LOG_LEVEL: process.env['E2E_LOG_LEVEL'] ?? 'warn',
      // The scheduled jobs (the Wingman's among them) every 2 s, so journeys see their effects without waiting.
      JOB_INTERVAL_SECONDS: '2',
      ...(distDir ? { DIST_DIR: distDir } : {}),
      ...(process.env['E2E_DATABASE_URL'] ? { DATABASE_URL: process.env['E2E_DATABASE_URL'] } : {}),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  // Generous: PGlite applies every migration at first start, which is slow on a busy machine.
  const startTimeoutMs = Number(process.env['E2E_SERVER_START_TIMEOUT_MS'] ?? 180_000);
  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const r = await fetch(`http://127.0.0.1:${port}/health`);
      if (r.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error(`server did not become healthy in ${startTimeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return async () => {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
