// Every warning kind reaches the user (issue 17, item 2). `pypto-viewer gen --warning-cases`
// writes one small damaged dataset per kind the readers and analyses can emit; the page opens
// them all (`?src=`) and each dataset must show its kind in the sidebar — and the same list, in
// the same words, as `pypto-viewer report --json` prints for it. A screenshot of the sidebar is
// saved (tests/artifacts/warnings-sidebar.png). In a Chinese browser the same warnings are
// worded by the Chinese catalogue (issue 20, item 1): every line is Chinese, with the records
// it names as the reader wrote them (tests/artifacts/warnings-sidebar-zh.png).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { serve } from './server.mjs';
import { DIST, REPO, launch, screenshot, withPage } from './helpers.mjs';

const cli = (...args) => spawnSync('cargo', ['run', '--release', '-q', '-p', 'pypto-cli', '--bin', 'pypto-viewer', '--', ...args], { cwd: REPO, encoding: 'utf8', maxBuffer: 64 << 20 });

let root;
let server;
let browser;
let report;

before(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'warning-cases-'));
  fs.cpSync(DIST, root, { recursive: true });
  const dir = path.join(root, 'data', 'cases');
  const gen = cli('gen', dir, '--warning-cases');
  assert.equal(gen.status, 0, `gen --warning-cases failed: ${gen.stderr}`);
  const man = cli('manifest', dir);
  assert.equal(man.status, 0, `manifest failed: ${man.stderr}`);
  const rep = cli('report', '--json', dir);
  assert.equal(rep.status, 0, `report failed: ${rep.stderr}`);
  report = JSON.parse(rep.stdout);
  server = await serve(root, 0);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

test('every warning kind shows on its dataset, the same list as the CLI report', { timeout: 240_000 }, async () => {
  await withPage(browser, 'warnings', async ({ page }) => {
    const pageErrors = [];
    page.on('pageerror', (err) => pageErrors.push(err.message));
    await page.goto(`${server.url}/?src=${encodeURIComponent('data/cases/')}`);
    await page.waitForSelector('body[data-load-state="done"]', { state: 'attached', timeout: 120_000 });
    const shown = await page.$$eval('#datasets li.dataset', (items) => items.map((li) => ({
      path: li.dataset.path,
      kinds: [...li.querySelectorAll('.dataset-warning')].map((w) => w.dataset.kind),
      texts: [...li.querySelectorAll('.dataset-warning')].map((w) => w.getAttribute('title')),
      visible: [...li.querySelectorAll('.dataset-warning')].map((w) => w.textContent),
    })));
    assert.ok(report.datasets.length >= 30, `the cases hold ${report.datasets.length} datasets`);
    const problems = [];
    for (const ds of report.datasets) {
      const key = ds.path.split('/')[0];
      const onPage = shown.find((s) => s.path === ds.path);
      if (!onPage) {
        problems.push(`${ds.path}: not in the sidebar`);
        continue;
      }
      if (!onPage.kinds.includes(key)) problems.push(`${ds.path}: kind ${key} not shown (shown: ${onPage.kinds.join(', ') || 'none'})`);
      const cliList = [...(ds.warnings ?? [])].sort();
      const pageList = [...onPage.texts].sort();
      if (JSON.stringify(cliList) !== JSON.stringify(pageList)) {
        problems.push(`${ds.path}: page and report differ\n  page:   ${JSON.stringify(pageList)}\n  report: ${JSON.stringify(cliList)}`);
      }
      // What the user reads names the record: the message is shown, not just a tooltip.
      for (const v of onPage.visible) if (!v.trim()) problems.push(`${ds.path}: an empty warning line`);
    }
    assert.deepEqual(problems, [], problems.join('\n'));
    // The negative-time case names its row and file where the user reads it.
    const negative = shown.find((s) => s.path.startsWith('records-negative-time'));
    assert.match(negative.visible.join('\n'), /chip_swimlane_records\.json: 1 row\(s\) with a negative time skipped: aicore_tasks\[1\] \(start_cycles = -7\)/);
    assert.deepEqual(pageErrors, []);
    await page.$eval('#datasets li.dataset[data-path^="records-negative-time"]', (el) => el.scrollIntoView());
    await screenshot(page, 'warnings-sidebar');
  });
});

const CJK = /[\u4e00-\u9fff]/;

test('in a Chinese browser every warning is said in Chinese, naming the same records', { timeout: 240_000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, locale: 'zh-CN' });
  try {
    const page = await context.newPage();
    const pageErrors = [];
    page.on('pageerror', (err) => pageErrors.push(err.message));
    await page.goto(`${server.url}/?src=${encodeURIComponent('data/cases/')}`);
    await page.waitForSelector('body[data-load-state="done"]', { state: 'attached', timeout: 120_000 });
    assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
    const shown = await page.$$eval('#datasets li.dataset', (items) => items.map((li) => ({
      path: li.dataset.path,
      warnings: [...li.querySelectorAll('.dataset-warning')].map((w) => ({
        kind: w.dataset.kind,
        message: w.querySelector('.warning-message')?.textContent ?? '',
        title: w.getAttribute('title'),
      })),
    })));
    const problems = [];
    let count = 0;
    const kinds = new Set();
    for (const ds of report.datasets) {
      const onPage = shown.find((s) => s.path === ds.path);
      if (!onPage) {
        problems.push(`${ds.path}: not in the sidebar`);
        continue;
      }
      const english = new Set((ds.warning_details ?? ds.summary?.warning_details ?? []).map((w) => w.message));
      for (const w of onPage.warnings) {
        count += 1;
        kinds.add(w.kind);
        if (!CJK.test(w.message)) problems.push(`${ds.path}: ${w.kind} not in Chinese: ${w.message}`);
        if (english.has(w.message)) problems.push(`${ds.path}: ${w.kind} shows the English message`);
        // The tooltip: the path and position as the report prints them, then the Chinese message.
        if (!w.title.endsWith(w.message) || !w.title.startsWith(ds.path.split('/')[0])) problems.push(`${ds.path}: tooltip ${w.title}`);
      }
    }
    assert.deepEqual(problems, [], problems.join('\n'));
    assert.ok(count >= 60, `only ${count} warnings shown`);
    assert.ok(kinds.size >= 41, `only ${kinds.size} kinds shown`);
    // The negative-time case: the Chinese sentence, the row named as the reader named it.
    const negative = shown.find((s) => s.path.startsWith('records-negative-time'));
    const line = negative.warnings.find((w) => w.kind === 'records-negative-time');
    assert.equal(line.message, '已跳过 1 行时间为负的记录：aicore_tasks[1] (start_cycles = -7)');
    // The warnings' headings are Chinese too.
    assert.match(await page.textContent('#datasets li.dataset[data-path^="records-negative-time"] .dataset-warnings summary'), CJK);
    assert.deepEqual(pageErrors, []);
    await page.$eval('#datasets li.dataset[data-path^="records-negative-time"]', (el) => el.scrollIntoView());
    await screenshot(page, 'warnings-sidebar-zh');
  } finally {
    await context.close();
  }
});
