// Self-test of the e2e harness on a throwaway page (does not need the app or dist/): the static
// server's MIME/security rules, Chromium launch with WebGL2, OPFS seeding in chunks behind the
// stubbed directory picker, and the webkitdirectory fallback. When an app test fails, this file
// tells whether the harness or the app is at fault.

import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { serve } from './server.mjs';
import { launch, listOpfs, removeDirectoryPicker, seedOpfs, stubDirectoryPicker, tempTree, withPage } from './helpers.mjs';

const PAGE = `<!doctype html><meta charset="utf-8"><title>harness</title><link rel="icon" href="data:,">
<input id="dir-input" type="file" webkitdirectory multiple hidden>
<p id="ok">harness page</p>`;

let site;
let server;
let browser;

before(async () => {
  site = fs.mkdtempSync(path.join(os.tmpdir(), 'pypto-harness-'));
  fs.mkdirSync(path.join(site, 'sub'));
  fs.writeFileSync(path.join(site, 'index.html'), PAGE);
  fs.writeFileSync(path.join(site, 'empty.wasm'), Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
  fs.writeFileSync(path.join(site, 'mod.js'), 'export const x = 1;\n');
  fs.writeFileSync(path.join(site, 'sub', '01_after_X.py'), 'x = 1\n');
  fs.writeFileSync(path.join(os.tmpdir(), 'pypto-harness-secret.txt'), 'secret\n');
  server = await serve(site, 0);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
  fs.rmSync(site, { recursive: true, force: true });
});

function rawGet(url, rawPath) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname, port, path: rawPath, method: 'GET' }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('static server', () => {
  test('MIME types, cache header, HEAD, 404, redirect, traversal', async () => {
    for (const [file, type] of [
      ['/', 'text/html; charset=utf-8'],
      ['/empty.wasm', 'application/wasm'],
      ['/mod.js', 'text/javascript; charset=utf-8'],
      ['/sub/01_after_X.py', 'text/plain; charset=utf-8'],
    ]) {
      const res = await fetch(server.url + file);
      assert.equal(res.status, 200, file);
      assert.equal(res.headers.get('content-type'), type, file);
      assert.equal(res.headers.get('cache-control'), 'no-cache', file);
      assert.equal(res.headers.get('cross-origin-opener-policy'), null);
      assert.equal(res.headers.get('cross-origin-embedder-policy'), null);
    }
    const head = await fetch(`${server.url}/mod.js`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-length'), '20');
    assert.equal(await head.text(), '');
    assert.equal((await fetch(`${server.url}/nope.json`)).status, 404);
    const redirect = await fetch(`${server.url}/sub?x=1`, { redirect: 'manual' });
    assert.equal(redirect.status, 301);
    assert.equal(redirect.headers.get('location'), '/sub/?x=1');
    assert.equal((await fetch(`${server.url}/mod.js`, { method: 'POST' })).status, 405);
    assert.equal(await rawGet(server.url, '/../pypto-harness-secret.txt'), 403);
    assert.equal(await rawGet(server.url, '/%2e%2e/pypto-harness-secret.txt'), 403);
  });
});

describe('browser harness', () => {
  test('Chromium starts with WebGL2 and streams wasm with the right MIME type', async () => {
    await withPage(browser, 'harness-webgl', async ({ page }) => {
      await page.goto(`${server.url}/`);
      const info = await page.evaluate(async () => {
        const gl = document.createElement('canvas').getContext('webgl2');
        const { instance } = await WebAssembly.instantiateStreaming(fetch('./empty.wasm'));
        return { webgl2: gl !== null, wasm: instance instanceof WebAssembly.Instance, opfs: !!navigator.storage?.getDirectory };
      });
      assert.deepEqual(info, { webgl2: true, wasm: true, opfs: true });
    });
  });

  test('seedOpfs writes big files in chunks and the stubbed picker returns them', async () => {
    const big = crypto.randomBytes(2_500_000); // 3 chunks of 1 MiB
    const bigFile = path.join(os.tmpdir(), `pypto-harness-big-${process.pid}.bin`);
    fs.writeFileSync(bigFile, big);
    try {
      await withPage(browser, 'harness-opfs', async ({ page }) => {
        await stubDirectoryPicker(page);
        await page.goto(`${server.url}/`);
        await seedOpfs(page, {
          'case/dfx_outputs/big.bin': bigFile,
          'case/dfx_outputs/deps.json': Buffer.from('{"tasks":[]}'),
          'case/empty.txt': Buffer.alloc(0),
        });
        assert.deepEqual(await listOpfs(page), {
          'case/dfx_outputs/big.bin': big.length,
          'case/dfx_outputs/deps.json': 12,
          'case/empty.txt': 0,
        });
        // Through the stubbed picker, the way the app reads a folder.
        const digest = await page.evaluate(async () => {
          const dir = await window.showDirectoryPicker();
          const sub = await (await dir.getDirectoryHandle('case')).getDirectoryHandle('dfx_outputs');
          const file = await (await sub.getFileHandle('big.bin')).getFile();
          const hash = await crypto.subtle.digest('SHA-256', await file.arrayBuffer());
          return { name: dir.name, sha256: [...new Uint8Array(hash)].map((b) => b.toString(16).padStart(2, '0')).join('') };
        });
        assert.deepEqual(digest, { name: 'picked', sha256: crypto.createHash('sha256').update(big).digest('hex') });
      });
    } finally {
      fs.rmSync(bigFile, { force: true });
    }
  });

  test('without showDirectoryPicker, setInputFiles fills input[webkitdirectory]', async () => {
    const dir = tempTree({
      'mycase/dfx_outputs/deps.json': path.join(site, 'mod.js'),
      'mycase/passes_dump/01_after_X.py': path.join(site, 'sub', '01_after_X.py'),
    });
    try {
      await withPage(browser, 'harness-input', async ({ page }) => {
        await removeDirectoryPicker(page);
        await page.goto(`${server.url}/`);
        assert.equal(await page.evaluate(() => 'showDirectoryPicker' in window), false);
        await page.setInputFiles('#dir-input', dir);
        const names = await page.$eval('#dir-input', (el) => [...el.files].map((f) => f.webkitRelativePath).sort());
        const top = path.basename(dir);
        assert.deepEqual(names, [`${top}/mycase/dfx_outputs/deps.json`, `${top}/mycase/passes_dump/01_after_X.py`]);
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
