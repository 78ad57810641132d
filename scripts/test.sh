#!/usr/bin/env bash
# Configures, builds and runs every test (unit, property, end-to-end, error cases, consumer).
# On failure the last line names the step and the failed tests (scripts/ci-failure.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${TENET_BUILD_DIR:-build}
jobs=$(nproc 2>/dev/null || echo 2)
source scripts/ci-failure.sh
trap ci_on_exit EXIT
ci_reproduce="bash scripts/test.sh"
# TENET_UNITY_BUILD: the library compiled in batches (half the CPU time of a clean build); lld
# (scripts/setup.sh) links the ~30 executables several times faster than ld.bfd.
link=()
if command -v ld.lld >/dev/null; then
  for kind in EXE SHARED MODULE; do link+=("-DCMAKE_${kind}_LINKER_FLAGS=-fuse-ld=lld"); done
fi
ci_step=configure
# Tests and benchmarks on explicitly: the quick start configures the same build/ without them.
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DTENET_UNITY_BUILD=${TENET_UNITY_BUILD:-ON} \
  -DTENET_BUILD_TESTS=ON -DTENET_BUILD_BENCH=ON ${link[@]+"${link[@]}"} >/dev/null
ci_step=build ci_reproduce="cmake --build $build -j $jobs"
cmake --build "$build" -j "$jobs"
ci_step=test
ci_forget_tests "$build"
ctest --test-dir "$build" --output-on-failure -j "$jobs" || { ci_report_tests "$build" "" test; exit 1; }
