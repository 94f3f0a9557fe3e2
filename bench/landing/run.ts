// Lighthouse (mobile) on the landing page against a blank Vite + React page measured in the same run,
// plus the initial JavaScript both pages load (gzip). Prints the figures and the ratios on its last line.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { build } from 'vite';
import react from '@vitejs/plugin-react';
import { parseConfig } from '../../server/config.ts';
import { createServer } from '../../server/create-server.ts';
import { getFreePort } from '../../tests/support/test-server.ts';

const root = path.resolve(import.meta.dirname, '../..');
const chromePath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const runs = Number(process.env['BENCH_RUNS'] ?? 3);

/** Sum of the gzip sizes of the scripts index.html loads before anything else (entry + modulepreloads). */
function getInitialJsGzip(distDir: string): number {
  const html = fs.readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const refs = [
    ...html.matchAll(/<(?:script[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="([^"]+\.js)"/g),
  ].map((m) => m[1] as string);
  return refs.reduce((sum, ref) => sum + zlib.gzipSync(fs.readFileSync(path.join(distDir, ref))).length, 0);
}

async function buildBlankPage(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-blank-'));
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html lang="en"><head><meta charset="UTF-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Blank</title></head><body><div id="root"></div><script type="module" src="/main.tsx"></script></body></html>',
  );
  fs.writeFileSync(
    path.join(dir, 'main.tsx'),
    "import { createRoot } from 'react-dom/client';\ncreateRoot(document.getElementById('root')!).render(<h1>Blank</h1>);\n",
  );
  await build({
    root: dir,
    logLevel: 'warn',
    configFile: false,
    plugins: [react()],
    resolve: {
      alias: {
        'react-dom': path.join(root, 'node_modules/react-dom'),
        react: path.join(root, 'node_modules/react'),
      },
    },
    build: { outDir: path.join(dir, 'dist') },
  });
  return path.join(dir, 'dist');
}

function serveStatic(dir: string, port: number): Promise<http.Server> {
  const types: Record<string, string> = {
    '.html': 'text/html',
    '.js': 'text/javascript',
    '.css': 'text/css',
  };
  const server = http.createServer((req, res) => {
    const url = (req.url ?? '/').split('?')[0] ?? '/';
    const file = path.join(dir, url === '/' ? 'index.html' : url);
    if (!file.startsWith(dir) || !fs.existsSync(file)) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

interface Result {
  performance: number;
  lcpMs: number;
  cls: number;
  tbtMs: number;
}

async function measure(url: string, port: number): Promise<Result> {
  const results: Result[] = [];
  for (let i = 0; i < runs; i++) {
    const r = await lighthouse(url, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
    });
    const lhr = r?.lhr;
    if (!lhr) throw new Error(`lighthouse gave no result for ${url}`);
    results.push({
      performance: Math.round((lhr.categories['performance']?.score ?? 0) * 100),
      lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
      cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN,
      tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? NaN,
    });
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
  return {
    performance: median(results.map((r) => r.performance)),
    lcpMs: median(results.map((r) => r.lcpMs)),
    cls: median(results.map((r) => r.cls)),
    tbtMs: median(results.map((r) => r.tbtMs)),
  };
}

async function main() {
  if (!process.env['BENCH_SKIP_BUILD']) await build({ root, logLevel: 'warn' });
  const blankDist = await buildBlankPage();
  const appPort = await getFreePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-bench-landing-'));
  const config = parseConfig({
    NODE_ENV: 'test',
    PORT: String(appPort),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${appPort}`,
    DATA_DIR: dataDir,
    DEMO: '0',
    LOG_LEVEL: 'silent',
  });
  const app = await createServer(config, { logger: false });
  await app.app.listen({ port: appPort, host: '127.0.0.1' });
  const blankPort = await getFreePort();
  const blank = await serveStatic(blankDist, blankPort);
  const chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const landing = await measure(`http://127.0.0.1:${appPort}/`, chrome.port);
    const base = await measure(`http://127.0.0.1:${blankPort}/`, chrome.port);
    const landingJs = getInitialJsGzip(path.join(root, 'dist'));
    const blankJs = getInitialJsGzip(blankDist);
    const kb = (n: number) => (n / 1024).toFixed(1);
    console.log(`lighthouse mobile, median of ${runs} runs each`);
    console.log(
      `blank Vite+React: performance ${base.performance}, LCP ${Math.round(base.lcpMs)} ms, CLS ${base.cls.toFixed(3)}, TBT ${Math.round(base.tbtMs)} ms, initial JS ${kb(blankJs)} kB gzip`,
    );
    console.log(
      `HeartSync landing: performance ${landing.performance}, LCP ${Math.round(landing.lcpMs)} ms, CLS ${landing.cls.toFixed(3)}, TBT ${Math.round(landing.tbtMs)} ms, initial JS ${kb(landingJs)} kB gzip`,
    );
    console.log(`goals: performance >= 95, LCP <= 2500 ms, CLS <= 0.1, initial JS <= 170 kB gzip`);
    console.log(
      `landing/blank: performance ${(landing.performance / base.performance).toFixed(2)}x, LCP ${(landing.lcpMs / base.lcpMs).toFixed(2)}x, initial JS ${(landingJs / blankJs).toFixed(2)}x (${kb(landingJs)} vs ${kb(blankJs)} kB gzip)`,
    );
  } finally {
    await chrome.kill();
    blank.close();
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(path.dirname(blankDist), { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
