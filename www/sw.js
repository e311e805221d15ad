// Service worker: keeps the viewer usable offline. App files are precached at install
// (stable names, see Trunk.toml); every same-origin GET is network-first with the cache as
// fallback, so a new build is picked up when online and the last one works when offline.
const CACHE = 'pypto-viewer-v1';
const APP_FILES = [
  './', './index.html', './boot.js', './style.css', './icon.svg', './icon-32.png', './manifest.webmanifest',
  './pypto-app.js', './pypto-app_bg.wasm',
  './pypto-worker.js', './pypto-worker_bg.wasm', './pypto-worker_loader.js',
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

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const response = await fetch(request);
      if (response.ok) cache.put(request, response.clone());
      return response;
    } catch (err) {
      const cached = await cache.match(request, { ignoreSearch: true });
      if (cached) return cached;
      throw err;
    }
  })());
});
