#!/usr/bin/env python3
"""How close the least-traffic mapping gets to the data-movement lower bound (issue 13): every
distinct GEMM of Llama-2-7B, Llama-3-8B and GPT-2 medium (prefill 512 / 2048, decode 1024) under
q0f16, q4f16_1 and smoothquant_w8a8 with global buffers of 256 KiB, 1, 4 and 16 MiB on
scalable-32x32; ratio = tenet's least DRAM traffic (best dataflow) / the bound. Run:

    PYTHONPATH=build/python /usr/bin/python3 bench/bound_ratio.py [--cases]

--cases also prints every case (quant, model, phase, M x N x K, buffer, ratio, tiling).
"""
import collections
import statistics
import sys

import tenet
cases = []
for model in ["llama-2-7b", "llama-3-8b", "gpt2-medium"]:
    path = f"workloads/models/{model}.json"
    for phase, size in [("prefill", {"prompt": 512}), ("prefill", {"prompt": 2048}), ("decode", {"context": 1024})]:
        for mm in tenet.model_matmuls(path, phase=phase, **size) if not (model=="gpt2-medium" and size.get("prompt")==2048) else []:
            cases.append((model, phase, (mm["m"], mm["n"], mm["k"]), mm["name"]))
seen = set(); uniq = []
for c in cases:
    if c[2] not in seen: seen.add(c[2]); uniq.append(c)
ratios = []
for quant in ["q0f16", "q4f16_1", "smoothquant_w8a8"]:
    for model, phase, g, name in uniq:
        curve = tenet.ski_slope(g, buffers=[256 << 10, 1 << 20, 4 << 20, 16 << 20], quant=quant)
        for p in curve["points"]:
            ratios.append((p["ratio"], quant, model, phase, g, p["buffer_bytes"], p["dataflow"], p["tiling"]))
rs = sorted(r[0] for r in ratios)
print("cases", len(rs), "median %.3f" % statistics.median(rs), "p90 %.3f" % rs[int(.9*len(rs))],
      "worst %.3f" % rs[-1], ">1.10:", sum(r > 1.10 for r in rs))
groups = collections.defaultdict(list)
for r in ratios:
    groups[(r[1], r[5])].append(r[0])
print("%-18s %9s %6s %7s %7s %6s" % ("scheme", "buffer", "cases", "median", "worst", ">1.10"))
for (quant, buffer), v in sorted(groups.items()):
    print("%-18s %6d KiB %6d %7.3f %7.3f %6d" % (quant, buffer >> 10, len(v), statistics.median(v), max(v),
                                              sum(x > 1.10 for x in v)))
shown = ratios if "--cases" in sys.argv else sorted(ratios)[-5:]
for r in shown:
    ratio, quant, model, phase, (m, n, k), buffer, dataflow, tiling = r
    print("%-18s %-12s %-8s %5dx%5dx%5d %6d KiB %.3f %s %s" % (quant, model, phase, m, n, k, buffer >> 10,
                                                             ratio, dataflow, tiling))
