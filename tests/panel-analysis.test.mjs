// Performance Analysis panel, path tabs (issue 5): Critical path, Gap and blocker, Early
// dispatch, Continuous single-dependency chains. Golden: every number equals
// `pypto-viewer report --json` (the same analysis code) run from this test on the same
// fixtures, opened together as one folder:
//   cap_pa/     TestPagedAttention L4, with CPM_static.json / CPM_observed.json (path read from them)
//   cap_early/  TestSyncStartEarlyLocalOwner (pending_only): the early-dispatch target
//   cap_nocpm/  TestChipSwimlane_default: no CPM file (paths computed)
// Swimlane links are checked with `window.__pyptoSwimlane` (state, isDimmed, barLabel, groups).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { serve } from './server.mjs';
import {
  DEMO_RUNTIME_FIXTURE, DIST, FIXTURES, REPO, SMALL_RUNTIME_FIXTURE, TIMEOUT_MS, datasetSel, filesOf, isViewerRuntimeFile,
  launch, loadVia, openApp, screenshot, seedOpfs, stubDirectoryPicker, summaryOf,
} from './helpers.mjs';

const EARLY_FIXTURE = path.join(FIXTURES, 'runtime', 'a2a3sim-L4-TestSyncStartEarlyLocalOwner_single_scheduler_pending_only');
const CAPTURES = { cap_pa: DEMO_RUNTIME_FIXTURE, cap_early: EARLY_FIXTURE, cap_nocpm: SMALL_RUNTIME_FIXTURE };

/** `pypto-viewer report --json <dir>`, its only dataset. */
function cliReport(dir) {
  const run = spawnSync('cargo', ['run', '--release', '-q', '-p', 'pypto-cli', '--bin', 'pypto-viewer', '--', 'report', '--json', dir], {
    cwd: REPO, encoding: 'utf8', maxBuffer: 1 << 30,
  });
  assert.equal(run.status, 0, `pypto-viewer report failed: ${run.stderr}`);
  const report = JSON.parse(run.stdout);
  assert.equal(report.datasets.length, 1);
  return report.datasets[0];
}

/** The swimlane's task label of a raw id: `t<local>` on ring 0, else `r<ring>t<local>`. */
const label = (id) => {
  const big = BigInt(id);
  const ring = (big >> 32n) & 0xffn;
  return ring ? `r${ring}t${big & 0xffffffffn}` : `t${big & 0xffffffffn}`;
};
const close = (actual, expected, what, tol = 1e-6) => {
  const a = Number(actual);
  assert.ok(Math.abs(a - expected) <= tol * Math.max(1, Math.abs(expected)), `${what}: got ${actual}, CLI ${expected}`);
};
const CAUSE = { Launch: 'launch', SameCore: 'same-core', Predecessor: 'predecessor' };

let server;
let browser;
let context;
let page;
const cli = {};

const api = (fn, ...args) => page.evaluate(([fn, args]) => window.__pyptoSwimlane[fn](...args), [fn, args]);

async function openDataset(name) {
  const sel = datasetSel('runtime', name);
  await summaryOf(page, sel);
  const before = await page.$eval('#swimlane', (el) => el.dataset.timelineId).catch(() => undefined);
  await page.click(`${sel} .dataset-name`); // not the card's centre: it holds the trace buttons
  await page.waitForSelector(`${sel}.selected`, { timeout: TIMEOUT_MS });
  await page.waitForFunction(
    (before) => {
      const el = document.querySelector('#swimlane');
      return Number(el?.dataset.bars) > 0 && el.dataset.timelineId !== before && window.__pyptoSwimlane?.groups()?.groups.length > 0;
    },
    before,
    { timeout: TIMEOUT_MS },
  );
}

async function openTab(id) {
  await page.click(`[data-testid="perf-tab-${id}"]`);
  await page.waitForSelector(`[data-testid="perf-body-${id}"]`);
}

/** Exports a table's CSV: header fields and rows as objects keyed by header. */
async function exportCsv(testid) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(`[data-testid="${testid}-csv"]`)]);
  const text = fs.readFileSync(await download.path(), 'utf8').replace(/^\uFEFF/, '');
  const lines = text.split('\r\n').filter(Boolean).map((l) => l.split(','));
  const head = lines[0];
  return { name: download.suggestedFilename(), head, rows: lines.slice(1).map((l) => Object.fromEntries(head.map((h, i) => [h, l[i]]))) };
}

/** The selected bar: its view and task label (label mode `rXtY`). */
async function selection() {
  const sel = (await api('state')).selected;
  if (!sel) return null;
  const { groups } = await api('groups');
  const group = groups.find((g) => g.tracks.some((t) => t.index === sel.track));
  return { view: group?.view, label: await api('barLabel', sel.track, sel.index) };
}

async function waitSelected(expectedLabel) {
  await page.waitForFunction(
    (l) => {
      const s = window.__pyptoSwimlane.state().selected;
      return s && window.__pyptoSwimlane.barLabel(s.track, s.index) === l;
    },
    expectedLabel,
    { timeout: TIMEOUT_MS },
  );
  return selection();
}

/** Every Worker View bar: dimmed exactly when its task is not in `bright` (labels). */
function dimming(bright) {
  return page.evaluate((bright) => {
    const api = window.__pyptoSwimlane;
    const set = new Set(bright);
    const out = { dimmed: 0, lit: 0, wrong: [] };
    for (const g of api.groups().groups.filter((g) => g.view === 'Worker View')) {
      for (const t of g.tracks) {
        for (let i = 0; i < t.bars; i++) {
          const l = api.barLabel(t.index, i);
          const d = api.isDimmed(t.index, i);
          if (d) out.dimmed += 1;
          else out.lit += 1;
          if (d === set.has(l)) out.wrong.push(`${t.label}[${i}] ${l} dimmed=${d}`);
        }
      }
    }
    return out;
  }, bright);
}

const markers = async () => (await api('state')).markers;

/** The panel's status line says `text`, and still says it a few frames later (once the
 * swimlane has reported its selection). */
async function statusSettles(text) {
  await page.waitForFunction((t) => document.querySelector('[data-testid="perf-status"]')?.textContent === t, text, { timeout: TIMEOUT_MS });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 50)))));
  assert.equal(await page.textContent('[data-testid="perf-status"]'), text);
}

before(async () => {
  for (const [name, dir] of Object.entries(CAPTURES)) cli[name] = cliReport(dir);
  server = await serve(DIST, 0);
  browser = await launch();
  context = await browser.newContext({ viewport: { width: 1600, height: 1000 }, acceptDownloads: true });
  page = await context.newPage();
  page.on('pageerror', (err) => console.error(`pageerror: ${err.message}`));
  await stubDirectoryPicker(page);
  await openApp(page, `${server.url}/`);
  await seedOpfs(page, Object.assign({}, ...Object.entries(CAPTURES).map(([name, dir]) => filesOf(dir, name, isViewerRuntimeFile))));
  await loadVia(page, () => page.click('#open-folder'));
  await openDataset('cap_pa');
  await page.selectOption('#label-mode', 'id');
  await page.click('#perf-panel-toggle');
  await page.waitForSelector('[data-testid="perf-panel"]');
});

after(async () => {
  await context?.close();
  await browser?.close();
  await server?.close();
});

test('critical path (read from CPM_*.json): numbers equal the CLI; the swimlane dims exactly the off-path tasks; Esc restores', async () => {
  const r = cli.cap_pa;
  const cp = r.critical_path;
  await openTab('critical-path');
  await page.waitForSelector('[data-testid="cp-source"]', { timeout: TIMEOUT_MS });
  const source = await page.textContent('[data-testid="cp-source"]');
  assert.match(source, /Static path: read from CPM_static\.json/);
  assert.match(source, /Observed path: read from CPM_observed\.json/);

  // Observed path.
  await page.click('[data-testid="cp-choose-observed"]');
  await page.waitForSelector('[data-testid="cp-summary"][data-path="observed"]');
  const obs = await page.$eval('[data-testid="cp-summary"]', (el) => ({ ...el.dataset, text: el.textContent }));
  assert.equal(Number(obs.tasks), cp.observed.length);
  assert.match(obs.text, new RegExp(`compute ${cp.compute_us.toFixed(3)} µs \\(${(cp.compute_us / cp.makespan_us * 100).toFixed(1)}%\\)`));
  assert.match(obs.text, /exact tiling/);
  const stall = await exportCsv('cp-stall');
  for (const [kind, us] of Object.entries(cp.observed_stall_us)) {
    const row = stall.rows.find((x) => x['Stall kind'] === kind);
    if (us > 0) {
      assert.ok(row, `stall kind ${kind}`);
      close(row['Stall (µs)'], us, `stall ${kind}`);
      close(row['% makespan'], us / cp.makespan_us * 100, `stall ${kind} %`);
    } else assert.equal(row, undefined, `zero-stall kind ${kind} listed`);
  }
  const tasks = await exportCsv('cp-tasks');
  assert.deepEqual(tasks.rows.map((x) => x['Task ID']), cp.observed);
  const observedLabels = cp.observed.map(label);
  let dim = await dimming(observedLabels);
  assert.deepEqual(dim.wrong, [], 'observed path dimming');
  assert.ok(dim.lit >= cp.observed.length && dim.dimmed > 0, JSON.stringify(dim));
  await screenshot(page, 'panel-critical-path-observed');

  // Static path: length and makespan share as the CLI.
  await page.click('[data-testid="cp-choose-static"]');
  await page.waitForSelector('[data-testid="cp-summary"][data-path="static"]');
  const st = await page.$eval('[data-testid="cp-summary"]', (el) => ({ ...el.dataset }));
  assert.equal(Number(st.tasks), cp.static.length);
  close(st.lengthUs, cp.static_length_us, 'static length', 1e-6);
  close(st.makespanPct, cp.static_length_us / cp.makespan_us * 100, 'static share', 1e-4);
  assert.deepEqual((await exportCsv('cp-tasks')).rows.map((x) => x['Task ID']), cp.static);
  dim = await dimming(cp.static.map(label));
  assert.deepEqual(dim.wrong, [], 'static path dimming');
  await screenshot(page, 'panel-critical-path-static');

  // A path row locates and selects its task in the Worker View.
  const k = 3;
  await page.click(`[data-testid="cp-tasks-row"][data-row="${k}"]`);
  const sel = await waitSelected(label(cp.static[k]));
  assert.equal(sel.view, 'Worker View');

  // Esc restores: nothing dimmed.
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => document.querySelector('[data-testid="cp-choose-none"]')?.classList.contains('active'));
  dim = await dimming([]);
  assert.equal(dim.dimmed, 0, JSON.stringify(dim.wrong.slice(0, 3)));
});

test('gap and blocker: rows equal the CLI; threshold colours and validates; a row selects; draw gap places the markers', async () => {
  const gb = cli.cap_pa.performance_analysis.gap_blocker;
  await openTab('gaps');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="gap-table"]')?.dataset.rows) > 0, null, { timeout: TIMEOUT_MS });
  assert.equal(Number(await page.getAttribute('[data-testid="gap-table"]', 'data-rows')), gb.task_id.length);
  assert.match(await page.textContent('[data-testid="gap-note"]'), /source: CPM_observed\.json/);
  const csv = await exportCsv('gap-table');
  assert.equal(csv.rows.length, gb.task_id.length);
  csv.rows.forEach((row, i) => {
    assert.equal(row['Task ID'], gb.task_id[i], `row ${i} task`);
    close(row['Gap (µs)'], gb.gap_us[i], `row ${i} gap`, 1e-9);
    close(row['Stall (µs)'], gb.stall_us[i], `row ${i} stall`, 1e-9);
    assert.equal(row.Cause, CAUSE[gb.cause[i]], `row ${i} cause`);
    assert.equal(row.Blocker, gb.blocker_task_id[i] ? label(gb.blocker_task_id[i]) : '-', `row ${i} blocker`);
  });

  // Threshold: the default colours the gaps above 1000 µs, as the CLI's numbers say.
  const above = (t) => gb.gap_us.filter((g) => g > t).length;
  await page.waitForSelector(`[data-testid="gap-above"][data-count="${above(1000)}"]`, { timeout: TIMEOUT_MS });
  const red = await page.$$eval('[data-testid="gap-table-row"] [data-col="gap_us"].dt-warn', (els) => els.map((e) => Number(e.textContent)));
  assert.ok(red.length > 0 && red.every((g) => g > 1000), JSON.stringify(red));
  // Invalid input → inline message, no colouring; valid again → message gone.
  await page.fill('[data-testid="gap-threshold"]', 'abc');
  await page.waitForSelector('[data-testid="gap-threshold-error"]', { timeout: TIMEOUT_MS });
  assert.match(await page.textContent('[data-testid="gap-threshold-error"]'), /`abc` is not a number/);
  assert.equal(await page.$$eval('[data-testid="gap-table-row"] .dt-warn', (els) => els.length), 0);
  await screenshot(page, 'panel-gaps-invalid-threshold');
  await page.fill('[data-testid="gap-threshold"]', '-5');
  await page.waitForFunction(() => /must be a finite number/.test(document.querySelector('[data-testid="gap-threshold-error"]')?.textContent ?? ''));
  await page.fill('[data-testid="gap-threshold"]', '1500');
  await page.waitForSelector('[data-testid="gap-threshold-error"]', { state: 'detached' });
  await page.waitForSelector(`[data-testid="gap-above"][data-count="${above(1500)}"]`);

  // The largest gap: click selects its task; "Draw gap" puts markers at its ends.
  const k = gb.gap_us.indexOf(Math.max(...gb.gap_us));
  await page.click('[data-testid="gap-table-head"][data-col="gap_us"]'); // sort ascending
  await page.click('[data-testid="gap-table-head"][data-col="gap_us"]'); // descending: the largest on top
  await page.click(`[data-testid="gap-table-row"][data-row="${k}"]`);
  const sel = await waitSelected(label(gb.task_id[k]));
  assert.equal(sel.view, 'Worker View');
  await page.click('[data-testid="gap-draw"]');
  await page.waitForFunction(() => window.__pyptoSwimlane.state().markers.filter((m) => m.label.startsWith('gap ')).length === 2);
  let ms = (await markers()).filter((m) => m.label.startsWith('gap '));
  const start = ms.find((m) => m.label.startsWith('gap start'));
  const end = ms.find((m) => m.label.startsWith('gap end'));
  close(start.t, gb.gap_start_us[k], 'gap start marker', 1e-9);
  close(end.t, gb.gap_end_us[k], 'gap end marker', 1e-9);
  close(end.t - start.t, gb.gap_us[k], 'marker Δt', 1e-6);
  assert.match(end.label, new RegExp(`Δ ${gb.gap_us[k].toFixed(3)} µs`));
  assert.match(start.label, new RegExp(label(gb.blocker_task_id[k])));
  const win = await api('state');
  assert.ok(win.t0 <= start.t && win.t1 >= end.t, `the gap is in view: ${win.t0}..${win.t1}`);
  await statusSettles(`drew the gap before ${label(gb.task_id[k])}: ${gb.gap_us[k].toFixed(3)} µs`);
  await screenshot(page, 'panel-gaps-draw');

  // Right-click another row: its gap replaces the drawn markers.
  const j = k === 1 ? 2 : 1;
  await page.click(`[data-testid="gap-table-row"][data-row="${j}"]`, { button: 'right' });
  await page.waitForFunction((t) => window.__pyptoSwimlane.state().markers.some((m) => m.label.startsWith('gap end') && Math.abs(m.t - t) < 1e-6), gb.gap_end_us[j]);
  ms = (await markers()).filter((m) => m.label.startsWith('gap '));
  assert.equal(ms.length, 2);
  await waitSelected(label(gb.task_id[j]));
});

test('single-dependency chains: count and chains equal the CLI; a click highlights the chain, Esc restores', async () => {
  const sc = cli.cap_pa.performance_analysis.single_dependency_chains;
  await openTab('chains');
  await page.waitForSelector(`[data-testid="chains-note"][data-count="${sc.count}"]`, { timeout: TIMEOUT_MS });
  assert.match(await page.textContent('[data-testid="chains-note"]'), new RegExp(`${sc.excluded_tasks} non-compute tasks excluded .* ${sc.compute_edges} compute edges`));
  const csv = await exportCsv('chains-table');
  assert.equal(csv.rows.length, sc.count);
  csv.rows.forEach((row, i) => {
    const c = sc.chains[i];
    assert.equal(Number(row.Length), c.length, `chain ${i} length`);
    assert.equal(row.Head, label(c[0]));
    assert.equal(row.Tail, label(c[c.length - 1]));
    assert.ok(Number(row['Exec (µs)']) > 0 && Number(row['Span (µs)']) >= 0, JSON.stringify(row));
  });
  const k = 5;
  await page.click(`[data-testid="chains-table-row"][data-row="${k}"]`);
  await page.waitForSelector(`[data-testid="chains-highlight"][data-chain="${k}"]`);
  const chain = sc.chains[k].map(label);
  const sel = await waitSelected(chain[0]);
  assert.equal(sel.view, 'Worker View');
  const dim = await dimming(chain);
  assert.deepEqual(dim.wrong, [], 'chain highlight');
  assert.ok(dim.lit >= chain.length, JSON.stringify(dim));
  await screenshot(page, 'panel-chains');
  await page.keyboard.press('Escape');
  await page.waitForSelector('[data-testid="chains-highlight"][data-chain=""]');
  assert.equal((await dimming([])).dimmed, 0);
});

test('early dispatch: the target equals the CLI; a row selects it in the Scheduler View; draw lead places the markers', async () => {
  const ed = cli.cap_early.performance_analysis.early_dispatch;
  assert.equal(ed.rows.length, 1, 'fixture has one target');
  await openDataset('cap_early');
  await openTab('early-dispatch');
  const early = ed.rows.filter((x) => x.dispatched_early).length;
  await page.waitForSelector(`[data-testid="early-note"][data-targets="${ed.rows.length}"][data-early="${early}"]`, { timeout: TIMEOUT_MS });
  assert.match(await page.textContent('[data-testid="early-note"]'),
    new RegExp(`${ed.flagged_producers} producers flagged .* ${ed.phase_records} scheduler early_dispatch phases staging ${ed.phase_blocks} blocks`));
  const csv = await exportCsv('early-table');
  csv.rows.forEach((row, i) => {
    const e = ed.rows[i];
    assert.equal(row['Task ID'], e.task_id);
    assert.equal(row['Before last FIN?'], e.dispatched_early ? 'yes' : 'no');
    close(row['Max lead (µs)'], e.max_lead_us, 'max lead', 1e-9);
    close(row['First dispatch (µs)'], e.first_dispatch_us, 'first dispatch', 1e-9);
    close(row['Last pred FIN (µs)'], e.last_pred_fin_us, 'last pred FIN', 1e-9);
    assert.equal(row['Last pred'], label(e.last_pred_task_id));
    assert.equal(Number(row.Blocks), e.blocks);
    assert.equal(Number(row['Early blocks']), e.early_blocks);
  });
  const e = ed.rows[0];
  await page.click('[data-testid="early-table-row"][data-row="0"]');
  const sel = await waitSelected(label(e.task_id));
  assert.equal(sel.view, 'Scheduler View');
  await page.click('[data-testid="early-draw"]');
  await page.waitForFunction(() => window.__pyptoSwimlane.state().markers.filter((m) => m.label.startsWith('lead ')).length === 2);
  const ms = (await markers()).filter((m) => m.label.startsWith('lead '));
  const a = ms.find((m) => m.label.startsWith('lead start'));
  const b = ms.find((m) => m.label.startsWith('lead end'));
  close(a.t, e.lead_start_us, 'lead start marker', 1e-9);
  close(b.t, e.lead_end_us, 'lead end marker', 1e-9);
  close(b.t - a.t, e.max_lead_us, 'lead Δt', 1e-6);
  assert.match(b.label, new RegExp(`${label(e.last_pred_task_id)} FIN \\(lead ${e.max_lead_us.toFixed(3)} µs\\)`));
  assert.equal((await markers()).filter((m) => m.label.startsWith('gap ')).length, 0, 'the gap markers were replaced');
  await statusSettles(`drew the lead of ${label(e.task_id)}: ${e.max_lead_us.toFixed(3)} µs (Scheduler View)`);
  await screenshot(page, 'panel-early-dispatch');
});

test('critical path without CPM files: computed, and says so; numbers equal the CLI', async () => {
  const cp = cli.cap_nocpm.critical_path;
  await openDataset('cap_nocpm');
  await openTab('critical-path');
  await page.waitForFunction(() => /computed/.test(document.querySelector('[data-testid="cp-source"]')?.textContent ?? ''), null, { timeout: TIMEOUT_MS });
  const source = await page.textContent('[data-testid="cp-source"]');
  assert.match(source, /Static path: computed from the records and deps\.json \(no CPM_static\*\.json/);
  assert.match(source, /Observed path: computed/);
  await page.click('[data-testid="cp-choose-static"]');
  await page.waitForSelector('[data-testid="cp-summary"][data-path="static"]');
  const st = await page.$eval('[data-testid="cp-summary"]', (el) => ({ ...el.dataset }));
  assert.equal(Number(st.tasks), cp.static.length);
  close(st.lengthUs, cp.static_length_us, 'static length', 1e-6);
  assert.deepEqual((await exportCsv('cp-tasks')).rows.map((x) => x['Task ID']), cp.static);
  const dim = await dimming(cp.static.map(label));
  assert.deepEqual(dim.wrong, []);
  await page.click('[data-testid="cp-choose-observed"]');
  await page.waitForSelector('[data-testid="cp-summary"][data-path="observed"]');
  assert.deepEqual((await exportCsv('cp-tasks')).rows.map((x) => x['Task ID']), cp.observed);
  const stall = await exportCsv('cp-stall');
  for (const [kind, us] of Object.entries(cp.observed_stall_us)) {
    if (us > 0) close(stall.rows.find((x) => x['Stall kind'] === kind)['Stall (µs)'], us, `stall ${kind}`);
  }
  await screenshot(page, 'panel-critical-path-computed');
  await page.keyboard.press('Escape');
});
