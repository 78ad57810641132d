#!/usr/bin/env python3
"""Issue 21: the least-traffic mapping against the schedule-independent (Hong-Kung form) traffic
at fp16. Every distinct GEMM of Llama-2-7B, Llama-3-8B and GPT-2 medium (prefill 512 / 2048,
decode with context 1024), q0f16 on scalable-32x32 with global buffers of 256 KiB, 1, 4 and
16 MiB; tenet's least DRAM traffic over the three dataflows (`tenet bound`: the dram_bytes tiling
search), in elements, over max(MK + KN + MN, 2MNK/sqrt(S) + MN) with S = half the buffer in
elements (2-byte elements: S = buffer bytes / 4). Target: <= 1.10. Run:

    PYTHONPATH=build/python /usr/bin/python3 bench/hong_kung_ratio.py [--cases]

--cases prints every case (model, phase, M x N x K, buffer, ratio, dataflow, tiling).
"""
import math
import statistics
import sys

import tenet

BUFFERS = [256 << 10, 1 << 20, 4 << 20, 16 << 20]
cases = []
for model in ["llama-2-7b", "llama-3-8b", "gpt2-medium"]:
    path = f"workloads/models/{model}.json"
    for phase, size in [("prefill", {"prompt": 512}), ("prefill", {"prompt": 2048}),
                        ("decode", {"context": 1024})]:
        try:
            matmuls = tenet.model_matmuls(path, phase=phase, **size)
        except tenet.InputError:  # GPT-2 medium has 1024 positions: no 2048-token prefill
            continue
        for mm in matmuls:
            cases.append((model, phase, (mm["m"], mm["n"], mm["k"])))
seen = set()
uniq = []
for c in cases:
    if c[2] not in seen:
        seen.add(c[2])
        uniq.append(c)
rows = []
for model, phase, (m, n, k) in uniq:
    curve = tenet.ski_slope((m, n, k), buffers=BUFFERS, quant="q0f16")
    for p in curve["points"]:
        s = p["buffer_bytes"] / 4  # half the buffer, in 2-byte elements
        floor = max(m * k + k * n + m * n, 2 * m * n * k / math.sqrt(s) + m * n)
        elements = p["dram_bytes"] / 2
        rows.append((elements / floor, model, phase, (m, n, k), p["buffer_bytes"], p["dataflow"],
                     p["tiling"]))
rs = sorted(r[0] for r in rows)
print("cases", len(rs), "median %.3f" % statistics.median(rs), "worst %.3f" % rs[-1],
      ">1.10:", sum(r > 1.10 for r in rs))
for buffer in BUFFERS:
    v = [r[0] for r in rows if r[4] == buffer]
    print("%6d KiB %4d cases median %.3f worst %.3f >1.10: %d" %
          (buffer >> 10, len(v), statistics.median(v), max(v), sum(x > 1.10 for x in v)))
shown = rows if "--cases" in sys.argv else sorted(rows)[-5:]
for ratio, model, phase, (m, n, k), buffer, dataflow, tiling in shown:
    print("%-12s %-8s %5dx%5dx%5d %6d KiB %.3f %s %s" % (model, phase, m, n, k, buffer >> 10, ratio,
                                                       dataflow, tiling))
