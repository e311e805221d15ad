"""Times Python difflib on the inputs of `pypto-viewer bench-passes`, the way pypto's
`ir_trace` uses it, so the Rust pass-trace diff can be compared with it on the same bytes.

  python3 difflib_passes.py --dump <passes_dump dir> --pair <before.py> <after.py> [--iterations N]
                            [--ir-trace <dir holding pypto's ir_trace package>]

Stages (min wall time over the iterations, in ms), printed as one JSON object:
  dump_counts  every snapshot against the previous one (00_frontend.py first): lines split as
               ir_trace splits them, SequenceMatcher(autojunk=False).get_opcodes(), +/- counts
  dump_full    the same plus ir_trace's character-level SequenceMatcher on every replaced
               line pair (lines of a replace block paired in order)
  pair_counts, pair_full   the same two on the generated pair
  ir_trace_build  (with --ir-trace) pypto's own `build_trace(discover_snapshots(dump), 3)`,
               one run: the whole tool minus writing the HTML (e.g. give
               <pypto checkout>/python/pypto/tools; the package only needs the standard library)
The +/- counts per pass are printed too ("dump_pass_counts", "pair_counts_added_removed"), so
the caller can check both tools counted the same lines.
"""

import argparse
import difflib
import json
import os
import re
import sys
import time
from pathlib import Path

_PASS_RE = re.compile(r"^(\d+)_(?:after_)?(.+)\.py$")


def split_source_lines(text):
    if not text:
        return []
    lines = text.split("\n")
    if not lines[-1]:
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def snapshots(directory):
    indexed = []
    for name in os.listdir(directory):
        match = _PASS_RE.match(name)
        if match and name != "00_frontend.py" and int(match.group(1)) > 0:
            indexed.append((int(match.group(1)), name))
    indexed.sort()
    names = ["00_frontend.py"] + [name for _index, name in indexed]
    texts = []
    for name in names:
        with open(os.path.join(directory, name), encoding="utf-8") as f:
            texts.append(f.read())
    return texts


def diff(before_text, after_text, refine):
    before = split_source_lines(before_text)
    after = split_source_lines(after_text)
    inserted = deleted = 0
    for tag, b0, b1, a0, a1 in difflib.SequenceMatcher(a=before, b=after, autojunk=False).get_opcodes():
        if tag in ("insert", "replace"):
            inserted += a1 - a0
        if tag in ("delete", "replace"):
            deleted += b1 - b0
        if refine and tag == "replace":
            for k in range(min(b1 - b0, a1 - a0)):
                difflib.SequenceMatcher(a=before[b0 + k], b=after[a0 + k], autojunk=False).get_opcodes()
    return inserted, deleted


def trace(texts, refine):
    counts = []
    for before, after in zip(texts, texts[1:]):
        if before.replace("\r\n", "\n") == after.replace("\r\n", "\n"):
            counts.append((0, 0))
        else:
            counts.append(diff(before, after, refine))
    return counts


def best_ms(fn, iterations):
    best = None
    result = None
    for _ in range(iterations):
        start = time.perf_counter()
        result = fn()
        elapsed = (time.perf_counter() - start) * 1000.0
        best = elapsed if best is None else min(best, elapsed)
    return best, result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dump", required=True)
    parser.add_argument("--pair", nargs=2, required=True)
    parser.add_argument("--iterations", type=int, default=3)
    parser.add_argument("--pair-iterations", type=int, default=1)
    parser.add_argument("--ir-trace")
    args = parser.parse_args()

    texts = snapshots(args.dump)
    with open(args.pair[0], encoding="utf-8") as f:
        pair_before = f.read()
    with open(args.pair[1], encoding="utf-8") as f:
        pair_after = f.read()

    out = {}
    out["dump_counts"], counts = best_ms(lambda: trace(texts, False), args.iterations)
    out["dump_full"], _ = best_ms(lambda: trace(texts, True), args.iterations)
    out["pair_counts"], pair = best_ms(lambda: diff(pair_before, pair_after, False), args.pair_iterations)
    out["pair_full"], _ = best_ms(lambda: diff(pair_before, pair_after, True), args.pair_iterations)
    if args.ir_trace:
        sys.path.insert(0, args.ir_trace)
        from ir_trace.diff import build_trace  # noqa: PLC0415
        from ir_trace.discovery import discover_snapshots  # noqa: PLC0415

        out["ir_trace_build"], traces = best_ms(lambda: build_trace(discover_snapshots(Path(args.dump)), 3), 1)
        out["ir_trace_counts"] = [[t.inserted, t.deleted] for t in traces]
    out["dump_pass_counts"] = counts
    out["pair_counts_added_removed"] = pair
    print(json.dumps(out))


if __name__ == "__main__":
    main()
