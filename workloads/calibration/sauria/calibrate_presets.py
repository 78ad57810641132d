#!/usr/bin/env python3
"""Calibrate the four SAURIA presets (configs/arch/sauria-*.json) on calibration.csv.

Each configuration is fitted with `tenet calibrate` on its own rows. What the configurations
share is fitted where it is measured and then held: they have the same DMA engine, dataflow
controller and clocks, and the three stock versions the same DRAM model (README.md). The DRAM
latency is the datasheet's (100 system cycles = 50 core cycles). The ideal-memory version
measures the DMA path's own rate into int8 8x16's SRAMs (no DRAM throttle) and, with its
fragmented row, a command's programming time beside its transfer (command_cycles +
command_setup_cycles); the stock int8 8x16 version measures the per-command cost that is not
hidden under the DRAM latency (command_cycles, its fragmented row) and the DRAM throttle's idle
gap. The two are fitted alternately. FP16 8x16 and int8 32x32, which have no command-heavy row,
hold the command costs and the throttle, and fit the DMA path's rate into their own SRAMs (other
word widths) with their core constants. The psum-preload drain P1 is
measured by the accumulate row (int8 8x16) only: the other versions take P0 plus the same extra
per PSM shift (the PSM shifts X column vectors per context, so the extra scales with X).

Only the fitted constants are written back into the preset files; everything else in them is
kept as it is. Prints every configuration's residuals (the files as written).

usage: calibrate_presets.py [--tenet PATH] [--dry-run]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
CSV = os.path.join(HERE, "calibration.csv")

U = "/microarchitecture"
CORE = [U + "/accumulators/drain_cycles", U + "/tile/fill_drain_cycles", U + "/tile/min_cycles",
        U + "/tile/overhead_cycles", U + "/run_overhead_cycles",
        U + "/feeder/unaligned_stall_cycles"]
COMMAND = U + "/dma/command_cycles"  # measured on the stock DRAM (int8 8x16)
SETUP = U + "/dma/command_setup_cycles"  # measured on the ideal memory
RATE = "/dram/bandwidth_bytes_per_cycle"  # the DMA path's rate, measured on the ideal memory
GAP = U + "/dma/throttle_gap_cycles"  # the stock DRAM's throttle, measured on int8 8x16
RELOAD = U + "/accumulators/drain_cycles_reload"
SHARED = [COMMAND, SETUP, GAP]  # held on the configurations without a command-heavy row

CONFIGS = {  # config: (preset, bits a/b/c)
    "int8_8x16": ("sauria-int8-8x16", (8, 8, 32)),
    "int8_8x16_idealmem": ("sauria-int8-8x16-idealmem", (8, 8, 32)),
    "fp16_8x16": ("sauria-fp16-8x16", (16, 16, 16)),
    "int8_32x32": ("sauria-int8-32x32", (8, 8, 32)),
}


def get(j, pointer, default=None):
    for key in pointer.strip("/").split("/"):
        if key not in j:
            return default
        j = j[key]
    return j


def put(j, pointer, value):
    keys = pointer.strip("/").split("/")
    for key in keys[:-1]:
        j = j[key]
    j[keys[-1]] = value


def calibrate(tenet, config, arch_path, free, tmp):
    preset, bits = CONFIGS[config]
    out = os.path.join(tmp, preset + ".fitted.json")
    args = [tenet, "calibrate", "--measurements", CSV, "--config", config, "--arch", arch_path,
            "--output", out, "--format", "json", "--bits-a", str(bits[0]), "--bits-b",
            str(bits[1]), "--bits-c", str(bits[2])]
    for f in free:
        args += ["--free", f]
    if not free:
        args.append("--predict-only")
    run = subprocess.run(args, capture_output=True, text=True, cwd=ROOT)
    if run.returncode != 0:
        sys.exit(" ".join(args) + " failed:\n" + run.stderr)
    return json.loads(run.stdout)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--tenet", default=os.path.join(ROOT, "build", "tenet"))
    p.add_argument("--dry-run", action="store_true", help="print, do not write the presets")
    a = p.parse_args()
    tmp = tempfile.mkdtemp(prefix="tenet_sauria_")
    files = {c: os.path.join(ROOT, "configs", "arch", CONFIGS[c][0] + ".json") for c in CONFIGS}
    presets = {}
    for c, path in files.items():
        with open(path) as f:
            presets[c] = json.load(f)
    work = {c: os.path.join(tmp, CONFIGS[c][0] + ".json") for c in CONFIGS}

    def write_work(c):
        with open(work[c], "w") as f:
            json.dump(presets[c], f, indent=2)

    def adopt(c, fitted, pointers):
        for ptr in pointers:
            put(presets[c], ptr, get(fitted["arch"], ptr))

    results = {}
    # 1. the stock int8 8x16 and the ideal-memory version, alternately
    ideal, stock = "int8_8x16_idealmem", "int8_8x16"
    for _ in range(3):
        write_work(ideal)
        results[ideal] = calibrate(a.tenet, ideal, work[ideal], CORE + [SETUP, RATE], tmp)
        adopt(ideal, results[ideal], CORE + [SETUP, RATE])
        for ptr in (SETUP, RATE):
            put(presets[stock], ptr, get(presets[ideal], ptr))
        write_work(stock)
        results[stock] = calibrate(a.tenet, stock, work[stock], CORE + [RELOAD, COMMAND, GAP], tmp)
        adopt(stock, results[stock], CORE + [RELOAD, COMMAND, GAP])
        put(presets[ideal], COMMAND, get(presets[stock], COMMAND))
    # the psum-preload extra per PSM shift (per array column), measured on int8 8x16
    base = presets[stock]
    per_column = (get(base, RELOAD) - get(base, CORE[0])) / base["pe_array"]["cols"]

    def set_reload(c):
        cols = presets[c]["pe_array"]["cols"]
        put(presets[c], RELOAD, get(presets[c], CORE[0]) + round(per_column * cols))

    set_reload("int8_8x16_idealmem")
    # 2. FP16 8x16 and int8 32x32: the stock DMA and DRAM held, the core's constants fitted
    for c in ("fp16_8x16", "int8_32x32"):
        for ptr in SHARED:
            put(presets[c], ptr, get(base, ptr))
        for _ in range(2):  # P1 follows P0
            set_reload(c)
            write_work(c)
            results[c] = calibrate(a.tenet, c, work[c], CORE + [RATE], tmp)
            adopt(c, results[c], CORE + [RATE])
        set_reload(c)
    # the residuals of the files as written
    for c in CONFIGS:
        write_work(c)
        r = calibrate(a.tenet, c, work[c], [], tmp)
        n = len(r["rows"])
        print(f"{c}: {round(r['within_5_percent'] * n)}/{n} within 5 %, "
              f"{round(r['within_10_percent'] * n)}/{n} within 10 %")
        for row in r["rows"]:
            print(f"  {row['name']:28s} {row['measured_cycles']:9d} {row['predicted_cycles']:9d} "
                  f"{100 * row['error']:+7.2f}%")
        fitted = {ptr: get(presets[c], ptr) for ptr in CORE + [RELOAD, RATE] + SHARED
                  if get(presets[c], ptr) is not None}
        print("  " + json.dumps(fitted))
        if not a.dry_run:
            with open(files[c], "w") as f:
                f.write(json.dumps(presets[c], indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
