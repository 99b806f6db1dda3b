#!/usr/bin/env bash
# Builds the libFuzzer targets of Fuzz/ (a separate package, so the sanitizer flags never touch
# the main build) and runs each for a bounded time, printing executions and crashes per target.
#
#   scripts/fuzz.sh [--seconds N] [--record] [target ...]
#
# Targets: csv yaml png scene gltf obj trajectory map recording vocabulary (default: all). --seconds is per target
# (default 60). Each target starts from its seed corpus Fuzz/Corpus/<target>/ plus the inputs
# earlier runs found interesting (.build-fuzz/corpus/<target>/, not in git). A crash stops that
# target; libFuzzer's reproducer is kept in Fuzz/Artifacts/<target>/ and the script exits 1 at
# the end. --record appends each run's figures to Fuzz/runs.tsv and rewrites the cumulative
# table in docs/fuzzing.md.
#
# Environment: FUZZ_BUILD_LOCK=path wraps the build in `flock path` (machines shared by several
# builders); FUZZ_JOBS=N gives the build N jobs. Runs use `nice -n 10`.
set -euo pipefail
cd "$(dirname "$0")/.."

all_targets=(csv yaml png scene gltf obj trajectory map recording vocabulary)
seconds=60
record=0
targets=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --seconds)
            [[ $# -ge 2 && "$2" =~ ^[0-9]+$ && "$2" -ge 1 ]] || { echo "fuzz.sh: --seconds needs a whole number ≥ 1" >&2; exit 64; }
            seconds="$2"; shift 2 ;;
        --record) record=1; shift ;;
        -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
        -*) echo "fuzz.sh: unknown option $1" >&2; exit 64 ;;
        *)
            [[ " ${all_targets[*]} " == *" $1 "* ]] || { echo "fuzz.sh: unknown target '$1' (known: ${all_targets[*]})" >&2; exit 64; }
            targets+=("$1"); shift ;;
    esac
done
[[ ${#targets[@]} -gt 0 ]] || targets=("${all_targets[@]}")

executable() {  # csv → FuzzCSV, trajectory → FuzzTrajectory
    case "$1" in
        csv|png|obj|yaml) echo "Fuzz$(echo "$1" | tr '[:lower:]' '[:upper:]')" ;;
        gltf) echo "FuzzGLTF" ;;
        *) echo "Fuzz${1^}" ;;
    esac
}

# All targets in one build (the main package's modules are shared by them anyway).
build=(swift build --package-path Fuzz --scratch-path .build-fuzz/build
       -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
       -Xcc -fsanitize=fuzzer-no-link,address)
[[ -n "${FUZZ_JOBS:-}" ]] && build+=(-j "$FUZZ_JOBS")
[[ -n "${FUZZ_BUILD_LOCK:-}" ]] && build=(flock "$FUZZ_BUILD_LOCK" "${build[@]}")
echo "== building the fuzz targets"
. scripts/fresh-scratch.sh
fresh_scratch .build-fuzz/build  # the corpus beside it is kept
"${build[@]}"
bin=".build-fuzz/build/debug"

status=0
summary=()
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
for t in "${targets[@]}"; do
    exe="$bin/$(executable "$t")"
    work=".build-fuzz/corpus/$t"
    artifacts="Fuzz/Artifacts/$t/"
    mkdir -p "$work" "$artifacts"
    log=".build-fuzz/$t.log"
    # The targets' scratch files (ScratchFolder, under the temporary directory) go to a folder of
    # this run's own, emptied first: libFuzzer ends the process with exit(), so nothing removes
    # them, and each run under /tmp left one folder per target behind.
    scratch=".build-fuzz/tmp/$t"
    rm -rf "$scratch"
    mkdir -p "$scratch"
    echo "== fuzzing $t for $seconds s"
    set +e
    # Leak checks off (libFuzzer's and LeakSanitizer's at exit): the Swift runtime's metadata
    # caches and Foundation's Data(contentsOf:) of an empty file read as leaks (docs/fuzzing.md);
    # parsers are checked for crashes, traps and memory errors. A single input may take 30 s before
    # it counts as a hang: the bundled AR scene (two 256² procedural textures), a seed of the scene
    # target, takes 4.3 s in this instrumented debug build on a quiet machine and passed 10 s on a
    # loaded 2-core one (2026-11-30).
    TMPDIR="$PWD/$scratch" ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" nice -n 10 "$exe" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 -max_len=65536 \
        -detect_leaks=0 -print_final_stats=1 -artifact_prefix="$artifacts" "$work" "Fuzz/Corpus/$t" >"$log" 2>&1
    rc=$?
    set -e
    executions=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    executions=${executions:-0}
    crashes=0
    if [[ $rc -ne 0 ]]; then
        crashes=1
        status=1
        echo "!! $t: libFuzzer exited with $rc; reproducer in $artifacts; last lines of $log:" >&2
        tail -30 "$log" >&2
    fi
    line=$(printf '%-11s %6s s %12s executions %3s crashes' "$t" "$seconds" "$executions" "$crashes")
    summary+=("$line")
    if [[ $record -eq 1 ]]; then
        [[ -f Fuzz/runs.tsv ]] || printf 'date\tcommit\ttarget\tseconds\texecutions\tcrashes\n' > Fuzz/runs.tsv
        printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%Y-%m-%dT%H:%MZ)" "$commit" "$t" "$seconds" "$executions" "$crashes" >> Fuzz/runs.tsv
    fi
done

echo "== fuzz summary (per target)"
printf '%s\n' "${summary[@]}"

if [[ $record -eq 1 ]]; then
    # The cumulative table between the markers of docs/fuzzing.md, from every recorded run.
    table=$(awk -F'\t' 'NR > 1 { s[$3] += $4; e[$3] += $5; c[$3] += $6; r[$3] += 1 }
        END {
            print "| target | runs | seconds | executions | crashes |"
            print "|---|---:|---:|---:|---:|"
            for (t in s) printf "| %s | %d | %d | %d | %d |\n", t, r[t], s[t], e[t], c[t]
        }' Fuzz/runs.tsv | { read -r h1; read -r h2; echo "$h1"; echo "$h2"; sort; })
    awk -v table="$table" '
        /<!-- fuzz-table-start -->/ { print; print table; skip = 1; next }
        /<!-- fuzz-table-end -->/ { skip = 0 }
        !skip' docs/fuzzing.md > docs/fuzzing.md.new && mv docs/fuzzing.md.new docs/fuzzing.md
    echo "== recorded in Fuzz/runs.tsv and docs/fuzzing.md"
fi
exit $status
