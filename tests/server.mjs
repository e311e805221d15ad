// Dependency-free static file server for the e2e tests (same rules as `cargo xtask serve`):
// explicit MIME table, `Cache-Control: no-cache` with an `ETag` (size and mtime; `304` for a
// matching `If-None-Match`, as static hosts answer), HEAD, 404, 405, path traversal refused (403),
// index.html for directories (redirect to the trailing-slash URL first). COOP/COEP only with
// `{ isolate: true }` (the bench). `{ handle(req, res) }` answers some requests first (returns
// true when it did): a test's own routes, e.g. a data file that stalls mid-body.
//
//   import { serve } from './server.mjs';
//   const { url, close } = await serve('/abs/dist', 0);   // url = 'http://127.0.0.1:PORT' (no trailing slash)

import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

export const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.map': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.py': 'text/plain; charset=utf-8',
  '.log': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.pto': 'text/plain; charset=utf-8',
  '.jsonl': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
};

export function mimeType(file) {
  return MIME[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** Resolves a request path to a file system path under `root`, or returns an HTTP status. */
function resolve(root, pathname) {
  let decoded;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return { status: 400 };
  }
  if (!decoded.startsWith('/') || decoded.includes('\0') || decoded.includes('\\')) return { status: 400 };
  const segments = decoded.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) return { status: 403 };
  return { file: path.join(root, ...segments) };
}

export function serve(dir, port = 0, { log = false, isolate = false, handle = undefined } = {}) {
  const root = fs.realpathSync(dir);
  // `isolate`: cross-origin isolation (COOP + COEP), which gives `performance.now()` 5 µs
  // resolution instead of 100 µs — the bench's frame timings need it; the app loads nothing
  // cross-origin, so it runs unchanged.
  const isolation = isolate ? { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' } : {};
  const server = http.createServer((req, res) => {
    if (handle?.(req, res)) return;
    const send = (status, body, headers = {}) => {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-cache', ...headers });
      res.end(req.method === 'HEAD' ? undefined : `${body}\n`);
      if (log) console.log(`${req.method} ${req.url} -> ${status}`);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'method not allowed', { allow: 'GET, HEAD' });
    // Keep the raw path: `new URL` would normalise `..` away before we can refuse it.
    const rawPath = req.url.split(/[?#]/)[0];
    const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
    const r = resolve(root, rawPath);
    if (r.status) return send(r.status, r.status === 403 ? 'path traversal refused' : 'bad request');
    let file;
    try {
      file = fs.realpathSync(r.file);
    } catch {
      return send(404, 'not found');
    }
    if (file !== root && !file.startsWith(root + path.sep)) return send(403, 'outside the served directory');
    let stat = fs.statSync(file);
    if (stat.isDirectory()) {
      if (!rawPath.endsWith('/')) return send(301, 'moved', { location: `${rawPath}/${query}` });
      file = path.join(file, 'index.html');
      if (!fs.existsSync(file)) return send(404, 'not found (no index.html)');
      stat = fs.statSync(file);
    }
    // `Range: bytes=a-b` (one range), as static hosts answer it: the worker re-reads one
    // deps.json task for the details panel instead of keeping every task's arguments.
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    if (range && Number(range[1]) < stat.size) {
      const start = Number(range[1]);
      const end = Math.min(range[2] === '' ? stat.size - 1 : Number(range[2]), stat.size - 1);
      res.writeHead(206, {
        'content-type': mimeType(file),
        'content-length': end - start + 1,
        'content-range': `bytes ${start}-${end}/${stat.size}`,
        'accept-ranges': 'bytes',
        'cache-control': 'no-cache',
        'x-content-type-options': 'nosniff',
        ...isolation,
      });
      if (log) console.log(`${req.method} ${req.url} -> 206 ${start}-${end}`);
      if (req.method === 'HEAD') return res.end();
      return fs.createReadStream(file, { start, end }).pipe(res);
    }
    const etag = `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, { etag, 'cache-control': 'no-cache', ...isolation });
      return res.end();
    }
    res.writeHead(200, {
      etag,
      'last-modified': stat.mtime.toUTCString(),
      'content-type': mimeType(file),
      'content-length': stat.size,
      'accept-ranges': 'bytes',
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
      ...isolation,
    });
    if (log) console.log(`${req.method} ${req.url} -> 200`);
    if (req.method === 'HEAD') return res.end();
    // 1 MiB reads: fewer, larger socket writes than the default 64 KiB for multi-GB captures.
    fs.createReadStream(file, { highWaterMark: 1 << 20 }).pipe(res);
  });
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const { port: actual } = server.address();
      resolvePromise({
        url: `http://127.0.0.1:${actual}`,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections?.();
            server.close(() => done());
          }),
      });
    });
  });
}

// `node server.mjs DIR [PORT]`: serve a directory by hand.
if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir = '../dist', port = '8080'] = process.argv.slice(2);
  const { url } = await serve(dir, Number(port), { log: true });
  console.log(`Serving ${path.resolve(dir)} at ${url}/`);
}
