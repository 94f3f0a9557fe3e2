// Lighthouse (mobile) on the landing page against a blank Vite + React page measured in the same run,
// plus the JavaScript both pages load (gzip; the landing's before its first paint and until it is live).
// The pages take turns, run by run (BENCH_RUNS each, 3 by default), after one unmeasured run of each
// (BENCH_WARMUPS). Prints the medians, every run's figures (Lighthouse's simulation spreads several points
// between runs of one build on a 2-core machine) and the ratios on its last line.
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
import { chromiumArgs, chromiumPath } from '../support/chromium.ts';
import { median } from '../support/median.ts';

const root = path.resolve(import.meta.dirname, '../..');
const runs = Number(process.env['BENCH_RUNS'] ?? 3);
/** Unmeasured runs of each page before the measured ones (BENCH_WARMUPS, 1 by default). */
const warmups = Number(process.env['BENCH_WARMUPS'] ?? 1);
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(warmups) || warmups < 0)
  throw new Error('BENCH_RUNS takes a whole number from 1, BENCH_WARMUPS one from 0');

interface PageJs {
  /** gzip bytes of the scripts the page's head loads (entry + modulepreloads): before the first paint. */
  beforePaint: number;
  /** The same plus the app's scripts the landing adds after its first paint (decision 0074): until it is live. */
  toLive: number;
}

/**
 * The JavaScript the page / loads, gzip: the head's scripts, and with them the app's entry and preloads kept
 * in landing.html's template for after the first paint. Each file counted once.
 */
function getPageJsGzip(distDir: string): PageJs {
  // The page / is served: the pre-rendered landing when the build made one (decision 0023).
  const page =
    ['landing.html', 'index.html'].find((f) => fs.existsSync(path.join(distDir, f))) ?? 'index.html';
  const html = fs.readFileSync(path.join(distDir, page), 'utf8');
  const scripts = (text: string) => [
    ...new Set(
      [...text.matchAll(/<(?:script[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="([^"]+\.js)"/g)].map(
        (m) => m[1] as string,
      ),
    ),
  ];
  const gzipOf = (refs: string[]) =>
    refs.reduce((sum, ref) => sum + zlib.gzipSync(fs.readFileSync(path.join(distDir, ref))).length, 0);
  const template = /<template id="app-scripts">([\s\S]*?)<\/template>/.exec(html)?.[1] ?? '';
  const head = scripts(html.replace(template, ''));
  return { beforePaint: gzipOf(head), toLive: gzipOf([...new Set([...head, ...scripts(template)])]) };
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
    const type = types[path.extname(file)] ?? 'application/octet-stream';
    // Brotli as the app's server sends it (pre-compressed there), so both pages travel the same way.
    if (/\bbr\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
      res.writeHead(200, { 'content-type': type, 'content-encoding': 'br', vary: 'Accept-Encoding' });
      return void res.end(zlib.brotliCompressSync(fs.readFileSync(file)));
    }
    res.writeHead(200, { 'content-type': type });
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

/** BENCH_REPORT_DIR=<folder> keeps each run's Lighthouse JSON there, to see what the LCP element waits for. */
const reportDir = process.env['BENCH_REPORT_DIR'];

interface Page {
  name: string;
  url: string;
  results: Result[];
  failed: number;
  attempts: number;
}

function newPage(name: string, url: string): Page {
  return { name, url, results: [], failed: 0, attempts: 0 };
}

/** One Lighthouse run of the page: its figures, or undefined when Lighthouse reports the run as broken. */
async function runOnce(page: Page, port: number, counted = true): Promise<Result | undefined> {
  if (counted) page.attempts++;
  const r = await lighthouse(page.url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance'],
  });
  const lhr = r?.lhr;
  if (!lhr) throw new Error(`lighthouse gave no result for ${page.url}`);
  if (!counted) return undefined;
  if (reportDir) {
    fs.mkdirSync(reportDir, { recursive: true });
    fs.writeFileSync(
      path.join(reportDir, `${page.name}-${page.attempts}.json`),
      JSON.stringify(lhr, null, 1),
    );
  }
  if (lhr.runtimeError) {
    page.failed++;
    console.warn(`${page.name}: lighthouse run failed (${lhr.runtimeError.code}), not counted`);
    return undefined;
  }
  return {
    performance: Math.round((lhr.categories['performance']?.score ?? 0) * 100),
    lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
    cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN,
    tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? NaN,
  };
}

/**
 * `runs` Lighthouse runs of each page, the pages taking turns (landing, blank, landing, ...), so a change in the
 * machine's load meets both alike. A run Lighthouse itself reports as broken (e.g. NO_NAVSTART on a busy machine)
 * is counted and printed, and another run takes its place, up to as many again.
 */
async function measureSideBySide(pages: Page[], port: number): Promise<void> {
  // Unmeasured runs first: the browser's first page loads pay for its own start (its caches, fonts, helper
  // processes), and without them that cost fell on whichever page ran first.
  for (let i = 0; i < warmups; i++) for (const page of pages) await runOnce(page, port, false);
  for (let round = 0; round < runs * 2 && pages.some((p) => p.results.length < runs); round++) {
    for (const page of pages) {
      if (page.results.length >= runs) continue;
      const result = await runOnce(page, port);
      if (result) page.results.push(result);
    }
  }
  for (const page of pages)
    if (page.results.length < runs)
      throw new Error(`${page.name}: only ${page.results.length} of ${runs} lighthouse runs worked`);
}

/** The medians of a page's runs. */
function getMedians(page: Page): Result {
  return {
    performance: median(page.results.map((r) => r.performance)),
    lcpMs: median(page.results.map((r) => r.lcpMs)),
    cls: median(page.results.map((r) => r.cls)),
    tbtMs: median(page.results.map((r) => r.tbtMs)),
  };
}

/** Every run's figures, in the order they ran: the spread the medians hide. */
function describeRuns(page: Page): string {
  const list = (f: (r: Result) => number) => page.results.map((r) => Math.round(f(r))).join(', ');
  return `${page.name} runs: performance ${list((r) => r.performance)}; TBT ${list((r) => r.tbtMs)} ms; LCP ${list((r) => r.lcpMs)} ms`;
}

async function main() {
  // A build folder of its own (BENCH_DIST_DIR to reuse one), so the bench never clashes with others building dist/.
  const distDir = process.env['BENCH_DIST_DIR']
    ? path.resolve(process.env['BENCH_DIST_DIR'])
    : fs.mkdtempSync(path.join(os.tmpdir(), 'hs-bench-landing-dist-'));
  if (!process.env['BENCH_SKIP_BUILD'])
    await build({ root, logLevel: 'warn', build: { outDir: distDir, emptyOutDir: true } });
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
  const app = await createServer(config, { logger: false, distDir });
  await app.app.listen({ port: appPort, host: '127.0.0.1' });
  const blankPort = await getFreePort();
  const blank = await serveStatic(blankDist, blankPort);
  const chrome = await chromeLauncher.launch({
    chromePath: chromiumPath,
    chromeFlags: ['--headless=new', ...chromiumArgs],
  });
  try {
    const landingPage = newPage('landing', `http://127.0.0.1:${appPort}/`);
    const blankPage = newPage('blank', `http://127.0.0.1:${blankPort}/`);
    await measureSideBySide([landingPage, blankPage], chrome.port);
    const landing = { ...getMedians(landingPage), failed: landingPage.failed };
    const base = { ...getMedians(blankPage), failed: blankPage.failed };
    const landingJs = getPageJsGzip(distDir);
    // The blank page has no template: all its JavaScript loads before its first paint.
    const blankJs = getPageJsGzip(blankDist).toLive;
    const kb = (n: number) => (n / 1024).toFixed(1);
    console.log(
      `lighthouse mobile, median of ${runs} runs each, the two pages taking turns after ${warmups} unmeasured` +
        (landing.failed + base.failed > 0
          ? ` (${landing.failed + base.failed} failed runs not counted)`
          : ''),
    );
    console.log(
      `blank Vite+React: performance ${base.performance}, LCP ${Math.round(base.lcpMs)} ms, CLS ${base.cls.toFixed(3)}, TBT ${Math.round(base.tbtMs)} ms, JS ${kb(blankJs)} kB gzip`,
    );
    console.log(
      `HeartSync landing: performance ${landing.performance}, LCP ${Math.round(landing.lcpMs)} ms, CLS ${landing.cls.toFixed(3)}, TBT ${Math.round(landing.tbtMs)} ms, JS ${kb(landingJs.beforePaint)} kB gzip before the first paint, ${kb(landingJs.toLive)} kB until live`,
    );
    console.log(describeRuns(landingPage));
    console.log(describeRuns(blankPage));
    // Issue 21 raised the goals once the first ones were met.
    const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
    console.log(
      `goals (issue 21): performance >= 98 ${met(landing.performance >= 98)}, LCP <= 1.2x blank ` +
        `${met(landing.lcpMs <= 1.2 * base.lcpMs)}, CLS <= 0.1 ${met(landing.cls <= 0.1)}, JS until live <= 100 kB gzip ` +
        `${met(landingJs.toLive <= 100 * 1024)}`,
    );
    console.log(
      `landing/blank: performance ${(landing.performance / base.performance).toFixed(2)}x, LCP ${(landing.lcpMs / base.lcpMs).toFixed(2)}x, JS until live ${(landingJs.toLive / blankJs).toFixed(2)}x (${kb(landingJs.toLive)} vs ${kb(blankJs)} kB gzip)`,
    );
  } finally {
    await chrome.kill();
    blank.close();
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(path.dirname(blankDist), { recursive: true, force: true });
    if (!process.env['BENCH_DIST_DIR']) fs.rmSync(distDir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
