#!/usr/bin/env python3
"""The cost of a Python call over the C++ evaluation of one matmul (issue 14: at most 10 %).

For each case, the C++ time is eval::evaluate on the same request in a C++ loop
(tenet._tenet.Evaluator.time: no Python in the loop); the Python time is tenet.evaluate(...) in a
Python loop (argument conversion, the settings cache, the GIL release, the result dict). Medians
over several rounds. Run:

    PYTHONPATH=build/python /usr/bin/python3 bench/python_overhead.py [--rounds 7] [--calls 200]
"""
import argparse
import statistics
import time

import tenet
from tenet import _tenet

CASES = [
    ("decode 1x4096x4096 q4f16_1 os", (1, 4096, 4096), {"quant": "q4f16_1", "dataflow": "os"}),
    ("prefill 512x11008x4096 q0f16 ws", (512, 11008, 4096), {"quant": "q0f16", "dataflow": "ws"}),
    ("odd 37x1000x777 w8a8 is", (37, 1000, 777), {"quant": "smoothquant_w8a8", "dataflow": "is"}),
]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--arch", default="scalable-32x32")
    args = parser.parse_args()
    print(f"{'case':36} {'C++ us/call':>12} {'Python us/call':>15} {'overhead':>9}")
    worst = 0.0
    for name, gemm, settings in CASES:
        settings = dict(settings, arch=args.arch)
        evaluator = _tenet.Evaluator(settings)
        tenet.evaluate(gemm, **settings)  # warm the caches of both paths
        cpp, py = [], []
        for _ in range(args.rounds):
            cpp.append(evaluator.time(*gemm, args.calls))
            start = time.perf_counter()
            for _ in range(args.calls):
                tenet.evaluate(gemm, **settings)
            py.append((time.perf_counter() - start) / args.calls)
        c, p = statistics.median(cpp), statistics.median(py)
        overhead = p / c - 1
        worst = max(worst, overhead)
        print(f"{name:36} {c * 1e6:12.1f} {p * 1e6:15.1f} {overhead * 100:8.1f}%")
    print(f"worst overhead: {worst * 100:.1f}% (target <= 10%)")


if __name__ == "__main__":
    main()
