// Starts the viewer's wasm (a file, not an inline script, so the CSP needs no 'unsafe-inline').
// The page's glue (pypto-app.js) is imported below, after the worker has started: a static
// import would make the worker wait for that script's fetch and parse.

// Before the wasm loads, the page takes the remembered theme (settings.rs's key) or the system's,
// so a dark page does not flash light; the app then keeps <html data-theme> itself.
try {
  const choice = JSON.parse(localStorage.getItem('pypto-viewer.settings.v1') ?? '{}').theme;
  const dark = choice === 'dark' || (choice !== 'light' && matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
} catch {
  // unreadable settings: the app warns about them once it runs
}
// The analysis worker starts now, so that its wasm is fetched and compiled while the page's is;
// the app adopts it (worker_client.rs `take_early_worker`) with what it said meanwhile.
try {
  const worker = new Worker(new URL('./pypto-worker_loader.js', import.meta.url), { type: 'module' });
  const said = [];
  const keep = (event) => {
    if (event.type === 'error') event.preventDefault(); // the app reports it (a crash)
    said.push(event);
  };
  worker.addEventListener('message', keep);
  worker.addEventListener('error', keep);
  globalThis.__pyptoEarlyWorker = {
    worker,
    take() {
      worker.removeEventListener('message', keep);
      worker.removeEventListener('error', keep);
      return said;
    },
  };
} catch {
  // the app starts its worker itself
}
// The GPU side is brought up off the main thread while the wasm loads (see gpu-warm.js).
try {
  new Worker(new URL('./gpu-warm.js', import.meta.url));
} catch {
  // the first view to draw brings it up
}
const { default: init } = await import('./pypto-app.js');
await init({ module_or_path: new URL('./pypto-app_bg.wasm', import.meta.url) });
