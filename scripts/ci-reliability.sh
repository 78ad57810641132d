#!/usr/bin/env bash
# CI reliability steps (docs/reliability.md), run by .ci/run after scripts/test.sh:
#   1. one clang build with AddressSanitizer + UndefinedBehaviorSanitizer (TENET_BUILD_FUZZ=ON,
#      -O1): the library, the CLI, the tests and the fuzz targets;
#   2. the test suite on that build, any sanitizer report fatal (halt_on_error);
#   3. every fuzz target for TENET_CI_FUZZ_SECONDS (default 6) seconds, one at a time.
# Measured (docs/reliability.md, 2026-11-25, fresh clone, idle 2-core machine): the build 736 s,
# the sanitized tests 249 s before the exclusions below, fuzzing 12 x 10 s. Exit 1 on any
# failure, sanitizer report or finding.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${TENET_SANITIZE_BUILD_DIR:-build-san}
jobs=$(nproc 2>/dev/null || echo 2)
fuzz_seconds=${TENET_CI_FUZZ_SECONDS:-6}
# Build targets (default: everything); e.g. "fuzz_all test_errors test_io test_cli" to save time.
targets=${TENET_SANITIZE_TARGETS:-all}
# Tests left out of the sanitized run: the Slurm test (daemons, no tenet code of its own beyond
# what the rest covers), the find_package consumer (a second configure + build), the source-tree
# checks (clang_format, layering: no tenet code runs) and the cross-door agreement test (the same
# pipeline through every command, ~110 s under the sanitizers; each door's code is run by its own
# tests here). The Release run of scripts/test.sh runs them all.
exclude=${TENET_SANITIZE_EXCLUDE:-^(slurm_sweep|consumer_find_package|clang_format|layering|layering_detects_upward_include|every door gives the pipeline.s numbers on random matmuls)$}

step() { echo "ci-reliability: $1 ($(date +%T))"; }
start=$SECONDS

step "configure + build with ASan + UBSan (clang, -O1) in $build"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
  -DTENET_BUILD_FUZZ=ON -DTENET_BUILD_BENCH=OFF -DTENET_BUILD_PYTHON=OFF >/dev/null
cmake --build "$build" -j "$jobs" --target $targets
echo "ci-reliability: build took $((SECONDS - start)) s"

step "test suite under the sanitizers"
t0=$SECONDS
export ASAN_OPTIONS=halt_on_error=1:abort_on_error=1:detect_leaks=1:strict_string_checks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export LSAN_OPTIONS=suppressions=$PWD/fuzz/lsan.supp
ctest --test-dir "$build" --output-on-failure -j "$jobs" -E "$exclude"
echo "ci-reliability: sanitized tests took $((SECONDS - t0)) s"

step "fuzzing every target for $fuzz_seconds s"
t0=$SECONDS
TENET_FUZZ_REBUILD=0 bash scripts/fuzz.sh all "$fuzz_seconds" "$build"
echo "ci-reliability: fuzzing took $((SECONDS - t0)) s; all steps $((SECONDS - start)) s"
