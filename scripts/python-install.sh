#!/usr/bin/env bash
# Builds the tenet Python package and installs it for Debian's python3 (docs/python.md):
# installs the Debian packages (scripts/setup.sh main python), builds the extension module
# (Release, into build/), then `cmake --install` puts the package in the interpreter's site-packages
# (/usr/local/lib/python3.X/dist-packages) and the configs in /usr/local/share/tenet.
# Afterwards `python3 -c "import tenet"` works from any directory. Nothing comes from PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${TENET_BUILD_DIR:-build}
jobs=$(nproc 2>/dev/null || echo 2)
bash scripts/setup.sh main python
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DTENET_BUILD_PYTHON=ON -DTENET_BUILD_TESTS=OFF \
  -DTENET_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" -j "$jobs" --target _tenet tenet_cli
sudo_cmd=""
[ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
$sudo_cmd cmake --install "$build" >/dev/null
cd /
/usr/bin/python3 -c "import tenet; print('tenet installed:', tenet.__file__)"
