import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

/** Paths the backend answers; the service worker never serves the app shell for them. */
const API_PATHS = ['/auth', '/rest', '/storage', '/functions', '/sync', '/realtime', '/_outbox', '/health'];

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
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
        start_url: '/',
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
        // The replica uses the IndexedDB VFS without encryption: only wa-sqlite-async's WASM is ever loaded,
        // so the other three builds (encrypted "mc-", synchronous for OPFS) stay out of the precache.
        manifestTransforms: [
          async (entries) => ({
            manifest: entries.filter(
              (e) =>
                !/\/mc-wa-sqlite/.test(e.url) && (!e.url.endsWith('.wasm') || /wa-sqlite-async-/.test(e.url)),
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
        runtimeCaching: [
          {
            // The backend's address for this instance: fresh when online, the last copy offline so the app boots.
            urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname === '/app-config.json',
            handler: 'NetworkFirst',
            options: {
              cacheName: 'heartsync-app-config',
              networkTimeoutSeconds: 3,
              cacheableResponse: { statuses: [200] },
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
            },
          },
        ],
      },
    }),
  ],
  // @powersync/web ships its own workers and WASM: pre-bundling would break their relative URLs.
  optimizeDeps: { exclude: ['@powersync/web', '@journeyapps/wa-sqlite'] },
  worker: { format: 'es' },
  build: { target: 'es2022', sourcemap: false },
  server: {
    proxy: Object.fromEntries(
      ['/auth/v1', '/rest', '/storage', '/functions', '/sync', '/health', '/_outbox', '/app-config.json'].map(
        (p) => [p, 'http://localhost:3000'],
      ),
    ),
  },
});
