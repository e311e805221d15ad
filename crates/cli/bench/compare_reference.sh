#!/usr/bin/env bash
# Compares pypto-viewer with the reference Python tools (issue 3, item 15) on one generated
# capture: the same files, measured in one run with /usr/bin/time -v (wall, max RSS).
#
#   usage: crates/cli/bench/compare_reference.sh <reference-checkout> [work-dir]
#
# <reference-checkout> is a checkout of the runtime repository that holds
# simpler_setup/tools/{swimlane_converter,deps_viewer,critical_path}.py; this script never
# downloads anything. The tools need only the Python standard library, but the package
# __init__ imports the build toolchain, which imports the `simpler` package under python/:
# both directories go on PYTHONPATH.
#
# Environment: TASKS (default 100000), SEED (7), LEVEL (4), PYTHON (python3),
# PYPTO_VIEWER (binary; default: `cargo build --release -p pypto-cli` in this workspace),
# BENCH_ITERATIONS (3).
#
# Work compared:
#   reference: swimlane_converter (statistics; as a CLI it also writes the Perfetto trace,
#              sent to the work dir so critical_path does not copy it into CPM files),
#              a statistics-only driver of the same converter functions (read_perf_data,
#              kernel-id resolution, print_task_statistics: the conservative baseline),
#              deps_viewer --edge-mode reduced, deps_viewer --edge-mode reduced_dataflow,
#              critical_path.
#   ours:      pypto-viewer bench --iterations 1 (reads and parses the three files, join,
#              func ids, worker view, function statistics, deps graph, reduced and
#              reduced_dataflow edges, critical paths: the same work in one process), and
#              pypto-viewer report --json as it stands.
set -euo pipefail

REF=${1:?usage: compare_reference.sh <reference-checkout> [work-dir]}
REF=$(cd "$REF" && pwd)
WORK=${2:-$(mktemp -d "${TMPDIR:-/tmp}/pypto-compare.XXXXXX")}
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
TASKS=${TASKS:-100000}
SEED=${SEED:-7}
LEVEL=${LEVEL:-4}
PYTHON=${PYTHON:-python3}
BENCH_ITERATIONS=${BENCH_ITERATIONS:-3}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)

for t in swimlane_converter deps_viewer critical_path; do
    [ -f "$REF/simpler_setup/tools/$t.py" ] || { echo "no simpler_setup/tools/$t.py under $REF" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "/usr/bin/time is required (GNU time, for -v)" >&2; exit 2; }

if [ -z "${PYPTO_VIEWER:-}" ]; then
    (cd "$ROOT" && cargo build --release -q -p pypto-cli)
    PYPTO_VIEWER=$ROOT/target/release/pypto-viewer
fi
export PYTHONPATH="$REF:$REF/python${PYTHONPATH:+:$PYTHONPATH}"

CAP=$WORK/capture
rm -rf "$CAP"
echo "== gen: $TASKS tasks, level $LEVEL, seed $SEED -> $CAP"
"$PYPTO_VIEWER" gen "$CAP" --tasks "$TASKS" --level "$LEVEL" --seed "$SEED" --name-map | tee "$WORK/gen.out"
NAME_MAP=$(ls "$CAP"/name_map*.json | head -n 1)

# measure <label> <command...>: runs under /usr/bin/time -v, keeps stdout/stderr in $WORK.
declare -a LABELS=() WALLS=() RSSS=() RCS=()
measure() {
    local label=$1
    shift
    local rc=0
    echo "== $label: $*"
    /usr/bin/time -v -o "$WORK/$label.time" "$@" >"$WORK/$label.out" 2>"$WORK/$label.err" || rc=$?
    local wall rss
    wall=$(awk -F': ' '/Elapsed \(wall clock\) time/ {print $2}' "$WORK/$label.time" |
        awk -F: '{ if (NF == 3) print $1*3600 + $2*60 + $3; else print $1*60 + $2 }')
    rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$WORK/$label.time")
    LABELS+=("$label")
    WALLS+=("$wall")
    RSSS+=("$rss")
    RCS+=("$rc")
    if [ "$rc" != 0 ]; then
        echo "   exit $rc; stderr tail:" && tail -n 5 "$WORK/$label.err"
    fi
}

# Ours first, on the pristine capture directory.
measure ours_bench "$PYPTO_VIEWER" bench "$CAP" --iterations 1 --json
measure ours_report "$PYPTO_VIEWER" report "$CAP" --json
"$PYPTO_VIEWER" bench "$CAP" --iterations "$BENCH_ITERATIONS" >"$WORK/ours_bench_table.txt"

# Reference tools (run from the work dir; every output outside the capture except the
# deps_viewer text files and the critical-path report, which they always write beside
# their input).
cd "$WORK"
measure ref_converter "$PYTHON" -m simpler_setup.tools.swimlane_converter \
    "$CAP/chip_swimlane_records.json" -o "$WORK/ref_merged_swimlane.json"
cat >"$WORK/ref_stats_only.py" <<'PY'
"""The converter's statistics without the Perfetto trace: its own functions, in its order."""
import json
import sys
from pathlib import Path

from simpler_setup.tools import swimlane_converter as sc

cap = Path(sys.argv[1])
data = sc.read_perf_data(str(cap / "chip_swimlane_records.json"))
names = json.loads(Path(sys.argv[2]).read_text())
names = names.get("callable_id_to_name") or names
kernel_map = sc.load_deps_kernel_map(cap / "deps.json")
for task in data["tasks"]:
    if int(task["func_id"]) < 0:
        fid = sc.resolve_func_id_from_kernel_map(task["task_id"], task.get("core_type"), kernel_map)
        if fid >= 0:
            task["func_id"] = fid
sc.print_task_statistics(data["tasks"], names, chip_swimlane_level=data["chip_swimlane_level"])
PY
measure ref_stats_only "$PYTHON" "$WORK/ref_stats_only.py" "$CAP" "$NAME_MAP"
measure ref_deps_reduced "$PYTHON" -m simpler_setup.tools.deps_viewer "$CAP/deps.json" --edge-mode reduced
measure ref_deps_reduced_dataflow "$PYTHON" -m simpler_setup.tools.deps_viewer "$CAP/deps.json" \
    --edge-mode reduced_dataflow
measure ref_critical_path "$PYTHON" -m simpler_setup.tools.critical_path "$CAP" --stdout

# Table.
{
    echo
    echo "capture: $(sed -n 1p "$WORK/gen.out")"
    du -b "$CAP"/chip_swimlane_records.json "$CAP"/deps.json | awk '{printf "  %s: %.1f MB\n", $2, $1/1e6}'
    echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GB", $2/1048576}' /proc/meminfo), $(uname -sr), $("$PYTHON" --version 2>&1)"
    echo
    printf "%-28s %10s %12s %6s\n" "step" "wall s" "max RSS MB" "exit"
    for i in "${!LABELS[@]}"; do
        printf "%-28s %10.2f %12.1f %6s\n" "${LABELS[$i]}" "${WALLS[$i]}" "$(echo "${RSSS[$i]}/1024" | bc -l)" "${RCS[$i]}"
    done
    wall_of() { for i in "${!LABELS[@]}"; do if [ "${LABELS[$i]}" = "$1" ]; then echo "${WALLS[$i]}"; fi; done; }
    rss_of() { for i in "${!LABELS[@]}"; do if [ "${LABELS[$i]}" = "$1" ]; then echo "${RSSS[$i]}"; fi; done; }
    ref_cli=$(echo "$(wall_of ref_converter) + $(wall_of ref_deps_reduced) + $(wall_of ref_deps_reduced_dataflow) + $(wall_of ref_critical_path)" | bc -l)
    ref_cons=$(echo "$(wall_of ref_stats_only) + $(wall_of ref_deps_reduced) + $(wall_of ref_deps_reduced_dataflow) + $(wall_of ref_critical_path)" | bc -l)
    ours=$(wall_of ours_bench)
    echo
    printf "reference total (converter CLI + deps_viewer x2 + critical_path): %.2f s\n" "$ref_cli"
    printf "reference total (stats-only converter + deps_viewer x2 + critical_path): %.2f s\n" "$ref_cons"
    printf "ours (pypto-viewer bench --iterations 1, same work, one process): %.2f s\n" "$ours"
    printf "speed-up: %.1fx (vs CLI tools), %.1fx (vs stats-only baseline)\n" \
        "$(echo "$ref_cli / $ours" | bc -l)" "$(echo "$ref_cons / $ours" | bc -l)"
    max_ref=0
    for l in ref_converter ref_stats_only ref_deps_reduced ref_deps_reduced_dataflow ref_critical_path; do
        r=$(rss_of "$l")
        if [ "$r" -gt "$max_ref" ]; then max_ref=$r; fi
    done
    printf "max RSS: reference %.0f MB (largest single tool), ours %.0f MB\n" \
        "$(echo "$max_ref/1024" | bc -l)" "$(echo "$(rss_of ours_bench)/1024" | bc -l)"
    if grep -q '"functions"' "$WORK/ours_report.out" && grep -q '"critical_path"' "$WORK/ours_report.out"; then
        echo "report --json carries functions/edges/critical_path: yes"
    else
        echo "report --json carries functions/edges/critical_path: not yet (so bench is the like-for-like number)"
    fi
    echo
    echo "reference outputs: $(grep -m1 'Transitive reduction' "$WORK/ref_deps_reduced.out" || true)"
    echo "                   $(grep -m1 'Dataflow-verified' "$WORK/ref_deps_reduced_dataflow.out" || true)"
    echo "                   critical_path: $(head -c 300 "$WORK/ref_critical_path.out" | tr '\n' ' ')"
    echo
    echo "ours, per stage (pypto-viewer bench --iterations $BENCH_ITERATIONS):"
    cat "$WORK/ours_bench_table.txt"
} | tee "$WORK/summary.txt"
echo "work dir: $WORK"
