// Service worker: keeps the viewer usable offline. App files are precached at install
// (stable names, see Trunk.toml); the app's own files and the bundled demo are network-first
// with the cache as fallback, so a new build is picked up when online and the last one works
// when offline. A response is copied into the cache only when it differs from the cached one
// (its ETag or Last-Modified): rewriting the 6 MB of wasm on every visit slowed the start. Everything else — a hosted dataset (`?src=`), byte ranges — is not touched:
// it would be copied whole into the cache (a capture is gigabytes) and read to its end even
// after the page stopped wanting it (a cancelled load).
const CACHE = 'pypto-viewer-v2';
const APP_FILES = [
  './', './index.html', './boot.js', './gpu-warm.js', './style.css', './icon.svg', './icon-32.png', './manifest.webmanifest',
  './pypto-app.js', './pypto-app_bg.wasm',
  './pypto-worker.js', './pypto-worker_bg.wasm', './pypto-worker_loader.js', './pypto-worker_job_loader.js',
];

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // One missing file must not stop the others from being cached.
    await Promise.all(APP_FILES.map((f) => cache.add(new Request(f, { cache: 'reload' })).catch(() => {})));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) if (key !== CACHE) await caches.delete(key);
    await self.clients.claim();
  })());
});

/** The paths (under the service worker's scope) it serves: the app's files and the demo. */
function ownsPath(url) {
  const scope = new URL(self.registration.scope);
  if (!url.pathname.startsWith(scope.pathname)) return false;
  const rel = './' + url.pathname.slice(scope.pathname.length);
  return APP_FILES.includes(rel) || rel.startsWith('./demo/');
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin || request.headers.has('range') || !ownsPath(url)) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const response = await fetch(request);
      if (response.ok) {
        const copy = response.clone();
        event.waitUntil((async () => {
          const version = (r) => r?.headers.get('etag') ?? r?.headers.get('last-modified') ?? null;
          const kept = await cache.match(request, { ignoreSearch: true });
          if (version(copy) === null || version(kept) !== version(copy)) await cache.put(request, copy);
          else await copy.body?.cancel();
        })().catch(() => {})); // a full cache keeps the previous copy
      }
      return response;
    } catch (err) {
      const cached = await cache.match(request, { ignoreSearch: true });
      if (cached) return cached;
      throw err;
    }
  })());
});
