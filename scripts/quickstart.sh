#!/usr/bin/env bash
# Quick start: installs the dependencies, builds the `tenet` command-line tool (Release, into
# build/) and reports Llama-2-7B on the default accelerator (scalable-32x32: a 32x32 systolic
# array of precision-scalable PEs, 2 MiB buffer, 64 B/cycle DRAM, 1 GHz) under four quantization
# schemes: one decode step with 2048 cached tokens, and the prefill of a 512-token prompt; one
# whole request (512-token prompt, 128 tokens, batch 4: TTFT, TPOT, tokens/s, memory, time per
# op kind); then writes the same comparison with the request view as a self-contained HTML report
# with plots (build/report.html; open it in any browser). Then the same model on a real chip,
# tpu-v6e (Google TPU v6e: four 256x256 MXUs, 1.6 TB/s HBM; calibrated on silicon,
# docs/validation.md#tpu-v6e): decode, prefill and one request under its bf16 schemes, so
# W4A16 on an HBM-bound decode shows next to the default accelerator.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${TENET_BUILD_DIR:-build}
jobs=$(nproc 2>/dev/null || echo 2)

# Only what this job uses: the build tools and libraries, python3 and matplotlib (the test
# command, .ci/run, installs the rest). Only its two targets are built: no tests, no benchmarks
# (their packages are not needed to configure either); the library compiled in batches (unity).
bash scripts/setup.sh main
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DTENET_UNITY_BUILD=ON \
  -DTENET_BUILD_TESTS=OFF -DTENET_BUILD_BENCH=OFF -DTENET_BUILD_PYTHON=ON >/dev/null
cmake --build "$build" -j "$jobs" --target tenet_cli _tenet >/dev/null
tenet="$build/tenet"

schemes=q0f16,q4f16_1,smoothquant_w8a8,awq_w4a16_g128
model=workloads/models/llama-2-7b.json

echo "== $tenet model --model $model --phase decode --context 2048 --quant $schemes"
"$tenet" model --model "$model" --phase decode --context 2048 --quant "$schemes"
echo
echo "== $tenet model --model $model --phase prefill --prompt 512 --quant $schemes"
"$tenet" model --model "$model" --phase prefill --prompt 512 --quant "$schemes"
echo
echo "== $tenet generate --model $model --quant q4f16_1 --prompt 512 --tokens 128 --batch 4"
"$tenet" generate --model "$model" --quant q4f16_1 --prompt 512 --tokens 128 --batch 4
echo
echo "== python3 -m tenet report --model $model --phase decode --context 2048 --quant $schemes"
PYTHONPATH="$build/python" /usr/bin/python3 -m tenet report --model "$model" --phase decode \
  --context 2048 --quant "$schemes" --out "$build/report.html"
echo "Open $build/report.html in any browser."
echo
tpu_schemes=q0bf16,q4bf16_1,smoothquant_w8a8,awq_w4a16_g128
echo "== $tenet model --model $model --arch tpu-v6e --phase decode --context 2048 --quant $tpu_schemes"
"$tenet" model --model "$model" --arch tpu-v6e --phase decode --context 2048 --quant "$tpu_schemes"
echo
echo "== $tenet model --model $model --arch tpu-v6e --phase prefill --prompt 512 --quant $tpu_schemes"
"$tenet" model --model "$model" --arch tpu-v6e --phase prefill --prompt 512 --quant "$tpu_schemes"
echo
echo "== $tenet generate --model $model --arch tpu-v6e --quant q4bf16_1 --prompt 512 --tokens 128 --batch 4"
"$tenet" generate --model "$model" --arch tpu-v6e --quant q4bf16_1 --prompt 512 --tokens 128 \
  --batch 4
echo
echo "More: $tenet model --help, $tenet analyze --help, $tenet compare --help; docs/cli.md."
