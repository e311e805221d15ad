// Issue 20, item 5 (accessibility): axe-core (npm) runs on every view and state of the demo —
// the landing page, the chip swimlane (with a selected task), the task graph, Function
// Performance, the IR Pass Trace, the Memory Reuse map, the shortcut sheet — in English and in
// Chinese, light theme; a serious or critical violation fails the test (the others are printed).

import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { TIMEOUT_MS, datasetSel, serveDistAndLaunch, waitLoadDone } from './helpers.mjs';

const env = serveDistAndLaunch();
const require = createRequire(import.meta.url);
const AXE_PATH = require.resolve('axe-core/axe.min.js');

/** Runs axe on the page; returns its violations as `{id, impact, help, nodes: [target…]}`. */
async function axe(page) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.addScriptTag({ path: AXE_PATH });
  return page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
  });
}

async function check(page, state, failures) {
  const violations = await axe(page);
  for (const v of violations) {
    const line = `${state}: [${v.impact}] ${v.id} — ${v.help} — ${v.nodes.join(' | ')}`;
    if (v.impact === 'serious' || v.impact === 'critical') failures.push(line);
    else console.log(`  (minor) ${line}`);
  }
}

for (const locale of ['en-US', 'zh-CN']) {
  test(`axe: no serious or critical violation in any view (${locale})`, { timeout: 300_000 }, async () => {
    // bypassCSP: the page's CSP (script-src 'self') would refuse the injected axe script.
    const context = await env.browser.newContext({ viewport: { width: 1400, height: 900 }, locale, bypassCSP: true });
    const failures = [];
    try {
      const page = await context.newPage();
      await page.goto(`${env.server.url}/`);
      await page.waitForSelector('[data-testid=welcome-files]', { timeout: TIMEOUT_MS });
      await check(page, 'landing', failures);

      await page.click('#open-demo');
      await waitLoadDone(page);
      await page.waitForFunction(() => Number(document.querySelector('#swimlane')?.dataset.bars) > 0, null, { timeout: TIMEOUT_MS });
      await check(page, 'swimlane', failures);
      await page.fill('#swimlane-search', 't0');
      await page.press('#swimlane-search', 'Enter');
      await page.waitForTimeout(800);
      await check(page, 'swimlane with a selected task', failures);

      for (const key of ['dep-graph', 'function-perf']) {
        await page.click(`[data-testid=view-switch-${key}]`);
        await page.waitForSelector(`[data-testid=view-switch-${key}].active`, { timeout: TIMEOUT_MS });
        await page.waitForTimeout(800);
        await check(page, key, failures);
      }
      await page.click(datasetSel('pass_dump', 'passes_dump'));
      await page.waitForSelector('[data-testid=view-switch-pass-trace].active', { timeout: TIMEOUT_MS });
      await page.waitForTimeout(800);
      await check(page, 'pass-trace', failures);
      await page.click('[data-testid=view-switch-memory-map]');
      await page.waitForSelector('[data-testid=view-switch-memory-map].active', { timeout: TIMEOUT_MS });
      await page.waitForTimeout(800);
      await check(page, 'memory-map', failures);
      await page.keyboard.press('?');
      await page.waitForSelector('[data-testid=shortcut-sheet]', { timeout: TIMEOUT_MS });
      await check(page, 'shortcut sheet', failures);
    } finally {
      await context.close();
    }
    assert.deepEqual(failures, [], `serious/critical axe violations:\n${failures.join('\n')}`);
  });
}
