// A damage harness of our own (issue 17, item 6): a seeded generator damages one file of a real
// capture at a time — truncation, garbage bytes, a type swap, a negative or huge number, null,
// deep nesting, an empty file, an HTML 404 page, UTF-16, a byte order mark — for every runtime
// input kind (records, deps.json, name map, CPM), serves the folder (`?src=`) beside an intact
// copy, and asserts for each case: no page error, the load ends, the damaged file is named (as a
// file error with its line and column when the damage is syntactic, else as an error or a
// warning of that file), the sibling dataset loaded in full; and the demo opens cleanly after.
//
// The seed is printed; DAMAGE_SEED=<n> replays a run (default 17). The damaged bytes are kept in
// memory and served by the test's own route on the dist server (server.mjs `handle`).

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { serve, mimeType } from './server.mjs';
import { DEMO_RUNTIME_FIXTURE, DIST, TIMEOUT_MS, datasetSel, launch, screenshot, summaryOf, withPage } from './helpers.mjs';

const SEED = Number(process.env.DAMAGE_SEED ?? 17);

/** mulberry32: a small seeded PRNG (uniform in [0, 1)). */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const INPUTS = {
  records: 'chip_swimlane_records.json',
  deps: 'deps.json',
  name_map: 'name_map_TestPagedAttention_CaseMediumLocal.json',
  cpm: 'CPM_static.json',
};
const BASE = Object.fromEntries(Object.values(INPUTS).map((f) => [f, fs.readFileSync(path.join(DEMO_RUNTIME_FIXTURE, f))]));

/** Replaces the first match of `re` in `text` (which must match). */
function swap(text, re, by) {
  assert.match(text, re, `the fixture has ${re}`);
  return text.replace(re, by);
}

/**
 * The damages: each maps (bytes, input kind, rand) to damaged bytes, or `null` when the damage
 * has no meaning for that input. `syntactic` damage must give a positioned file error.
 */
const DAMAGES = {
  truncate: {
    syntactic: true,
    apply: (b, _k, r) => b.subarray(0, Math.floor(b.length * (0.1 + 0.8 * r()))),
  },
  garbage: {
    syntactic: true,
    // Bytes that are never valid in JSON text (a control byte, bytes that are not UTF-8).
    apply: (b, _k, r) => {
      const out = Buffer.from(b);
      const at = Math.floor(out.length * (0.05 + 0.9 * r()));
      const junk = [0xff, 0xfe, 0x00, 0x01, 0xc0];
      for (let i = 0; i < 6 && at + i < out.length; i += 1) out[at + i] = junk[Math.floor(r() * junk.length)];
      return out;
    },
  },
  type_swap: {
    syntactic: true,
    apply: (b, k) => {
      const t = b.toString('utf8');
      if (k === 'records') return Buffer.from(swap(t, /"clock_freq_hz":\s*(\d+)/, '"clock_freq_hz": "$1"'));
      if (k === 'deps') return Buffer.from(swap(t, /"task_id":\s*"?\d+"?/, '"task_id": true'));
      if (k === 'name_map') return Buffer.from(swap(t, /"callable_id_to_name":\s*\{[^}]*\}/, '"callable_id_to_name": [1, 2]'));
      return Buffer.from(swap(t, /"traceEvents":\s*\[/, '"traceEvents": {"x": [').replace(/\]\s*}\s*$/, ']}}'));
    },
  },
  negative: {
    syntactic: false,
    apply: (b, k) => {
      const t = b.toString('utf8');
      // The first AICore row's start cycle; a task's block_num; a name that is not a string.
      if (k === 'records') return Buffer.from(swap(t, /("aicore_tasks":\s*\[\s*\[\s*-?\d+\s*,\s*-?\d+\s*,\s*-?\d+\s*,\s*)(\d+)/, '$1-$2'));
      if (k === 'deps') return Buffer.from(swap(t, /"block_num":\s*\d+/, '"block_num": -1'));
      if (k === 'name_map') return Buffer.from(swap(t, /("callable_id_to_name":\s*\{\s*"[^"]+":\s*)"[^"]*"/, '$1-1'));
      return null;
    },
  },
  huge: {
    syntactic: false,
    apply: (b, k) => {
      const t = b.toString('utf8');
      if (k === 'records') return Buffer.from(swap(t, /("aicore_tasks":\s*\[\s*\[\s*-?\d+\s*,\s*-?\d+\s*,\s*-?\d+\s*,\s*)(\d+)/, '$1123456789012345678901234567890'));
      if (k === 'deps') return Buffer.from(swap(t, /"task_id":\s*"?\d+"?/, '"task_id": 123456789012345678901234567890'));
      if (k === 'name_map') return Buffer.from(swap(t, /("callable_id_to_name":\s*\{\s*)"[^"]+"/, '$1"123456789012345678901234567890"'));
      return null;
    },
  },
  null_value: {
    syntactic: false,
    apply: (b, k) => {
      const t = b.toString('utf8');
      if (k === 'records') return Buffer.from(swap(t, /"metadata":\s*\{/, '"metadata": null, "was_metadata": {'));
      if (k === 'deps') return Buffer.from(swap(t, /"tasks":\s*\[/, '"tasks": null, "was_tasks": ['));
      if (k === 'name_map') return Buffer.from(swap(t, /"callable_id_to_name":\s*\{[^}]*\}/, '"callable_id_to_name": null'));
      return null;
    },
  },
  deep_nesting: {
    syntactic: true,
    apply: (b, k) => {
      const t = b.toString('utf8');
      const deep = '['.repeat(4000) + ']'.repeat(4000);
      if (k === 'records') return Buffer.from(swap(t, /"aicore_tasks":\s*\[/, `"aicore_tasks": [${deep}, `));
      if (k === 'deps') return Buffer.from(swap(t, /"tasks":\s*\[/, `"tasks": [${deep}, `));
      if (k === 'name_map') return Buffer.from(swap(t, /"callable_id_to_name":\s*\{/, `"callable_id_to_name": {"0": ${deep}, `));
      return Buffer.from(swap(t, /"traceEvents":\s*\[/, `"traceEvents": [${deep}, `));
    },
  },
  empty: { syntactic: true, apply: () => Buffer.alloc(0) },
  html_404: {
    syntactic: true,
    apply: () => Buffer.from('<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head>\n<body><h1>Not Found</h1></body></html>\n'),
  },
  utf16: {
    syntactic: true,
    apply: (b) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(b.toString('utf8'), 'utf16le')]),
  },
  bom: { syntactic: true, apply: (b) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b]) },
};

/** Every (input kind, damage) case with its damaged bytes, in a seeded order. */
function cases() {
  const r = prng(SEED);
  const out = [];
  for (const [kind, file] of Object.entries(INPUTS)) {
    for (const [name, d] of Object.entries(DAMAGES)) {
      const bytes = d.apply(BASE[file], kind, r);
      // A Chrome trace (CPM) may start with a BOM: Chrome's and Perfetto's readers skip it, and
      // so does ours (the file reads the same); that case must load without an error.
      const accepted = kind === 'cpm' && name === 'bom';
      if (bytes) out.push({ id: `${kind}-${name}`, kind, file, damage: name, syntactic: d.syntactic && !accepted, accepted, bytes });
    }
  }
  return out;
}

const CASES = cases();
/** The folder served for case `id`: `<id>/damaged/…` (one file damaged) and `<id>/intact/…`. */
const routes = new Map();
for (const c of CASES) {
  const files = {};
  for (const [f, b] of Object.entries(BASE)) {
    files[`damaged/${f}`] = f === c.file ? c.bytes : b;
    files[`intact/${f}`] = b;
  }
  const manifest = JSON.stringify({
    format: 'pypto-viewer-manifest',
    version: 1,
    files: Object.entries(files)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([p, b]) => ({ path: p, size_bytes: b.length })),
  });
  files['pypto-viewer-manifest.json'] = Buffer.from(manifest);
  routes.set(c.id, files);
}

/** Serves /damage/<case>/<file> from memory (Range requests included: details read back). */
function damageRoute(req, res) {
  const urlPath = decodeURIComponent(req.url.split(/[?#]/)[0]);
  const m = urlPath.match(/^\/damage\/([^/]+)\/(.+)$/);
  if (!m || !routes.has(m[1])) return false;
  const body = routes.get(m[1])[m[2]];
  if (!body) {
    res.writeHead(404).end();
    return true;
  }
  const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
  if (range) {
    const start = Number(range[1]);
    const end = range[2] ? Math.min(Number(range[2]), body.length - 1) : body.length - 1;
    res.writeHead(206, { 'content-type': mimeType(m[2]), 'content-range': `bytes ${start}-${end}/${body.length}`, 'content-length': end - start + 1 });
    res.end(req.method === 'HEAD' ? undefined : body.subarray(start, end + 1));
    return true;
  }
  res.writeHead(200, { 'content-type': mimeType(m[2]), 'content-length': body.length, 'accept-ranges': 'bytes', 'cache-control': 'no-cache' });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}

let server;
let browser;

before(async () => {
  server = await serve(DIST, 0, { handle: damageRoute });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test(`damaged inputs are named, the rest loads, nothing hangs (seed ${SEED}, ${CASES.length} cases)`, { timeout: 600_000 }, async () => {
  console.log(`damage harness: seed ${SEED}, ${CASES.length} cases (${Object.keys(INPUTS).length} inputs × ${Object.keys(DAMAGES).length} damages)`);
  await withPage(browser, 'damage', async ({ page }) => {
    const pageErrors = [];
    page.on('pageerror', (err) => pageErrors.push(err.message));
    const problems = [];
    for (const c of CASES) {
      pageErrors.length = 0;
      await page.goto(`${server.url}/?src=${encodeURIComponent(`damage/${c.id}/`)}`);
      const ended = await page
        .waitForSelector('body[data-load-state="done"]', { state: 'attached', timeout: TIMEOUT_MS })
        .then(() => true, () => false);
      if (!ended) {
        problems.push(`${c.id}: the load did not end`);
        continue;
      }
      const damagedPath = `damaged/${c.file}`;
      const named = await page.evaluate((p) => {
        const errors = [...document.querySelectorAll('#errors li.file-error')].filter((e) => e.dataset.path === p).map((e) => e.textContent);
        const warnings = [...document.querySelectorAll('.dataset-warning')].filter((w) => w.dataset.path === p).map((w) => w.getAttribute('title'));
        return { errors, warnings };
      }, damagedPath);
      const positioned = named.errors.some((t) => /line [1-9]\d*, column [1-9]\d*/.test(t));
      if (c.syntactic && !positioned) problems.push(`${c.id}: no positioned error for ${damagedPath} (errors: ${JSON.stringify(named.errors)}, warnings: ${JSON.stringify(named.warnings)})`);
      if (c.accepted) {
        if (named.errors.length) problems.push(`${c.id}: ${damagedPath} should read as the intact file, got ${JSON.stringify(named.errors)}`);
      } else if (!c.syntactic && named.errors.length + named.warnings.length === 0) {
        problems.push(`${c.id}: ${damagedPath} loaded silently`);
      }
      const intact = await summaryOf(page, datasetSel('runtime', 'intact')).catch(() => null);
      if (!intact || !(Number(intact.tasks) > 0) || !(Number(intact.depsTasks) > 0)) problems.push(`${c.id}: the intact sibling did not load in full (${JSON.stringify(intact)})`);
      if (pageErrors.length) problems.push(`${c.id}: page errors ${JSON.stringify(pageErrors)}`);
      if (c.id === 'records-negative') await screenshot(page, 'damage-records-negative');
    }
    // The demo opens after all that.
    pageErrors.length = 0;
    await page.evaluate(() => document.body.removeAttribute('data-load-state'));
    await page.click('#open-demo');
    await page.waitForSelector('body[data-load-state="done"]', { state: 'attached', timeout: TIMEOUT_MS });
    const demo = await summaryOf(page, datasetSel('runtime', 'paged_attention'));
    assert.ok(Number(demo.tasks) > 0, 'the demo loaded');
    if (pageErrors.length) problems.push(`demo: page errors ${JSON.stringify(pageErrors)}`);
    assert.deepEqual(problems, [], `\n${problems.join('\n')}`);
  });
});
