#!/usr/bin/env bash
# Installs the build dependencies (Debian packages only) when they are missing.
set -euo pipefail
packages=(g++ cmake make pkg-config libisl-dev libgmp-dev libeigen3-dev nlohmann-json3-dev
          libfmt-dev catch2 libcli11-dev libbenchmark-dev libtbb-dev clang-format
          # scripts/ci-reliability.sh: sanitizers and libFuzzer: clang 14 and its runtimes
          clang libclang-rt-14-dev
          # scripts/test.sh and ci-reliability.sh link with lld (several times faster than ld.bfd)
          lld
          # tests/slurm: a one-node Slurm cluster
          slurm-wlm munge
          # the Python package (python/, docs/python.md) and its tests: bindings, pandas,
          # matplotlib, Dask, pytest, hypothesis, tqdm; Chromium checks the HTML report
          python3 python3-dev pybind11-dev pybind11-json-dev python3-pandas python3-matplotlib
          python3-distributed python3-pytest python3-hypothesis python3-tqdm python3-pil
          chromium fonts-dejavu-core)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  echo "setup: installing ${missing[*]}"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi
