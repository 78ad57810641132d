#!/usr/bin/env bash
# Configures, builds and runs every test (unit, property, end-to-end, error cases, consumer).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${TENET_BUILD_DIR:-build}
jobs=$(nproc 2>/dev/null || echo 2)
# TENET_UNITY_BUILD: the library compiled in batches (half the CPU time of a clean build).
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DTENET_UNITY_BUILD=${TENET_UNITY_BUILD:-ON} >/dev/null
cmake --build "$build" -j "$jobs"
ctest --test-dir "$build" --output-on-failure -j "$jobs"
