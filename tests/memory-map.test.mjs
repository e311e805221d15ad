// Memory Reuse view (issue 7 items 7–9, 12) on the demo's paged_attention passes_dump: the
// overview rows equal pypto's own memory_map JSON (fixtures/passes/generated-paged_attention/
// memory_map-reference), a function's map is drawn (WebGL) with one rectangle per reference
// box, clicking a known tile's rectangle shows its numbers, tile → source lines and source
// line → live tiles are linked, zoom changes the view, the chip selector changes the
// capacities, earlier snapshots are refused with the file named, and the pass trace's
// "memory map" button opens the same map. Screenshots of the overview and the map.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { serve } from './server.mjs';
import { DIST, TIMEOUT_MS, datasetSel, launch, loadVia, openApp, screenshot, seedOpfs, stubDirectoryPicker, summaryOf } from './helpers.mjs';

const REF = JSON.parse(
  fs.readFileSync(
    path.resolve(import.meta.dirname, '..', 'fixtures', 'passes', 'generated-paged_attention', 'memory_map-reference', '35_after_AllocateMemoryAddr.memory_map.json'),
    'utf8',
  ),
);
const FN = 'kernel_online_update';
const REF_FN = REF.functions.find((f) => f.name === FN);
const TILE = 'oi_new_tile__ssa_v0';
const REF_TILE = REF_FN.boxes.find((b) => b.name === TILE);

let server;
let browser;
let context;
let page;

const overviewRows = () =>
  page.$$eval('[data-testid=mm-overview-row]', (rows) =>
    rows
      .map((r) => ({ top: parseFloat(r.style.top), cells: Object.fromEntries([...r.querySelectorAll('[data-col]')].map((c) => [c.dataset.col, c.textContent.trim()])) }))
      .sort((a, b) => a.top - b.top)
      .map((r) => r.cells),
  );
const num = (t) => Number(String(t).replace(/,/g, ''));
const mapAttr = (name) => page.$eval('[data-testid=mm-map]', (e, n) => e.getAttribute(n), name);
const hook = () => page.evaluate(() => window.__pyptoMemoryMap());
const waitMap = () =>
  page.waitForFunction(() => document.querySelector('[data-testid=mm-page]')?.dataset.loading === 'false', null, { timeout: TIMEOUT_MS });

async function clickBox(name) {
  const h = await hook();
  const b = h.boxes.find((x) => x.name === name);
  assert.ok(b, `box ${name} drawn`);
  assert.ok(b.visible && b.w >= 2 && b.h >= 2, `box ${name} visible: ${JSON.stringify(b)}`);
  await page.mouse.click(b.x + b.w / 2, b.y + Math.min(b.h / 2, 10));
  return b;
}

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
  await page.click('[data-testid=view-switch-memory-map]');
  await page.waitForSelector('[data-testid=mm-summary]', { timeout: TIMEOUT_MS });
});

after(async () => {
  await context?.close();
  await browser?.close();
  await server?.close();
});

test('overview rows equal the reference memory_map JSON', async () => {
  const page0 = await page.$eval('[data-testid=mm-page]', (e) => ({ ...e.dataset }));
  assert.equal(page0.file, REF.dump);
  assert.equal(page0.chip, REF.backend.name);
  const summary = await page.$eval('[data-testid=mm-summary]', (e) => ({ ...e.dataset }));
  assert.equal(Number(summary.functions), REF.functions.length);
  const refSpaces = new Set(REF.functions.flatMap((f) => f.spaces.map((s) => s.space)));
  assert.equal(Number(summary.spaces), refSpaces.size);
  const rows = await overviewRows();
  assert.equal(rows.length, REF.functions.reduce((n, f) => n + f.spaces.length, 0));
  for (const f of REF.functions) {
    const got = rows.filter((r) => r.function === f.name);
    assert.equal(got.length, f.spaces.length, `${f.name} spaces`);
    f.spaces.forEach((s, i) => {
      const r = got[i];
      assert.equal(r.space, s.space);
      assert.equal(r.type, f.ftype);
      assert.equal(num(r.hwm), s.hwm, `${f.name}/${s.space} hwm`);
      assert.equal(num(r.capacity), s.limit, `${f.name}/${s.space} capacity`);
      assert.equal(Number(r.boxes), s.tiles, `${f.name}/${s.space} boxes`);
      assert.equal(Number(r.bases), s.bases, `${f.name}/${s.space} bases`);
      assert.ok(Math.abs(Number(r.usage) - (s.hwm * 100) / s.limit) <= 0.05 + 1e-9, `${f.name}/${s.space} usage ${r.usage}`);
      assert.ok(num(r.peak_live) > 0 && num(r.peak_live) <= s.hwm, `${f.name}/${s.space} peak live ≤ hwm`);
    });
  }
  // sortable: usage descending
  await page.click('[data-testid=mm-overview-head][data-col=usage]');
  await page.click('[data-testid=mm-overview-head][data-col=usage]');
  const sorted = (await overviewRows()).map((r) => Number(r.usage));
  assert.deepEqual(sorted, [...sorted].sort((a, b) => b - a));
  await screenshot(page, 'memory-map-overview');
  // the matrix form: one row per function, a cell per space, '—' where unused
  await page.click('[data-testid=mm-overview-as-matrix]');
  const matrix = await page.$$eval('[data-testid=mm-matrix-row]', (rows) =>
    rows.map((r) => ({ fn: r.dataset.function, cells: [...r.querySelectorAll('td')].map((c) => ({ space: c.dataset.space, hwm: c.dataset.hwm, limit: c.dataset.limit, text: c.textContent })) })),
  );
  assert.deepEqual(matrix.map((r) => r.fn), REF.functions.map((f) => f.name));
  for (const [i, f] of REF.functions.entries()) {
    assert.equal(matrix[i].cells.length, refSpaces.size);
    for (const c of matrix[i].cells) {
      const s = f.spaces.find((x) => x.space === c.space);
      if (s) {
        assert.equal(Number(c.hwm), s.hwm, `${f.name}/${c.space}`);
        assert.equal(Number(c.limit), s.limit, `${f.name}/${c.space}`);
      } else {
        assert.equal(c.text, '—', `${f.name}/${c.space} unused`);
      }
    }
  }
  await screenshot(page, 'memory-map-overview-matrix');
  await page.click('[data-testid=mm-overview-as-table]');
});

test('a function map: boxes drawn, a known tile clicked shows its numbers', async () => {
  const row = page.locator('[data-testid=mm-overview-row]', { has: page.locator(`[data-col=function]:text-is("${FN}")`) }).first();
  await row.click();
  await page.waitForFunction((fn) => document.querySelector('[data-testid=mm-map]')?.dataset.function === fn, FN, { timeout: TIMEOUT_MS });
  assert.equal(Number(await mapAttr('data-boxes')), REF_FN.boxes.length);
  const h = await hook();
  assert.equal(h.function, FN);
  assert.deepEqual(h.boxes.map((b) => b.name), REF_FN.boxes.map((b) => b.name));
  // reuse visible: boxes of one slot with disjoint lifetimes share x and stack in y
  const same = h.boxes.filter((b) => ['oi_tile__ssa_v0', 'dst_tile__ssa_v1', 'zero_tile__ssa_v1'].includes(b.name));
  assert.equal(same.length, 3);
  assert.ok(same.every((b) => Math.abs(b.x - same[0].x) < 0.5 && Math.abs(b.w - same[0].w) < 0.5), 'a reused slot keeps its x range');
  // the canvas is not empty: the box's centre pixel is not the background
  await clickBox(TILE);
  await page.waitForSelector(`[data-testid=mm-details-table][data-name="${TILE}"]`, { timeout: TIMEOUT_MS });
  const d = await page.$eval('[data-testid=mm-details-table]', (e) => ({ ...e.dataset }));
  assert.equal(Number(d.offset), REF_TILE.offset);
  assert.equal(Number(d.size), REF_TILE.size);
  assert.equal(Number(d.start), REF_TILE.start);
  assert.equal(Number(d.end), REF_TILE.end);
  assert.equal(d.space, REF_TILE.space);
  const addr = await page.textContent('[data-testid=mm-detail-address]');
  const last = REF_TILE.offset + REF_TILE.size - 1;
  assert.equal(addr, `0x${REF_TILE.offset.toString(16).toUpperCase()}–0x${last.toString(16).toUpperCase()} (${REF_TILE.offset}–${last})`);
  const aliases = await page.$$eval('[data-testid=mm-details-table] tr', (trs) => trs.map((t) => t.textContent));
  assert.ok(aliases.some((t) => REF_TILE.aliases.every((a) => t.includes(a))), 'aliases listed');
  assert.equal(await mapAttr('data-selected'), TILE);
  // the view box of the function is flagged
  const view = REF_FN.boxes.find((b) => b.view);
  await clickBox(view.name);
  await page.waitForSelector(`[data-testid=mm-details-table][data-name="${view.name}"]`, { timeout: TIMEOUT_MS });
  assert.match(await page.textContent('[data-testid=mm-details-table]'), /view: a narrower box/);
});

test('tile → source lines, source line → live tiles', async () => {
  await clickBox(TILE);
  await page.waitForSelector(`[data-testid=mm-details-table][data-name="${TILE}"]`, { timeout: TIMEOUT_MS });
  const marks = await page.$$eval('[data-testid=mm-source] .mm-src-line', (ls) => ls.map((l) => [Number(l.dataset.line), l.dataset.mark]));
  const def = marks.filter(([, m]) => m === 'def').map(([l]) => l);
  assert.ok(def.includes(REF_TILE.start), `defining line ${REF_TILE.start} marked: ${def}`);
  const live = marks.filter(([, m]) => m).map(([l]) => l);
  assert.equal(Math.min(...live), REF_TILE.start);
  assert.equal(Math.max(...live), REF_TILE.end);
  assert.ok(marks.some(([l, m]) => l === REF_TILE.end && (m === 'use' || m === 'def')), 'last line is a use');
  // the defining line is scrolled into the pane
  const inView = await page.$eval(`[data-testid=mm-source] [data-line="${REF_TILE.start}"]`, (el) => {
    const p = el.parentElement.getBoundingClientRect();
    const r = el.getBoundingClientRect();
    return r.top >= p.top && r.bottom <= p.bottom;
  });
  assert.ok(inView, 'defining line visible in the source pane');
  // a source line: the boxes live on it are highlighted
  const line = 29;
  await page.click(`[data-testid=mm-source] [data-line="${line}"]`);
  await page.waitForFunction((l) => document.querySelector('[data-testid=mm-map]')?.dataset.line === String(l), line, { timeout: TIMEOUT_MS });
  const hl = (await mapAttr('data-highlighted')).split(',').filter(Boolean).sort();
  const expected = REF_FN.boxes.filter((b) => b.start <= line && line <= b.end).map((b) => b.name).sort();
  assert.deepEqual(hl, expected);
  assert.ok(hl.includes('dst_tile__ssa_v0'));
  assert.equal(await page.getAttribute(`[data-testid=mm-source] [data-line="${line}"]`, 'class').then((c) => c.includes('mm-picked')), true);
  await page.waitForSelector(`[data-testid=mm-line-details][data-line="${line}"]`);
  await screenshot(page, 'memory-map-function-line');
});

test('zoom at the cursor and fit', async () => {
  await clickBox(TILE);
  const before = await mapAttr('data-scale');
  const b0 = (await hook()).boxes.find((b) => b.name === TILE);
  const box = await page.$('[data-testid=mm-map]');
  const r = await box.boundingBox();
  await page.mouse.move(b0.x + b0.w / 2, b0.y + 10);
  for (let i = 0; i < 3; i++) await page.mouse.wheel(0, -300);
  await page.waitForFunction((s) => document.querySelector('[data-testid=mm-map]')?.dataset.scale !== s, before, { timeout: 10_000 });
  const b1 = (await hook()).boxes.find((b) => b.name === TILE);
  assert.ok(b1.w > b0.w * 1.5 && b1.h > b0.h * 1.5, `zoomed in: ${b0.w}x${b0.h} → ${b1.w}x${b1.h}`);
  // the point under the cursor stays put
  assert.ok(Math.abs(b1.x + b1.w * ((b0.w / 2) / b0.w) - (b0.x + b0.w / 2)) < b1.w, 'zoom anchored at the cursor');
  assert.ok(r.width > 200);
  await screenshot(page, 'memory-map-zoomed');
  await page.click('[data-testid=mm-fit]');
  assert.equal(await mapAttr('data-scale'), before);
  await screenshot(page, 'memory-map-function');
  // x = capacity: the band spans 184 KiB instead of ~the high-water mark, so the tile narrows
  const used = (await hook()).boxes.find((b) => b.name === TILE);
  await page.click('[data-testid=mm-xscale-capacity]');
  const cap = (await hook()).boxes.find((b) => b.name === TILE);
  const vec = REF_FN.spaces.find((s) => s.space === 'Vec');
  const expected = Math.min(vec.hwm * 1.04, vec.limit) / vec.limit;
  assert.ok(Math.abs(cap.w / used.w - expected) < 0.01, `capacity scale: ${cap.w}/${used.w} vs ${expected}`);
  await screenshot(page, 'memory-map-capacity');
  await page.click('[data-testid=mm-xscale-used]');
});

test('a function with several memory spaces: one band per space', async () => {
  const multi = REF.functions.find((f) => f.spaces.length > 2);
  await page.selectOption('[data-testid=mm-function]', multi.name);
  await page.waitForFunction((fn) => document.querySelector('[data-testid=mm-map]')?.dataset.function === fn, multi.name, { timeout: TIMEOUT_MS });
  const h = await hook();
  assert.equal(h.boxes.length, multi.boxes.length);
  // bands left to right in the reference's space order
  const xs = multi.spaces.map((s) => Math.min(...h.boxes.filter((b, i) => multi.boxes[i].space === s.space).map((b) => b.x)));
  assert.deepEqual([...xs].sort((a, b) => a - b), xs);
  await clickBox(multi.boxes[0].name);
  await screenshot(page, 'memory-map-multi-space');
});

test('chip selector changes the capacities; an earlier snapshot is refused naming the file', async () => {
  await page.selectOption('[data-testid=mm-function]', '');
  await page.selectOption('[data-testid=mm-chip]', 'Ascend950');
  await page.waitForFunction(() => document.querySelector('[data-testid=mm-page]')?.dataset.chip === 'Ascend950', null, { timeout: TIMEOUT_MS });
  await waitMap();
  const rows = await overviewRows();
  const vec = rows.find((r) => r.function === FN && r.space === 'Vec');
  assert.equal(num(vec.capacity), 245760);
  const acc = rows.find((r) => r.space === 'Acc');
  assert.equal(num(acc.capacity), 262144);
  assert.match(await page.textContent('[data-testid=mm-chip-source]'), /chosen/);
  await page.selectOption('[data-testid=mm-chip]', '');
  await page.selectOption('[data-testid=mm-snapshot]', '32_after_InitMemRef.py');
  await page.waitForSelector('[data-testid=mm-error]', { timeout: TIMEOUT_MS });
  assert.match(await page.textContent('[data-testid=mm-error]'), /^32_after_InitMemRef\.py: .*offset 0/);
});

test('the pass trace opens the map of a pass', async () => {
  await page.click('[data-testid=view-switch-pass-trace]');
  await page.waitForSelector('[data-testid=pass-item]', { timeout: TIMEOUT_MS });
  await page.click('[data-testid=pass-item][data-name=AllocateMemoryAddr] [data-testid=pass-memory-map]');
  await page.waitForFunction(
    (f) => document.querySelector('[data-testid=mm-page]')?.dataset.file === f && document.querySelector('[data-testid=mm-summary]'),
    REF.dump,
    { timeout: TIMEOUT_MS },
  );
  const rows = await overviewRows();
  assert.equal(rows.length, REF.functions.reduce((n, f) => n + f.spaces.length, 0));
});

// A crafted dump whose two tiles of different bases overlap in bytes while both are live, with
// the chip named by a kernels/aiv/*.pto file (pto.target_arch = "a5").
const CONFLICT_DUMP = `# pypto.program: P
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def clash(x: pl.Tensor[[16, 64], pl.FP32]):
        mem_vec_0: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 4096)
        mem_vec_1: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 4096)
        a: pl.Tile[[16, 64], pl.FP32, pl.MemRef(mem_vec_0, pl.const(0, pl.INT64), 4096), pl.Mem.Vec] = pl.tile.load(x)
        b: pl.Tile[[16, 64], pl.FP32, pl.MemRef(mem_vec_1, pl.const(2048, pl.INT64), 4096), pl.Mem.Vec] = pl.tile.load(x)
        c: pl.Tile[[16, 64], pl.FP32, pl.MemRef(mem_vec_0, pl.const(0, pl.INT64), 4096), pl.Mem.Vec] = pl.tile.add(a, b)
        return c
`;

test('conflicts are flagged and drawn; the chip comes from kernels/*/*.pto', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1300, height: 800 } });
  try {
    const p = await ctx.newPage();
    p.on('pageerror', (err) => console.error(`pageerror: ${err.message}`));
    await stubDirectoryPicker(p);
    await openApp(p, `${server.url}/`);
    await seedOpfs(p, {
      'case/passes_dump/00_frontend.py': Buffer.from(CONFLICT_DUMP),
      'case/passes_dump/01_after_AllocateMemoryAddr.py': Buffer.from(CONFLICT_DUMP),
      'case/kernels/aiv/clash.pto': Buffer.from('module attributes {pto.target_arch = "a5"} {\n}\n'),
    });
    await loadVia(p, () => p.click('#open-folder'));
    const sel = datasetSel('pass_dump', 'case/passes_dump');
    await summaryOf(p, sel, 'data-passes');
    await p.click(sel, { position: { x: 40, y: 14 } });
    await p.click('[data-testid=view-switch-memory-map]');
    await p.waitForSelector('[data-testid=mm-summary]', { timeout: TIMEOUT_MS });
    assert.equal(await p.getAttribute('[data-testid=mm-page]', 'data-chip'), 'Ascend950');
    assert.match(await p.textContent('[data-testid=mm-chip-source]'), /kernels\/aiv\/clash\.pto/);
    await p.click('[data-testid=mm-overview-row]');
    await p.waitForFunction(() => document.querySelector('[data-testid=mm-map]')?.dataset.function === 'clash', null, { timeout: TIMEOUT_MS });
    const h = await p.evaluate(() => window.__pyptoMemoryMap());
    assert.deepEqual(h.boxes.map((b) => b.name), ['a', 'b']);
    const b = h.boxes[1];
    await p.mouse.click(b.x + b.w - 4, b.y + b.h / 2);
    await p.waitForSelector('[data-testid=mm-details-table][data-name=b]', { timeout: TIMEOUT_MS });
    const text = await p.textContent('[data-testid=mm-details-table]');
    assert.match(text, /CONFLICT/);
    assert.match(text, /conflicts with\s*a/);
    await screenshot(p, 'memory-map-conflict');
  } finally {
    await ctx.close();
  }
});

test('the 38-function Qwen3 dump: every function map equals the reference boxes', { timeout: 180_000 }, async () => {
  const dir = path.resolve(import.meta.dirname, '..', 'fixtures', 'passes', 'yuanfeng219-arch_PyPTO3');
  const ref = JSON.parse(fs.readFileSync(path.join(dir, '32_after_AllocateMemoryAddr.memory_map.json'), 'utf8'));
  const ctx = await browser.newContext({ viewport: { width: 1400, height: 850 } });
  try {
    const p = await ctx.newPage();
    p.on('pageerror', (err) => console.error(`pageerror: ${err.message}`));
    await stubDirectoryPicker(p);
    await openApp(p, `${server.url}/`);
    await seedOpfs(p, { 'qwen/passes_dump/32_after_AllocateMemoryAddr.py': path.join(dir, '32_after_AllocateMemoryAddr.py') });
    await loadVia(p, () => p.click('#open-folder'));
    const sel = datasetSel('pass_dump', 'qwen/passes_dump');
    await summaryOf(p, sel, 'data-passes');
    await p.click(sel, { position: { x: 40, y: 14 } });
    await p.click('[data-testid=view-switch-memory-map]');
    await p.waitForSelector('[data-testid=mm-summary]', { timeout: TIMEOUT_MS });
    assert.equal(Number(await p.getAttribute('[data-testid=mm-summary]', 'data-functions')), ref.functions.length);
    assert.equal(Number(await p.getAttribute('[data-testid=mm-overview]', 'data-rows')), ref.functions.reduce((n, f) => n + f.spaces.length, 0));
    await screenshot(p, 'memory-map-qwen-overview');
    for (const f of ref.functions) {
      await p.selectOption('[data-testid=mm-function]', f.name);
      await p.waitForFunction((fn) => document.querySelector('[data-testid=mm-map]')?.dataset.function === fn, f.name, { timeout: TIMEOUT_MS });
      const h = await p.evaluate(() => window.__pyptoMemoryMap());
      assert.deepEqual(h.boxes.map((b) => b.name), f.boxes.map((b) => b.name), f.name);
    }
    // the cross-core rings: reserve_buffer windows drawn hatched over their address range
    for (const [fn, name, space] of [['fa_fused_aiv', 'fa_fused_c2v_slot_buffer', 'Vec'], ['fa_fused_aic', 'fa_fused_v2c_slot_buffer', 'Mat']]) {
      await p.selectOption('[data-testid=mm-function]', fn);
      await p.waitForFunction((f) => document.querySelector('[data-testid=mm-map]')?.dataset.function === f, fn, { timeout: TIMEOUT_MS });
      assert.equal(await p.getAttribute('[data-testid=mm-map]', 'data-reserved'), '1', fn);
      const row = await p.$eval('[data-testid=mm-reserved-row]', (e) => ({ ...e.dataset }));
      assert.deepEqual(row, { testid: 'mm-reserved-row', name, space, base: '0', size: '32768' });
      const h = await p.evaluate(() => window.__pyptoMemoryMap());
      assert.equal(h.reserved.length, 1);
      // the ring sits left of every box of its space (tiles are placed above it) and spans the function
      const ring = h.reserved[0];
      const refFn = ref.functions.find((f) => f.name === fn);
      const inSpace = h.boxes.filter((b, i) => refFn.boxes[i].space === space);
      assert.ok(inSpace.every((b) => b.x >= ring.x + ring.w - 1), `${fn}: boxes right of the ring`);
      assert.ok(Math.min(...h.boxes.map((b) => b.y)) >= ring.y - 1 && ring.h > 100, `${fn}: ring spans the function ${JSON.stringify(ring)}`);
      if (fn === 'fa_fused_aiv') {
        await p.mouse.move(ring.x + ring.w / 2, ring.y + ring.h / 2);
        await p.waitForSelector(`[data-testid=mm-reserved-tooltip][data-name=${name}]`, { timeout: TIMEOUT_MS });
        await screenshot(p, 'memory-map-qwen-reserved');
      }
    }
    const withViews = ref.functions.find((f) => f.name === 'online_softmax');
    await p.selectOption('[data-testid=mm-function]', withViews.name);
    await p.waitForFunction((fn) => document.querySelector('[data-testid=mm-map]')?.dataset.function === fn, withViews.name, { timeout: TIMEOUT_MS });
    await screenshot(p, 'memory-map-qwen-online_softmax');
  } finally {
    await ctx.close();
  }
});

// A crafted cross-core consumer: a reserve_buffer ring (c2v, 32 KiB at 0) and a tile popped
// into it without a MemRef, then ordinary tiles placed above the ring.
const RING_DUMP = `# pypto.program: P
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def consume(x: pl.Tensor[[8, 256], pl.FP32]):
        x_c2v_slot_buffer: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name='x_c2v_slot_buffer', size=32768, base=0)
        r: pl.Tile[[8, 256], pl.FP32, pl.Mem.Vec, pl.TileView(pad=pl.PadValue.min)] = pl.tile.tpop_from_aic(split=1)
        a: pl.Tile[[8, 256], pl.FP32, pl.MemRef(mem_vec_1, pl.const(32768, pl.INT64), 8192), pl.Mem.Vec] = pl.tile.muls(r, 2.0)
        pl.system.tfree_to_aic(r)
        b: pl.Tile[[8, 256], pl.FP32, pl.MemRef(mem_vec_2, pl.const(40960, pl.INT64), 8192), pl.Mem.Vec] = pl.tile.exp(a)
        return b
`;

test('reserved windows drawn hatched; tiles in the ring listed (no MemRef)', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1300, height: 800 } });
  try {
    const p = await ctx.newPage();
    p.on('pageerror', (err) => console.error(`pageerror: ${err.message}`));
    await stubDirectoryPicker(p);
    await openApp(p, `${server.url}/`);
    await seedOpfs(p, { 'ring/passes_dump/01_after_AllocateMemoryAddr.py': Buffer.from(RING_DUMP) });
    await loadVia(p, () => p.click('#open-folder'));
    const sel = datasetSel('pass_dump', 'ring/passes_dump');
    await summaryOf(p, sel, 'data-passes');
    await p.click(sel, { position: { x: 40, y: 14 } });
    await p.click('[data-testid=view-switch-memory-map]');
    await p.waitForSelector('[data-testid=mm-summary]', { timeout: TIMEOUT_MS });
    const sum = await p.$eval('[data-testid=mm-summary-reserved]', (e) => ({ ...e.dataset, text: e.textContent }));
    assert.equal(sum.reserved, '1');
    assert.equal(sum.ringTiles, '1');
    assert.match(sum.text, /in ring \(no MemRef\)/);
    // the ring does not change the high-water mark: max(offset + size) of the boxes
    const hwm = await p.$eval('[data-testid=mm-overview-row] [data-col=hwm]', (e) => e.textContent.trim());
    assert.equal(Number(hwm.replace(/,/g, '')), 40960 + 8192);
    await p.click('[data-testid=mm-overview-row]');
    await p.waitForFunction(() => document.querySelector('[data-testid=mm-map]')?.dataset.function === 'consume', null, { timeout: TIMEOUT_MS });
    const h = await p.evaluate(() => window.__pyptoMemoryMap());
    assert.deepEqual(h.boxes.map((b) => b.name), ['a', 'b']);
    assert.equal(h.reserved.length, 1);
    const ring = h.reserved[0];
    assert.ok(h.boxes.every((b) => b.x >= ring.x + ring.w - 1), 'tiles above the ring');
    const w = await p.$eval('[data-testid=mm-reserved-row]', (e) => ({ ...e.dataset, text: e.textContent }));
    assert.equal(w.name, 'x_c2v_slot_buffer');
    assert.equal(w.space, 'Vec');
    assert.equal(w.size, '32768');
    const t = await p.$eval('[data-testid=mm-ring-tile]', (e) => ({ ...e.dataset, text: e.textContent }));
    assert.equal(t.name, 'r');
    assert.match(t.text, /in ring \(no MemRef\)/);
    assert.match(t.text, /tile\.tpop_from_aic/);
    await p.waitForSelector('[data-testid=mm-legend-reserved]');
    await p.mouse.move(ring.x + ring.w / 2, ring.y + ring.h / 2);
    await p.waitForSelector('[data-testid=mm-reserved-tooltip][data-name=x_c2v_slot_buffer]', { timeout: TIMEOUT_MS });
    assert.match(await p.textContent('[data-testid=mm-reserved-tooltip]'), /0x0–0x7FFF/);
    await screenshot(p, 'memory-map-reserved');
  } finally {
    await ctx.close();
  }
});
