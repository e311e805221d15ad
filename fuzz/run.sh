#!/usr/bin/env bash
# Runs every fuzz target of the formats readers for N executions each, one after another
# (single job: the machine is small and shared). Usage:
#
#   fuzz/run.sh [RUNS] [TARGET...]      RUNS defaults to 10000000; targets default to all
#
# Environment: SANITIZER=none|address (default none: the readers are safe Rust, and
# overflow-checks + debug-assertions are on in fuzz/Cargo.toml), MAX_LEN (default 65536),
# TRACE_MAX_LEN (default 8192, for chrome_trace, cpm and strace), LIST_MAX_LEN (default
# 8192, for passes_dump) and DISCOVERY_MAX_LEN (default 4096): the lower limits keep the
# slower readers at ≥ ~15k exec/s so that 10M executions fit (see README), and CMIN_FLAGS
# (default "-set_cover_merge=1 -use_counters=0": the smallest corpus reaching every edge;
# empty for libFuzzer's plain merge).
# Installs cargo-fuzz if missing. Stable toolchain only: cargo-fuzz's nightly flags are
# enabled with RUSTC_BOOTSTRAP=1. fuzz/corpus/<target> is kept in git: seeds from fixtures/
# are added to it at every run (named by the SHA-1 of their bytes, as libFuzzer names its
# own inputs, so re-adding one is a no-op), and after the run the corpus is minimised with
# `cargo fuzz cmin` (same -max_len and dict) so what is committed stays small. Crashes land in
# fuzz/artifacts/<target>/; logs in fuzz/logs/<target>.log (cmin: <target>.cmin.log); a
# summary table (runs, seconds, exec/s, result, corpus files and bytes after cmin) is
# printed last. Run it niced on a shared machine: `nice -n 19 fuzz/run.sh`.
set -u -o pipefail
cd "$(dirname "$0")"
FUZZ="$(pwd)"
ROOT="$(cd .. && pwd)"
RUNS="${1:-10000000}"
shift $(( $# > 0 ? 1 : 0 ))
SANITIZER="${SANITIZER:-none}"
MAX_LEN="${MAX_LEN:-65536}"
TRACE_MAX_LEN="${TRACE_MAX_LEN:-8192}"
LIST_MAX_LEN="${LIST_MAX_LEN:-8192}"
DISCOVERY_MAX_LEN="${DISCOVERY_MAX_LEN:-4096}"
CMIN_FLAGS="${CMIN_FLAGS--set_cover_merge=1 -use_counters=0}"
export RUSTC_BOOTSTRAP=1

if ! cargo fuzz --version >/dev/null 2>&1; then
    cargo install cargo-fuzz --locked || cargo install cargo-fuzz
fi

ALL_TARGETS=$(sed -n 's/^name = "\(.*\)"$/\1/p' Cargo.toml | grep -v '^pypto-formats-fuzz$')
TARGETS="${*:-$ALL_TARGETS}"

max_len_of() {
    case "$1" in
    chrome_trace | cpm | strace) echo "$TRACE_MAX_LEN" ;;
    passes_dump) echo "$LIST_MAX_LEN" ;;
    discovery) echo "$DISCOVERY_MAX_LEN" ;;
    *) echo "$MAX_LEN" ;;
    esac
}

# seed TARGET FILE...: adds files to the target's corpus, cut to the target's max length
# (as libFuzzer would cut them), each named by the SHA-1 of its (cut) bytes.
seed() {
    local t="$1"; shift
    local max; max="$(max_len_of "$t")"
    mkdir -p "corpus/$t"
    local f tmp="corpus/$t/.seed"
    for f in "$@"; do
        [ -f "$f" ] || continue
        head -c "$max" "$f" > "$tmp"
        mv "$tmp" "corpus/$t/$(sha1sum < "$tmp" | cut -c1-40)"
    done
}

# malformed READER: the fixtures/malformed files whose expected.tsv reader is READER.
malformed() {
    [ -f "$ROOT/fixtures/malformed/expected.tsv" ] || return 0
    awk -F'\t' -v r="$1" '!/^#/ && $2 == r { print $1 }' "$ROOT/fixtures/malformed/expected.tsv" \
        | sed "s|^|$ROOT/fixtures/malformed/|"
}

make_seeds() {
    local t="$1" rt="$ROOT/fixtures/runtime" tmp
    tmp="$(mktemp -d)"
    case "$t" in
    records) seed "$t" "$rt"/*/chip_swimlane_records.json $(malformed records) ;;
    deps_json) seed "$t" "$rt"/*/deps.json $(malformed deps) ;;
    name_map) seed "$t" "$rt"/*/name_map*.json $(malformed name_map) ;;
    manifest)
        # Manifests as `pypto-viewer manifest` writes them, one per fixture dataset.
        local d i=0
        for d in "$rt"/*/ "$ROOT"/fixtures/passes/*/; do
            i=$((i + 1))
            (cd "$d" && find . -type f -printf '%P\t%s\n' | sort | awk -F'\t' '
                BEGIN { printf "{\"format\":\"pypto-viewer-manifest\",\"version\":1,\"files\":[" }
                { gsub(/\\/, "\\\\", $1); gsub(/"/, "\\\"", $1)
                  printf "%s\n{\"path\":\"%s\",\"size_bytes\":%s}", (NR > 1 ? "," : ""), $1, $2 }
                END { print "\n]}" }') > "$tmp/m$i.json"
        done
        seed "$t" "$tmp"/*.json $(malformed manifest) ;;
    passes_dump)
        local d i=0
        while IFS= read -r d; do
            i=$((i + 1))
            (cd "$d" && find . -maxdepth 1 -type f -printf '%P\n' | sort) > "$tmp/l$i.txt"
        done < <(find "$ROOT/fixtures/passes" -type d -name 'passes_dump*')
        seed "$t" "$tmp"/*.txt ;;
    discovery)
        # One listing per fixture dataset (kept small: listings are at most LIST_MAX_LEN).
        local d i=0
        for d in "$rt"/*/ "$ROOT"/fixtures/passes/*/; do
            i=$((i + 1))
            (cd "$d/.." && find "$(basename "$d")" -type f -printf '%p\t%s\n' | sort) > "$tmp/l$i.txt"
        done
        printf 'rank0/d0/deps.json\nrank0/d0/chip_swimlane_records.json\nrank1/d0/name_map_20260101_000000.json\nrank1/d0/name_map_20260102_000000.json\n.git/x\nnode_modules/deps.json\nserving-strace-swimlane.json\n' > "$tmp/ranks.txt"
        seed "$t" "$tmp"/*.txt ;;
    chrome_trace)
        seed "$t" "$rt"/*/merged_swimlane*.json "$rt"/*/CPM_*.json \
            "$ROOT"/fixtures/*/*strace-swimlane*.json $(malformed chrome_trace) ;;
    cpm) seed "$t" "$rt"/*/CPM_*.json $(malformed cpm) ;;
    strace) seed "$t" "$ROOT"/fixtures/*/*strace-swimlane*.json "$rt"/*/merged_swimlane*.json $(malformed strace) ;;
    host_phase_records) seed "$t" "$rt"/*/host_phase_records.jsonl $(malformed host_phase_records) ;;
    *) mkdir -p "corpus/$t" ;;
    esac
    rm -rf "$tmp"
}

dict_of() {
    case "$1" in
    discovery | passes_dump) echo "$FUZZ/dicts/paths.dict" ;;
    *) echo "$FUZZ/dicts/json.dict" ;;
    esac
}

mkdir -p logs
SUMMARY="$FUZZ/logs/summary.tsv"
printf 'target\truns\tseconds\texec_per_s\tresult\tcorpus_files\tcorpus_bytes\n' > "$SUMMARY"
status=0
for t in $TARGETS; do
    make_seeds "$t"
    max="$(max_len_of "$t")"
    echo "== $t: $RUNS runs, max_len $max (corpus: $(ls "corpus/$t" | wc -l) files)"
    cargo fuzz run -O -a -s "$SANITIZER" "$t" -- \
        -runs="$RUNS" -max_len="$max" -dict="$(dict_of "$t")" \
        -print_final_stats=1 > "logs/$t.log" 2>&1
    rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "logs/$t.log" | tail -1)
    eps=$(sed -n 's/^stat::average_exec_per_sec: *//p' "logs/$t.log" | tail -1)
    secs=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "logs/$t.log" | tail -1)
    if [ "$rc" -eq 0 ]; then result=ok; else result="CRASH (rc $rc, see fuzz/logs/$t.log, fuzz/artifacts/$t/)"; status=1; fi
    # Keep the committed corpus small: only inputs that add coverage survive.
    # shellcheck disable=SC2086 # CMIN_FLAGS is a list of flags
    if ! cargo fuzz cmin -O -a -s "$SANITIZER" "$t" -- -max_len="$max" -dict="$(dict_of "$t")" $CMIN_FLAGS \
        > "logs/$t.cmin.log" 2>&1 || grep -q '^Failed to minimize' "logs/$t.cmin.log"; then
        result="$result; cmin failed (fuzz/logs/$t.cmin.log)"; status=1
    fi
    files=$(find "corpus/$t" -type f | wc -l)
    bytes=$(find "corpus/$t" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$t" "${runs:-?}" "${secs:-?}" "${eps:-?}" "$result" "$files" "$bytes" \
        | tee -a "$SUMMARY"
done
echo
column -t -s $'\t' "$SUMMARY"
exit "$status"
