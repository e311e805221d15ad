// Links, history and settings (issue 18 items 3, 4 and 6): the URL hash holds the whole view —
// a new page on it shows the same swimlane (window, selection, pinned lane, marker, label
// mode, dependency depth, setup option, panel tab, a table's sort) and the same graph (mode,
// direction, selection, zoom); back / forward move between views and selections; "Copy link"
// copies the address; remembered settings (a remapped key, the label mode, theme, language,
// the last folder's name) survive a reload, malformed ones are ignored, "Reset settings" puts
// the defaults back; a folder with only a deps.json opens on the graph, one with only a pass
// dump on the pass trace. Screenshots: links-*.png.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import {
  DEMO_PASSES_FIXTURE, DEMO_RUNTIME_FIXTURE, TIMEOUT_MS, filesOf, holdKey, loadVia, openApp, screenshot, seedOpfs, serveDistAndLaunch,
  stubDirectoryPicker, viewChangedFrom, viewWindow, waitLoadDone, withPage,
} from './helpers.mjs';

const env = serveDistAndLaunch();
const STORAGE_KEY = 'pypto-viewer.settings.v1';

// Task ids of the demo: of Worker View bars (merged_swimlane.json's event hints) and of deps.json.
const merged = JSON.parse(fs.readFileSync(path.join(DEMO_RUNTIME_FIXTURE, 'merged_swimlane.json'), 'utf8'));
const events = Array.isArray(merged) ? merged : merged.traceEvents;
const workerPid = events.find((e) => e.ph === 'M' && e.name === 'process_name' && e.args.name === 'Worker View').pid;
const workerTasks = events
  .filter((e) => e.ph === 'X' && e.pid === workerPid)
  .map((e) => /Task:([^,]+)/.exec(e.args?.['event-hint'] ?? '')?.[1])
  .filter(Boolean);
const deps = JSON.parse(fs.readFileSync(path.join(DEMO_RUNTIME_FIXTURE, 'deps.json'), 'utf8'));
const rt = (id) => {
  const v = BigInt(id);
  const ring = (v >> 32n) & 0xffn;
  return ring === 0n ? `t${v & 0xffffffffn}` : `r${ring}t${v & 0xffffffffn}`;
};

const api = (page, fn, ...args) => page.evaluate(([fn, args]) => window.__pyptoSwimlane[fn](...args), [fn, args]);
const waitHash = (page, re) => page.waitForFunction((s) => new RegExp(s).test(location.hash), re.source, { timeout: TIMEOUT_MS });

/** Opens the demo by `?src=` (plus a hash) and waits for the swimlane's bars. */
async function openDemo(page, hash = '') {
  await page.goto(`${env.server.url}/?src=./demo/${hash}`);
  await waitLoadDone(page);
}

async function waitSwimlane(page) {
  await page.waitForFunction(() => Number(document.querySelector('#swimlane')?.dataset.bars) > 0 && window.__pyptoSwimlane?.state(), null, {
    timeout: TIMEOUT_MS,
  });
}

/** Searches the swimlane and waits until a bar other than the selected one is selected; returns it. */
async function selectBySearch(page, query) {
  const prev = JSON.stringify((await api(page, 'state'))?.selected ?? null);
  await page.fill('#swimlane-search', query);
  await page.press('#swimlane-search', 'Enter');
  await page.waitForFunction((p) => {
    const s = window.__pyptoSwimlane.state()?.selected;
    return s && JSON.stringify(s) !== p;
  }, prev, { timeout: TIMEOUT_MS });
  return (await api(page, 'state')).selected;
}

/** The Worker View's tracks (index, label, bars). */
async function workerTracks(page) {
  const { groups } = await api(page, 'groups');
  return groups.find((g) => g.view === 'Worker View').tracks.filter((t) => t.bars > 0);
}

test('a link reproduces the swimlane: window, selection, pin, marker, labels, depth, setup, panel tab, table sort', async () => {
  await withPage(env.browser, 'links-swimlane', async ({ page, context }) => {
    await openDemo(page);
    await waitSwimlane(page);
    const tracks = await workerTracks(page);
    // a selection (its window follows), a pinned lane, a marker at the bar's bounds
    const sel = await selectBySearch(page, workerTasks[5]);
    const rect = await api(page, 'trackRect', tracks[1].index);
    await page.mouse.click(rect.x + 150 - 10, rect.y + 8);
    await page.waitForFunction((t) => window.__pyptoSwimlane.state().pinned.includes(t), tracks[1].index, { timeout: TIMEOUT_MS });
    const bar = await api(page, 'barRect', sel.track, sel.index);
    await page.mouse.click(bar.x + bar.w / 2, bar.y + bar.h / 2, { button: 'right' });
    await page.click('#menu-task-markers');
    await page.waitForFunction(() => window.__pyptoSwimlane.state().markers.length === 2, null, { timeout: TIMEOUT_MS });
    // settings shown in the toolbar
    await page.selectOption('#label-mode', 'id');
    await page.selectOption('#dep-depth', '2');
    await page.uncheck('#show-setup');
    // the panel on its Kernel statistics tab, sorted by average, descending
    await page.click('[data-testid="perf-panel-toggle"]');
    await page.click('[data-testid="perf-tab-kernels"]');
    const head = '[data-testid="kernel-perf-head"][data-col="avg_us"]';
    await page.waitForSelector(head, { timeout: TIMEOUT_MS });
    await page.click(head);
    await page.click(head);
    await page.waitForFunction(() => document.querySelector('[data-testid="kernel-perf"]')?.dataset.sort === 'avg_us:desc', null, { timeout: TIMEOUT_MS });
    await waitHash(page, /sel=.*mk=.*mk=.*pin=.*labels=id.*depth=2.*setup=0.*panel=kernels.*sort=kernel-perf%3Aavg_us%3Adesc/);
    await page.waitForTimeout(400);
    const state = await api(page, 'state');
    const hash = await page.evaluate(() => location.hash);
    assert.match(hash, /^#ds=[^&]*dfx_outputs&/, 'datasets by path');
    // "Copy link" copies the address
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.url });
    await page.click('[data-testid="copy-link"]');
    await page.waitForSelector('[data-testid="copy-link-status"]', { timeout: TIMEOUT_MS });
    assert.equal(await page.textContent('[data-testid="copy-link-status"]'), 'Link copied');
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), await page.evaluate(() => location.href));
    await screenshot(page, 'links-copy-link');

    // a new page on the link
    const fresh = await context.newPage();
    await openDemo(fresh, hash);
    await waitSwimlane(fresh);
    await fresh.waitForFunction(() => window.__pyptoSwimlane.state()?.selected, null, { timeout: TIMEOUT_MS });
    const again = await api(fresh, 'state');
    assert.deepEqual(again.selected, state.selected);
    assert.deepEqual(again.pinned, state.pinned);
    assert.deepEqual(again.markers.map((m) => m.label), state.markers.map((m) => m.label));
    again.markers.forEach((m, i) => assert.ok(Math.abs(m.t - state.markers[i].t) < 1e-3, `marker ${i}`));
    assert.ok(Math.abs(again.t0 - state.t0) < 0.01 && Math.abs(again.t1 - state.t1) < 0.01, JSON.stringify({ state, again }));
    assert.equal(await fresh.inputValue('#label-mode'), 'id');
    assert.equal(await fresh.inputValue('#dep-depth'), '2');
    assert.equal(await fresh.isChecked('#show-setup'), false);
    await fresh.waitForSelector('[data-testid="perf-tab-kernels"].active', { timeout: TIMEOUT_MS });
    await fresh.waitForFunction(() => document.querySelector('[data-testid="kernel-perf"]')?.dataset.sort === 'avg_us:desc', null, { timeout: TIMEOUT_MS });
    await fresh.waitForTimeout(500);
    assert.equal(await fresh.evaluate(() => location.hash), hash, 'the restored page writes the same link');
    await screenshot(fresh, 'links-swimlane-restored');
    await fresh.close();
  });
});

test('a link reproduces the graph: mode, direction, selection, zoom', async () => {
  await withPage(env.browser, 'links-graph', async ({ page, context }) => {
    await openDemo(page);
    await waitSwimlane(page);
    await page.click('[data-testid="view-switch-dep-graph"]');
    await page.waitForFunction(() => Number(document.querySelector('#dep-graph')?.dataset.nodes) > 0, null, { timeout: TIMEOUT_MS });
    await page.click('[data-testid="dep-mode-reduced"]');
    await page.waitForFunction(() => document.querySelector('#dep-graph')?.dataset.mode === 'reduced', null, { timeout: TIMEOUT_MS });
    await page.click('[data-testid="dep-direction"]');
    await page.waitForFunction(() => document.querySelector('#dep-graph')?.dataset.direction === 'LR', null, { timeout: TIMEOUT_MS });
    await page.fill('[data-testid="dep-search"]', rt(deps.tasks[5].task_id));
    await page.press('[data-testid="dep-search"]', 'Enter');
    await page.waitForFunction(() => document.querySelector('#dep-graph')?.dataset.selected, null, { timeout: TIMEOUT_MS });
    const box = await page.locator('#dep-graph').boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, 300);
    await page.waitForTimeout(300);
    await waitHash(page, /view=dep-graph.*gmode=reduced&gdir=lr.*gsel=.*gcam=/);
    await page.waitForTimeout(300);
    const attrs = () => page.$eval('#dep-graph', (el) => ({ ...el.dataset }));
    const before = await attrs();
    const hash = await page.evaluate(() => location.hash);
    const fresh = await context.newPage();
    await openDemo(fresh, hash);
    await fresh.waitForFunction((s) => document.querySelector('#dep-graph')?.dataset.selected === s, before.selected, { timeout: TIMEOUT_MS });
    const after = await fresh.$eval('#dep-graph', (el) => ({ ...el.dataset }));
    assert.equal(after.mode, 'reduced');
    assert.equal(after.direction, 'LR');
    assert.ok(Math.abs(Number(after.scale) / Number(before.scale) - 1) < 0.01, `zoom ${before.scale} → ${after.scale}`);
    const [x0, y0] = before.selectedScreen.split(',').map(Number);
    const [x1, y1] = after.selectedScreen.split(',').map(Number);
    assert.ok(Math.abs(x0 - x1) < 2 && Math.abs(y0 - y1) < 2, `selected node at ${before.selectedScreen} → ${after.selectedScreen}`);
    await screenshot(fresh, 'links-graph-restored');
    await fresh.close();
  });
});

test('back and forward move between views and selections', async () => {
  await withPage(env.browser, 'links-history', async ({ page }) => {
    await openDemo(page);
    await waitSwimlane(page);
    const a = await selectBySearch(page, workerTasks[3]);
    await waitHash(page, new RegExp(`sel=${a.track}%3A${a.index}`));
    const b = await selectBySearch(page, workerTasks[12]);
    assert.notDeepEqual(a, b);
    await waitHash(page, new RegExp(`sel=${b.track}%3A${b.index}`));
    await page.click('[data-testid="view-switch-dep-graph"]');
    await page.waitForFunction(() => Number(document.querySelector('#dep-graph')?.dataset.nodes) > 0, null, { timeout: TIMEOUT_MS });
    await waitHash(page, /view=dep-graph/);
    const selectedIs = (bar) =>
      page.waitForFunction(
        ([t, i]) => {
          const s = window.__pyptoSwimlane?.state()?.selected;
          return s && s.track === t && s.index === i;
        },
        [bar.track, bar.index],
        { timeout: TIMEOUT_MS },
      );
    await page.evaluate(() => history.back());
    await page.waitForSelector('#swimlane', { timeout: TIMEOUT_MS });
    await selectedIs(b);
    await page.evaluate(() => history.back());
    await selectedIs(a);
    assert.match(await page.evaluate(() => location.hash), new RegExp(`sel=${a.track}%3A${a.index}`));
    await page.evaluate(() => history.forward());
    await selectedIs(b);
    await page.evaluate(() => history.forward());
    await page.waitForSelector('#dep-graph', { timeout: TIMEOUT_MS });
    // a pan is no new entry: back from the graph is still the selection b
    await page.evaluate(() => history.back());
    await selectedIs(b);
  });
});

test('settings last: a remapped key, the label mode, theme and language survive a reload; Reset restores the defaults', async () => {
  await withPage(env.browser, 'links-settings', async ({ page }) => {
    const warnings = [];
    page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
    await openDemo(page);
    await waitSwimlane(page);
    await page.click('#swimlane-settings-toggle');
    await page.fill('#key-zoom-in', 'i');
    await page.press('#key-zoom-in', 'Tab');
    await page.selectOption('#label-mode', 'both');
    await page.waitForFunction((k) => (localStorage.getItem(k) ?? '').includes('"zoom_in":"i"'), STORAGE_KEY, { timeout: TIMEOUT_MS });
    // set the theme and language in the stored JSON (the theme switch has its own test: themes.test.mjs)
    await page.evaluate((k) => {
      const s = JSON.parse(localStorage.getItem(k));
      localStorage.setItem(k, JSON.stringify({ ...s, theme: 'dark', language: 'zh-CN' }));
    }, STORAGE_KEY);
    // a reload without a link: the remembered settings
    await openDemo(page);
    await waitSwimlane(page);
    assert.equal(await page.getAttribute('html', 'data-theme'), 'dark');
    assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
    assert.equal(await page.inputValue('#label-mode'), 'both');
    await page.click('#swimlane-settings-toggle');
    assert.equal(await page.inputValue('#key-zoom-in'), 'i');
    // the remapped key zooms in
    await page.focus('#swimlane');
    const before = await viewWindow(page);
    await holdKey(page, 'i');
    const after = await viewChangedFrom(page, before);
    assert.ok(after.end - after.start < before.end - before.start, `zoomed in: ${JSON.stringify({ before, after })}`);
    await screenshot(page, 'links-settings-reset-button');
    await page.click('[data-testid="reset-settings"]');
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light' && document.documentElement.lang === 'en', null, { timeout: TIMEOUT_MS });
    await page.waitForFunction(() => document.querySelector('#key-zoom-in').value === 'w' && document.querySelector('#label-mode').value === 'name', null, {
      timeout: TIMEOUT_MS,
    });
    // the default theme is the system's (light in this headless page)
    await page.waitForFunction((k) => JSON.parse(localStorage.getItem(k) ?? '{}').theme === 'system', STORAGE_KEY, { timeout: TIMEOUT_MS });
    // malformed settings: ignored with a warning, the page works
    await page.evaluate((k) => localStorage.setItem(k, '{"theme": "dark", oops'), STORAGE_KEY);
    await openDemo(page);
    await waitSwimlane(page);
    assert.equal(await page.getAttribute('html', 'data-theme'), 'light');
    assert.ok(warnings.some((w) => w.includes(STORAGE_KEY)), `a console warning: ${warnings}`);
  });
});

test('a folder with only a deps.json opens on the graph; the landing page names the last folder', async () => {
  await withPage(env.browser, 'links-deps-only', async ({ page, context }) => {
    await stubDirectoryPicker(page);
    await openApp(page, `${env.server.url}/`);
    await seedOpfs(page, { 'case/dfx_outputs/deps.json': path.join(DEMO_RUNTIME_FIXTURE, 'deps.json') });
    await loadVia(page, () => page.click('#open-folder'));
    await page.waitForFunction(() => Number(document.querySelector('#dep-graph')?.dataset.nodes) > 0, null, { timeout: TIMEOUT_MS });
    assert.ok(await page.$('[data-testid="view-switch-dep-graph"].active'), 'the graph tab is the shown one');
    await waitHash(page, /^#ds=[^&]*dfx_outputs/);
    await screenshot(page, 'links-deps-only');
    const landing = await context.newPage();
    await openApp(landing, `${env.server.url}/`);
    await landing.waitForSelector('[data-testid="last-folder"]', { timeout: TIMEOUT_MS });
    assert.match(await landing.textContent('[data-testid="last-folder"]'), /Last opened: picked/);
    await screenshot(landing, 'links-last-folder');
    await landing.close();
  });
});

test('a folder with only a pass dump opens on the pass trace', async () => {
  await withPage(env.browser, 'links-pass-dump-only', async ({ page }) => {
    await stubDirectoryPicker(page);
    await openApp(page, `${env.server.url}/`);
    await seedOpfs(page, filesOf(path.join(DEMO_PASSES_FIXTURE, 'passes_dump'), 'build/passes_dump'));
    await loadVia(page, () => page.click('#open-folder'));
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=pass-item]').length > 0, null, { timeout: TIMEOUT_MS });
    assert.ok(await page.$('[data-testid="view-switch-pass-trace"].active'), 'the pass trace tab is the shown one');
    await screenshot(page, 'links-pass-dump-only');
  });
});
