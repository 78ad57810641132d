#!/usr/bin/env bash
# Makes the sample images of docs/python.md and docs/report.md (docs/images/*.png) from the bundled
# inputs with the Python package: bash scripts/docs-images.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-${TENET_BUILD_DIR:-build}}
cmake --build "$build" --target _tenet >/dev/null
PYTHONPATH="$build/python" MPLBACKEND=Agg /usr/bin/python3 - <<'PY'
import tenet
import tenet.plot as tp

model = "workloads/models/llama-2-7b.json"
schemes = ["q0f16", "q4f16_1", "smoothquant_w8a8"]
prefill = tenet.model(model, phase="prefill", prompt=512, quant=schemes)
tp.layers_by_scheme(prefill, "cycles").savefig("docs/images/layers_by_scheme.png", dpi=90)
tp.roofline(prefill, "scalable-32x32").savefig("docs/images/roofline.png", dpi=90)
curve = tenet.ski_slope((512, 11008, 4096), quant="q4f16_1", points=12)
tp.ski_slope(curve).savefig("docs/images/ski_slope.png", dpi=90)
found = tenet.search((512, 4096, 4096), arch="scalable-32x32", quant="q4f16_1")
tp.pareto(found).savefig("docs/images/pareto.png", dpi=90)
sweep = tenet.sweep("workloads/sweeps/example.json", threads=2)
tp.sweep_heatmap(sweep, "dataflow", "quant", "energy_pj").savefig("docs/images/sweep_heatmap.png",
                                                                   dpi=90)
print("docs/images: layers_by_scheme, roofline, ski_slope, pareto, sweep_heatmap")
PY
# A screenshot of the HTML report, taken by headless Chromium.
PYTHONPATH="$build/python" /usr/bin/python3 -m tenet report --model workloads/models/llama-2-7b.json \
  --phase prefill --prompt 512 --quant q0f16,q4f16_1,smoothquant_w8a8 --out "$build/report.html"
chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars --window-size=1200,1500 \
  --screenshot="$PWD/docs/images/report.png" "file://$(realpath "$build/report.html")" 2>/dev/null
echo "docs/images/report.png"
