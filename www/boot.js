// Starts the viewer's wasm (a file, not an inline script, so the CSP needs no 'unsafe-inline').
import init from './pypto-app.js';

// Before the wasm loads, the page takes the remembered theme (settings.rs's key) or the system's,
// so a dark page does not flash light; the app then keeps <html data-theme> itself.
try {
  const choice = JSON.parse(localStorage.getItem('pypto-viewer.settings.v1') ?? '{}').theme;
  const dark = choice === 'dark' || (choice !== 'light' && matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
} catch {
  // unreadable settings: the app warns about them once it runs
}
await init({ module_or_path: new URL('./pypto-app_bg.wasm', import.meta.url) });
