#!/usr/bin/env bash
# The test command of README.md: installs what is missing, builds, and runs every test.
# Safe to run twice. CI (.ci/run) calls exactly this.
#
# Tests build in release mode (with -enable-testing so @testable imports work): the tracking
# accuracy tests simulate and track two 30 s stereo datasets, which takes minutes in release
# and far longer in a debug build. Simulated datasets are cached in $PARALLAX_SIM_CACHE
# (default /tmp/parallax-sim) and reused by later runs. Afterwards scripts/examples.sh builds and runs
# the example packages in Examples/ (a debug build of their own in .build/examples).
#
# After the tests every parser's fuzz target runs for a short, bounded time (scripts/fuzz.sh,
# 10 s each, about 70 s plus the sanitized build of Fuzz/); `--skip-fuzz` as the first argument
# or PARALLAX_SKIP_FUZZ=1 leaves that out. Other arguments go to `swift test`.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzz=1
if [[ "${1:-}" == "--skip-fuzz" ]]; then fuzz=0; shift; fi
[[ "${PARALLAX_SKIP_FUZZ:-0}" == 1 ]] && fuzz=0
PARALLAX_WITH_XVFB=1 ./scripts/install-deps.sh
# The Python readers the bag/MCAP cross-check test runs (rosbags, mcap); best effort: without
# network the venv stays incomplete and that test reports itself skipped.
venv=.build/crosscheck-venv
if [[ ! -x $venv/bin/python ]] || ! $venv/bin/python -c "import rosbags, mcap, zstandard" 2>/dev/null; then
    { python3 -m venv "$venv" && "$venv/bin/pip" install -q rosbags mcap zstandard lz4; } \
        || { echo "note: no Python venv with rosbags/mcap; the cross-check test will be skipped"; rm -rf "$venv"; }
fi
# Compiled for this machine's CPU family where it has AVX2 (scripts/cpu-flags.sh says why).
cpu=($(./scripts/cpu-flags.sh))  # words without spaces; a bad PARALLAX_CPU stops here
flags=(-c release -Xswiftc -enable-testing "${cpu[@]}")
swift build "${flags[@]}" --build-tests
swift test "${flags[@]}" --skip-build "$@"
./scripts/examples.sh
if [[ $fuzz == 1 ]]; then ./scripts/fuzz.sh --seconds "${PARALLAX_FUZZ_SECONDS:-10}"; fi
