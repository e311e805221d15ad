// The synthetic large snapshot pair of the IR Pass Trace (issue 7 items 6 and 11), shared by the
// e2e (tests/pass-trace.test.mjs) and the browser benchmark (tests/bench/pass-trace-bench.mjs):
// `n` annotated tile statements; the after side changes `pl.add` to `pl.sub` on every 5000th
// line from line 5 (so +n/5000 −n/5000 lines, each a replaced pair with one changed token).

/** Lines of the before and after snapshot (without line ends). */
export function passPairLines(n) {
  const before = Array.from({ length: n }, (_, i) => `    x_${i}: pl.Tile[[16, ${i % 128}], pl.FP32] = pl.add(a_${i}, b_${i})`);
  const after = before.slice();
  for (let i = 5; i < n; i += 5000) after[i] = after[i].replace('pl.add', 'pl.sub');
  return { before, after };
}

/** The pair as file texts (`\n` after every line). */
export function passPairTexts(n) {
  const { before, after } = passPairLines(n);
  return { before: `${before.join('\n')}\n`, after: `${after.join('\n')}\n` };
}
