// The damage harness for `host_phase_records.jsonl` (issue 17, items 5 and 6): a seeded
// generator damages the host phase file of a real host_build_graph capture (record then replay)
// — truncation, garbage bytes, a type swap, a negative, huge or backwards time, null records,
// deep nesting, an empty file, an HTML 404 page, UTF-16, a byte order mark — serves the folder
// (`?src=`) beside an intact copy, and asserts for each case: no page error, the load ends, the
// damaged file is named by a warning with its line and column (the reader is lenient: the file
// is appended to while a run is in flight, so a bad line is skipped, never fatal), fewer host
// phases are drawn than the file held, the records beside it still load, the intact sibling
// draws every host phase; a BOM reads as the intact file. The demo opens cleanly after.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { FIXTURES, TIMEOUT_MS, datasetSel, serveDistAndLaunch, summaryOf, withPage } from './helpers.mjs';
import { CaseRoutes, HTML_404, SEED, namedOnPage, openCase, openDemoAfter, pairedCopies, prng, swap } from './damage-lib.mjs';

const CASE = path.join(FIXTURES, 'runtime', 'a2a3sim-L4-TestGraphExecutionHostBuildGraph_record_then_replay_1d');
const FILES = ['chip_swimlane_records.json', 'deps.json', 'host_phase_records.jsonl'];
const BASE = Object.fromEntries(FILES.map((f) => [f, fs.readFileSync(path.join(CASE, f))]));
const HOST = 'host_phase_records.jsonl';
const RECORDS = BASE[HOST].toString('utf8').split('\n').filter((l) => l.trim()).flatMap((l) => JSON.parse(l).records).length;

/** The damages of the jsonl: each maps (bytes, rand) to damaged bytes. */
const DAMAGES = {
  truncate: (b, r) => b.subarray(0, Math.floor(b.length * (0.1 + 0.8 * r()))),
  garbage: (b, r) => {
    const out = Buffer.from(b);
    const at = Math.floor(out.length * (0.05 + 0.9 * r()));
    for (let i = 0; i < 6 && at + i < out.length; i += 1) out[at + i] = [0xff, 0xfe, 0x00, 0x01, 0xc0][Math.floor(r() * 5)];
    return out;
  },
  type_swap: (b) => Buffer.from(swap(b.toString('utf8'), /"start_ns":\s*\d+/, '"start_ns": "soon"')),
  negative: (b) => Buffer.from(swap(b.toString('utf8'), /"start_ns":\s*(\d+)/, '"start_ns": -$1')),
  huge: (b) => Buffer.from(swap(b.toString('utf8'), /"end_ns":\s*\d+/, '"end_ns": 9000000000000000000')),
  backwards: (b) => Buffer.from(swap(b.toString('utf8'), /"start_ns":\s*(\d+),\s*"end_ns":\s*(\d+)/, '"start_ns": $2, "end_ns": $1')),
  null_value: (b) => Buffer.from(swap(b.toString('utf8'), /"records":\s*\[/, '"records": null, "was_records": [')),
  deep_nesting: (b) => Buffer.from(swap(b.toString('utf8'), /"records":\s*\[/, `"records": [${'['.repeat(4000)}${']'.repeat(4000)}, `)),
  empty: () => Buffer.alloc(0),
  html_404: () => HTML_404,
  utf16: (b) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(b.toString('utf8'), 'utf16le')]),
  bom: (b) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b]),
};

function cases() {
  const r = prng(SEED);
  // Deep nesting adds a bogus first element to `records` (skipped with a warning): every real
  // record is still drawn.
  const keepsAll = (name) => name === 'bom' || name === 'deep_nesting';
  return Object.entries(DAMAGES).map(([name, apply]) => ({
    id: `host-${name}`,
    damage: name,
    accepted: name === 'bom',
    keepsAll: keepsAll(name),
    bytes: apply(BASE[HOST], r),
  }));
}

const CASES = cases();
const routes = new CaseRoutes();
for (const c of CASES) {
  routes.add(c.id, pairedCopies(BASE, HOST, c.bytes));
}

const env = serveDistAndLaunch({ handle: routes.handle });

test(`a damaged host_phase_records.jsonl is named, the rest loads (seed ${SEED}, ${CASES.length} cases)`, { timeout: 300_000 }, async () => {
  console.log(`host phase damage: seed ${SEED}, ${CASES.length} cases of ${RECORDS} records`);
  await withPage(env.browser, 'damage-host', async ({ page }) => {
    const pageErrors = [];
    page.on('pageerror', (err) => pageErrors.push(err.message));
    const problems = [];
    for (const c of CASES) {
      pageErrors.length = 0;
      const ended = await openCase(page, env.server, c.id, TIMEOUT_MS);
      if (!ended) {
        problems.push(`${c.id}: the load did not end`);
        continue;
      }
      const named = await namedOnPage(page, `damaged/${HOST}`);
      const damaged = await summaryOf(page, datasetSel('runtime', 'damaged')).catch(() => null);
      const intact = await summaryOf(page, datasetSel('runtime', 'intact')).catch(() => null);
      if (!(Number(damaged?.tasks) > 0)) problems.push(`${c.id}: the records beside the damaged file did not load (${JSON.stringify(damaged)})`);
      if (intact?.hostPhases !== String(RECORDS)) problems.push(`${c.id}: the intact sibling drew ${intact?.hostPhases} of ${RECORDS} host phases`);
      if (c.accepted) {
        if (named.errors.length + named.warnings.length) problems.push(`${c.id}: should read as the intact file, got ${JSON.stringify(named)}`);
        if (damaged?.hostPhases !== String(RECORDS)) problems.push(`${c.id}: drew ${damaged?.hostPhases} of ${RECORDS} host phases`);
      } else {
        // Named with its position: a warning's title is `path:line:column: message`.
        const positioned = named.warnings.some((t) => t.startsWith(`damaged/${HOST}:`) && /:[1-9]\d*:[1-9]\d*: /.test(t));
        if (!positioned && !named.errors.length) problems.push(`${c.id}: not named with a position (${JSON.stringify(named)})`);
        const drawn = Number(damaged?.hostPhases ?? 0);
        if (c.keepsAll ? drawn !== RECORDS : !(drawn < RECORDS)) problems.push(`${c.id}: drew ${drawn} of ${RECORDS} host phases`);
      }
      if (pageErrors.length) problems.push(`${c.id}: page errors ${JSON.stringify(pageErrors)}`);
    }
    pageErrors.length = 0;
    await openDemoAfter(page, TIMEOUT_MS);
    assert.ok(Number((await summaryOf(page, datasetSel('runtime', 'paged_attention'))).tasks) > 0, 'the demo loaded');
    if (pageErrors.length) problems.push(`demo: page errors ${JSON.stringify(pageErrors)}`);
    assert.deepEqual(problems, [], `\n${problems.join('\n')}`);
  });
});
