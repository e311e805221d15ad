// Comparison bench (issue 19): two captures compared in headless Chromium, timed and reported —
// never asserted. Serves `dist/` and the two capture folders (each with its
// pypto-viewer-manifest.json), opens `?src=<B>&compare=<A>` and measures, per run:
//   load         navigation → body[data-load-state=done] (both captures read and modelled)
//   compare      load done → [data-testid=compare-runs] (both runs' critical paths computed in
//                jobs, then the comparison in the worker)
//   swimlanes    click "Open both swimlanes" → #swimlane[data-bars] (the two-dataset timeline
//                built in a job, aligned at first dispatch)
//   match        click on a bar → [data-testid=compare-match] (the task's match in the other run)
//
//   node bench/compare-bench.mjs --a <baseline dir> --b <this run dir> [--runs 3] [--dist ../dist]
// Make the folders with `pypto-viewer gen <dir> --tasks N --name-map [--slow-function F:X]` and
// `pypto-viewer manifest <dir>`.

import fs from 'node:fs';
import path from 'node:path';
import { serve } from '../server.mjs';
import { launch, DIST } from '../helpers.mjs';

const argv = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : dflt;
};
const DIRS = { a: path.resolve(opt('a', '')), b: path.resolve(opt('b', '')) };
const RUNS = Number(opt('runs', '3'));
const TIMEOUT_MS = 600_000;

for (const d of Object.values(DIRS)) {
  if (!fs.existsSync(path.join(d, 'pypto-viewer-manifest.json'))) throw new Error(`${d}: no pypto-viewer-manifest.json (run pypto-viewer manifest)`);
}

// `/cap/a/<file>` and `/cap/b/<file>` from the two folders (Range requests answered whole).
const handle = (req, res) => {
  const m = /^\/cap\/([ab])\/(.+)$/.exec(decodeURIComponent(req.url.split('?')[0]));
  if (!m) return false;
  const file = path.join(DIRS[m[1]], m[2]);
  if (!file.startsWith(DIRS[m[1]]) || !fs.existsSync(file)) {
    res.writeHead(404);
    res.end();
    return true;
  }
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': fs.statSync(file).size, 'cache-control': 'no-cache' });
  fs.createReadStream(file).pipe(res);
  return true;
};

const server = await serve(path.resolve(opt('dist', DIST)), 0, { handle });
const browser = await launch();
const rows = [];
try {
  for (let run = 1; run <= RUNS; run++) {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    const t0 = Date.now();
    await page.goto(`${server.url}/?src=/cap/b/&compare=/cap/a/`);
    await page.waitForSelector('body[data-load-state=done]', { state: 'attached', timeout: TIMEOUT_MS });
    const loaded = Date.now();
    await page.waitForSelector('[data-testid=compare-runs]', { timeout: TIMEOUT_MS });
    const compared = Date.now();
    await page.click('[data-testid=compare-open-swimlanes]');
    await page.waitForSelector('#swimlane[data-bars]', { timeout: TIMEOUT_MS });
    const drawn = Date.now();
    // a bar of run A's first Worker View lane with bars
    const rect = await page.evaluate(() => {
      const api = window.__pyptoSwimlane;
      const g = api.groups().groups.find((x) => x.view === 'Worker View' && x.tracks.some((t) => t.bars > 0));
      const t = g.tracks.find((x) => x.bars > 0).index;
      api.scrollToTrack(t);
      return api.barRect(t, 0);
    });
    const m0 = Date.now();
    await page.mouse.click(rect.x + Math.min(rect.w / 2, 3), rect.y + rect.h / 2);
    await page.waitForSelector('[data-testid=compare-match]', { timeout: TIMEOUT_MS }).catch(() => {});
    const matched = Date.now();
    rows.push({ run, load_ms: loaded - t0, compare_ms: compared - loaded, swimlanes_ms: drawn - compared, match_ms: matched - m0 });
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
console.log('run  load (ms)  compare (ms)  swimlanes (ms)  match (ms)');
for (const r of rows) console.log(`${String(r.run).padStart(3)}  ${String(r.load_ms).padStart(9)}  ${String(r.compare_ms).padStart(12)}  ${String(r.swimlanes_ms).padStart(14)}  ${String(r.match_ms).padStart(10)}`);
