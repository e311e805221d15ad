// Starts the viewer's wasm (a file, not an inline script, so the CSP needs no 'unsafe-inline').
import init from './pypto-app.js';
await init({ module_or_path: new URL('./pypto-app_bg.wasm', import.meta.url) });
