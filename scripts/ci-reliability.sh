#!/usr/bin/env bash
# CI reliability steps (docs/reliability.md), run by .ci/run after scripts/test.sh:
#   1. one clang build with AddressSanitizer + UndefinedBehaviorSanitizer (TENET_BUILD_FUZZ=ON,
#      -O1, a unity build) of what takes input from outside: the library, the `tenet` CLI and
#      the 13 fuzz targets (one per input format, the CLI's main() included);
#   2. the end-to-end tests of the areas whose tests run the CLI (cli, errors, sweep, tir, llm,
#      quant: CTest labels), from the Release build of scripts/test.sh, with TENET_CLI
#      pointing at the sanitized CLI: every command those tests run goes through the sanitized
#      library, and any sanitizer report fails the test (tests/cli_run.hpp);
#   3. every fuzz target for TENET_CI_FUZZ_SECONDS (default 6) seconds, one at a time, starting
#      from its seed corpus (the bundled configs, logs, specs, TENET files and TVMScript kernels
#      and tests/data): the in-process readers run sanitized on every seed and on what the fuzzer
#      derives from them.
# Measured: docs/reliability.md#ci. Exit 1 on any failure, sanitizer report or finding; the last
# line then names the step, the failed tests or the fuzz target and its saved input, and a command
# that reproduces it (scripts/ci-failure.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ci-failure.sh
trap ci_on_exit EXIT
build=${TENET_SANITIZE_BUILD_DIR:-build-san}
release=${TENET_BUILD_DIR:-build}
jobs=$(nproc 2>/dev/null || echo 2)
fuzz_seconds=${TENET_CI_FUZZ_SECONDS:-6}
targets=${TENET_SANITIZE_TARGETS:-fuzz_all tenet_cli}
# The CTest labels (test areas) run against the sanitized CLI.
labels=${TENET_SANITIZE_LABELS:-^(cli|errors|sweep|tir|llm|quant)$}

step() { echo "ci-reliability: $1 ($(date +%T))"; }
start=$SECONDS

step "configure + build with ASan + UBSan (clang, -O1, unity build) in $build"
ci_step=sanitizer-build ci_reproduce="bash scripts/ci-reliability.sh"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" -DTENET_UNITY_BUILD=ON \
  -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld -DCMAKE_SHARED_LINKER_FLAGS=-fuse-ld=lld \
  -DTENET_BUILD_FUZZ=ON -DTENET_BUILD_BENCH=OFF -DTENET_BUILD_PYTHON=OFF \
  -DTENET_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" -j "$jobs" --target $targets
echo "ci-reliability: build took $((SECONDS - start)) s"

step "CLI tests of $release against the sanitized CLI ($build/tenet)"
t0=$SECONDS
ci_step=sanitized-cli-tests ci_reproduce="bash scripts/test.sh"
[ -x "$release/tests/test_cli" ] || { echo "ci-reliability: run scripts/test.sh first ($release)" >&2; exit 1; }
export TENET_CLI=$PWD/$build/tenet TENET_CLI_SANITIZED=1
export ASAN_OPTIONS=halt_on_error=1:abort_on_error=1:detect_leaks=1:strict_string_checks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export LSAN_OPTIONS=suppressions=$PWD/fuzz/lsan.supp
ci_forget_tests "$release"
san_env="TENET_CLI=$build/tenet TENET_CLI_SANITIZED=1 ASAN_OPTIONS=$ASAN_OPTIONS"
san_env+=" LSAN_OPTIONS=suppressions=fuzz/lsan.supp "
ctest --test-dir "$release" --output-on-failure -j "$jobs" -L "$labels" ||
  { ci_report_tests "$release" "$san_env" sanitized-cli-tests; exit 1; }
echo "ci-reliability: sanitized CLI tests took $((SECONDS - t0)) s"

step "fuzzing every target for $fuzz_seconds s"
t0=$SECONDS
ci_step=fuzz ci_reported=1  # fuzz.sh prints the line of a finding itself
TENET_FUZZ_REBUILD=0 bash scripts/fuzz.sh all "$fuzz_seconds" "$build"
echo "ci-reliability: fuzzing took $((SECONDS - t0)) s; all steps $((SECONDS - start)) s"
