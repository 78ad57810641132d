#!/usr/bin/env python3
"""Checks the latency rule's cap (docs/hardware.md#the-latency-rule) on the bundled models.

usage: scripts/check_latency_cap.py TENET ARCHS PROMPTS [QUANT]
  e.g. scripts/check_latency_cap.py build/tenet scalable-32x32,tpu-v1 512,2048

For every model of workloads/models, accelerator of ARCHS, dataflow os and ws and prompt of
PROMPTS, runs `tenet model --phase prefill` with `--tiling-objective latency` (the default) and
with `dram_bytes` (the least traffic), and compares each row's per-call figures: a row whose
default moves more than 1.5x the least-traffic row's DRAM bytes while that one is at most 2 %
slower is printed as VIOLATION. Runs the CLI refuses (a prompt beyond the model's context, fp16
on an int8-only accelerator without QUANT) are printed as skip. Prints the count of rows checked
and of violations; exits 1 when there is a violation. A row that is a sequence of matmuls (an
MLP whose weights do not stay on chip, eval/ffn_sequence.hpp) sums per-matmul choices: the rule
holds for each matmul, not necessarily for the sum.
"""
import glob
import json
import os
import subprocess
import sys


def per_call_rows(tenet, model, arch, dataflow, prompt, objective, quant):
    args = [tenet, 'model', '--model', model, '--phase', 'prefill', '--prompt', str(prompt),
            '--arch', arch, '--dataflow', dataflow, '--tiling-objective', objective,
            '--format', 'json']
    if quant:
        args += ['--quant', quant]
    run = subprocess.run(args, capture_output=True, text=True)
    if run.returncode != 0:
        return None
    return {row['name']: row['per_call'] for row in json.loads(run.stdout)['layers']}


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    tenet, archs, prompts = sys.argv[1], sys.argv[2].split(','), sys.argv[3].split(',')
    quant = sys.argv[4] if len(sys.argv) == 5 else None
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
    checked = violations = 0
    for model in sorted(glob.glob(os.path.join(root, 'workloads', 'models', '*.json'))):
        name = os.path.basename(model)
        for arch in archs:
            for dataflow in ('os', 'ws'):
                for prompt in prompts:
                    latency = per_call_rows(tenet, model, arch, dataflow, prompt, 'latency', quant)
                    least = per_call_rows(tenet, model, arch, dataflow, prompt, 'dram_bytes', quant)
                    if latency is None or least is None:
                        print('skip', name, arch, dataflow, prompt)
                        continue
                    for row, x in latency.items():
                        y = least.get(row)
                        if not y:
                            continue
                        checked += 1
                        if 2 * x['dram_bytes'] > 3 * y['dram_bytes'] and \
                                100 * y['cycles'] <= 102 * x['cycles']:
                            violations += 1
                            print('VIOLATION', name, arch, dataflow, prompt, row,
                                  x['cycles'], x['dram_bytes'], y['cycles'], y['dram_bytes'])
        print(name, 'rows', checked, 'violations', violations, flush=True)
    print('checked', checked, 'violations', violations)
    sys.exit(1 if violations else 0)


if __name__ == '__main__':
    main()
