// The embedding API (README "Embedding", crates/app/src/embed): the example host page
// (www/embed-example.html, shipped in dist/) served from another origin embeds the viewer with
// ?embed=1&allowOrigin=<host>&src=<demo>, receives `ready` and `loaded`, drives it with
// `navigate`, `setTheme`, `setLanguage` and gets `selection` and `error` events; messages from
// an origin the viewer does not declare, and malformed ones, are ignored with a warning.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { serve } from './server.mjs';
import { DEMO_RUNTIME_FIXTURE, DIST, TIMEOUT_MS, runtimeFacts, screenshot, serveDistAndLaunch, withPage } from './helpers.mjs';

const env = serveDistAndLaunch();
let host; // a second static server: the docs site (another origin)
let hostDir;

/** The viewer's URL (127.0.0.1) and the host's (localhost: another origin, another site). */
const viewerUrl = () => `${env.server.url}/`;
const hostUrl = () => host.url.replace('127.0.0.1', 'localhost');

// A page that embeds the viewer but is not the origin it declares (first frame), or declares
// nothing (second frame); it records whatever the frames post to it.
const STRANGER = `<!DOCTYPE html><title>Someone else</title><body>
<script>
  window.received = [];
  addEventListener('message', (e) => window.received.push({ origin: e.origin, data: e.data }));
  const viewer = new URL(new URL(location.href).searchParams.get('viewer'));
  const demo = new URL('demo/', viewer).href;
  for (const [id, allow] of [['other', 'https://docs.example.invalid'], ['none', null]]) {
    const f = document.createElement('iframe');
    f.id = id;
    f.style.cssText = 'width:900px;height:400px';
    const u = new URL(viewer);
    u.searchParams.set('embed', '1');
    if (allow) u.searchParams.set('allowOrigin', allow);
    u.searchParams.set('src', demo);
    f.src = u.href;
    document.body.append(f);
  }
</script>`;

before(() => {
  hostDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pypto-embed-host-'));
  // The example exactly as shipped.
  fs.copyFileSync(path.join(DIST, 'embed-example.html'), path.join(hostDir, 'embed-example.html'));
  fs.writeFileSync(path.join(hostDir, 'stranger.html'), STRANGER);
});
before(async () => {
  host = await serve(hostDir, 0);
});
after(async () => {
  await host?.close();
  if (hostDir) fs.rmSync(hostDir, { recursive: true, force: true });
});

/** Collects the viewer's embedding warnings (console of every frame) and the page errors. */
function watchConsole(page) {
  const seen = { warnings: [], pageErrors: [] };
  page.on('console', (m) => {
    if (m.type() === 'warning' && m.text().includes('pypto-viewer embedding')) seen.warnings.push(m.text());
  });
  page.on('pageerror', (e) => seen.pageErrors.push(e.message));
  return seen;
}

/** The first event of `type` from index `since` of the host's log (waits for it). */
async function nextEvent(page, type, since = 0, timeout = TIMEOUT_MS) {
  const handle = await page.waitForFunction(
    ({ type, since }) => window.viewerHost.events.slice(since).find((e) => e.type === type),
    { type, since },
    { timeout },
  );
  return handle.jsonValue();
}

const eventCount = (page) => page.evaluate(() => window.viewerHost.events.length);
const send = (page, message) => page.evaluate((m) => window.viewerHost.send(m), message);

/** The frame whose URL is the viewer's. */
async function viewerFrame(page, selector) {
  const el = await page.waitForSelector(selector);
  const frame = await el.contentFrame();
  await frame.waitForSelector('body[data-load-state="done"]', { state: 'attached', timeout: TIMEOUT_MS });
  return frame;
}

/** A task of the demo's deps.json: its raw id and its `rXtY` / `tY` label. */
function demoTask(index) {
  const deps = JSON.parse(fs.readFileSync(path.join(DEMO_RUNTIME_FIXTURE, 'deps.json'), 'utf8'));
  const raw = BigInt(deps.tasks[index].task_id);
  const ring = (raw >> 32n) & 0xffn;
  const local = raw & 0xffffffffn;
  return { raw: raw.toString(), label: ring === 0n ? `t${local}` : `r${ring}t${local}` };
}

test('a host page on another origin embeds the viewer, drives it by postMessage and receives its events', { timeout: 180_000 }, async () => {
  await withPage(env.browser, 'embed-host', async ({ page }) => {
    const seen = watchConsole(page);
    await page.goto(`${hostUrl()}/embed-example.html?viewer=${encodeURIComponent(viewerUrl())}`);
    const ready = await nextEvent(page, 'ready');
    assert.equal(ready.pyptoViewer, 1);
    assert.equal(ready.protocol, 1);
    assert.equal(ready.embed, true);
    const loaded = await nextEvent(page, 'loaded');
    const runtime = loaded.datasets.find((d) => d.kind === 'runtime');
    assert.ok(runtime, JSON.stringify(loaded));
    assert.equal(runtime.tasks, runtimeFacts(DEMO_RUNTIME_FIXTURE).tasks);
    assert.ok(runtime.views.includes('swimlane') && runtime.views.includes('dep-graph'), runtime.views.join());
    assert.ok(loaded.datasets.some((d) => d.kind === 'pass_dump' && d.views.includes('pass-trace')), JSON.stringify(loaded.datasets));
    assert.equal(loaded.fileErrors, 0);

    const frame = await viewerFrame(page, '#viewer');
    assert.notEqual(new URL(frame.url()).origin, new URL(page.url()).origin, 'the viewer is cross-origin to the host');
    // One view: no top bar, no sidebar; the slim bar's link opens the full viewer.
    assert.equal(await frame.locator('.toolbar').count(), 0);
    assert.equal(await frame.locator('.sidebar').count(), 0);
    const link = frame.getByTestId('open-full-viewer');
    assert.equal(await link.getAttribute('target'), '_blank');
    const full = new URL(await link.getAttribute('href'));
    assert.equal(full.searchParams.get('embed'), null);
    assert.equal(full.searchParams.get('allowOrigin'), null);
    assert.ok(full.searchParams.get('src')?.endsWith('/demo/'), full.href);
    assert.equal(full.origin, new URL(viewerUrl()).origin);
    await frame.waitForFunction(() => Number(document.querySelector('#swimlane')?.dataset.bars) > 0, null, { timeout: TIMEOUT_MS });
    await screenshot(page, 'embed-host-swimlane');

    // navigate: the task graph of the runtime dataset, a task selected there.
    const task = demoTask(3);
    let since = await eventCount(page);
    await send(page, { type: 'navigate', dataset: runtime.path, view: 'dep-graph', task: task.label });
    const inGraph = await nextEvent(page, 'selection', since);
    assert.equal(inGraph.view, 'dep-graph');
    assert.equal(inGraph.dataset, runtime.path);
    assert.equal(inGraph.selected, true);
    assert.equal(inGraph.task, task.label);
    assert.equal(inGraph.taskRaw, task.raw);
    assert.ok(inGraph.function, JSON.stringify(inGraph));
    await frame.waitForSelector('[data-testid="view-switch-dep-graph"].active');
    assert.equal(new URL(await link.getAttribute('href')).searchParams.get('view'), 'dep-graph', 'the full viewer opens the shown view');
    await page.waitForTimeout(500);
    await screenshot(page, 'embed-host-graph');

    // navigate: the same task in the swimlane, by its raw number.
    since = await eventCount(page);
    await send(page, { type: 'navigate', view: 'swimlane', task: Number(task.raw) });
    const inLane = await nextEvent(page, 'selection', since);
    assert.equal(inLane.view, 'swimlane');
    assert.equal(inLane.task, task.label);
    assert.equal(inLane.function, inGraph.function);
    assert.ok(Number.isFinite(inLane.startUs) && inLane.endUs > inLane.startUs, JSON.stringify(inLane));
    assert.ok(inLane.lane, JSON.stringify(inLane));
    await frame.waitForSelector('[data-testid="view-switch-swimlane"].active');

    // setTheme / setLanguage: <html data-theme lang> inside the frame, and the chrome's colours.
    const barColour = () => frame.evaluate(() => getComputedStyle(document.querySelector('.embed-bar')).backgroundColor);
    const light = await barColour();
    await send(page, { type: 'setTheme', theme: 'dark' });
    await frame.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    assert.notEqual(await barColour(), light, 'the dark theme recolours the chrome');
    await send(page, { type: 'setLanguage', language: 'zh' });
    await frame.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    await page.waitForTimeout(300);
    await screenshot(page, 'embed-host-dark');

    // Malformed and unknown messages: each ignored with a warning and an `error` event, no page error.
    const warnedBefore = seen.warnings.length;
    since = await eventCount(page);
    const bad = await page.evaluate((origin) => {
      const messages = [
        null, 'hello', 42, [1, 2], {}, { type: 'setTheme', theme: 'light' },
        { pyptoViewer: 2, type: 'setTheme', theme: 'light' }, { pyptoViewer: '1', type: 'setTheme', theme: 'light' },
        { pyptoViewer: 1 }, { pyptoViewer: 1, type: 'reboot' }, { pyptoViewer: 1, type: 'setTheme', theme: 'blue' },
        { pyptoViewer: 1, type: 'setLanguage', language: 'fr' }, { pyptoViewer: 1, type: 'navigate' },
        { pyptoViewer: 1, type: 'navigate', task: 'zz' }, { pyptoViewer: 1, type: 'navigate', task: -3 },
        { pyptoViewer: 1, type: 'navigate', windowUs: [5, 1] }, { pyptoViewer: 1, type: 'navigate', view: 'nope' },
        { pyptoViewer: 1, type: 'open' }, { pyptoViewer: 1, type: 'open', url: 7 },
      ];
      for (const m of messages) window.viewerHost.frame.contentWindow.postMessage(m, origin);
      return messages.length;
    }, new URL(viewerUrl()).origin);
    await page.waitForFunction(
      ({ since, bad }) => window.viewerHost.events.slice(since).filter((e) => e.type === 'error' && e.kind === 'message').length >= bad,
      { since, bad },
      { timeout: 20_000 },
    );
    const refusals = (await page.evaluate((since) => window.viewerHost.events.slice(since), since)).filter((e) => e.type === 'error');
    assert.ok(refusals.every((e) => e.kind === 'message' && e.message.startsWith('message ignored: ')), JSON.stringify(refusals));
    assert.ok(refusals.some((e) => e.message.includes('protocol version 2')), 'the version is checked');
    assert.equal(await frame.evaluate(() => document.documentElement.dataset.theme), 'dark', 'nothing malformed was applied');
    // navigate to what is not there: refused whole, an `error` of kind navigate.
    since = await eventCount(page);
    await send(page, { type: 'navigate', dataset: 'no/such/dataset', view: 'dep-graph' });
    const refused = await nextEvent(page, 'error', since);
    assert.equal(refused.kind, 'navigate');
    assert.match(refused.message, /no\/such\/dataset/);
    await frame.waitForSelector('[data-testid="view-switch-swimlane"].active');
    assert.ok(seen.warnings.length - warnedBefore >= bad, `a console warning per ignored message: ${seen.warnings.slice(warnedBefore).join('\n')}`);
    assert.deepEqual(seen.pageErrors, []);
  });
});

test('messages from an origin the viewer does not declare are ignored, and it posts that page nothing', { timeout: 120_000 }, async () => {
  await withPage(env.browser, 'embed-stranger', async ({ page }) => {
    const seen = watchConsole(page);
    await page.goto(`${hostUrl()}/stranger.html?viewer=${encodeURIComponent(viewerUrl())}`);
    const frames = [await viewerFrame(page, '#other'), await viewerFrame(page, '#none')];
    const before = await Promise.all(frames.map((f) => f.evaluate(() => document.documentElement.dataset.theme)));
    await page.evaluate(() => {
      for (const id of ['other', 'none']) {
        const w = document.getElementById(id).contentWindow;
        w.postMessage({ pyptoViewer: 1, type: 'setTheme', theme: 'dark' }, '*');
        w.postMessage({ pyptoViewer: 1, type: 'navigate', view: 'dep-graph' }, '*');
        w.postMessage({ pyptoViewer: 1, type: 'open', url: 'https://docs.example.invalid/data/' }, '*');
      }
    });
    await page.waitForTimeout(1500);
    for (const [i, frame] of frames.entries()) {
      assert.equal(await frame.evaluate(() => document.documentElement.dataset.theme), before[i], 'the theme is unchanged');
      assert.equal(await frame.locator('[data-testid="view-switch-dep-graph"].active').count(), 0, 'still the default view');
      assert.equal(await frame.evaluate(() => document.body.dataset.loadState), 'done', 'nothing else was opened');
    }
    assert.deepEqual(await page.evaluate(() => window.received), [], 'no event reaches an undeclared origin');
    const ignored = seen.warnings.filter((w) => w.includes('not an origin ?allowOrigin= declares'));
    assert.ok(ignored.length >= 6, seen.warnings.join('\n'));
    assert.ok(seen.warnings.some((w) => w.includes('is not among ?allowOrigin=')), 'the frame says its page is not declared');
    assert.deepEqual(seen.pageErrors, []);
    await screenshot(page, 'embed-stranger');
  });
});
