"""docs/ lists exactly the fields the reports emit (issue 10 item 6): every key of the JSON of
analyze (TENET timing, systolic, quantized), compare, model, log, tir, sweep rows and bound is
documented with backticks in its document, and every key the output tables of docs/output.md
document is emitted by some report."""
import re

import pytest

from conftest import cli_json, src

MODEL = src("workloads", "models", "gpt2-medium.json")


def doc(name):
    with open(src("docs", name), encoding="utf-8") as f:
        return f.read()


def backticked(text):
    """Every `name` and every dotted part of `a.b.c` / `a` {`b`, `c`} mentioned in the text."""
    names = set()
    text = re.sub(r"```.*?```", "", text, flags=re.S)  # code blocks would shift the pairs
    for token in re.findall(r"`([^`]+)`", text):
        for part in re.split(r"[\s,{}\[\]()/=:|<>*+\"']+", token):
            part = part.strip(".")
            if part:
                names.add(part)
                names.update(p for p in part.split(".") if p)
    return names


def keys(value, depth=4):
    """The keys of a JSON value down to `depth` levels; the entries of `tensors` (keyed by
    tensor name) and of lists count as one level below their parent."""
    out = set()
    if isinstance(value, dict) and depth > 0:
        for k, v in value.items():
            out.add(k)
            if k == "tensors" and isinstance(v, dict):
                for entry in v.values():
                    out |= keys(entry, depth - 1)
            else:
                out |= keys(v, depth - 1)
    elif isinstance(value, list):
        for item in value:
            out |= keys(item, depth)
    return out


def analyze_reports():
    return [
        cli_json("analyze", "--gemm", "37,200,300", "--array", "8x8", "--dataflow", "os"),
        cli_json("analyze", "--gemm", "37,200,300", "--arch", "scalable-32x32"),
        cli_json("analyze", "--gemm", "37,200,300", "--arch", "scalable-32x32", "--quant",
                 "q4f16_1"),
        cli_json("analyze", "--gemm", "37,200,300", "--array", "8x8", "--quant", "q4f16_1"),
        # fp16 on tpu-v1's int16 MACs: precision_fallback {requested, used}
        cli_json("analyze", "--gemm", "37,200,300", "--arch", "tpu-v1", "--quant", "q4f16_1"),
    ]


def test_analyze_keys_are_documented():
    documented = backticked(doc("output.md"))
    emitted = set()
    for report in analyze_reports():
        emitted |= keys(report)
    missing = sorted(k for k in emitted if k not in documented)
    assert missing == []


def test_documented_analyze_keys_are_emitted():
    text = doc("output.md")
    section = text[text.index("## JSON (`--format json`)"):text.index("## `tenet bound`")]
    # First column of each table row: `key`, `a.b`, `a` {`b`, `c`}, `x`, `.y` ...
    documented = set()
    for row in re.findall(r"^\| (`[^|]*) \|", section, re.M):
        for token in re.findall(r"`([^`]+)`", row):
            documented.update(p for p in re.split(r"[.\s]+", token) if p and p.isidentifier())
    emitted = set()
    for report in analyze_reports():
        emitted |= keys(report)
    emitted |= keys(cli_json("analyze", "--gemm", "8,8,8", "--arch", "scalable-32x32",
                             "--tile", "auto", "--tiling-objective", "energy"))
    never = sorted(k for k in documented if k not in emitted)
    assert never == []


@pytest.mark.parametrize("name,args,document", [
    ("compare", ["compare", "--gemm", "1,256,256", "--quant", "q0f16,q4f16_1"], "quantization.md"),
    ("model", ["model", "--model", MODEL, "--phase", "decode", "--context", "64"], "llm.md"),
    ("log", ["log", "--input", src("workloads", "logs", "gpt2-medium-q4f16_1.jsonl")], "logs.md"),
    ("bound", ["bound", "--gemm", "64,64,64", "--buffers", "64KiB,1MiB"], "output.md"),
])
def test_command_keys_are_documented(name, args, document):
    documented = backticked(doc(document)) | backticked(doc("output.md")) | \
        backticked(doc("llm.md"))
    emitted = keys(cli_json(*args))
    missing = sorted(k for k in emitted if k not in documented)
    assert missing == [], name


def test_sweep_columns_are_documented(tmp_path):
    import subprocess
    from conftest import CLI
    out = tmp_path / "rows.csv"
    subprocess.run([CLI, "sweep", "--spec", src("workloads", "sweeps", "example.json"), "--out",
                    str(out), "--progress", "none", "--limit", "3"], check=True)
    header = out.read_text().splitlines()[0].split(",")
    documented = backticked(doc("sweep.md"))
    assert sorted(c for c in header if c not in documented) == []
