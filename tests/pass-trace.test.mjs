// IR Pass Trace view (issue 7 items 1–6) on the demo's 49-pass dump (paged_attention): the
// pass list and its +/− counts equal fixtures/passes/expected-line-counts.tsv (difflib-style
// counts from the reference script), the first changed pass is selected on open, j/k move,
// the Changed / No-op / All filters, folding (one run, all), side-by-side vs stacked layouts,
// the function filter (every shown line lies inside the function's region from
// expected-function-regions.tsv) and row virtualisation (a bounded number of rows in the DOM).
// Damaged snapshots (issue 17): a copy of the dump with one snapshot cut mid-line and one with
// undecodable bytes marks both passes with file, line and column (as `pypto-viewer report`
// lists them), still shows their diffs, and a banner's positions jump to the line.
// A 1M-line snapshot pair (issue 21 item 6) is diffed, expanded and scrolled to its end with a
// bounded number of row elements in the DOM.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { spawnSync } from 'node:child_process';
import { serve } from './server.mjs';
import { passPairLines } from './bench/pass-pair.mjs';
import {
  DEMO_PASSES_FIXTURE, DIST, REPO, TIMEOUT_MS, datasetSel, filesOf, launch, loadVia, openApp, screenshot, seedOpfs, stubDirectoryPicker,
  summaryOf, tempTree,
} from './helpers.mjs';

const FIXTURES = path.resolve(import.meta.dirname, '..', 'fixtures', 'passes');
const tsv = (name) =>
  fs
    .readFileSync(path.join(FIXTURES, name), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split('\t'));
const EXPECTED = tsv('expected-line-counts.tsv')
  .filter((r) => r[0] === 'generated-paged_attention/passes_dump')
  .map(([, file, previous, added, removed, noOp]) => ({ file, previous, added: Number(added), removed: Number(removed), noOp: noOp === '1' }));
const REGIONS = tsv('expected-function-regions.tsv').filter((r) => r[0].startsWith('generated-paged_attention/passes_dump/'));

let server;
let browser;
let context;
let page;

const items = () =>
  page.$$eval('[data-testid=pass-item]', (els) => els.map((e) => ({ ...e.dataset, name: e.dataset.name })));
const diffState = () => page.$eval('[data-testid=pass-diff]', (e) => ({ ...e.dataset }));
const waitDiff = (pass, fn = 'any') =>
  page.waitForFunction(
    ([p, f]) => {
      const d = document.querySelector('[data-testid=pass-diff]')?.dataset;
      return d && d.pass === String(p) && (f === 'any' || d.function === f);
    },
    [pass, fn],
    { timeout: TIMEOUT_MS },
  );

before(async () => {
  server = await serve(DIST, 0);
  browser = await launch();
  context = await browser.newContext({ viewport: { width: 1500, height: 900 } });
  page = await context.newPage();
  page.on('pageerror', (err) => console.error(`pageerror: ${err.message}`));
  await openApp(page, `${server.url}/`);
  await loadVia(page, () => page.click('#open-demo'));
  const sel = datasetSel('pass_dump', 'paged_attention/passes_dump');
  await summaryOf(page, sel, 'data-passes');
  await page.click(sel, { position: { x: 40, y: 14 } });
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=pass-item]').length > 0, null, { timeout: TIMEOUT_MS });
});

after(async () => {
  await context?.close();
  await browser?.close();
  await server?.close();
});

test('pass list equals the reference counts; first changed pass selected', async () => {
  assert.equal(EXPECTED.length, 49);
  const got = await items();
  assert.equal(got.length, EXPECTED.length);
  got.forEach((g, i) => {
    const e = EXPECTED[i];
    const stem = e.file.replace(/\.py$/, '');
    assert.equal(`${g.index.padStart(2, '0')}_after_${g.name}`, stem, `pass ${i}`);
    assert.equal(g.noop, String(e.noOp), `${e.file} no-op`);
    assert.equal(Number(g.added), e.added, `${e.file} added`);
    assert.equal(Number(g.removed), e.removed, `${e.file} removed`);
  });
  const first = EXPECTED.findIndex((e) => !e.noOp);
  await waitDiff(first);
  const sel = got.findIndex((g) => g.selected === 'true');
  assert.equal(sel, first);
  const d = await diffState();
  assert.equal(Number(d.added), EXPECTED[first].added);
  assert.equal(Number(d.removed), EXPECTED[first].removed);
  await screenshot(page, 'pass-trace-open');
});

test('j/k and arrows move; filters Changed / No-op / All', async () => {
  const first = EXPECTED.findIndex((e) => !e.noOp);
  await page.keyboard.press('j');
  await waitDiff(first + 1);
  await page.keyboard.press('ArrowDown');
  await waitDiff(first + 2);
  await page.keyboard.press('k');
  await page.keyboard.press('ArrowUp');
  await waitDiff(first);
  await page.click('[data-testid=pass-filter-changed]');
  assert.equal((await items()).length, EXPECTED.filter((e) => !e.noOp).length);
  assert.ok((await items()).every((g) => g.noop === 'false'));
  await page.click('[data-testid=pass-filter-noop]');
  assert.equal((await items()).length, EXPECTED.filter((e) => e.noOp).length);
  await page.click('[data-testid=pass-filter-all]');
  assert.equal((await items()).length, 49);
});

test('folding: one run, all, and back; rows are virtualised', async () => {
  const big = EXPECTED.findIndex((e) => e.file.startsWith('12_')); // +3 −3 in ~180 lines
  await page.click(`[data-testid=pass-item][data-pos="${big}"]`);
  await waitDiff(big);
  const d0 = await diffState();
  const rows = Number(d0.rows);
  const shown0 = Number(d0.displayRows);
  assert.ok(shown0 < rows, `folded ${shown0} < ${rows}`);
  const folds = await page.$$eval('.diff-pane:first-child [data-testid=diff-fold]', (e) => e.map((x) => x.textContent));
  assert.ok(folds.length > 0);
  const hidden = Number(/(\d+) unchanged/.exec(folds[0])[1]);
  await page.click('.diff-pane:first-child [data-testid=diff-fold] >> nth=0');
  await page.waitForFunction((n) => document.querySelector('[data-testid=pass-diff]').dataset.displayRows === String(n), shown0 + hidden - 1);
  await page.click('[data-testid=pass-expand-all]');
  await page.waitForFunction((n) => document.querySelector('[data-testid=pass-diff]').dataset.displayRows === String(n), rows);
  assert.equal(await page.$$eval('[data-testid=diff-fold]', (e) => e.length), 0);
  const inDom = await page.$$eval('.diff-pane:first-child .diff-row', (e) => e.length);
  assert.ok(rows > 150 && inDom < rows * 0.6, `${inDom} of ${rows} rows in the DOM`);
  // Scrolling the left pane scrolls the right one (side by side).
  await page.$eval('.diff-pane:first-child', (e) => { e.scrollTop = 900; e.scrollLeft = 0; e.dispatchEvent(new Event('scroll')); });
  await page.waitForFunction(() => document.querySelectorAll('.diff-pane')[1].scrollTop === document.querySelectorAll('.diff-pane')[0].scrollTop && document.querySelectorAll('.diff-pane')[1].scrollTop > 0);
  await screenshot(page, 'pass-trace-expanded');
  // Folding again keeps the run expanded by hand open.
  await page.click('[data-testid=pass-expand-all]');
  await page.waitForFunction((n) => document.querySelector('[data-testid=pass-diff]').dataset.displayRows === String(n), shown0 + hidden - 1);
  // Changed tokens are marked.
  await page.$eval('.diff-pane:first-child', (e) => { e.scrollTop = 0; e.dispatchEvent(new Event('scroll')); });
  assert.ok((await page.$$eval('.tok-ins', (e) => e.length)) > 0);
});

test('stacked layout: one pane, replaced lines on two rows', async () => {
  const before = await diffState();
  await page.click('[data-testid=pass-layout-stacked]');
  await page.waitForFunction(() => document.querySelectorAll('.diff-pane').length === 1);
  const after = await diffState();
  assert.ok(Number(after.displayRows) > Number(before.displayRows));
  assert.ok((await page.$$eval('.diff-row.diff-del', (e) => e.length)) > 0);
  assert.ok((await page.$$eval('.diff-row.diff-ins', (e) => e.length)) > 0);
  await screenshot(page, 'pass-trace-stacked');
  await page.click('[data-testid=pass-layout-side]');
  await page.waitForFunction(() => document.querySelectorAll('.diff-pane').length === 2);
});

test('function filter restricts the diff to the function region', async () => {
  const pos = EXPECTED.findIndex((e) => e.file.startsWith('04_'));
  await page.click(`[data-testid=pass-item][data-pos="${pos}"]`);
  await waitDiff(pos);
  const whole = await diffState();
  const key = 'PagedAttentionProgram.kernel_online_update';
  const region = REGIONS.find((r) => r[0].endsWith('/04_after_ConvertToSSA.py') && r[1] === key);
  assert.ok(region, 'region in the golden file');
  const options = await page.$$eval('[data-testid=pass-function] option', (o) => o.map((x) => x.value));
  assert.ok(options.includes(key), options.join(','));
  await page.selectOption('[data-testid=pass-function]', key);
  await waitDiff(pos, key);
  const d = await diffState();
  assert.ok(Number(d.rows) < Number(whole.rows));
  assert.ok(Number(d.added) + Number(d.removed) > 0);
  assert.ok(Number(d.added) <= Number(whole.added) && Number(d.removed) <= Number(whole.removed));
  await page.click('[data-testid=pass-expand-all]');
  const lines = await page.$$eval('.diff-pane:nth-child(2) .diff-row[data-line]', (e) => e.map((x) => Number(x.dataset.line)).filter((n) => n > 0));
  assert.ok(lines.length > 0);
  const [start, end] = [Number(region[2]), Number(region[3])];
  assert.ok(lines.every((l) => l >= start && l <= end), `lines ${Math.min(...lines)}..${Math.max(...lines)} within ${start}..${end}`);
  await screenshot(page, 'pass-trace-function');
  await page.click('[data-testid=pass-expand-all]');
  await page.selectOption('[data-testid=pass-function]', '');
  await page.waitForFunction(() => document.querySelector('[data-testid=pass-diff]').dataset.function === '');
  assert.equal((await diffState()).rows, whole.rows);
});

test('a dump with a gap and a .log: problems listed, valid passes shown, warnings jump to their line', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1400, height: 800 } });
  try {
    const p = await ctx.newPage();
    p.on('pageerror', (err) => console.error(`pageerror: ${err.message}`));
    await stubDirectoryPicker(p);
    await openApp(p, `${server.url}/`);
    await seedOpfs(p, filesOf(path.join(FIXTURES, 'bad-gap'), 'case/passes_dump'));
    await loadVia(p, () => p.click('#open-folder'));
    const sel = datasetSel('pass_dump', 'case/passes_dump');
    await summaryOf(p, sel, 'data-passes');
    await p.click(sel, { position: { x: 40, y: 14 } });
    await p.waitForFunction(() => document.querySelectorAll('[data-testid=pass-item]').length === 3, null, { timeout: TIMEOUT_MS });
    const problems = await p.$eval('[data-testid=pass-problems]', (e) => e.textContent);
    assert.match(problems, /gap|missing/i);
    const list = await p.$$eval('[data-testid=pass-item]', (els) => els.map((e) => [e.dataset.index, e.dataset.warning]));
    assert.deepEqual(list, [['1', 'false'], ['2', 'true'], ['5', 'false']]);
    await p.click('[data-testid=pass-item][data-index="2"]');
    await p.waitForSelector('[data-testid=pass-warnings]');
    const jumps = await p.$$eval('[data-testid=pass-warning-jump]', (e) => e.map((x) => [x.textContent, x.disabled]));
    assert.deepEqual(jumps, [['02_after_UnrollLoops.py:8:16', false], ['02_after_UnrollLoops.py', true]]);
    assert.match(await p.$eval('.pass-log', (e) => e.textContent), /Unused variable 'x'/);
    await p.click('[data-testid=pass-warning-jump] >> nth=0');
    await p.waitForSelector('.diff-pane:nth-child(2) .diff-row.diff-jump[data-line="8"]');
    await screenshot(p, 'pass-trace-warnings');
  } finally {
    await ctx.close();
  }
});

test('a 1M-line pair (issue 21 item 6): diff shown and scrolled far with a bounded DOM', async () => {
  const n = 1_000_000;
  const { before, after } = passPairLines(n);
  const ctx = await browser.newContext({ viewport: { width: 1400, height: 800 } });
  try {
    const p = await ctx.newPage();
    p.on('pageerror', (err) => console.error(`pageerror: ${err.message}`));
    await stubDirectoryPicker(p);
    await openApp(p, `${server.url}/`);
    await seedOpfs(p, {
      'big/passes_dump/00_frontend.py': Buffer.from(`${before.join('\n')}\n`),
      'big/passes_dump/01_after_Big.py': Buffer.from(`${after.join('\n')}\n`),
    }, { chunkBytes: 8 << 20 });
    await loadVia(p, () => p.click('#open-folder'));
    const sel = datasetSel('pass_dump', 'big/passes_dump');
    await summaryOf(p, sel, 'data-passes');
    // Every stage the progress bar shows (item 4: a big diff shows it while it is computed).
    await p.evaluate(() => {
      window.__progressStages = [];
      new MutationObserver(() => {
        const stage = document.querySelector('[data-testid=load-progress]')?.dataset.stage;
        if (stage && window.__progressStages.at(-1) !== stage) window.__progressStages.push(stage);
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    const t0 = Date.now();
    await p.click(sel, { position: { x: 40, y: 14 } });
    // No time limit is asserted: a loaded 2-core machine takes many times the bench's figure.
    await p.waitForFunction(() => document.querySelector('[data-testid=pass-diff]')?.dataset.pass === '0' && document.querySelector('.diff-row'), null, { timeout: 5 * TIMEOUT_MS });
    const openMs = Date.now() - t0;
    const stages = await p.evaluate(() => window.__progressStages);
    assert.ok(stages.includes('diff'), `the progress bar showed the diff being computed: ${stages}`);
    await p.waitForSelector('[data-testid=load-progress]', { state: 'detached' });
    const d = await p.$eval('[data-testid=pass-diff]', (e) => ({ ...e.dataset }));
    assert.equal(Number(d.added), n / 5000);
    assert.equal(Number(d.removed), n / 5000);
    await p.click('[data-testid=pass-expand-all]');
    await p.waitForFunction((k) => document.querySelector('[data-testid=pass-diff]').dataset.displayRows === String(k), n);
    // Ten jumps through the whole expanded diff, the last past 95 % of it: each shows its line,
    // and the DOM holds a bounded number of rows after every one (virtualised).
    const step = Math.floor(n / 10.5);
    const t1 = Date.now();
    let mostInDom = 0;
    for (let k = 1; k <= 10; k++) {
      await p.$eval('.diff-pane:first-child', (e, top) => { e.scrollTop = top; e.dispatchEvent(new Event('scroll')); }, k * 18 * step);
      await p.waitForFunction((line) => [...document.querySelectorAll('.diff-pane:first-child .diff-row')].some((r) => Number(r.dataset.line) === line), k * step + 1);
      mostInDom = Math.max(mostInDom, await p.$$eval('.diff-row', (e) => e.length));
    }
    const scrollMs = (Date.now() - t1) / 10;
    console.log(`1M-line pair: open+diff ${openMs} ms, one scroll ${scrollMs.toFixed(0)} ms, at most ${mostInDom} rows in the DOM`);
    assert.ok(mostInDom < 400, `${mostInDom} rows in the DOM`);
    await screenshot(p, 'pass-trace-1m');
  } finally {
    await ctx.close();
  }
});

/** Byte offset of 1-based line `line` in `buf`. */
const lineStart = (buf, line) => {
  let off = 0;
  for (let k = 1; k < line; k++) off = buf.indexOf(10, off) + 1;
  return off;
};

test('damaged snapshots: marked with file, line and column as the CLI reports them; diffs shown with a banner that jumps', { timeout: 300_000 }, async () => {
  // The demo's dump, snapshot 10 cut right after the first '(' of its line 20, two bytes of
  // snapshot 20's line 8 (from column 11) replaced by 0xFF 0xFE.
  const dumpDir = path.join(DEMO_PASSES_FIXTURE, 'passes_dump');
  const [CUT, BAD] = ['10_after_OutlineClusterScopes.py', '20_after_ResolveBackendOpLayouts.py'];
  const files = filesOf(dumpDir, 'case/passes_dump');
  const seeded = Object.fromEntries(Object.entries(files).map(([rel, abs]) => [rel, fs.readFileSync(abs)]));
  const cutSrc = seeded[`case/passes_dump/${CUT}`];
  const cutLine = lineStart(cutSrc, 20);
  const openCol = cutSrc.indexOf(40, cutLine) - cutLine + 1; // the first '('
  seeded[`case/passes_dump/${CUT}`] = cutSrc.subarray(0, cutLine + openCol);
  const bad = Buffer.from(seeded[`case/passes_dump/${BAD}`]);
  const badAt = lineStart(bad, 8) + 10;
  bad[badAt] = 0xff;
  bad[badAt + 1] = 0xfe;
  seeded[`case/passes_dump/${BAD}`] = bad;

  // The CLI on the same bytes.
  const top = tempTree(files, 'pypto-damaged-passes-');
  for (const [rel, bytes] of Object.entries(seeded)) fs.writeFileSync(path.join(top, rel), bytes);
  const run = spawnSync('cargo', ['run', '--release', '-q', '-p', 'pypto-cli', '--bin', 'pypto-viewer', '--', 'report', '--json', top], {
    cwd: REPO, encoding: 'utf8', maxBuffer: 1 << 28,
  });
  fs.rmSync(top, { recursive: true, force: true });
  assert.equal(run.status, 0, `pypto-viewer report failed: ${run.stderr}`);
  const cli = JSON.parse(run.stdout).datasets.find((d) => d.kind === 'PassDump').snapshot_problems;
  assert.deepEqual(cli, [
    { file: CUT, line: 20, column: openCol, message: "'(' was never closed" },
    { file: BAD, line: 8, column: 11, message: `invalid UTF-8 at byte offset ${badAt} (0xFF; 2 undecodable bytes in the file, shown as U+FFFD)` },
  ]);
  const asText = (p) => `${p.file}:${p.line}:${p.column}: ${p.message}`;

  const ctx = await browser.newContext({ viewport: { width: 1500, height: 820 } });
  const errors = [];
  try {
    const p = await ctx.newPage();
    p.on('pageerror', (err) => errors.push(err.message));
    await stubDirectoryPicker(p);
    await openApp(p, `${server.url}/`);
    await seedOpfs(p, seeded);
    await loadVia(p, () => p.click('#open-folder'));
    const sel = datasetSel('pass_dump', 'case/passes_dump');
    await summaryOf(p, sel, 'data-passes');
    await p.click(sel, { position: { x: 40, y: 14 } });
    await p.waitForFunction(() => document.querySelectorAll('[data-testid=pass-item]').length === 49, null, { timeout: TIMEOUT_MS });

    // The two passes are marked, with the CLI's problem; no other is.
    const marked = await p.$$eval('[data-testid=pass-item][data-problem=true]', (els) =>
      els.map((e) => [e.dataset.index, e.dataset.snapshotProblem, e.querySelector('.badge-problem')?.title ?? '']));
    assert.deepEqual(marked.map((m) => m.slice(0, 2)), [['10', asText(cli[0])], ['20', asText(cli[1])]]);
    assert.ok(marked.every(([, first, title]) => title.includes(first)), 'the badge names the problem');
    assert.equal(await p.$$eval('[data-testid=pass-item][data-problem=false] .badge-problem', (e) => e.length), 0);

    // The cut pass: its diff shows (the lines after the cut are gone), under a banner.
    await p.click('[data-testid=pass-item][data-index="10"]');
    await p.waitForFunction(() => document.querySelector('[data-testid=pass-diff]')?.dataset.pass === '9' && document.querySelector('.diff-row'));
    const d = await p.$eval('[data-testid=pass-diff]', (e) => ({ ...e.dataset }));
    assert.ok(Number(d.rows) > 20 && Number(d.removed) > 0, `diff shown: ${JSON.stringify(d)}`);
    const banner = async () =>
      p.$$eval('[data-testid=snapshot-problems] li', (els) => els.map((e) => ({ ...e.dataset, text: e.textContent })));
    let items = await banner();
    assert.deepEqual(items.map((i) => [i.side, i.file, i.line, i.column]), [['after', CUT, '20', String(openCol)]]);
    assert.match(items[0].text, /'\(' was never closed/);
    await p.click('[data-testid=snapshot-problem-jump]');
    await p.waitForSelector('.diff-pane:nth-child(2) .diff-row.diff-jump[data-line="20"]');
    await screenshot(p, 'pass-trace-damaged');

    // The next pass is compared with the cut one: the banner says so and jumps on the left.
    await p.click('[data-testid=pass-item][data-index="11"]');
    await p.waitForFunction(() => document.querySelector('[data-testid=pass-diff]')?.dataset.pass === '10');
    items = await banner();
    assert.deepEqual(items.map((i) => [i.side, i.file, i.line]), [['before', CUT, '20']]);
    await p.click('[data-testid=snapshot-problem-jump]');
    await p.waitForSelector('.diff-pane:nth-child(1) .diff-row.diff-jump[data-line="20"]');

    // Undecodable bytes: marked, diffed with U+FFFD in their place.
    await p.click('[data-testid=pass-item][data-index="20"]');
    await p.waitForFunction(() => document.querySelector('[data-testid=pass-diff]')?.dataset.pass === '19');
    items = await banner();
    assert.deepEqual(items.map((i) => [i.side, i.file, i.line, i.column]), [['after', BAD, '8', '11']]);
    assert.match(items[0].text, /invalid UTF-8 at byte offset \d+ \(0xFF/);
    await p.click('[data-testid=snapshot-problem-jump]');
    const row = await p.waitForSelector('.diff-pane:nth-child(2) .diff-row.diff-jump[data-line="8"]');
    assert.match(await row.textContent(), /\uFFFD/);
    await screenshot(p, 'pass-trace-damaged-utf8');

    // An undamaged pass has no banner.
    await p.click('[data-testid=pass-item][data-index="30"]');
    await p.waitForFunction(() => document.querySelector('[data-testid=pass-diff]')?.dataset.pass === '29');
    assert.equal(await p.$$eval('[data-testid=snapshot-problems]', (e) => e.length), 0);
    assert.deepEqual(errors, []);
  } finally {
    await ctx.close();
  }
});
