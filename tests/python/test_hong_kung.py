"""Issue 21 (done when, bullet 5): tenet's least-traffic mapping against the schedule-independent
traffic at fp16. For every distinct GEMM of Llama-2-7B, Llama-3-8B and GPT-2 medium (prefill 512
and 2048 tokens — GPT-2 medium has 1024 positions, so 512 only —, decode with context 1024), q0f16
on scalable-32x32 with global buffers of 256 KiB, 1, 4 and 16 MiB: the least DRAM traffic over
the three dataflows (`tenet bound`, the dram_bytes tiling search), in elements, over
max(MK + KN + MN, 2MNK/sqrt(S) + MN), S = half the buffer in elements, must be <= 1.10.

That grid takes about two seconds, so CI runs all of it (bench/hong_kung_ratio.py prints the
same ratios). TENET_HONG_KUNG_FULL=1 widens it to every bundled model and buffers of 64 KiB to
64 MiB, reporting the median and worst ratio (and asserting the same rule).

KNOWN_GAPS are the cases above 1.10 that no tiling of one level can close (the search tries
single-buffered tiles, src/hw/search/search_detail.hpp: kSingleBufferingCandidates): M = 512 at 4 MiB,
where C does not fit the buffer. For each the test checks that the given explicit single-buffered
tiling reaches the least that one level of rectangular tiles can move, and that the search still
sits above 1.10: once it does better, the test fails and the entry must go.
"""
import json
import math
import os
import statistics

import tenet

from conftest import src

FULL = os.environ.get("TENET_HONG_KUNG_FULL") == "1"
LIMIT = 1.10
ARCH = "scalable-32x32"
BUFFERS = ([64 << 10, 256 << 10, 1 << 20, 4 << 20, 16 << 20, 64 << 20] if FULL else
           [256 << 10, 1 << 20, 4 << 20, 16 << 20])
MODELS = (sorted(f[:-5] for f in os.listdir(src("workloads", "models")) if f.endswith(".json"))
          if FULL else ["llama-2-7b", "llama-3-8b", "gpt2-medium"])

# (M, N, K, buffer KiB) -> (explicit tiling, inherent): the search's least traffic is above 1.10;
# `inherent`: M = 512 at 4 MiB, where no tile of C holds a whole row block of N (C is M x N >= 2M
# elements = the whole buffer), so A crosses the link ceil(N / largest Tn) times; the floor's
# MK + KN + MN is out of reach of one level of tiles, and the tiling reaches the least such
# traffic, (p MK + KN + MN) / (MK + KN + MN) with p = ceil(N / floor(buffer elements / M - 1)).
KNOWN_GAPS = {
    (512, 4096, 11008, 4096): ("512x2048x204:mnk:single=c", True),
    (512, 4096, 14336, 4096): ("512x2048x202:mnk:single=c", True),
    (512, 12288, 4096, 4096): ("512x3072x72:mnk:single=c", True),
    (512, 22016, 4096, 4096): ("512x3670x26:mnk:single=c", True),
    (512, 28672, 4096, 4096): ("512x3584x32:mnk:single=c", True),
}


def floor_elements(m, n, k, buffer_bytes):
    s = buffer_bytes / 4  # half the buffer, in 2-byte elements
    return max(m * k + k * n + m * n, 2 * m * n * k / math.sqrt(s) + m * n)


def one_level_floor(m, n, k, buffer_bytes):
    """The least elements one level of tiles moves when A is read once per column block of C and
    C's row block (M x Tn, single-buffered) must leave room for a chunk of A: Tn < elements / M."""
    passes = math.ceil(n / (buffer_bytes // 2 // m - 1))
    return passes * m * k + k * n + m * n


def gemms():
    seen, out = set(), []
    for model in MODELS:
        path = src("workloads", "models", model + ".json")
        for phase, size in [("prefill", {"prompt": 512}), ("prefill", {"prompt": 2048}),
                            ("decode", {"context": 1024})]:
            try:
                matmuls = tenet.model_matmuls(path, phase=phase, **size)
            except tenet.InputError:  # a model with fewer positions than the prompt
                continue
            for mm in matmuls:
                shape = (mm["m"], mm["n"], mm["k"])
                if shape not in seen:
                    seen.add(shape)
                    out.append((model, phase, shape))
    return out


def arch_with_buffer(buffer_bytes):
    with open(src("configs", "arch", ARCH + ".json"), encoding="utf-8") as f:
        acc = json.load(f)
    acc["global_buffer"]["bytes"] = buffer_bytes
    return acc


def test_least_traffic_within_1_10_of_the_hong_kung_floor():
    ratios, over, closed = [], [], []
    for model, phase, (m, n, k) in gemms():
        curve = tenet.ski_slope((m, n, k), buffers=BUFFERS, arch=ARCH, quant="q0f16")
        assert [p["buffer_bytes"] for p in curve["points"]] == BUFFERS
        for p in curve["points"]:
            floor = floor_elements(m, n, k, p["buffer_bytes"])
            ratio = p["dram_bytes"] / 2 / floor
            ratios.append(ratio)
            case = (m, n, k, p["buffer_bytes"] >> 10)
            label = f"{model} {phase} {m}x{n}x{k} {p['buffer_bytes'] >> 10} KiB"
            # Never below the compulsory traffic (every element crosses the link once).
            assert p["dram_bytes"] / 2 >= m * k + k * n + m * n, label
            if ratio <= LIMIT:
                if case in KNOWN_GAPS:
                    closed.append(f"{label}: the search now reaches {ratio:.3f}")
                continue
            if case not in KNOWN_GAPS:
                over.append(f"{label}: {ratio:.3f} ({p['dataflow']} {p['tiling']})")
                continue
            tiling, inherent = KNOWN_GAPS[case]
            reachable = one_level_floor(m, n, k, p["buffer_bytes"]) if inherent else LIMIT * floor
            assert reachable / floor > LIMIT or not inherent, label
            if p["dram_bytes"] / 2 <= reachable:
                continue  # an inherent case the search already takes to its least traffic
            # A known gap: the model does better with an explicit single-buffered tiling.
            explicit = tenet.evaluate((m, n, k), arch=arch_with_buffer(p["buffer_bytes"]),
                                      dataflow="os", quant="q0f16", tile=tiling)
            assert explicit["dram_bytes"] < p["dram_bytes"], label
            assert explicit["dram_bytes"] / 2 <= reachable, (
                f"{label}: {tiling} {explicit['dram_bytes'] / 2 / floor:.3f}")
    assert not over, "\n".join(over)
    assert not closed, "gaps closed: remove them from KNOWN_GAPS\n" + "\n".join(closed)
    assert len(ratios) >= (1000 if FULL else 160)
    print(f"cases {len(ratios)} median {statistics.median(ratios):.3f} "
          f"worst {max(ratios):.3f}")
