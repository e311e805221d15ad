// Comparing two runs (issue 19): the page's numbers equal `pypto-viewer compare --json`'s.
//
// - Two real captures in one folder (the Mixed case and its second run), compared through the
//   sidebar's "compare with…": summary, function table and task matching equal the CLI's; swap;
//   a function row opens both swimlanes on one axis (aligned at first dispatch) searched for it;
//   selecting a task says and highlights its match in the other run.
// - A second folder opened "as comparison" (Compare with folder…): its runs are the baselines.
// - Two hosted captures (`?src=…&compare=…`) generated with a seeded slowdown of one function:
//   that function is ranked first, by the injected amount; the link reproduces the view.
// - Two hosted pass dumps (a compile and a copy with one buffer moved): the passes that differ,
//   the A-against-B diff of a pass's snapshots, the memory high-water table.
// Screenshots of every comparison view go to tests/artifacts/compare-*.png.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import {
  FIXTURES,
  REPO,
  TIMEOUT_MS,
  datasetSel,
  filesOf,
  isViewerRuntimeFile,
  loadVia,
  openApp,
  screenshot,
  seedOpfs,
  serveDistAndLaunch,
  summaryOf,
  tempTree,
  withPage,
} from './helpers.mjs';

const cli = (...args) =>
  spawnSync('cargo', ['run', '--release', '-q', '-p', 'pypto-cli', '--bin', 'pypto-viewer', '--', ...args], {
    cwd: REPO,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });

function cliJson(...args) {
  const r = cli(...args);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

const MIXED = path.join(FIXTURES, 'runtime', 'a2a3sim-L4-TestChipSwimlaneMixed_default');
const MIXED2 = path.join(FIXTURES, 'runtime', 'a2a3sim-L4-TestChipSwimlaneMixed_default-run2');

// Hosted datasets: `/data/<rel>` from this directory (each with its manifest).
const HOSTED = fs.mkdtempSync(path.join(os.tmpdir(), 'pypto-e2e-compare-'));
const handle = (req, res) => {
  const m = /^\/data\/(.+)$/.exec(decodeURIComponent(req.url.split('?')[0]));
  if (!m) return false;
  const file = path.join(HOSTED, m[1]);
  if (!file.startsWith(HOSTED) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
    return true;
  }
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache' });
  res.end(fs.readFileSync(file));
  return true;
};
const env = serveDistAndLaunch({ handle });

/** Copies `dir`'s viewer files to `HOSTED/<name>/` and writes its manifest. */
function host(dir, name, filter = isViewerRuntimeFile) {
  const root = path.join(HOSTED, name);
  for (const [rel, abs] of Object.entries(filesOf(dir, '.', filter))) {
    const dst = path.join(root, rel);
    fs.mkdirSync(path.dirname(dst), { recursive: true });
    fs.copyFileSync(abs, dst);
  }
  const r = cli('manifest', root);
  assert.equal(r.status, 0, r.stderr);
  return root;
}

/** The cells' texts of a data table's rendered rows, by `data-row`, as `{col: text}`. */
async function tableRows(page, testid) {
  return page.evaluate((id) => {
    const rows = [...document.querySelectorAll(`[data-testid="${id}-row"]`)];
    rows.sort((a, b) => Number(a.dataset.row) - Number(b.dataset.row));
    return rows.map((r) => Object.fromEntries([...r.querySelectorAll('[data-col]')].map((c) => [c.dataset.col, c.textContent.trim()])));
  }, testid);
}

const fmt = (v, unit) => {
  if (v == null) return '-';
  if (unit === 'count') return v.toFixed(0);
  if (unit === '%') return `${v.toFixed(2)}%`;
  return v.toFixed(3);
};

/** The page's comparison equals the CLI's `doc` (summary rows, functions, task counts). */
async function assertMatchesCli(page, doc) {
  await page.waitForSelector('[data-testid=compare-runs]', { timeout: TIMEOUT_MS });
  const runs = page.locator('[data-testid=compare-runs]');
  assert.equal(Number(await runs.getAttribute('data-matched')), doc.tasks.matched);
  assert.equal(Number(await runs.getAttribute('data-only-a')), doc.tasks.only_a);
  assert.equal(Number(await runs.getAttribute('data-only-b')), doc.tasks.only_b);
  const summary = await tableRows(page, 'compare-summary');
  // task kinds neither run has are left out, as the CLI's text leaves them out
  const shown = doc.summary_rows.filter((r) => !(r.key.startsWith('tasks_') && r.key !== 'tasks_total' && !r.a && !r.b));
  assert.equal(summary.length, shown.length, 'one summary row per CLI row');
  shown.forEach((r, i) => {
    assert.equal(summary[i].a, fmt(r.a, r.unit), `${r.key} A`);
    assert.equal(summary[i].b, fmt(r.b, r.unit), `${r.key} B`);
    assert.deepEqual(doc.summary[r.key], [r.a, r.b], `summary.${r.key} is [a, b]`);
  });
  const functions = await tableRows(page, 'compare-functions');
  assert.equal(functions.length, doc.functions.length);
  doc.functions.forEach((f, i) => {
    const row = functions[i];
    assert.equal(row.function, f.name, `function ${i} in the CLI's order`);
    assert.equal(row.count_a, f.count[0] == null ? '-' : String(f.count[0]));
    assert.equal(row.count_b, f.count[1] == null ? '-' : String(f.count[1]));
    assert.equal(row.avg_exec_a, fmt(f.avg_exec_us[0]));
    assert.equal(row.avg_exec_b, fmt(f.avg_exec_us[1]));
    assert.equal(row.max_exec_b, fmt(f.max_exec_us[1]));
    assert.equal(row.min_exec_a, fmt(f.min_exec_us[0]));
    assert.equal(row.avg_latency_b, fmt(f.avg_latency_us[1]));
  });
}

test('two captures of one folder compared through the sidebar equal the CLI; swap, swimlanes, task match', async () => {
  const doc = cliJson('compare', MIXED, MIXED2, '--json');
  await withPage(env.browser, 'compare-sidebar', async ({ page }) => {
    await page.setViewportSize({ width: 1400, height: 1800 });
    await page.addInitScript(() => {
      window.showDirectoryPicker = async () => (await navigator.storage.getDirectory()).getDirectoryHandle(window.__pick ?? 'picked', { create: true });
    });
    await openApp(page, `${env.server.url}/`);
    const files = { ...filesOf(MIXED, 'runs/mixed', isViewerRuntimeFile), ...filesOf(MIXED2, 'runs/mixed-run2', isViewerRuntimeFile) };
    await seedOpfs(page, files);
    await loadVia(page, () => page.click('#open-folder'));
    const b = datasetSel('runtime', 'runs/mixed-run2');
    await summaryOf(page, b);
    await summaryOf(page, datasetSel('runtime', 'runs/mixed'));
    // B = this row (run2), A = the chosen one
    const aId = await page.evaluate(() => {
      const opt = [...document.querySelectorAll('[data-testid=compare-with] option')].find((o) => o.textContent === 'runs/mixed');
      return opt.value;
    });
    await page.selectOption(`${b} [data-testid=compare-with]`, aId);
    await page.waitForSelector('[data-testid=comparison-bar]');
    assert.equal(await page.getAttribute('[data-testid=comparison-bar]', 'data-a'), 'runs/mixed');
    assert.equal(await page.getAttribute('[data-testid=comparison-bar]', 'data-b'), 'runs/mixed-run2');
    await assertMatchesCli(page, doc);
    assert.match(await page.textContent('[data-testid=compare-task-counts]'), /3 matched \(3 by task id, 0 as the k-th execution/);
    await page.waitForSelector('[data-testid=compare-histogram] rect');
    assert.match(await page.evaluate(() => location.hash), /cmp=1/);
    await screenshot(page, 'compare-runs');

    // Swap: A and B trade places, every number with them.
    await page.click('[data-testid=compare-swap]');
    await page.waitForFunction(() => document.querySelector('[data-testid=comparison-bar]')?.dataset.a === 'runs/mixed-run2');
    await page.waitForFunction(() => document.querySelector('[data-testid=compare-summary-row] [data-col=a]'));
    const swapped = cliJson('compare', MIXED2, MIXED, '--json');
    await page.waitForFunction((v) => document.querySelector('[data-testid=compare-summary-row][data-row="0"] [data-col=a]')?.textContent === v, fmt(swapped.summary_rows[0].a, swapped.summary_rows[0].unit));
    await assertMatchesCli(page, swapped);
    await page.click('[data-testid=compare-swap]');
    await page.waitForFunction(() => document.querySelector('[data-testid=comparison-bar]')?.dataset.a === 'runs/mixed');

    // A function row: both swimlanes, one axis, searched for it.
    await page.waitForSelector('[data-testid=compare-functions-row][data-row="0"]');
    await page.click('[data-testid=compare-functions-row][data-row="0"]');
    await page.waitForSelector('#swimlane[data-bars]', { timeout: TIMEOUT_MS });
    await page.waitForFunction(() => /first dispatch/.test(document.querySelector('#swimlane')?.dataset.alignment ?? ''), null, { timeout: TIMEOUT_MS });
    const groups = await page.evaluate(() => window.__pyptoSwimlane.groups().groups);
    const datasetsShown = new Set(groups.map((g) => g.dataset));
    assert.equal(datasetsShown.size, 2, 'both runs on one timeline');
    await screenshot(page, 'compare-swimlanes');

    // The search selected the function's first bar: its task's match in the other run is said
    // and highlighted (both bright, the rest dimmed).
    await page.waitForSelector('[data-testid=compare-match][data-other]', { timeout: TIMEOUT_MS });
    const m = await page.$eval('[data-testid=compare-match]', (e) => ({ ...e.dataset }));
    assert.equal(m.task, m.other, 'the second run of the same case matches by task id');
    assert.equal(m.rule, 'id');
    await screenshot(page, 'compare-swimlanes-match');
    // Aligned at the selected task: the task in A and its match in B both start at 0.
    await page.selectOption('#align-mode', 'task');
    await page.waitForFunction((t) => (document.querySelector('#swimlane')?.dataset.alignment ?? '').includes(`aligned at task ${t}`), m.task, { timeout: TIMEOUT_MS });

    // Both runs' critical paths at once: on-path bars of A and of B stay bright.
    await page.keyboard.press('Escape');
    await page.selectOption('#path-mode', 'observed');
    await page.waitForFunction(() => {
      const api = window.__pyptoSwimlane;
      return api.groups().groups.some((g) => g.tracks.some((t) => t.bars > 0 && api.isDimmed(t.index, 0) !== null));
    });
    const bright = await page.evaluate(() => {
      const api = window.__pyptoSwimlane;
      const out = {};
      for (const g of api.groups().groups) {
        if (g.view !== 'Worker View') continue;
        for (const t of g.tracks) for (let i = 0; i < t.bars; i++) if (api.isDimmed(t.index, i) === false) out[g.dataset] = (out[g.dataset] ?? 0) + 1;
      }
      return out;
    });
    assert.equal(Object.keys(bright).length, 2, `on-path bars in both runs: ${JSON.stringify(bright)}`);
    await screenshot(page, 'compare-swimlanes-critical-path');

    // Back to the comparison: kept (no second request), then a folder opened "as comparison".
    await page.click('[data-testid=view-switch-compare]');
    await page.waitForSelector('[data-testid=compare-runs]');
    await seedOpfs(page, filesOf(MIXED, 'mixed', isViewerRuntimeFile), { root: 'baseline' });
    await page.evaluate(() => { window.__pick = 'baseline'; });
    await loadVia(page, () => page.click('#open-compare-folder'));
    await page.waitForSelector('[data-testid=comparison-heading]');
    await page.waitForFunction(() => document.querySelector('[data-testid=comparison-bar]')?.dataset.a === 'baseline/mixed', null, { timeout: TIMEOUT_MS });
    assert.equal(await page.getAttribute('[data-testid=comparison-bar]', 'data-b'), 'runs/mixed-run2', 'compared with what was shown');
    await assertMatchesCli(page, doc);
    await screenshot(page, 'compare-folder-as-comparison');
  });
});

test('a generated slowdown of one function is ranked first by the injected amount (?src=&compare=), and the link reproduces it', async () => {
  const gen = fs.mkdtempSync(path.join(os.tmpdir(), 'pypto-e2e-slowdown-'));
  const [func, extraUs] = [3, 2];
  for (const [name, extra] of [['base', []], ['slow', ['--slow-function', `${func}:${extraUs}`]]]) {
    const r = cli('gen', path.join(gen, name), '--tasks', '400', '--seed', '11', '--name-map', ...extra);
    assert.equal(r.status, 0, r.stderr);
  }
  host(path.join(gen, 'base'), 'base');
  host(path.join(gen, 'slow'), 'slow');
  const doc = cliJson('compare', path.join(gen, 'base'), path.join(gen, 'slow'), '--json');
  const first = doc.functions[0];
  const names = JSON.parse(fs.readFileSync(fs.readdirSync(path.join(gen, 'slow')).filter((n) => n.startsWith('name_map')).map((n) => path.join(gen, 'slow', n))[0], 'utf8'));
  assert.ok(JSON.stringify(names).includes(first.name), `the first function (${first.name}) is a named one`);
  assert.equal(first.func_id[1], func, 'the slowed function is ranked first');
  const expected = first.count[1] * extraUs;
  assert.ok(Math.abs(first.total_exec_us[1] - first.total_exec_us[0] - expected) < 0.05, `Δ total ${first.total_exec_us[1] - first.total_exec_us[0]} = ${expected}`);
  for (const f of doc.functions.slice(1)) assert.ok(Math.abs((f.total_exec_us[1] ?? 0) - (f.total_exec_us[0] ?? 0)) < 1e-6, `${f.name} unchanged`);

  await withPage(env.browser, 'compare-slowdown', async ({ page }) => {
    await page.setViewportSize({ width: 1400, height: 1800 });
    const url = `${env.server.url}/?src=/data/slow/&compare=/data/base/`;
    await openApp(page, url);
    await page.waitForSelector('body[data-load-state=done]', { state: 'attached', timeout: TIMEOUT_MS });
    await page.waitForSelector('[data-testid=comparison-bar]', { timeout: TIMEOUT_MS });
    await assertMatchesCli(page, doc);
    const row = (await tableRows(page, 'compare-functions'))[0];
    assert.equal(row.total_exec_delta, `+${expected.toFixed(3)}`);
    await page.waitForFunction(() => /cmp=1/.test(location.hash));
    const hash = await page.evaluate(() => location.hash);
    await screenshot(page, 'compare-slowdown');
    // the link on a fresh page: the same comparison
    const again = await page.context().newPage();
    await openApp(again, `${url}${hash}`);
    await again.waitForSelector('[data-testid=compare-runs]', { timeout: TIMEOUT_MS });
    assert.equal(await again.getAttribute('[data-testid=comparison-bar]', 'data-a'), await page.getAttribute('[data-testid=comparison-bar]', 'data-a'));
    await assertMatchesCli(again, doc);
    await again.close();
  });
});

test('two pass dumps: the passes that differ, pass against pass, memory high-water', async () => {
  const source = path.join(FIXTURES, 'passes', 'generated-tile_softmax');
  const dump = fs.readdirSync(source).map((n) => path.join(source, n, 'passes_dump')).find((p) => fs.existsSync(p));
  const all = () => true;
  const a = host(dump, 'passes-a/passes_dump', all);
  const b = path.join(HOSTED, 'passes-b/passes_dump');
  fs.cpSync(a, b, { recursive: true });
  for (const name of fs.readdirSync(b)) {
    const index = Number(name.split('_')[0]);
    if (!(index >= 35) || !name.endsWith('.py')) continue;
    const file = path.join(b, name);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('pl.MemRef(mem_vec_4, pl.const(32768, pl.INT64), 256)', 'pl.MemRef(mem_vec_4, pl.const(40960, pl.INT64), 256)'));
  }
  fs.rmSync(path.join(b, 'pypto-viewer-manifest.json'));
  assert.equal(cli('manifest', path.dirname(b)).status, 0);
  fs.rmSync(path.join(a, 'pypto-viewer-manifest.json'));
  assert.equal(cli('manifest', path.dirname(a)).status, 0);
  const doc = cliJson('compare', a, b, '--json');

  await withPage(env.browser, 'compare-passes', async ({ page }) => {
    await page.setViewportSize({ width: 1400, height: 900 });
    await openApp(page, `${env.server.url}/?src=/data/passes-b/&compare=/data/passes-a/`);
    await page.waitForSelector('[data-testid=compare-passes][data-rows]:not([data-rows="0"])', { timeout: TIMEOUT_MS });
    const facts = await page.$eval('[data-testid=compare-passes]', (e) => ({ ...e.dataset }));
    assert.equal(Number(facts.rows), doc.passes.length);
    assert.equal(Number(facts.effectDifferences), doc.effect_differences);
    assert.equal(Number(facts.outputDifferences), doc.output_differences);
    assert.deepEqual([doc.effect_differences, doc.output_differences], [1, 15]);
    // the first row whose output differs is selected, its snapshots diffed A against B
    const row = doc.first_output_difference;
    await page.waitForSelector(`[data-testid=compare-pass-row][data-row="${row}"][data-selected=true]`);
    await page.waitForFunction(() => Number(document.querySelector('[data-testid=compare-pass-diff]')?.dataset.rows) > 0, null, { timeout: TIMEOUT_MS });
    const diff = await page.$eval('[data-testid=compare-pass-diff]', (e) => ({ added: Number(e.dataset.added), removed: Number(e.dataset.removed) }));
    assert.deepEqual(diff, { added: doc.passes[row].cross_added, removed: doc.passes[row].cross_removed });
    assert.ok(diff.added > 0 && diff.removed > 0, 'the moved buffer changes its lines');
    await page.click('[data-testid=pass-expand-all], [data-testid=compare-pass-expand-all]');
    const changed = await page.$$eval('[data-testid=compare-pass-diff] .tok-ins', (els) => els.map((e) => e.textContent).join(' '));
    assert.match(changed, /40960/);
    await screenshot(page, 'compare-passes');
    // the filters
    await page.click('[data-testid=compare-pass-filter-effect]');
    assert.equal(await page.locator('[data-testid=compare-pass-row][data-effect-differs=true]').count(), 1);
    assert.equal(await page.locator('[data-testid=compare-pass-row]').count(), 2, 'the frontends and the one pass');
    // memory: the moved buffer's high-water mark
    await page.click('[data-testid=compare-pass-tab-memory]');
    await page.waitForSelector('[data-testid=compare-memory-row]', { timeout: TIMEOUT_MS });
    const rows = await tableRows(page, 'compare-memory');
    const mem = doc.memory[0];
    assert.equal(rows[0].function, mem.function);
    assert.equal(rows[0].a, String(mem.a_hwm_bytes));
    assert.equal(rows[0].b, String(mem.b_hwm_bytes));
    assert.equal(rows[0].delta, '+8192');
    await screenshot(page, 'compare-passes-memory');
  });
});
