#!/usr/bin/env bash
# Configures, builds and runs every test (unit, property, end-to-end, error cases, consumer).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${TENET_BUILD_DIR:-build}
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j "$jobs"
ctest --test-dir "$build" --output-on-failure -j "$jobs"
