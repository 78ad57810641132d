#!/usr/bin/env bash
# Configures, builds and runs every test (unit, property, end-to-end, error cases, consumer).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${TENET_BUILD_DIR:-build}
jobs=$(nproc 2>/dev/null || echo 2)
# TENET_UNITY_BUILD: the library compiled in batches (half the CPU time of a clean build); lld
# (scripts/setup.sh) links the ~30 executables several times faster than ld.bfd.
link=()
if command -v ld.lld >/dev/null; then
  for kind in EXE SHARED MODULE; do link+=("-DCMAKE_${kind}_LINKER_FLAGS=-fuse-ld=lld"); done
fi
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DTENET_UNITY_BUILD=${TENET_UNITY_BUILD:-ON} \
  ${link[@]+"${link[@]}"} >/dev/null
cmake --build "$build" -j "$jobs"
ctest --test-dir "$build" --output-on-failure -j "$jobs"
