import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { createServer, defineConfig, type Plugin, type ResolvedConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { APP_SCRIPTS_ID } from './src/app/deferred-app.ts';

/** Paths the backend answers; the service worker never serves the app shell for them. */
const API_PATHS = ['/auth', '/rest', '/storage', '/functions', '/sync', '/realtime', '/_outbox', '/health'];

/** wa-sqlite's synchronous WASM build in the output (assets/wa-sqlite-<hash>.wasm, not wa-sqlite-async-). */
const SYNC_WASM = /\/wa-sqlite-(?!async-)[^/]*\.wasm$/;

/** The landing pre-rendered into its own page, served for / on a first visit (decision 0023). */
const LANDING_HTML = 'landing.html';
/** Its own entry script (src/landing-start.ts), built beside the app's (index.html -> src/main.tsx). */
const LANDING_START = 'landing-start';

/**
 * React Router's package exports only its development build, whose dev warnings stay on in production
 * (remix-run/react-router#14102); its production copy is in the same package. The build resolves to that copy
 * (decision 0095). When an upgrade no longer has it, the build says so rather than ship the development one.
 */
function reactRouterProductionBuild(): Plugin {
  const dir = path.join(import.meta.dirname, 'node_modules/react-router/dist/production');
  const files: Record<string, string> = { 'react-router': 'index.mjs', 'react-router/dom': 'dom-export.mjs' };
  return {
    name: 'heartsync:react-router-production',
    apply: 'build',
    // Before Vite's own resolution, which follows the package's exports.
    enforce: 'pre',
    resolveId(source) {
      const file = files[source];
      if (!file) return null;
      const resolved = path.join(dir, file);
      if (!fs.existsSync(resolved))
        this.error(
          `${resolved} is missing: check whether react-router still needs decision 0095's resolution`,
        );
      return resolved;
    },
  };
}

/**
 * Renders the landing (the real app tree at /, as a visitor sees it) into a copy of the built index.html,
 * so its text paints before any script runs; the app then hydrates it (src/main.tsx).
 */
function prerenderLanding(): Plugin {
  let build: ResolvedConfig | undefined;
  return {
    name: 'heartsync:prerender-landing',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      build = config;
    },
    async generateBundle(_options, bundle) {
      const index = bundle['index.html'];
      if (index?.type !== 'asset' || typeof index.source !== 'string') this.error('index.html was not built');
      // The build's own configuration file, mode and variables, so the page renders as the built app does.
      const ssr = await createServer({
        configFile: build?.configFile ?? false,
        mode: build?.mode ?? 'production',
        root: build?.root,
        logLevel: 'error',
        server: { middlewareMode: true, hmr: false, ws: false },
        appType: 'custom',
        optimizeDeps: { noDiscovery: true, include: [] },
      });
      try {
        const { renderLanding } = (await ssr.ssrLoadModule('/src/features/landing/prerender.tsx')) as {
          renderLanding: () => string;
        };
        const filled = index.source.replace(
          '<div id="root"></div>',
          `<div id="root" data-prerendered="landing">${renderLanding()}</div>`,
        );
        if (filled === index.source) this.error('index.html has no empty <div id="root"></div> to fill');
        // The page's own entry (src/landing-start.ts) takes the app's place in the head; the app's entry and
        // its preloads wait in an inert <template> until that entry adds them after the first paint (decision
        // 0074). Tags, not inline code: the CSP allows no inline script.
        const start = Object.values(bundle).find(
          (f) => f.type === 'chunk' && f.isEntry && f.name === LANDING_START,
        );
        if (start?.type !== 'chunk') this.error(`the ${LANDING_START} entry was not built`);
        const appScript =
          /\s*(?:<script type="module" crossorigin src="[^"]+"><\/script>|<link rel="modulepreload" crossorigin href="[^"]+">)/g;
        const appTags = (filled.match(appScript) ?? []).map((t) => t.trim());
        if (!appTags.some((t) => t.startsWith('<script')))
          this.error('index.html has no entry script to defer');
        const startTags = [
          `<script type="module" crossorigin src="/${start.fileName}"></script>`,
          ...start.imports.map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`),
        ];
        const html = filled
          .replace(appScript, '')
          .replace('</head>', `\n    ${startTags.join('\n    ')}\n  </head>`)
          .replace('</body>', `  <template id="${APP_SCRIPTS_ID}">${appTags.join('')}</template>\n  </body>`);
        this.emitFile({ type: 'asset', fileName: LANDING_HTML, source: html });
      } finally {
        await ssr.close();
      }
    },
  };
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes .br and .gz copies of the text assets next to them; the server sends the smallest one the browser
 * accepts (@fastify/static preCompressed), about a third of the bytes for scripts and styles.
 */
function precompress(): Plugin {
  return {
    name: 'heartsync:precompress',
    apply: 'build',
    enforce: 'post',
    // After writing: only then is every chunk final (Vite fills in its preload lists during generateBundle).
    async writeBundle(options, bundle) {
      const outDir = options.dir;
      if (!outDir) this.error('no output folder to write compressed copies to');
      const files = Object.values(bundle).filter((f) =>
        /\.(?:js|css|html|svg|webmanifest|json)$/.test(f.fileName),
      );
      // Brotli's best level is slow (seconds for the largest chunks): kept for what the first paint loads.
      const entries = Object.values(bundle).filter((f) => f.type === 'chunk' && f.isEntry);
      const firstLoad = new Set(
        entries.flatMap((f) => (f.type === 'chunk' ? [f.fileName, ...f.imports] : [])),
      );
      await Promise.all(
        files.map(async (f) => {
          const source = Buffer.from(f.type === 'chunk' ? f.code : f.source);
          if (source.length < 1024) return;
          const [br, gz] = await Promise.all([
            brotli(source, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]:
                  f.type === 'asset' || firstLoad.has(f.fileName) ? 11 : 9,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length,
              },
            }),
            gzip(source, { level: 9 }),
          ]);
          await fs.promises.writeFile(path.join(outDir, `${f.fileName}.br`), br);
          await fs.promises.writeFile(path.join(outDir, `${f.fileName}.gz`), gz);
        }),
      );
    },
  };
}

/**
 * A workbox plugin: while offline (public/sw-network.js) a route's network fetch is refused before it
 * starts, so NetworkFirst answers from its cache and CacheFirst fails as with no network, and nothing
 * leaves the device. Serialized into the worker by workbox-build: self-contained, no outside references.
 */
const NO_FETCH_WHILE_OFFLINE = {
  requestWillFetch: async ({ request }: { request: Request }) => {
    const sw = globalThis as unknown as { heartsyncOffline?: boolean; navigator?: { onLine?: boolean } };
    if (sw.heartsyncOffline === true || sw.navigator?.onLine === false) throw new Error('offline');
    return request;
  },
};

export default defineConfig({
  plugins: [
    reactRouterProductionBuild(),
    react(),
    tailwindcss(),
    prerenderLanding(),
    precompress(),
    VitePWA({
      // The update prompt (src/ui/update-prompt.tsx) registers the worker and asks before reloading.
      registerType: 'prompt',
      injectRegister: null,
      includeAssets: ['favicon.svg', 'apple-touch-icon.png'],
      manifest: {
        id: '/',
        name: 'HeartSync',
        short_name: 'HeartSync',
        description:
          'AI-powered dating that keeps working offline: your matches, likes and messages on your device.',
        lang: 'en',
        // A member route: the guard sends a visitor to /login (and back here after signing in), and a member
        // opens on the match list, the screen that shows synced data offline; / would show the landing page.
        start_url: '/match-list?source=pwa',
        scope: '/',
        display: 'standalone',
        orientation: 'portrait',
        theme_color: '#e11d48',
        background_color: '#fff1f2',
        categories: ['social', 'lifestyle'],
        icons: [
          { src: '/pwa-192x192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/pwa-512x512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/pwa-maskable-512x512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        // The app shell, lazy chunks and the sync engine's worker and WASM, so the member area opens offline.
        globPatterns: ['**/*.{js,css,html,svg,png,ico,wasm,webmanifest}'],
        maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
        // The replica uses the OPFS VFS without encryption (src/data/replica.tsx, decision 0034): only the
        // synchronous wa-sqlite WASM is precached. The asyncify build (IndexedDB VFS: browsers without OPFS, a
        // replica of the IndexedDB era with unsent writes) is cached at its first use below; the encrypted "mc-"
        // builds are never loaded. Stream's call SDK (stream-transport-*.js) is not precached either: calls need
        // the network anyway, and an instance calling peer to peer never loads it (issue 18).
        manifestTransforms: [
          async (entries) => ({
            manifest: entries.filter(
              (e) =>
                !/\/mc-wa-sqlite/.test(e.url) &&
                !/\/stream-transport-/.test(e.url) &&
                (!e.url.endsWith('.wasm') || SYNC_WASM.test(e.url)),
            ),
            warnings: [],
          }),
        ],
        navigateFallback: 'index.html',
        // /auth/callback is a route of the PWA; the rest of /auth is the auth API.
        navigateFallbackDenylist: [
          /^\/auth\/(?!callback(?:[/?#]|$))/,
          ...API_PATHS.filter((p) => p !== '/auth').map((p) => new RegExp(`^${p}(?:[/?#]|$)`)),
          /^\/app-config\.json/,
        ],
        cleanupOutdatedCaches: true,
        // The first visit's page is controlled as soon as its worker activates, without a reload: its lazy
        // chunks then come from the precache, so a page that loses the network right after the first visit
        // still opens its next screen. A new version still waits for the member's Reload (the update prompt):
        // claiming only takes pages that have no worker yet.
        clientsClaim: true,
        // Offline means no request (issue 21): the worker learns the network's state from the pages.
        importScripts: ['sw-network.js'],
        runtimeCaching: [
          {
            // The asyncify wa-sqlite WASM, for the IndexedDB VFS; its name changes with its content.
            // Serialized into the worker by workbox-build: self-contained, no outside references.
            urlPattern: ({ url, sameOrigin }) =>
              sameOrigin && /\/wa-sqlite-async-[^/]*\.wasm$/.test(url.pathname),
            handler: 'CacheFirst',
            options: {
              cacheName: 'heartsync-wasm',
              expiration: { maxEntries: 2 },
              cacheableResponse: { statuses: [200] },
            },
          },
          {
            // The backend's address for this instance: fresh when online, the last copy offline so the app boots.
            urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname === '/app-config.json',
            handler: 'NetworkFirst',
            options: {
              cacheName: 'heartsync-app-config',
              networkTimeoutSeconds: 3,
              cacheableResponse: { statuses: [200] },
              plugins: [NO_FETCH_WHILE_OFFLINE],
            },
          },
          {
            // Photos: stored objects never change under one name (re-encoded uploads get new names).
            urlPattern: ({ url, request }) =>
              request.method === 'GET' && /^\/storage\/v1\/object\/(?:public|sign)\//.test(url.pathname),
            handler: 'CacheFirst',
            options: {
              cacheName: 'heartsync-photos',
              expiration: { maxEntries: 400, maxAgeSeconds: 30 * 24 * 60 * 60, purgeOnQuotaError: true },
              cacheableResponse: { statuses: [200] },
              // A signed URL carries a new token each time the app asks for one, so keyed by the full URL an
              // offline reload would never find the photo. The cache key drops the query (the token): the
              // object's name is enough, as a stored object never changes under one name. The request still
              // carries its token, so the server checks access whenever the photo is fetched from the network;
              // the cache only holds photos this member was allowed to fetch, and is deleted at sign-out.
              // Serialized into the worker by workbox-build: self-contained, no outside references.
              plugins: [
                NO_FETCH_WHILE_OFFLINE,
                {
                  cacheKeyWillBeUsed: async ({ request }) => {
                    const url = new URL(request.url);
                    if (!url.pathname.startsWith('/storage/v1/object/sign/')) return request;
                    return url.origin + url.pathname;
                  },
                },
              ],
            },
          },
        ],
      },
    }),
  ],
  // @powersync/web ships its own workers and WASM: pre-bundling would break their relative URLs.
  optimizeDeps: { exclude: ['@powersync/web', '@journeyapps/wa-sqlite'] },
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    sourcemap: false,
    rollupOptions: {
      input: {
        index: path.resolve(import.meta.dirname, 'index.html'),
        [LANDING_START]: path.resolve(import.meta.dirname, 'src/landing-start.ts'),
      },
    },
  },
  server: {
    proxy: Object.fromEntries(
      ['/auth/v1', '/rest', '/storage', '/functions', '/sync', '/health', '/_outbox', '/app-config.json'].map(
        (p) => [p, 'http://localhost:3000'],
      ),
    ),
  },
});
