// Issue 20, item 5 (accessibility): axe-core (npm) runs on every view and state, in English
// and in Chinese, in the light and in the dark theme (the system's colour scheme, followed by
// the default "system" theme); a serious or critical violation fails the test, and so does a
// moderate `heading-order` (the others are printed).
// - The demo: the landing page, the chip swimlane (a selected task; the Performance Analysis
//   panel and each of its tabs), the task graph (a task selected by keyboard, its details and
//   tables open; the shortcut sheet over it), Function Performance, the IR Pass Trace, the
//   Memory Reuse map, the shortcut sheet, the language switch focused.
// - A folder of two runs, two pass dumps and a serving STRACE: the runs compared, the pass
//   dumps compared (passes, memory), the STRACE swimlane with its statistics.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';
import {
  FIXTURES,
  TIMEOUT_MS,
  datasetSel,
  filesOf,
  isViewerRuntimeFile,
  loadVia,
  seedOpfs,
  serveDistAndLaunch,
  summaryOf,
  tempTree,
  waitLoadDone,
  compareWith, movedBufferPassDumps,
} from './helpers.mjs';

const env = serveDistAndLaunch();
const require = createRequire(import.meta.url);
const AXE_PATH = require.resolve('axe-core/axe.min.js');

/** Runs axe on the page; returns its violations as `{id, impact, help, nodes: [target…]}`. */
async function axe(page) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.addScriptTag({ path: AXE_PATH });
  return page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')}${n.any[0]?.message ? ` (${n.any[0].message})` : ''}`),
    }));
  });
}

/** Rules that fail the test whatever axe's impact (moderate): headings go down one level at a
 *  time (each panel's title is its landmark's h2, its sections h3). */
const FAILING_RULES = new Set(['heading-order']);

async function check(page, state, failures) {
  const violations = await axe(page);
  for (const v of violations) {
    const line = `${state}: [${v.impact}] ${v.id} — ${v.help} — ${v.nodes.join(' | ')}`;
    if (v.impact === 'serious' || v.impact === 'critical' || FAILING_RULES.has(v.id)) failures.push(line);
    else console.log(`  (minor) ${line}`);
  }
}

/** A page in `locale` whose system colour scheme is `scheme`; checks the page took the theme. */
async function newPage(locale, scheme) {
  // bypassCSP: the page's CSP (script-src 'self') would refuse the injected axe script.
  const context = await env.browser.newContext({ viewport: { width: 1400, height: 900 }, locale, colorScheme: scheme, bypassCSP: true });
  const page = await context.newPage();
  return { context, page };
}

async function assertTheme(page, scheme) {
  await page.waitForFunction((s) => document.documentElement.dataset.theme === s, scheme, { timeout: TIMEOUT_MS });
}

async function switchView(page, key) {
  await page.click(`[data-testid=view-switch-${key}]`);
  await page.waitForSelector(`[data-testid=view-switch-${key}].active`, { timeout: TIMEOUT_MS });
  await page.waitForTimeout(800);
}

const COMBINATIONS = ['en-US', 'zh-CN'].flatMap((locale) => ['light', 'dark'].map((scheme) => [locale, scheme]));

for (const [locale, scheme] of COMBINATIONS) {
  test(`axe: no serious or critical violation in any view of the demo (${locale}, ${scheme})`, { timeout: 300_000 }, async () => {
    const { context, page } = await newPage(locale, scheme);
    const failures = [];
    try {
      await page.goto(`${env.server.url}/`);
      await page.waitForSelector('[data-testid=welcome-files]', { timeout: TIMEOUT_MS });
      await assertTheme(page, scheme);
      await check(page, 'landing', failures);

      await page.click('#open-demo');
      await waitLoadDone(page);
      await page.waitForFunction(() => Number(document.querySelector('#swimlane')?.dataset.bars) > 0, null, { timeout: TIMEOUT_MS });
      await check(page, 'swimlane', failures);
      await page.fill('#swimlane-search', 't0');
      await page.press('#swimlane-search', 'Enter');
      await page.waitForTimeout(800);
      await check(page, 'swimlane with a selected task', failures);
      await page.click('#perf-panel-toggle');
      await page.waitForSelector('[data-testid=perf-panel]', { timeout: TIMEOUT_MS });
      for (const tab of await page.$$eval('[data-testid^=perf-tab-]', (els) => els.map((e) => e.dataset.testid))) {
        await page.click(`[data-testid=${tab}]`);
        await page.waitForSelector(`[data-testid=${tab.replace('perf-tab-', 'perf-body-')}]`, { timeout: TIMEOUT_MS });
        await page.waitForTimeout(500);
        await check(page, `performance analysis: ${tab}`, failures);
      }

      await switchView(page, 'dep-graph');
      await page.waitForFunction(() => Number(document.querySelector('#dep-graph')?.dataset.nodes) > 0, null, { timeout: TIMEOUT_MS });
      await check(page, 'dep-graph', failures);
      // A task selected by keyboard: its details and their tables.
      await page.focus('#dep-graph');
      await page.keyboard.press(']');
      await page.waitForSelector('#dep-graph[data-selected]', { timeout: TIMEOUT_MS });
      await page.waitForSelector('[data-testid=dep-args]', { timeout: TIMEOUT_MS });
      await check(page, 'dep-graph with a task selected, details open', failures);
      await page.keyboard.press('?');
      await page.waitForSelector('[data-testid=shortcut-sheet]', { timeout: TIMEOUT_MS });
      await check(page, 'dep-graph shortcut sheet', failures);
      await page.keyboard.press('Escape');
      await page.waitForSelector('[data-testid=shortcut-sheet]', { state: 'detached', timeout: TIMEOUT_MS });

      await switchView(page, 'function-perf');
      await check(page, 'function-perf', failures);
      await page.click(datasetSel('pass_dump', 'passes_dump'));
      await page.waitForSelector('[data-testid=view-switch-pass-trace].active', { timeout: TIMEOUT_MS });
      await page.waitForTimeout(800);
      await check(page, 'pass-trace', failures);
      await switchView(page, 'memory-map');
      await check(page, 'memory-map', failures);
      await page.keyboard.press('?');
      await page.waitForSelector('[data-testid=shortcut-sheet]', { timeout: TIMEOUT_MS });
      await check(page, 'shortcut sheet', failures);
      await page.keyboard.press('Escape');
      // The language switch is a native <select>: its list is the browser's, not the page's
      // DOM; the switch itself, focused, is checked.
      await page.focus('[data-testid=language-switch]');
      await check(page, 'language switch focused', failures);
    } finally {
      await context.close();
    }
    assert.deepEqual(failures, [], `serious/critical (or heading-order) axe violations:\n${failures.join('\n')}`);
  });
}

const runtime = (name) => path.join(FIXTURES, 'runtime', name);
const MIXED = runtime('a2a3sim-L4-TestChipSwimlaneMixed_default');
const MIXED2 = runtime('a2a3sim-L4-TestChipSwimlaneMixed_default-run2');
const STRACE = path.join(FIXTURES, 'strace', 'generated-8lanes', 'serving-strace-swimlane.json');



for (const [locale, scheme] of COMBINATIONS) {
  test(`axe: no serious or critical violation in the comparisons and the STRACE view (${locale}, ${scheme})`, { timeout: 300_000 }, async () => {
    const { context, page } = await newPage(locale, scheme);
    const failures = [];
    try {
      await page.addInitScript(() => {
        window.showDirectoryPicker = async () => (await navigator.storage.getDirectory()).getDirectoryHandle('picked', { create: true });
      });
      await page.goto(`${env.server.url}/`);
      await page.waitForSelector('[data-testid=welcome-files]', { timeout: TIMEOUT_MS });
      await assertTheme(page, scheme);
      await seedOpfs(page, {
        ...filesOf(MIXED, 'runs/mixed', isViewerRuntimeFile),
        ...filesOf(MIXED2, 'runs/mixed-run2', isViewerRuntimeFile),
        ...movedBufferPassDumps('pypto-e2e-a11y-passes-'),
        'serving/serving-strace-swimlane.json': STRACE,
      });
      await loadVia(page, () => page.click('#open-folder'));
      const runB = datasetSel('runtime', 'runs/mixed-run2');
      await summaryOf(page, runB);
      await summaryOf(page, datasetSel('runtime', 'runs/mixed'));

      await compareWith(page, runB, 'runs/mixed');
      await page.waitForSelector('[data-testid=compare-runs]', { timeout: TIMEOUT_MS });
      await page.waitForSelector('[data-testid=compare-histogram] rect', { timeout: TIMEOUT_MS });
      await check(page, 'runs compared', failures);

      const dumpB = datasetSel('pass_dump', 'dumps/b');
      await page.waitForSelector(`${dumpB} [data-testid=compare-with]`, { timeout: TIMEOUT_MS });
      await compareWith(page, dumpB, 'dumps/a');
      await page.waitForSelector('[data-testid=compare-passes][data-rows]:not([data-rows="0"])', { timeout: TIMEOUT_MS });
      await page.waitForFunction(() => Number(document.querySelector('[data-testid=compare-pass-diff]')?.dataset.rows) > 0, null, { timeout: TIMEOUT_MS });
      await check(page, 'pass dumps compared', failures);
      await page.click('[data-testid=compare-pass-tab-memory]');
      await page.waitForSelector('[data-testid=compare-memory-row]', { timeout: TIMEOUT_MS });
      await check(page, 'pass dumps compared: memory', failures);

      const strace = datasetSel('serving_strace', 'serving-strace-swimlane.json');
      await page.click(`${strace} .dataset-name`);
      await page.waitForFunction(() => Number(document.querySelector('#swimlane')?.dataset.bars) > 0, null, { timeout: TIMEOUT_MS });
      await page.waitForSelector('#trace-stats', { timeout: TIMEOUT_MS });
      await page.waitForTimeout(800);
      await check(page, 'serving STRACE swimlane', failures);
    } finally {
      await context.close();
    }
    assert.deepEqual(failures, [], `serious/critical (or heading-order) axe violations:\n${failures.join('\n')}`);
  });
}
