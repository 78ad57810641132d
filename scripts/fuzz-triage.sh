#!/usr/bin/env bash
# Groups the saved findings of fuzz targets by cause: scripts/fuzz-triage.sh TARGET|all [BUILD_DIR]
# Re-runs each input of BUILD_DIR/fuzz-findings/TARGET once and prints, per distinct cause (the
# contract message, the sanitizer report's first line and top frame in tenet's code, or the
# timeout), the count and one example input.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: scripts/fuzz-triage.sh TARGET|all [BUILD_DIR]}
build=${2:-${TENET_FUZZ_BUILD_DIR:-build-fuzz}}
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/fuzz/lsan.supp}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
if [ "$target" = all ]; then
  targets=$(ls "$build/fuzz-findings")
else
  targets=$target
fi
for t in $targets; do
  dir=$build/fuzz-findings/$t
  [ -d "$dir" ] && [ -n "$(ls -A "$dir")" ] || continue
  echo "== $t"
  for f in "$dir"/*; do
    out=$(timeout 60 "$build/fuzz/fuzz_$t" -timeout=20 "$f" 2>&1 || true)
    cause=$(printf '%s\n' "$out" | grep -m1 -oE 'contract broken: .{0,110}|runtime error: .{0,90}|ERROR: AddressSanitizer: [a-z-]+|ERROR: LeakSanitizer|ALARM: working on the last Unit for [0-9]+|out-of-memory' ||
            echo "no longer reproduces")
    frame=$(printf '%s\n' "$out" | grep -m1 -oE '(src|include)/[a-z_/]+\.[ch]pp:[0-9]+' || true)
    printf '%s\t%s\t%s\n' "$cause" "$frame" "$f"
  done | sort | awk -F'\t' '{k = $1 " @ " $2; n[k]++; if (!(k in ex)) ex[k] = $3}
                            END {for (k in n) printf "%5d  %s\n       e.g. %s\n", n[k], k, ex[k]}'
done
