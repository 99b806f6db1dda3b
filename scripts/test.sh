#!/usr/bin/env bash
# The test command of README.md: installs what is missing, builds, and runs every test.
# Safe to run twice. CI (.ci/run) calls exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
PARALLAX_WITH_XVFB=1 ./scripts/install-deps.sh
swift build --build-tests
swift test --skip-build "$@"
