#!/usr/bin/env bash
# Prints the `swift build` / `swift test` arguments (one per line, none with spaces) that compile
# Parallax for the CPU of this machine's family, for the scripts that build it (test.sh, demo.sh):
#
#   cpu=($(./scripts/cpu-flags.sh)); swift build -c release "${cpu[@]}"
#
# Why: the tracker's hot loops (KLT windows, corner scores, the MSCKF's information matrix) run on
# 8-lane vectors. Swift's default x86-64 target is SSE2, so each 8-lane operation becomes two
# 4-lane instructions; with AVX2 it is one. On x86-64 machines with the AVX2 generation of
# instructions (Intel since 2013, AMD since 2015) this prints Haswell's level, which made mono
# tracking about 20 % faster (simulated phone walk: median 5.2–5.7 → 4.0–4.6 ms a frame) with
# byte-identical trajectories and simulations (Swift never fuses multiply-adds by itself, and the
# vector sums keep their order). Elsewhere (other CPUs, aarch64, whose NEON is always there) it
# prints nothing: the default target.
#
# A binary built this way stops with an illegal instruction on an older x86-64 CPU. To build for
# another machine, set PARALLAX_CPU to `generic` (the default target) or to an LLVM CPU name such
# as `skylake` or `znver3` (swiftc does not take `native`).
set -euo pipefail

choice="${PARALLAX_CPU:-auto}"
if [[ $choice == auto ]]; then
    choice=generic
    if [[ $(uname -m) == x86_64 && -r /proc/cpuinfo ]]; then
        flags=" $(grep -m1 '^flags' /proc/cpuinfo | cut -d: -f2) "
        choice=haswell
        for f in sse4_2 popcnt avx avx2 fma bmi1 bmi2 f16c movbe abm xsave; do
            [[ $flags == *" $f "* ]] || { choice=generic; break; }
        done
    fi
fi
case "$choice" in
    generic) ;;
    *[!A-Za-z0-9_-]* | "")
        echo "cpu-flags.sh: PARALLAX_CPU='$choice' is not a CPU name (try generic or haswell)" >&2
        exit 2 ;;
    *) printf '%s\n' -Xswiftc -target-cpu -Xswiftc "$choice" -Xcc "-march=$choice" ;;
esac
