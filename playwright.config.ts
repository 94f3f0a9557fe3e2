// End-to-end journeys in Debian's Chromium against a real server started for the run.
import fs from 'node:fs';
import { defineConfig } from '@playwright/test';
import { chromiumArgs } from './bench/support/chromium.ts';

const chromium = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const isCI = ['1', 'true'].includes((process.env['CI'] ?? '').toLowerCase());
if (!fs.existsSync(chromium)) {
  if (isCI)
    throw new Error(`CI=true but Chromium is missing at ${chromium}: the browser tier must run in CI.`);
  console.warn(`Chromium not found at ${chromium}: end-to-end tests are skipped (apt-get install chromium).`);
}
const port = Number(process.env['E2E_PORT'] ?? 3310);

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: true,
  timeout: 60_000,
  reporter: [['list']],
  // Each lane of tests/e2e/run-lanes.ts keeps its traces and screenshots apart.
  outputDir: process.env['E2E_OUTPUT_DIR'] ?? 'test-results',
  globalSetup: './tests/e2e/support/global-setup.ts',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // Recording a trace costs about a fifth of a journey's time on 2 cores; CI keeps no artifacts, so under
    // CI a failure prints its step and call log, and E2E_TRACE=retain-on-failure records one (decision 0070).
    trace: (process.env['E2E_TRACE'] ?? (isCI ? 'off' : 'retain-on-failure')) as 'off' | 'retain-on-failure',
    launchOptions: {
      executablePath: chromium,
      args: [
        ...chromiumArgs,
        '--use-fake-device-for-media-stream',
        '--use-fake-ui-for-media-stream',
        '--allow-loopback-in-peer-connection',
      ],
    },
  },
  ...(fs.existsSync(chromium) ? {} : { testIgnore: '**/*' }),
});
