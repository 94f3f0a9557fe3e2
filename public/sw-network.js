// Imported by the service worker (vite.config.ts, workbox's importScripts). Offline means no request
// (issue 21, decision 0067): the pages say when the network goes and comes back (src/data/network.ts), and
// the worker's own fetches (the app's config, photos) answer from its caches without trying the network
// while any page says it is offline or the worker's navigator does. A worker started anew knows nothing
// until a page tells it; its navigator decides meanwhile.
self.heartsyncOffline = false;
self.addEventListener('message', (event) => {
  const data = event.data;
  if (data && data.type === 'heartsync-network') self.heartsyncOffline = data.online === false;
});

// The app's hashed code, styles and the sync engine's WASM are read straight from the precache by the browser
// (the Static Routing API, Chromium 123+), without a fetch event in this worker for each: on a cold start the
// worker handled them one at a time, 3 to 10 ms each, and a member's first screen waits for dozens (bench:
// offline-start, decision 0075). A name under /assets/ holds its content's hash, so the cached copy is always
// the right one; anything the precache lacks goes to the network, as the worker would have sent it. The first
// rule that matches wins: the IndexedDB build's WASM, cached at run time under another name, keeps its fetch event.
self.addEventListener('install', (event) => {
  if (typeof event.addRoutes !== 'function') return;
  event.waitUntil(
    event
      .addRoutes([
        { condition: { urlPattern: { pathname: '/assets/wa-sqlite-async-*' } }, source: 'fetch-event' },
        {
          condition: {
            or: [
              { urlPattern: { pathname: '/assets/*.js' } },
              { urlPattern: { pathname: '/assets/*.css' } },
              { urlPattern: { pathname: '/assets/wa-sqlite-*.wasm' } },
            ],
          },
          source: { cacheName: `workbox-precache-v2-${self.registration.scope}` },
        },
      ])
      // A browser that refuses these rules still has the fetch events: nothing is lost but the shortcut.
      .catch((error) => console.warn('[sw] static routes not added', error)),
  );
});
