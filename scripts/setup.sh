#!/usr/bin/env bash
# Installs the Debian packages of the given purposes when they are missing:
#   scripts/setup.sh main          what the quick start's job needs (scripts/quickstart.sh): build
#                                  the `tenet` CLI and the Python module, write the HTML report
#   scripts/setup.sh main python   + the Python package's optional parts (scripts/python-install.sh)
#   scripts/setup.sh all           + everything the tests need (.ci/run: scripts/test.sh and
#                                  scripts/ci-reliability.sh)
# One list per purpose; a package is in the first list that needs it. Without arguments: all.
set -euo pipefail

# The quick start: compilers and the libraries the library, the CLI and the Python module link;
# Debian's python3 with matplotlib for the report's plots.
main=(g++ cmake make pkg-config libisl-dev libgmp-dev libeigen3-dev nlohmann-json3-dev libfmt-dev
      libcli11-dev
      python3 python3-dev pybind11-dev pybind11-json-dev python3-matplotlib)
# The Python package's optional parts (docs/python.md): DataFrames, progress bars, Dask clusters.
python=(python3-pandas python3-tqdm python3-distributed)
# The test command (.ci/run): unit and end-to-end tests, benchmarks, the formatting check, the
# linker of scripts/test.sh (lld: several times faster than ld.bfd), sanitizers and libFuzzer
# (scripts/ci-reliability.sh: clang 14 and its runtimes), a one-node Slurm cluster (tests/slurm),
# the Python tests and Chromium's check of the HTML report.
test=(catch2 libbenchmark-dev clang-format lld clang libclang-rt-14-dev slurm-wlm munge
      python3-pytest python3-hypothesis python3-pil chromium fonts-dejavu-core)

purposes=("$@")
((${#purposes[@]})) || purposes=(all)
packages=()
# The quick start's packages without their recommends (python3-matplotlib's alone would bring Tk
# and its X libraries); the test command installs as apt does by default, recommends included.
recommends=(--no-install-recommends)
for purpose in "${purposes[@]}"; do
  case $purpose in
    main) packages+=("${main[@]}") ;;
    python) packages+=("${python[@]}") ;;
    test) packages+=("${test[@]}"); recommends=() ;;
    all) packages+=("${main[@]}" "${python[@]}" "${test[@]}"); recommends=() ;;
    *) echo "setup.sh: unknown purpose '$purpose' (main, python, test or all)" >&2; exit 1 ;;
  esac
done
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  echo "setup: installing ${missing[*]}"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq ${recommends[@]+"${recommends[@]}"} \
    "${missing[@]}" >/dev/null
fi
