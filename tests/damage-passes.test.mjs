// The damage harness (issue 17, item 6) for pass dumps and the serving STRACE trace: the seeded
// generator of damage-lib.mjs damages one file at a time of the demo's pass dump
// (fixtures/passes/generated-paged_attention: passes_dump/, compiled_meta.json, kernels/, …) and
// of the serving STRACE trace (fixtures/strace/serving-strace-swimlane.json), serves the folder
// (`?src=`) as `damaged/` beside an `intact/` copy, and asserts for each case: no page error, the
// load ends, the damaged file is named, the intact copy loaded in full; and the demo opens
// cleanly after.
//
// Pass dumps — one snapshot (seeded), 00_frontend.py, and the memory reuse view's snapshot
// (35_after_AllocateMemoryAddr.py) get text damages: a cut mid-line, undecodable bytes (FF FE
// …), a NUL, an unbalanced bracket, an empty file, an HTML 404 page, UTF-16, a UTF-8 byte order
// mark, 5000 nested `(`, a 1 MB line. The IR Pass Trace must mark the damaged pass (the
// frontend: the pass problems list and the first pass's banner) as `file:line:column: message`,
// at the exact position where the generator knows it; every other pass keeps the reference
// counts (expected-line-counts.tsv); the damaged pass's diff still shows, under a banner naming
// the file; the memory reuse view names its damaged snapshot. Two damages are not damage to
// Python and are accepted, each for its reason: a BOM (Python reads the source as if it had none,
// and so does the viewer: the dump reads as the intact one) and a 1 MB line of valid Python
// (shown in the diff, not flagged). The listing is damaged too: a missing snapshot (a gap), a
// duplicate index, no 00_frontend.py, a listed snapshot the server answers 404: the sidebar and
// the pass problems list name it. STRACE — the JSON damages (as for the runtime inputs): a
// positioned file error when syntactic, else an error or warning of that file; a BOM is
// accepted (a Chrome trace, read as Chrome and Perfetto read it).
//
// The seed is printed; DAMAGE_SEED=<n> replays a run (default 17), DAMAGE_ONLY=<regex> runs the
// cases whose id matches, DAMAGE_VERBOSE=1 prints each case's time. Screenshots of a few cases in
// tests/artifacts/damage-*.png.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { CaseRoutes, HTML_404, JSON_DAMAGES, SEED, checkNamed, openCase, openDemoAfter, prng } from './damage-lib.mjs';
import { DEMO_PASSES_FIXTURE, FIXTURES, TIMEOUT_MS, datasetSel, filesOf, screenshot, serveDistAndLaunch, summaryOf, withPage } from './helpers.mjs';

const DUMP = 'passes_dump';
const FRONTEND = '00_frontend.py';
const MEMORY_SNAPSHOT = '35_after_AllocateMemoryAddr.py';
/** The demo's pass-dump case: every file, by path relative to the case directory. */
const CASE_FILES = Object.fromEntries(Object.entries(filesOf(DEMO_PASSES_FIXTURE, '.')).map(([rel, abs]) => [rel.slice(2), fs.readFileSync(abs)]));
const SNAPSHOTS = Object.keys(CASE_FILES)
  .filter((p) => p.startsWith(`${DUMP}/`) && /^\d+_after_.+\.py$/.test(path.basename(p)))
  .map((p) => path.basename(p))
  .sort();
/** The reference pass list of the dump: file → [added, removed, no-op]. */
const EXPECTED = new Map(
  fs
    .readFileSync(path.join(FIXTURES, 'passes', 'expected-line-counts.tsv'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split('\t'))
    .filter((r) => r[0] === 'generated-paged_attention/passes_dump')
    .map(([, file, , added, removed, noOp]) => [file, [Number(added), Number(removed), noOp === '1']]),
);
const STRACE_FILE = 'serving-strace-swimlane.json';
const STRACE = fs.readFileSync(path.join(FIXTURES, 'strace', STRACE_FILE));
const STRACE_SPANS = JSON.parse(STRACE.toString('utf8')).traceEvents.filter((e) => e.ph === 'X').length;

/** 1-based line and column (in characters) of byte `at` of `b`. */
function positionOf(b, at) {
  const start = b.lastIndexOf(10, at - 1) + 1;
  const line = b.subarray(0, at).reduce((n, c) => n + (c === 10), 1);
  return [line, [...b.subarray(start, at).toString('utf8')].length + 1];
}

/** A seeded byte offset inside a line (neither its first nor past its last byte, ASCII around) in 10–90 % of the file. */
function midLine(b, r) {
  for (;;) {
    const at = Math.floor(b.length * (0.1 + 0.8 * r()));
    if (![b[at - 1], b[at], b[at + 1]].some((c) => c === 10 || c >= 0x80)) return at;
  }
}

/** `b` with `line` (text, with its newline) inserted after the `import …` line. */
function afterImport(b, line) {
  const t = b.toString('utf8');
  const m = /^import .*\n/m.exec(t);
  assert.ok(m, 'the snapshot has an import line');
  const at = m.index + m[0].length;
  return { bytes: Buffer.from(t.slice(0, at) + line + t.slice(at)), line: t.slice(0, at).split('\n').length };
}

/**
 * The damages of a pass snapshot: each maps (bytes, rand) to `{ bytes, at? }` (`at` = [line,
 * column] of the problem when the generator knows it). `accepted`: not damage to Python, why.
 */
const TEXT_DAMAGES = {
  truncate: { apply: (b, r) => ({ bytes: b.subarray(0, midLine(b, r)) }) },
  garbage: {
    apply: (b, r) => {
      const out = Buffer.from(b);
      const at = midLine(b, r);
      const junk = [0xff, 0xfe, 0x00, 0x01, 0xc0];
      out[at] = 0xff;
      out[at + 1] = 0xfe;
      for (let i = 2; i < 6 && at + i < out.length; i += 1) out[at + i] = junk[Math.floor(r() * junk.length)];
      return { bytes: out, at: positionOf(b, at), message: /^invalid UTF-8 at byte offset \d+ \(0xFF/ };
    },
  },
  nul: {
    apply: (b, r) => {
      const out = Buffer.from(b);
      const at = midLine(b, r);
      out[at] = 0;
      return { bytes: out, at: positionOf(b, at), message: /^null byte/ };
    },
  },
  unbalanced: {
    // The last `)` of a seeded code line (no string, no comment) dropped.
    apply: (b, r) => {
      const lines = b.toString('utf8').split('\n');
      const code = lines.map((l, i) => [l, i]).filter(([l]) => /\)\s*:?\s*$/.test(l) && !/["'#]/.test(l));
      const [l, i] = code[Math.floor(r() * code.length)];
      const k = l.lastIndexOf(')');
      lines[i] = l.slice(0, k) + l.slice(k + 1);
      return { bytes: Buffer.from(lines.join('\n')), message: /never closed|does not match|unmatched/ };
    },
  },
  empty: { apply: () => ({ bytes: Buffer.alloc(0), at: [1, 1], message: /^the file is empty/ }) },
  html_404: { apply: () => ({ bytes: HTML_404, at: [1, 2], message: /invalid character '!'/ }) },
  utf16: {
    apply: (b) => ({ bytes: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(b.toString('utf8'), 'utf16le')]), at: [1, 1], message: /^invalid UTF-8 at byte offset 0 \(0xFF/ }),
  },
  bom: {
    accepted: 'a UTF-8 byte order mark opening a source is not text to Python (it reads the file as if it had none), nor to the viewer: the dump reads as the intact one',
    apply: (b) => ({ bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b]) }),
  },
  deep_nesting: {
    apply: (b) => {
      const { bytes, line } = afterImport(b, `_deep = ${'('.repeat(5000)}0${')'.repeat(5000)}\n`);
      // CPython's tokenizer refuses the 201st level: '_deep = ' is 8 characters.
      return { bytes, at: [line, 9 + 200], message: /^too many nested parentheses/ };
    },
  },
  huge_line: {
    accepted: 'a 1 MB line of valid Python (a long constant list) is a valid snapshot: shown in the diff, not flagged',
    apply: (b) => ({ bytes: afterImport(b, `_huge = [${'0, '.repeat(350_000)}0]\n`).bytes }),
  },
};

/** What a listing damage does to the dump's files (`{ files, unserved }`) and what must name it. */
const LISTING_DAMAGES = {
  gap: (files, pick) => {
    delete files[`${DUMP}/${pick}`];
    return { named: new RegExp(`missing snapshot index ${pick.slice(0, 2)}\\b`), passes: SNAPSHOTS.length - 1, absent: pick };
  },
  duplicate: (files, pick) => {
    const dup = `${pick.slice(0, 2)}_after_Duplicate.py`;
    files[`${DUMP}/${dup}`] = files[`${DUMP}/${pick}`];
    return { named: new RegExp(`duplicate snapshot index ${Number(pick.slice(0, 2))}: .*${dup}`), passes: SNAPSHOTS.length + 1, dup };
  },
  no_frontend: (files) => {
    delete files[`${DUMP}/${FRONTEND}`];
    return { named: /missing 00_frontend\.py/, passes: SNAPSHOTS.length };
  },
  unserved: (files, pick) => ({ named: new RegExp(`${pick.replace('.', '\\.')}: `), passes: SNAPSHOTS.length - 1, unserved: [`${DUMP}/${pick}`], absent: pick }),
};

/** The memory reuse view's snapshot gets these damages (its pass is checked as any other). */
const MEMORY_DAMAGES = ['truncate', 'garbage', 'html_404', 'empty'];

/** Every case in a seeded order of generation: `{ id, group, files, unserved, …expectations }`. */
function cases() {
  const r = prng(SEED);
  const pickSnapshot = () => SNAPSHOTS[Math.floor(r() * SNAPSHOTS.length)];
  const dumpFiles = () => Object.fromEntries(Object.entries(CASE_FILES));
  const out = [];
  const snapshotCase = (group, name, d, file) => {
    const files = dumpFiles();
    const got = d.apply(files[`${DUMP}/${file}`], r);
    files[`${DUMP}/${file}`] = got.bytes;
    out.push({ id: `${group}-${name}`, group, damage: name, file, files, accepted: d.accepted, at: got.at, message: got.message });
  };
  for (const [name, d] of Object.entries(TEXT_DAMAGES)) snapshotCase('snapshot', name, d, pickSnapshot());
  for (const [name, d] of Object.entries(TEXT_DAMAGES)) snapshotCase('frontend', name, d, FRONTEND);
  for (const name of MEMORY_DAMAGES) snapshotCase('memory', name, TEXT_DAMAGES[name], MEMORY_SNAPSHOT);
  for (const [name, damage] of Object.entries(LISTING_DAMAGES)) {
    const files = dumpFiles();
    const pick = SNAPSHOTS[1 + Math.floor(r() * (SNAPSHOTS.length - 2))]; // not the first, not the last
    out.push({ id: `listing-${name}`, group: 'listing', damage: name, file: pick, files, ...damage(files, pick) });
  }
  for (const [name, d] of Object.entries(JSON_DAMAGES)) {
    const bytes = d.apply(STRACE, 'strace', r);
    if (!bytes) continue;
    // A Chrome trace may start with a BOM: Chrome's and Perfetto's readers skip it, and so does ours.
    const accepted = name === 'bom';
    out.push({ id: `strace-${name}`, group: 'strace', damage: name, file: STRACE_FILE, files: { [STRACE_FILE]: bytes }, syntactic: d.syntactic && !accepted, accepted });
  }
  return out;
}

/** DAMAGE_ONLY=<regex>: only the cases whose id matches (a replay of one failure). */
const CASES = cases().filter((c) => !process.env.DAMAGE_ONLY || new RegExp(process.env.DAMAGE_ONLY).test(c.id));
/** Case `id`'s folder: `damaged/…` (one file damaged) and `intact/…`. */
const routes = new CaseRoutes();
for (const c of CASES) {
  const intact = c.group === 'strace' ? { [STRACE_FILE]: STRACE } : CASE_FILES;
  const files = {};
  for (const [p, b] of Object.entries(c.files)) files[`damaged/${p}`] = b;
  for (const [p, b] of Object.entries(intact)) files[`intact/${p}`] = b;
  routes.add(c.id, files, { unserved: (c.unserved ?? []).map((p) => `damaged/${p}`) });
}

const SHOTS = new Set(['snapshot-utf16', 'snapshot-deep_nesting', 'snapshot-huge_line', 'frontend-html_404', 'memory-garbage', 'listing-gap', 'listing-unserved']);

/** The pass list as shown: `[{ index, name, added, removed, noop, problem, snapshotProblem, … }]`. */
const passItems = (page) => page.$$eval('[data-testid=pass-item]', (els) => els.map((e) => ({ ...e.dataset })));
const passKey = (p) => `${p.index.padStart(2, '0')}_after_${p.name}.py`;

/**
 * Opens the pass trace of dataset `dir`'s dump and waits for its pass list; with `expected`
 * (file → [added, removed, no-op]), until the list is that (else the list shown after the wait).
 */
async function openPasses(page, dir, expected = null) {
  await page.click(datasetSel('pass_dump', `${dir}/${DUMP}`), { position: { x: 40, y: 14 } });
  const toTrace = await page.$('[data-testid=view-switch-pass-trace]:not(.active)');
  if (toTrace) await toTrace.click();
  await page.waitForFunction(
    (d) => document.querySelector(`#datasets li.dataset.selected[data-path="${d}"]`) && document.querySelectorAll('[data-testid=pass-item]').length > 0,
    `${dir}/${DUMP}`,
    { timeout: TIMEOUT_MS },
  );
  if (expected) {
    await page
      .waitForFunction(
        (want) => {
          const items = [...document.querySelectorAll('[data-testid=pass-item]')].map((e) => e.dataset);
          return items.length === Object.keys(want).length && items.every((p) => {
            const e = want[`${p.index.padStart(2, '0')}_after_${p.name}.py`];
            return e && p.problem === 'false' && Number(p.added) === e[0] && Number(p.removed) === e[1] && (p.noop === 'true') === e[2];
          });
        },
        expected,
        { timeout: 10_000 },
      )
      .catch(() => {});
  }
}

/** Passes whose counts differ from the reference, other than those of `except` (file names). */
function offReference(items, except = []) {
  return items
    .filter((p) => !except.includes(passKey(p)))
    .filter((p) => {
      const e = EXPECTED.get(passKey(p));
      return !e || Number(p.added) !== e[0] || Number(p.removed) !== e[1] || (p.noop === 'true') !== e[2];
    })
    .map((p) => `${passKey(p)} +${p.added} −${p.removed}${p.noop === 'true' ? ' no-op' : ''}`);
}

/** Selects pass `index` and waits for its diff; returns the diff's data-* and the banner's items. */
async function showPass(page, index) {
  const pos = await page.$eval(`[data-testid=pass-item][data-index="${index}"]`, (e) => e.dataset.pos);
  await page.click(`[data-testid=pass-item][data-index="${index}"]`);
  await page.waitForFunction((p) => document.querySelector('[data-testid=pass-diff]')?.dataset.pass === p, pos, { timeout: TIMEOUT_MS });
  await page.waitForFunction(() => document.querySelector('.diff-row, [data-testid=pass-diff] .error'), null, { timeout: TIMEOUT_MS });
  const diff = await page.$eval('[data-testid=pass-diff]', (e) => ({ ...e.dataset }));
  const banner = await page.$$eval('[data-testid=snapshot-problems] li', (els) => els.map((e) => ({ ...e.dataset, text: e.textContent })));
  return { diff, banner };
}

/** The checks of a pass-dump case (the page has loaded it); appends what is wrong to `problems`. */
async function checkDump(page, c, problems) {
  const fail = (m) => problems.push(`${c.id}: ${m}`);
  const t0 = Date.now();
  const lap = (what) => process.env.DAMAGE_VERBOSE && console.log(`  ${c.id}: ${what} at ${Date.now() - t0} ms`);
  const damaged = await summaryOf(page, datasetSel('pass_dump', `damaged/${DUMP}`), 'data-passes');
  const intactSummary = await summaryOf(page, datasetSel('pass_dump', `intact/${DUMP}`), 'data-passes');
  if (intactSummary.passes !== String(SNAPSHOTS.length) || intactSummary.valid !== 'true') fail(`the intact dump's summary ${JSON.stringify(intactSummary)}`);
  await openPasses(page, 'damaged');
  lap('pass list');
  const items = await passItems(page);
  const listed = await page.$$eval('[data-testid=pass-problems] li', (els) => els.map((e) => e.textContent));
  const flagged = items.filter((p) => p.problem === 'true');

  if (c.group === 'listing') {
    const facts = await page.$$eval(`${datasetSel('pass_dump', `damaged/${DUMP}`)} .fact`, (els) => els.map((e) => e.textContent));
    // (A snapshot the server answers 404 is listed all right: only the pass list, which reads it, can tell.)
    if (c.damage !== 'unserved' && (damaged.valid !== 'false' || !facts.some((f) => c.named.test(f)))) fail(`the sidebar does not say ${c.named} (valid=${damaged.valid}, ${JSON.stringify(facts)})`);
    if (!listed.some((t) => c.named.test(t))) fail(`the pass problems do not say ${c.named}: ${JSON.stringify(listed)}`);
    if (items.length !== c.passes) fail(`${items.length} passes listed, expected ${c.passes}`);
    if (c.absent && items.some((p) => passKey(p) === c.absent)) fail(`${c.absent} is listed`);
    if (flagged.length) fail(`passes flagged: ${JSON.stringify(flagged.map((p) => p.snapshotProblem))}`);
    // The pass after the gap is compared with the one before it; the others keep their counts.
    const next = SNAPSHOTS[SNAPSHOTS.indexOf(c.file) + 1];
    // (A duplicate: itself and the pass it duplicates, one of them a no-op.)
    const off = offReference(items, c.damage === 'duplicate' ? [c.file, c.dup] : c.damage === 'no_frontend' ? [SNAPSHOTS[0]] : [next]);
    if (off.length) fail(`passes off the reference: ${off.join(', ')}`);
    if (c.damage === 'no_frontend') {
      const { diff } = await showPass(page, 1);
      if (!(Number(diff.rows) > 0 && Number(diff.added) > 0)) fail(`the first pass's diff (against nothing) is not shown: ${JSON.stringify(diff)}`);
    }
    if (SHOTS.has(c.id)) await screenshot(page, `damage-${c.id}`);
  } else {
    const frontend = c.file === FRONTEND;
    const index = frontend ? 1 : Number(c.file.slice(0, 2));
    const next = SNAPSHOTS[SNAPSHOTS.indexOf(c.file) + 1];
    const changed = frontend ? [SNAPSHOTS[0]] : [c.file, next];
    const posRe = (at) => (at ? `${at[0]}:${at[1]}` : '[1-9]\\d*:[1-9]\\d*');
    const named = new RegExp(`^${c.file.replace('.', '\\.')}:${posRe(c.at)}: `);
    if (c.accepted) {
      if (flagged.length || listed.length) fail(`flagged although ${c.accepted}: ${JSON.stringify([...flagged.map((p) => p.snapshotProblem), ...listed])}`);
      const off = offReference(items, c.damage === 'bom' ? [] : changed);
      if (off.length) fail(`passes off the reference: ${off.join(', ')}`);
    } else {
      // The damaged snapshot, and only it, is marked at its position (the frontend: in the pass problems list).
      const marks = frontend ? listed : flagged.map((p) => p.snapshotProblem);
      const others = frontend ? flagged.map((p) => p.snapshotProblem) : flagged.filter((p) => p.index !== String(index)).map((p) => p.snapshotProblem);
      const mark = marks.find((t) => named.test(t));
      if (!mark) fail(`${c.file} is not marked as ${named}: ${JSON.stringify({ flagged: flagged.map((p) => p.snapshotProblem), listed })}`);
      else if (c.message && !c.message.test(mark.replace(named, ''))) fail(`${c.file}'s problem is not ${c.message}: ${mark}`);
      if (others.length) fail(`other snapshots marked: ${JSON.stringify(others)}`);
      const off = offReference(items, changed);
      if (items.length !== SNAPSHOTS.length || off.length) fail(`${items.length} passes, off the reference: ${off.join(', ')}`);
    }
    // The damaged pass's diff still shows (the frontend's: the first pass's), under a banner naming the file.
    const { diff, banner } = await showPass(page, index);
    lap('diff');
    if (!(Number(diff.rows) > 0) || diff.error) fail(`no diff for pass ${index}: ${JSON.stringify(diff)}`);
    const side = frontend ? 'before' : 'after';
    if (!c.accepted && !banner.some((b) => b.side === side && b.file === c.file && Number(b.line) > 0 && Number(b.column) > 0)) fail(`no banner naming ${c.file} (${side}): ${JSON.stringify(banner)}`);
    if (c.accepted && banner.length) fail(`a banner although ${c.accepted}: ${JSON.stringify(banner)}`);
    if (c.damage === 'huge_line') {
      // Shown, as one text (colouring it span by span took the page 12 s: 700 000 spans).
      const [longest, spans] = await page.$$eval('.diff-row', (rows) => {
        const row = rows.reduce((a, r) => (r.textContent.length > (a?.textContent.length ?? -1) ? r : a), null);
        return [row?.textContent.length ?? 0, row?.querySelectorAll('span').length ?? 0];
      });
      if (longest < 1_000_000) fail(`the 1 MB line is not in the diff (longest row ${longest} characters)`);
      if (spans > 10) fail(`the 1 MB line is drawn as ${spans} spans`);
    }
    lap('checked');
    if (SHOTS.has(c.id)) await screenshot(page, `damage-${c.id}`);
    if (c.group === 'memory') {
      await page.click('[data-testid=view-switch-memory-map]');
      await page.waitForFunction(
        (f) => document.querySelector(`[data-testid=mm-page][data-file="${f}"]`)?.dataset.loading === 'false',
        c.file,
        { timeout: TIMEOUT_MS },
      );
      const mm = await page.evaluate(() => ({
        problems: [...document.querySelectorAll('[data-testid=mm-snapshot-problems] li')].map((e) => ({ ...e.dataset })),
        error: document.querySelector('[data-testid=mm-error]')?.textContent ?? null,
      }));
      // A banner over the map (of the text as read), or the error that there is no map, naming file, line and column.
      const positioned =
        mm.problems.some((p) => p.file === c.file && Number(p.line) > 0 && Number(p.column) > 0) ||
        new RegExp(`^${c.file.replace('.', '\\.')}:[1-9]\\d*:[1-9]\\d*: `).test(mm.error ?? '');
      if (!positioned) fail(`the memory reuse view does not name ${c.file} with its position: ${JSON.stringify(mm)}`);
      if (SHOTS.has(c.id)) await screenshot(page, `damage-${c.id}-memory`);
    }
  }
  // The intact copy: every pass, the reference counts, nothing marked.
  await openPasses(page, 'intact', Object.fromEntries(EXPECTED));
  const intact = await passItems(page);
  const off = offReference(intact);
  if (intact.length !== SNAPSHOTS.length || off.length || intact.some((p) => p.problem === 'true')) {
    fail(`the intact dump did not load in full: ${intact.length} passes, off the reference: ${off.join(', ')}`);
  }
}

/** The checks of a STRACE case (the page has loaded it). */
async function checkStrace(page, c, problems) {
  await checkNamed(page, c, `damaged/${STRACE_FILE}`, problems);
  const intact = await summaryOf(page, datasetSel('serving_strace', `intact/${STRACE_FILE}`), 'data-trace-spans').catch(() => null);
  if (intact?.traceSpans !== String(STRACE_SPANS)) problems.push(`${c.id}: the intact trace did not load in full (${JSON.stringify(intact)}, expected ${STRACE_SPANS} spans)`);
}

const env = serveDistAndLaunch({ handle: routes.handle });

test(`damaged pass dumps and STRACE traces are named, the rest loads, nothing hangs (seed ${SEED}, ${CASES.length} cases)`, { timeout: 600_000 }, async () => {
  const counts = new Map();
  for (const c of CASES) counts.set(c.group, (counts.get(c.group) ?? 0) + 1);
  const groups = [...counts].map(([g, n]) => `${n} ${g}`);
  console.log(`damage harness (passes, STRACE): seed ${SEED}, ${CASES.length} cases (${groups.join(', ')})`);
  await withPage(env.browser, 'damage-passes', async ({ page }) => {
    await page.setViewportSize({ width: 1500, height: 850 });
    const pageErrors = [];
    page.on('pageerror', (err) => pageErrors.push(err.message));
    const problems = [];
    for (const c of CASES) {
      const t0 = Date.now();
      pageErrors.length = 0;
      const ended = await openCase(page, env.server, c.id, TIMEOUT_MS);
      if (!ended) {
        problems.push(`${c.id}: the load did not end`);
        continue;
      }
      try {
        await (c.group === 'strace' ? checkStrace(page, c, problems) : checkDump(page, c, problems));
      } catch (err) {
        problems.push(`${c.id}: ${err.message.split('\n')[0]}`);
        await screenshot(page, `fail-damage-${c.id}`).catch(() => {});
      }
      if (pageErrors.length) problems.push(`${c.id}: page errors ${JSON.stringify(pageErrors)}`);
      if (process.env.DAMAGE_VERBOSE) console.log(`${c.id}: ${Date.now() - t0} ms`);
    }
    // The demo opens after all that, its pass dump intact.
    pageErrors.length = 0;
    await openDemoAfter(page, TIMEOUT_MS);
    const demo = await summaryOf(page, datasetSel('pass_dump', 'paged_attention/passes_dump'), 'data-passes');
    assert.equal(demo.passes, String(SNAPSHOTS.length), 'the demo dump loaded');
    assert.equal(demo.valid, 'true');
    if (pageErrors.length) problems.push(`demo: page errors ${JSON.stringify(pageErrors)}`);
    assert.deepEqual(problems, [], `\n${problems.join('\n')}`);
  });
});
