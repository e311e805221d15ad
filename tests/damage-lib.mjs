// The damage harnesses' shared generator and plumbing (issue 17, item 6): the seed
// (DAMAGE_SEED, default 17) and its PRNG, the JSON damages (truncation, garbage bytes, a type
// swap, a negative or huge number, null, deep nesting, an empty file, an HTML 404 page, UTF-16,
// a byte order mark) for each JSON input kind, the route that serves each case's folder from
// memory (with the manifest `?src=` reads), and what the page says about one file. Used by
// damage.test.mjs (runtime inputs) and damage-passes.test.mjs (pass dumps, the serving STRACE
// trace).

import assert from 'node:assert/strict';
import { mimeType } from './server.mjs';

export const SEED = Number(process.env.DAMAGE_SEED ?? 17);

/** mulberry32: a small seeded PRNG (uniform in [0, 1)). */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Replaces the first match of `re` in `text` (which must match). */
export function swap(text, re, by) {
  assert.match(text, re, `the fixture has ${re}`);
  return text.replace(re, by);
}

/** An HTML 404 page, what a misconfigured server sends in place of a file. */
export const HTML_404 = Buffer.from('<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head>\n<body><h1>Not Found</h1></body></html>\n');

/** The first span of a Chrome trace (`ph` X): its `ts` or `dur` value. */
const TRACE_SPAN = /("ph":\s*"X",\s*"ts":\s*)(-?[\d.]+)(,\s*"dur":\s*)([\d.]+)/;

/**
 * The damages of a JSON input: each maps (bytes, input kind, rand) to damaged bytes, or `null`
 * when the damage has no meaning for that kind. Kinds: `records`, `deps`, `name_map`, `cpm`
 * (a Chrome trace ending `]}`), `strace` (a Chrome trace with `metadata` after its events).
 * `syntactic` damage must give a positioned file error.
 */
export const JSON_DAMAGES = {
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
      // A span's start time as a string.
      if (k === 'strace') return Buffer.from(swap(t, TRACE_SPAN, '$1"$2"$3$4'));
      return Buffer.from(swap(t, /"traceEvents":\s*\[/, '"traceEvents": {"x": [').replace(/\]\s*}\s*$/, ']}}'));
    },
  },
  negative: {
    syntactic: false,
    apply: (b, k) => {
      const t = b.toString('utf8');
      // The first AICore row's start cycle; a task's block_num; a name that is not a string; a span's duration.
      if (k === 'records') return Buffer.from(swap(t, /("aicore_tasks":\s*\[\s*\[\s*-?\d+\s*,\s*-?\d+\s*,\s*-?\d+\s*,\s*)(\d+)/, '$1-$2'));
      if (k === 'deps') return Buffer.from(swap(t, /"block_num":\s*\d+/, '"block_num": -1'));
      if (k === 'name_map') return Buffer.from(swap(t, /("callable_id_to_name":\s*\{\s*"[^"]+":\s*)"[^"]*"/, '$1-1'));
      if (k === 'strace') return Buffer.from(swap(t, TRACE_SPAN, '$1$2$3-$4'));
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
      if (k === 'strace') return Buffer.from(swap(t, TRACE_SPAN, '$1123456789012345678901234567890$3$4'));
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
      if (k === 'strace') return Buffer.from(swap(t, /"traceEvents":\s*\[/, '"traceEvents": null, "was_traceEvents": ['));
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
  html_404: { syntactic: true, apply: () => HTML_404 },
  utf16: {
    syntactic: true,
    apply: (b) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(b.toString('utf8'), 'utf16le')]),
  },
  bom: { syntactic: true, apply: (b) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b]) },
};

/**
 * The folders of the cases, served from memory under `/damage/<case>/` (Range requests
 * included: details read back), each with the `pypto-viewer-manifest.json` that `?src=` reads.
 */
export class CaseRoutes {
  #routes = new Map();

  /**
   * Case `id`'s folder: `files` maps a path to its bytes; `unserved` paths are listed in the
   * manifest (with `files`' size for them) but answered 404.
   */
  add(id, files, { unserved = [] } = {}) {
    const manifest = JSON.stringify({
      format: 'pypto-viewer-manifest',
      version: 1,
      files: Object.entries(files)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([p, b]) => ({ path: p, size_bytes: b.length })),
    });
    const served = { ...files };
    for (const p of unserved) delete served[p];
    served['pypto-viewer-manifest.json'] = Buffer.from(manifest);
    this.#routes.set(id, served);
  }

  /** The `?src=` folder of case `id` (relative to the server's root). */
  static src(id) {
    return `damage/${id}/`;
  }

  /** server.mjs `handle`: answers /damage/<case>/<file>, else returns false. */
  handle = (req, res) => {
    const urlPath = decodeURIComponent(req.url.split(/[?#]/)[0]);
    const m = urlPath.match(/^\/damage\/([^/]+)\/(.+)$/);
    if (!m || !this.#routes.has(m[1])) return false;
    const body = this.#routes.get(m[1])[m[2]];
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
  };
}

/** A file error's text names its position (`line L, column C`). */
export const POSITIONED = /line [1-9]\d*, column [1-9]\d*/;

/** The file errors (their text) and dataset warnings (their title) the page shows for `path`. */
export function namedOnPage(page, path) {
  return page.evaluate((p) => {
    const errors = [...document.querySelectorAll('#errors li.file-error')].filter((e) => e.dataset.path === p).map((e) => e.textContent);
    const warnings = [...document.querySelectorAll('.dataset-warning')].filter((w) => w.dataset.path === p).map((w) => w.getAttribute('title'));
    return { errors, warnings };
  }, path);
}

/**
 * Checks a loaded page's verdict on the damaged file `path` of case `c` (`syntactic`: a
 * positioned error is due; `accepted`: the file reads as intact, no error), appending what is
 * wrong to `problems`. Returns what the page said.
 */
export async function checkNamed(page, c, path, problems) {
  const named = await namedOnPage(page, path);
  const positioned = named.errors.some((t) => POSITIONED.test(t));
  if (c.syntactic && !positioned) problems.push(`${c.id}: no positioned error for ${path} (errors: ${JSON.stringify(named.errors)}, warnings: ${JSON.stringify(named.warnings)})`);
  if (c.accepted) {
    if (named.errors.length) problems.push(`${c.id}: ${path} should read as the intact file, got ${JSON.stringify(named.errors)}`);
  } else if (!c.syntactic && named.errors.length + named.warnings.length === 0) {
    problems.push(`${c.id}: ${path} loaded silently`);
  }
  return named;
}

/**
 * Opens the demo after a harness's cases (the page must still work): waits for its load to end.
 * The caller checks what it loaded.
 */
export async function openDemoAfter(page, timeoutMs) {
  await page.evaluate(() => document.body.removeAttribute('data-load-state'));
  await page.click('#open-demo');
  await page.waitForSelector('body[data-load-state="done"]', { state: 'attached', timeout: timeoutMs });
}

/**
 * A case's folder: `damaged/<file>` for every file of `base` (`file` replaced by `bytes`) beside
 * an untouched `intact/` copy.
 */
export function pairedCopies(base, file, bytes) {
  const files = {};
  for (const [f, b] of Object.entries(base)) {
    files[`damaged/${f}`] = f === file ? bytes : b;
    files[`intact/${f}`] = b;
  }
  return files;
}

/** Opens case `id` (`?src=` its folder on `server`); whether its load ended within `timeoutMs`. */
export async function openCase(page, server, id, timeoutMs) {
  await page.goto(`${server.url}/?src=${encodeURIComponent(CaseRoutes.src(id))}`);
  return page.waitForSelector('body[data-load-state="done"]', { state: 'attached', timeout: timeoutMs }).then(() => true, () => false);
}
