#!/usr/bin/env python3
"""From a sweep to a DataFrame to a plot (docs/python.md).

    PYTHONPATH=build/python /usr/bin/python3 examples/sweep_to_plot.py [SPEC] [OUT.png]

Runs the sweep (two threads, a progress bar), keeps the rows as a pandas DataFrame, prints the
fastest configuration per workload, and plots total cycles against the PE-array rows per
dataflow, plus a heatmap of energy over scheme x dataflow.
"""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import tenet  # noqa: E402
import tenet.plot as tp  # noqa: E402

spec = sys.argv[1] if len(sys.argv) > 1 else "workloads/sweeps/example.json"
out = sys.argv[2] if len(sys.argv) > 2 else "sweep.png"

result = tenet.sweep(spec, threads=2, progress=True)
frame = result.to_frame()
ok = frame[frame["status"] == "ok"].copy()
ok["cycles"] = ok["cycles"].astype(float)
best = ok.loc[ok.groupby("workload")["cycles"].idxmin(),
              ["workload", "phase", "rows", "cols", "dataflow", "quant", "cycles"]]
print(best.to_string(index=False))

fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5), layout="constrained")
tp.sweep_line(result, "rows", "cycles", hue="dataflow", ax=left)
tp.sweep_heatmap(result, "dataflow", "quant", "energy_pj", ax=right)
fig.savefig(out, dpi=110)
print(f"wrote {out}")
