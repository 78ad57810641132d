"""Evaluation releases the GIL: threads evaluating at once give the serial results."""
from concurrent.futures import ThreadPoolExecutor

import tenet

CASES = [((m, 512 + 7 * m, 300 + m), q) for m in (1, 3, 17, 64) for q in ("q0f16", "q4f16_1")]


def one(case):
    gemm, quant = case
    return tenet.evaluate(gemm, arch="scalable-32x32", quant=quant)


def test_threads_match_serial():
    serial = [one(c) for c in CASES]
    with ThreadPoolExecutor(4) as pool:
        parallel = list(pool.map(one, CASES * 3))
    assert parallel == serial * 3


def test_sweep_progress_callback():
    seen = []
    result = tenet.sweep("workloads/sweeps/example.json", threads=2,
                         progress=lambda done, total, elapsed: seen.append((done, total)))
    assert seen and seen[-1][0] == seen[-1][1] == len(result)
    assert all(a[0] <= b[0] for a, b in zip(seen, seen[1:]))
