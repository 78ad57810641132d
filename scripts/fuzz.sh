#!/usr/bin/env bash
# Runs libFuzzer targets (docs/reliability.md): scripts/fuzz.sh TARGET|all SECONDS [BUILD_DIR]
#
# TARGET is one of fuzz/CMakeLists.txt's TENET_FUZZ_TARGETS (arch, quant, spec, sweep_spec,
# model_config, log_jsonl, log_text, tenet_s, tenet_p, tenet_m, isl, tir, cli) or `all` (each in turn,
# SECONDS each; one fuzzer at a time, one job). The corpus starts from the bundled configs,
# workloads and tests/data and grows in BUILD_DIR/fuzz-corpus/TARGET; a crashing, leaking or
# slow (> TENET_FUZZ_TIMEOUT s, default 10) input is saved in BUILD_DIR/fuzz-findings/TARGET/ and
# the script exits 1. TENET_FUZZ_KEEP_GOING=1 (campaigns): libFuzzer's fork mode with one worker
# goes on after a finding (-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1), so every
# finding of the run is saved; scripts/fuzz-triage.sh groups them by cause. BUILD_DIR (default build-fuzz) is configured and built when needed:
#   cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DTENET_BUILD_FUZZ=ON
# On a finding the last line names the target, the saved input and the command that replays it:
#   CI FAILED: step=fuzz target=isl input=build-san/fuzz-findings/isl/crash-…; reproduce: …
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
source scripts/ci-failure.sh
trap ci_on_exit EXIT
ci_step=fuzz-build ci_reproduce="bash scripts/fuzz.sh $*"
target=${1:?usage: scripts/fuzz.sh TARGET|all SECONDS [BUILD_DIR]}
seconds=${2:?usage: scripts/fuzz.sh TARGET|all SECONDS [BUILD_DIR]}
build=${3:-${TENET_FUZZ_BUILD_DIR:-build-fuzz}}
timeout=${TENET_FUZZ_TIMEOUT:-10}
mkdir -p "$build"
build=$(realpath "$build")
targets=(arch quant spec sweep_spec model_config log_jsonl log_text tenet_s tenet_p tenet_m isl tir cli)

# Seed files of a target (globs relative to the source tree).
seeds() {
  case $1 in
    arch) echo configs/arch/*.json tests/data/arch/*.json ;;
    quant) echo configs/quant/*.json tests/data/quant/*.json ;;
    spec) echo workloads/specs/*.json tests/data/errors/*.json ;;
    sweep_spec) echo workloads/sweeps/*.json ;;
    model_config) echo workloads/models/*.json tests/data/llm/*.json ;;
    log_jsonl) echo workloads/logs/*.jsonl ;;
    log_text) echo workloads/logs/*.txt tests/data/llm/*.log ;;
    tenet_s) echo tests/data/errors/*.s tests/data/io/tenet/statement/*.s ;;
    tenet_p) echo tests/data/errors/*.p tests/data/io/tenet/pe_array/*.p ;;
    tenet_m) echo tests/data/errors/*.m tests/data/io/tenet/mapping/*.m ;;
    isl) echo tests/data/errors/*.[spm] tests/data/io/tenet/*/*.[spm] ;;
    tir) echo tests/data/tir/*.py fuzz/seeds/tir/*.py ;;
    cli) echo fuzz/seeds/cli/* ;;
    *) echo "fuzz.sh: unknown target '$1' (one of: ${targets[*]}, all)" >&2; exit 1 ;;
  esac
}

dict_of() {
  case $1 in
    cli) echo "-dict=$root/fuzz/cli.dict" ;;
    arch|quant|spec|sweep_spec|model_config|log_jsonl) echo "-dict=$root/fuzz/json.dict" ;;
  esac
}

# The corpus directory, filled with the seeds on first use (isl: one seed per line of the files).
prepare_corpus() {
  local t=$1 dir=$build/fuzz-corpus/$1 f i=0
  mkdir -p "$dir"
  [ -n "$(ls -A "$dir")" ] && return 0
  for f in $(seeds "$t"); do
    if [ "$t" = isl ]; then
      while IFS= read -r line; do
        case $line in *'{'*) i=$((i + 1)); printf '%s' "$line" > "$dir/seed-$i" ;; esac
      done < "$f"
    else
      cp "$f" "$dir/seed-$(echo "$f" | tr '/' '_')"
    fi
  done
}

[ "$target" = all ] && run=("${targets[@]}") || run=("$target")
if [ "${TENET_FUZZ_REBUILD:-1}" = 1 ]; then
  if [ ! -f "$build/CMakeCache.txt" ]; then
    cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang \
      -DCMAKE_CXX_COMPILER=clang++ -DTENET_BUILD_FUZZ=ON -DTENET_BUILD_BENCH=OFF >/dev/null
  fi
  cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" --target "${run[@]/#/fuzz_}" >/dev/null
fi

ci_step=fuzz
# A path relative to the source tree when it is inside it.
rel() {
  local p
  p=$(realpath -m "$1")
  case $p in "$root"/*) echo "${p#"$root"/}" ;; *) echo "$p" ;; esac
}
failures=()  # "target|saved input" of each finding, in order
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$root/fuzz/lsan.supp}
status=0
# The targets write their inputs under $TMPDIR (fuzz_common.hpp); libFuzzer's exits skip atexit.
export TMPDIR=$build/fuzz-tmp
for t in "${run[@]}"; do
  rm -rf "$TMPDIR" && mkdir -p "$TMPDIR"
  prepare_corpus "$t"
  findings=$build/fuzz-findings/$t
  mkdir -p "$findings"
  log=$build/fuzz-logs/$t.log
  mkdir -p "$(dirname "$log")"
  mode=()
  [ "${TENET_FUZZ_KEEP_GOING:-0}" = 1 ] &&
    mode=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
  # shellcheck disable=SC2046
  if [ "${TENET_FUZZ_KEEP_GOING:-0}" = 1 ]; then
    # Fork mode writes a log per job into the working directory: run it in the logs' one.
    cd "$(dirname "$log")"
    "$build/fuzz/fuzz_$t" "$build/fuzz-corpus/$t" $(dict_of "$t") -max_total_time="$seconds" \
      -timeout="$timeout" -rss_limit_mb=2048 -max_len=8192 "${mode[@]}" \
      -print_final_stats=1 -artifact_prefix="$findings/" </dev/null >"$log" 2>&1 || true
    cd "$root"
    n=$(find "$findings" -type f | wc -l)
    echo "fuzz $t: $n finding inputs ($seconds s); last status:" \
         "$(grep -E '^#[0-9]+: cov' "$log" | tail -1)"
    [ "$n" -eq 0 ] || { status=1; failures+=("$t|$(rel "$findings") ($n inputs)"); }
    continue
  fi
  if "$build/fuzz/fuzz_$t" "$build/fuzz-corpus/$t" $(dict_of "$t") -max_total_time="$seconds" \
       -timeout="$timeout" -rss_limit_mb=2048 -max_len=8192 "${mode[@]}" \
       -print_final_stats=1 -artifact_prefix="$findings/" </dev/null >"$log" 2>&1; then
    echo "fuzz $t: $(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}') runs," \
         "$(ls "$build/fuzz-corpus/$t" | wc -l) corpus files," \
         "$(grep -oE 'cov: [0-9]+' "$log" | tail -1) edges, no findings ($seconds s)"
  else
    status=1
    echo "fuzz $t: FINDING (input in $findings/, log $log):"
    grep -E 'ERROR|runtime error|contract broken|SUMMARY|Test unit written' "$log" | head -8
    input=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
    failures+=("$t|$(rel "${input:-$findings}")")
  fi
done
rm -rf "$TMPDIR"
if ((status)); then
  first=${failures[0]}
  t=${first%%|*} input=${first#*|}
  more=""
  ((${#failures[@]} == 1)) || more=" (findings of ${#failures[@]} targets: see above)"
  replay="${input%% (*}"
  [ "$replay" = "$input" ] || replay+=" -runs=0"  # a directory of inputs: each run once
  echo "CI FAILED: step=fuzz target=$t input=$input; reproduce:" \
       "LSAN_OPTIONS=suppressions=fuzz/lsan.supp $(rel "$build")/fuzz/fuzz_$t $replay$more"
  ci_reported=1
fi
exit $status
