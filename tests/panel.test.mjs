// Performance Analysis panel (Overview, Kernel statistics, Setup tabs), the Function
// Performance view and the data table component (issue 5). Golden: the panel's numbers equal
// `pypto-viewer report --json` on the demo capture (TestPagedAttention L4, the same analysis
// code), run from this test. The table's 10k-row responsiveness is measured with the app's
// `window.__pyptoTableBench(n)` hook and printed (render / sort / scroll ms).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { serve } from './server.mjs';
import {
  DEMO_RUNTIME_FIXTURE, DIST, REPO, TIMEOUT_MS, datasetSel, launch, loadVia, openApp, screenshot, seedOpfs,
  stubDirectoryPicker, summaryOf, withPage,
} from './helpers.mjs';

/** The CLI's report of the demo fixture (`datasets[0]`). */
function cliReport() {
  const run = spawnSync('cargo', ['run', '--release', '-q', '-p', 'pypto-cli', '--bin', 'pypto-viewer', '--', 'report', '--json', DEMO_RUNTIME_FIXTURE], {
    cwd: REPO, encoding: 'utf8', maxBuffer: 1 << 30,
  });
  assert.equal(run.status, 0, `pypto-viewer report failed: ${run.stderr}`);
  const report = JSON.parse(run.stdout);
  assert.equal(report.datasets.length, 1);
  return report.datasets[0];
}

const close = (actual, expected, what, tol = 1e-9) => {
  const a = Number(actual);
  assert.ok(Math.abs(a - expected) <= tol * Math.max(1, Math.abs(expected)), `${what}: got ${actual}, CLI ${expected}`);
};

let server;
let browser;
let context;
let page;
let cli;

const api = (fn, ...args) => page.evaluate(([fn, args]) => window.__pyptoSwimlane[fn](...args), [fn, args]);

/** Visible rows of a data table: [{row, cells: {col: text}}]. */
const tableRows = (testid) =>
  page.$$eval(`[data-testid="${testid}-row"]`, (els) =>
    els
      .map((el) => ({
        row: Number(el.dataset.row),
        top: parseFloat(el.style.top),
        cells: Object.fromEntries([...el.children].map((c) => [c.dataset.col, c.textContent])),
      }))
      .sort((a, b) => a.top - b.top),
  );

async function openTab(id) {
  await page.click(`[data-testid="perf-tab-${id}"]`);
  await page.waitForSelector(`[data-testid="perf-body-${id}"]`);
}

/** Exports a table's CSV and returns its lines (BOM stripped) as arrays of fields. */
async function exportCsv(testid) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(`[data-testid="${testid}-csv"]`)]);
  const file = await download.path();
  const text = fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  return { name: download.suggestedFilename(), lines: text.split('\r\n').filter(Boolean).map((l) => l.split(',')) };
}

before(async () => {
  cli = cliReport();
  server = await serve(DIST, 0);
  browser = await launch();
  context = await browser.newContext({ viewport: { width: 1500, height: 900 }, acceptDownloads: true });
  page = await context.newPage();
  page.on('pageerror', (err) => console.error(`pageerror: ${err.message}`));
  await openApp(page, `${server.url}/`);
  await loadVia(page, () => page.click('#open-demo'));
  const sel = datasetSel('runtime', 'paged_attention/dfx_outputs');
  await summaryOf(page, sel);
  await page.click(`${sel} .dataset-name`); // the card's middle holds its trace buttons
  await page.waitForFunction(() => Number(document.querySelector('#swimlane')?.dataset.bars) > 0 && window.__pyptoSwimlane?.groups(), null, { timeout: TIMEOUT_MS });
  await page.click('#perf-panel-toggle');
  await page.waitForSelector('[data-testid="perf-panel"]');
});

after(async () => {
  await context?.close();
  await browser?.close();
  await server?.close();
});

test('overview tab equals the CLI report', async () => {
  await openTab('overview');
  await page.waitForSelector('[data-testid="ov-tasks"]', { timeout: TIMEOUT_MS });
  const value = (key) => page.getAttribute(`[data-testid="ov-${key}"]`, 'data-value');
  const ov = cli.performance_analysis.overview;
  for (const key of ['tasks', 'rows', 'active_cores', 'first_start_us', 'last_end_us', 'task_time_us', 'aicore_time_us', 'utilisation_pct']) {
    close(await value(key), ov[key], `overview ${key}`);
  }
  close(await value('span_us'), cli.records.span_us, 'time span');
  close(await value('level'), cli.records.level, 'level');
  close(await value('total_test_time_us'), cli.function_totals.total_test_time_us, 'total test time');
  close(await value('exec_latency_pct'), cli.function_totals.exec_vs_overhead.exec_latency_pct, 'exec/latency');
  close(await value('avg_latency_us'), cli.function_totals.exec_vs_overhead.avg_latency_us, 'avg latency');
  assert.match(await page.textContent('[data-testid="ov-level-allows"]'), /orchestrator/);
  assert.equal(cli.warnings.length, 0);
  await page.waitForSelector('[data-testid="ov-no-warnings"]');
  await screenshot(page, 'panel-overview');
});

test('kernel statistics: both tables equal the CLI; sort; CSV', async () => {
  await openTab('kernels');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="kernel-perf"]')?.dataset.rows) > 0, null, { timeout: TIMEOUT_MS });
  const perf = cli.function_performance;
  assert.equal(Number(await page.getAttribute('[data-testid="kernel-perf"]', 'data-rows')), perf.length);
  const rows = await tableRows('kernel-perf');
  assert.equal(rows.length, perf.length);
  rows.forEach((r, i) => {
    const f = perf[i];
    assert.equal(Number(r.cells.func_id), f.func_id);
    assert.equal(r.cells.name, f.name);
    assert.equal(Number(r.cells.count), f.count);
    close(r.cells.max_us, f.max_duration_us, `${f.name} max`, 1e-3);
    close(r.cells.min_us, f.min_duration_us, `${f.name} min`, 1e-3);
    close(r.cells.avg_us, f.avg_duration_us, `${f.name} avg`, 1e-3);
  });
  const conv = await tableRows('kernel-converter');
  assert.equal(conv.length, cli.functions.length);
  conv.forEach((r, i) => {
    const f = cli.functions[i];
    assert.equal(r.cells.name, f.name);
    assert.equal(Number(r.cells.count), f.count);
    assert.equal(r.cells.avg_exec_us, f.avg_exec_us.toFixed(2));
    assert.equal(r.cells.avg_latency_us, f.avg_latency_us.toFixed(2));
    assert.equal(r.cells.exec_pct, f.exec_pct.toFixed(1));
    assert.equal(r.cells.avg_local_us, f.avg_local_us.toFixed(2));
  });

  // Sort by average duration: ascending, then descending.
  const head = '[data-testid="kernel-perf-head"][data-col="avg_us"]';
  await page.click(head);
  assert.equal(await page.getAttribute('[data-testid="kernel-perf"]', 'data-sort'), 'avg_us:asc');
  const asc = [...perf].sort((a, b) => a.avg_duration_us - b.avg_duration_us).map((f) => f.name);
  assert.deepEqual((await tableRows('kernel-perf')).map((r) => r.cells.name), asc);
  await page.click(head);
  assert.equal(await page.getAttribute('[data-testid="kernel-perf"]', 'data-sort'), 'avg_us:desc');
  assert.deepEqual((await tableRows('kernel-perf')).map((r) => r.cells.name), [...asc].reverse());
  await screenshot(page, 'panel-kernels');

  // CSV in the shown (descending) order, full precision.
  const { name, lines } = await exportCsv('kernel-perf');
  assert.equal(name, 'kernel_statistics.csv');
  assert.deepEqual(lines[0], ['Func ID', 'Function Name', 'Count', 'Max Duration (µs)', 'Min Duration (µs)', 'Avg Duration (µs)']);
  const desc = [...perf].sort((a, b) => b.avg_duration_us - a.avg_duration_us);
  assert.equal(lines.length, perf.length + 1);
  desc.forEach((f, i) => {
    const l = lines[i + 1];
    assert.deepEqual(l.slice(0, 3), [String(f.func_id), f.name, String(f.count)]);
    assert.equal(Number(l[3]), f.max_duration_us);
    assert.equal(Number(l[5]), f.avg_duration_us);
  });
  await page.click(head); // back to unsorted
  assert.equal(await page.getAttribute('[data-testid="kernel-perf"]', 'data-sort'), '');
});

test('setup tab equals the CLI leaderboards; a row selects its task in the swimlane', async () => {
  await openTab('setup');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="setup-longest"]')?.dataset.rows) > 0, null, { timeout: TIMEOUT_MS });
  const boards = cli.performance_analysis.setup_leaderboards;
  assert.match(await page.textContent('[data-testid="setup-note"]'), new RegExp(`^${boards.rows_with_setup} AICore executions`));
  for (const [testid, board] of [['setup-longest', boards.longest_setup], ['setup-ratio', boards.largest_ratio]]) {
    const rows = (await tableRows(testid)).slice(0, board.length);
    assert.equal(rows.length, board.length, testid);
    rows.forEach((r, i) => {
      const e = board[i];
      assert.equal(r.cells.task_id, e.task_id, `${testid} #${i + 1} task`);
      assert.equal(Number(r.cells.core), e.core_id, `${testid} #${i + 1} core`);
      close(r.cells.setup_us, e.setup_us, `${testid} #${i + 1} setup`, 1e-3);
      assert.ok(Math.abs(Number(r.cells.ratio_pct) - e.setup_ratio * 100) <= 0.005 + 1e-9, `${testid} #${i + 1} ratio ${r.cells.ratio_pct} vs ${e.setup_ratio}`);
    });
  }
  // CSV of the longest-setup board: exact task ids, full-precision setup.
  const csv = await exportCsv('setup-longest');
  assert.equal(csv.name, 'setup_longest.csv');
  assert.deepEqual(csv.lines[0], ['#', 'Task', 'Core', 'Setup (µs)', 'Exec (µs)', 'Ratio (%)', 'Task ID']);
  boards.longest_setup.forEach((e, i) => {
    const l = csv.lines[i + 1];
    assert.equal(l[0], String(i + 1));
    assert.equal(l[6], e.task_id);
    assert.equal(Number(l[2]), e.core_id);
    assert.equal(Number(l[3]), e.setup_us);
  });
  // Click the 2nd longest-setup row: the swimlane selects that task on that core.
  const e = boards.longest_setup[1];
  const rows = await tableRows('setup-longest');
  await page.click(`[data-testid="setup-longest-row"][data-row="${rows[1].row}"]`);
  await page.waitForFunction(() => window.__pyptoSwimlane.state().selected, null, { timeout: TIMEOUT_MS });
  const sel = (await api('state')).selected;
  const { groups } = await api('groups');
  const track = groups.flatMap((g) => g.tracks.map((t) => ({ ...t, view: g.view }))).find((t) => t.index === sel.track);
  assert.equal(track.view, 'Worker View');
  assert.match(track.label, new RegExp(`^AI[CV]_${e.core_id}$`));
  const big = BigInt(e.task_id);
  const label = (big >> 32n) & 0xffn ? `r${(big >> 32n) & 0xffn}t${big & 0xffffffffn}` : `t${big & 0xffffffffn}`;
  await page.waitForFunction((label) => document.querySelector('#task-details')?.textContent.includes(label), label, { timeout: TIMEOUT_MS });
  assert.match(await page.textContent('[data-testid="perf-status"]'), new RegExp(`selected ${label}`));
  await screenshot(page, 'panel-setup');
});

test('panel resizes by its left edge and closes', async () => {
  const panel = page.locator('[data-testid="perf-panel"]');
  const before = await panel.boundingBox();
  const handle = await page.locator('.perf-resize').boundingBox();
  await page.mouse.move(handle.x + 2, handle.y + 200);
  await page.mouse.down();
  await page.mouse.move(handle.x - 118, handle.y + 200, { steps: 5 });
  await page.mouse.up();
  const afterBox = await panel.boundingBox();
  assert.ok(Math.abs(afterBox.width - before.width - 120) < 3, `width ${before.width} → ${afterBox.width}`);
  await page.click('[data-testid="perf-panel-close"]');
  await page.waitForSelector('[data-testid="perf-panel"]', { state: 'detached' });
  await page.click('#perf-panel-toggle');
  await page.waitForSelector('[data-testid="perf-panel"]');
});

test('Function Performance view equals the CLI; a row jumps to the swimlane search', async () => {
  await page.click('[data-testid="view-switch-function-perf"]');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="function-perf"]')?.dataset.rows) > 0, null, { timeout: TIMEOUT_MS });
  const perf = cli.function_performance;
  const rows = await tableRows('function-perf');
  assert.deepEqual(rows.map((r) => r.cells.name), perf.map((f) => f.name));
  rows.forEach((r, i) => close(r.cells.avg_us, perf[i].avg_duration_us, `${perf[i].name} avg`, 1e-3));
  await screenshot(page, 'function-performance');
  const target = perf[1];
  await page.click(`[data-testid="function-perf-row"][data-row="${rows[1].row}"]`);
  await page.waitForSelector('#swimlane');
  await page.waitForFunction(() => window.__pyptoSwimlane?.state()?.selected, null, { timeout: TIMEOUT_MS });
  assert.equal(await page.inputValue('#swimlane-search'), target.name);
  const hits = await page.$$eval('#search-results .search-hit', (els) => els.map((e) => e.textContent));
  assert.ok(hits.length > 0 && hits.every((h) => h.includes(target.name)), `hits ${hits.slice(0, 3)}`);
  assert.match(await page.textContent('#search-status'), /^1 \/ \d+$/);
});

test('Function Performance without swimlane records says so', async () => {
  await withPage(browser, 'function-perf-missing', async ({ page }) => {
    await stubDirectoryPicker(page);
    await openApp(page, `${server.url}/`);
    const map = fs.readdirSync(DEMO_RUNTIME_FIXTURE).find((n) => n.startsWith('name_map'));
    await seedOpfs(page, { [`case/dfx_outputs/${map}`]: path.join(DEMO_RUNTIME_FIXTURE, map), 'case/dfx_outputs/deps.json': path.join(DEMO_RUNTIME_FIXTURE, 'deps.json') });
    await loadVia(page, () => page.click('#open-folder'));
    await page.click(`${datasetSel('runtime', 'case/dfx_outputs')} .dataset-name`);
    await page.click('[data-testid="view-switch-function-perf"]');
    const text = await page.textContent('[data-testid="function-perf-missing"]');
    assert.match(text, /No chip_swimlane_records\.json beside .*name_map/);
    await screenshot(page, 'function-performance-missing');
  });
});

test('data table: 10k rows stay virtualised and responsive (render, sort, scroll, resize, full screen)', async (t) => {
  const N = 10_000;
  const frame = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const renderMs = await page.evaluate(async (n) => {
    const t0 = performance.now();
    window.__pyptoTableBench(n);
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    return performance.now() - t0;
  }, N);
  const table = '[data-testid="bench-table"]';
  assert.equal(Number(await page.getAttribute(table, 'data-rows')), N);
  const domRows = await page.$$eval('[data-testid="bench-table-row"]', (els) => els.length);
  assert.ok(domRows > 10 && domRows < 120, `${domRows} rows in the DOM`);

  const sortMs = await page.evaluate(async () => {
    const head = document.querySelector('[data-testid="bench-table-head"][data-col="avg"]');
    const t0 = performance.now();
    head.click();
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    return performance.now() - t0;
  });
  const firstAvgs = (await page.$$eval('[data-testid="bench-table-row"] [data-col="avg"]', (els) => els.map((e) => [parseFloat(e.parentElement.style.top), Number(e.textContent)])))
    .sort((a, b) => a[0] - b[0]).map((x) => x[1]);
  assert.deepEqual(firstAvgs, [...firstAvgs].sort((a, b) => a - b));

  const scrollMs = await page.evaluate(async () => {
    const el = document.querySelector('[data-testid="bench-table"] .dt-scroll');
    const times = [];
    for (let i = 1; i <= 20; i++) {
      const t0 = performance.now();
      el.scrollTop = i * 4_000;
      el.dispatchEvent(new Event('scroll'));
      await new Promise((r) => requestAnimationFrame(r));
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    return { median: times[10], max: times[19] }; // scroll → next frame
  });
  // After scrolling to 80 000 px, the rows shown are those at positions ≈ 80 000 / 24.
  const tops = await page.$$eval('[data-testid="bench-table-row"]', (els) => els.map((e) => parseFloat(e.style.top)));
  assert.ok(tops.some((y) => Math.abs(y - 80_000) < 24 * 8), `rows near 80000 px: ${Math.min(...tops)}..${Math.max(...tops)}`);
  assert.ok((await page.$$eval('[data-testid="bench-table-row"]', (els) => els.length)) < 120);

  // Resize a column by dragging its header's right edge.
  const th = page.locator('[data-testid="bench-table-head"][data-col="name"]');
  const b0 = await th.boundingBox();
  await page.mouse.move(b0.x + b0.width - 2, b0.y + b0.height / 2);
  await page.mouse.down();
  await page.mouse.move(b0.x + b0.width + 78, b0.y + b0.height / 2, { steps: 4 });
  await page.mouse.up();
  const b1 = await th.boundingBox();
  assert.ok(Math.abs(b1.width - b0.width - 80) < 3, `column ${b0.width} → ${b1.width}`);
  assert.equal(await page.getAttribute(table, 'data-sort'), 'avg:asc', 'the resize drag must not sort');

  // Full screen and back (Esc).
  await page.click('[data-testid="bench-table-fullscreen"]');
  const full = await page.locator(table).boundingBox();
  assert.ok(full.width >= 1490 && full.height >= 890, `full screen box ${JSON.stringify(full)}`);
  await screenshot(page, 'table-10k-fullscreen');
  await page.focus(`${table} .dt-scroll`);
  await page.keyboard.press('Escape');
  await frame();
  assert.ok((await page.locator(table).boundingBox()).width < 800);

  const numbers = `10k-row table: render ${renderMs.toFixed(1)} ms, sort ${sortMs.toFixed(1)} ms, scroll median ${scrollMs.median.toFixed(1)} ms / max ${scrollMs.max.toFixed(1)} ms, ${domRows} DOM rows`;
  t.diagnostic(numbers);
  console.log(numbers);
  assert.ok(sortMs < 2000 && scrollMs.median < 200, numbers);
  await page.evaluate(() => window.__pyptoTableBench(0));
});
