// A damage harness of our own (issue 17, item 6): a seeded generator damages one file of a real
// capture at a time — truncation, garbage bytes, a type swap, a negative or huge number, null,
// deep nesting, an empty file, an HTML 404 page, UTF-16, a byte order mark — for every runtime
// input kind (records, deps.json, name map, CPM), serves the folder (`?src=`) beside an intact
// copy, and asserts for each case: no page error, the load ends, the damaged file is named (as a
// file error with its line and column when the damage is syntactic, else as an error or a
// warning of that file), the sibling dataset loaded in full; and the demo opens cleanly after.
//
// The seed is printed; DAMAGE_SEED=<n> replays a run (default 17). The damaged bytes are kept in
// memory and served by the test's own route on the dist server (server.mjs `handle`). The
// generator, the JSON damages and the route are damage-lib.mjs's (shared with
// damage-passes.test.mjs).

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { CaseRoutes, JSON_DAMAGES as DAMAGES, SEED, checkNamed, openCase, openDemoAfter, pairedCopies, prng } from './damage-lib.mjs';
import { DEMO_RUNTIME_FIXTURE, TIMEOUT_MS, datasetSel, screenshot, serveDistAndLaunch, summaryOf, withPage } from './helpers.mjs';

const INPUTS = {
  records: 'chip_swimlane_records.json',
  deps: 'deps.json',
  name_map: 'name_map_TestPagedAttention_CaseMediumLocal.json',
  cpm: 'CPM_static.json',
};
const BASE = Object.fromEntries(Object.values(INPUTS).map((f) => [f, fs.readFileSync(path.join(DEMO_RUNTIME_FIXTURE, f))]));

/** Every (input kind, damage) case with its damaged bytes, in a seeded order. */
function cases() {
  const r = prng(SEED);
  const out = [];
  for (const [kind, file] of Object.entries(INPUTS)) {
    for (const [name, d] of Object.entries(DAMAGES)) {
      const bytes = d.apply(BASE[file], kind, r);
      // A Chrome trace (CPM) may start with a BOM: Chrome's and Perfetto's readers skip it, and
      // so does ours (the file reads the same); that case must load without an error.
      const accepted = kind === 'cpm' && name === 'bom';
      if (bytes) out.push({ id: `${kind}-${name}`, kind, file, damage: name, syntactic: d.syntactic && !accepted, accepted, bytes });
    }
  }
  return out;
}

const CASES = cases();
/** The folder served for case `id`: `<id>/damaged/…` (one file damaged) and `<id>/intact/…`. */
const routes = new CaseRoutes();
for (const c of CASES) {
  routes.add(c.id, pairedCopies(BASE, c.file, c.bytes));
}

const env = serveDistAndLaunch({ handle: routes.handle });

test(`damaged inputs are named, the rest loads, nothing hangs (seed ${SEED}, ${CASES.length} cases)`, { timeout: 600_000 }, async () => {
  console.log(`damage harness: seed ${SEED}, ${CASES.length} cases (${Object.keys(INPUTS).length} inputs × ${Object.keys(DAMAGES).length} damages)`);
  await withPage(env.browser, 'damage', async ({ page }) => {
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
      await checkNamed(page, c, `damaged/${c.file}`, problems);
      const intact = await summaryOf(page, datasetSel('runtime', 'intact')).catch(() => null);
      if (!intact || !(Number(intact.tasks) > 0) || !(Number(intact.depsTasks) > 0)) problems.push(`${c.id}: the intact sibling did not load in full (${JSON.stringify(intact)})`);
      if (pageErrors.length) problems.push(`${c.id}: page errors ${JSON.stringify(pageErrors)}`);
      if (c.id === 'records-negative') await screenshot(page, 'damage-records-negative');
    }
    // The demo opens after all that.
    pageErrors.length = 0;
    await openDemoAfter(page, TIMEOUT_MS);
    const demo = await summaryOf(page, datasetSel('runtime', 'paged_attention'));
    assert.ok(Number(demo.tasks) > 0, 'the demo loaded');
    if (pageErrors.length) problems.push(`demo: page errors ${JSON.stringify(pageErrors)}`);
    assert.deepEqual(problems, [], `\n${problems.join('\n')}`);
  });
});
