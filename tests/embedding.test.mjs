// The viewer as a docs portal embeds it: copied under a sub-path of another site, shown in a
// cross-origin iframe, and under its Content-Security-Policy (no violations while it works).

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { serve } from './server.mjs';
import { DEMO_RUNTIME_FIXTURE, DIST, TIMEOUT_MS, launch, runtimeFacts, screenshot, withPage } from './helpers.mjs';

const SUB_PATH = 'tools/pypto-viewer';
let portalDir;
let portal; // serves portalDir: the viewer under /tools/pypto-viewer/
let host; // another origin with a page that embeds the viewer in an iframe
let browser;

before(async () => {
  portalDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pypto-portal-'));
  fs.cpSync(DIST, path.join(portalDir, SUB_PATH), { recursive: true });
  portal = await serve(portalDir, 0);
  // Same machine, other origin: "localhost" instead of "127.0.0.1".
  const viewerUrl = `${portal.url.replace('127.0.0.1', 'localhost')}/${SUB_PATH}/`;
  const hostDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pypto-host-'));
  fs.writeFileSync(
    path.join(hostDir, 'index.html'),
    `<!DOCTYPE html><title>Team docs</title><h1>Kernel tuning notes</h1>
     <iframe id="viewer" src="${viewerUrl}" style="width:1200px;height:700px;border:1px solid #999"></iframe>`,
  );
  host = await serve(hostDir, 0);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await portal?.close();
  await host?.close();
  if (portalDir) fs.rmSync(portalDir, { recursive: true, force: true });
});

/** Records CSP violations of every frame in `window.__cspViolations`. Call before goto. */
async function recordCspViolations(page) {
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI}`);
    });
  });
}

async function demoTasks(frame) {
  await frame.waitForSelector('#worker-status[data-state="ready"]', { state: 'attached', timeout: TIMEOUT_MS });
  await frame.click('#open-demo');
  await frame.waitForSelector('body[data-load-state="done"]', { state: 'attached', timeout: TIMEOUT_MS });
  const el = await frame.waitForSelector('li.dataset[data-kind="runtime"] .summary[data-tasks]', { state: 'attached' });
  return Number(await el.getAttribute('data-tasks'));
}

test('under a sub-path the viewer loads its files by relative URL and opens the demo without CSP violations', { timeout: 120_000 }, async () => {
  await withPage(browser, 'sub-path', async ({ page }) => {
    await recordCspViolations(page);
    const requests = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(`${portal.url}/${SUB_PATH}/`);
    assert.equal(await demoTasks(page), runtimeFacts(DEMO_RUNTIME_FIXTURE).tasks);
    await page.click('li.dataset[data-kind="runtime"]');
    await page.waitForFunction(() => Number(document.querySelector('#swimlane')?.dataset.bars) > 0, null, { timeout: TIMEOUT_MS });
    const outside = requests.filter((u) => !u.startsWith(`${portal.url}/${SUB_PATH}/`));
    assert.deepEqual(outside, [], 'every request stays under the sub-path');
    assert.deepEqual(await page.evaluate(() => window.__cspViolations), [], 'no CSP violations');
    await screenshot(page, 'sub-path');
  });
});

test('in a cross-origin iframe of another site the viewer runs its worker and opens the demo', { timeout: 120_000 }, async () => {
  await withPage(browser, 'iframe', async ({ page }) => {
    await recordCspViolations(page);
    await page.goto(`${host.url}/`);
    const frame = page.frames().find((f) => f.url().includes(SUB_PATH)) ?? (await (await page.waitForSelector('#viewer')).contentFrame());
    assert.ok(frame, 'the iframe loaded');
    assert.notEqual(new URL(frame.url()).origin, new URL(page.url()).origin, 'the viewer is cross-origin to the host');
    assert.equal(await demoTasks(frame), runtimeFacts(DEMO_RUNTIME_FIXTURE).tasks);
    assert.deepEqual(await frame.evaluate(() => window.__cspViolations), [], 'no CSP violations in the iframe');
    await screenshot(page, 'iframe');
  });
});
