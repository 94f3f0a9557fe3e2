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
