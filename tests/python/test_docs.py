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
    ("kernel", ["kernel", "--attention", "8,2,100,300,64", "--causal"],
     "output.md"),
    ("kernel", ["kernel", "--ffn", "64,256,512", "--activation", "gelu", "--bias", "--quant",
                "q4f16_1"], "output.md"),
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


# ---- numeric claims of the docs (issue 34 item 6): each figure is recomputed from the CLI ----

def _section_table(document, marker):
    """The rows (lists of cells) of the markdown table after `<!-- docs-test: MARKER -->`."""
    text = doc(document)
    start = text.index(f"<!-- docs-test: {marker} -->")
    rows = []
    for line in text[start:].splitlines()[1:]:
        if not line.startswith("|"):
            if rows:
                break
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if set(cells[0]) <= set("-") or cells[0] == "preset":
            continue
        rows.append(cells)
    return rows


def _seconds(*args):
    return cli_json(*args)["totals"]["seconds"]


WS_ROWS = _section_table("cli.md", "ws-vs-os prefill")
FUSED_ROWS = [r for r in _section_table("model.md", "fused attention") if r[0] != "kernel"]


def _number(cell):
    return float(cell.replace(",", "")) if cell else None


def test_fused_attention_figures():
    """docs/model.md §8: the fused attention kernel's DRAM bytes, seconds and blocking, the
    compulsory bytes and the unfused pair's bytes of `tenet model`."""
    rows = {r[0]: r for r in FUSED_ROWS}
    assert len(rows) == 5
    for kernel, doc_bytes, doc_seconds, doc_blocking in FUSED_ROWS:
        if not kernel.startswith("`--attention"):
            continue
        args = kernel.split("`")[1].split()
        j = cli_json("kernel", *args)
        assert j["dram_bytes"] == _number(doc_bytes), kernel
        assert j["seconds"] == pytest.approx(_number(doc_seconds), rel=0.01), kernel
        blocking = j["blocking"]
        assert doc_blocking == f"{blocking['query_block']} × {blocking['kv_block']}", kernel
    prefill = ["kernel", "--attention", "32,8,4096,4096,128", "--causal"]
    on_chip = cli_json(*prefill)
    dram = cli_json(*prefill, "--scores", "dram")
    assert dram["dram_bytes"] == _number(rows["the same, `--scores dram`"][1])
    assert dram["seconds"] == pytest.approx(_number(rows["the same, `--scores dram`"][2]),
                                            rel=0.01)
    once = rows["Q, K, V and O once (`compulsory_dram_bytes`)"][1]
    assert on_chip["compulsory_dram_bytes"] == _number(once)
    model = cli_json("model", "--model", "llama-3-8b", "--phase", "prefill", "--prompt", "4096",
                     "--arch", "scalable-32x32", "--attention-kernel", "unfused")
    unfused = sum(r["dram_bytes"] for r in model["layers"]
                  if r["name"] in ("self_attn.qk", "self_attn.pv")) / 32
    assert unfused == _number(rows["unfused Q·Kᵀ + P·V (`tenet model`, per layer)"][1])


def test_ws_vs_os_table_lists_the_presets():
    assert [r[0] for r in WS_ROWS] == ["scalable-32x32", "systolic-8x8", "systolic-16x16",
                                       "systolic-32x32", "systolic-128x128", "eyeriss", "gemmini",
                                       "tpu-v1"]


@pytest.mark.parametrize("row", WS_ROWS, ids=[r[0] for r in WS_ROWS])
def test_ws_vs_os_in_prefill(row):
    """docs/cli.md: ws is slower than os in prefill on every preset but tpu-v1 (Llama-2-7B,
    prompt 2048): the seconds to 1 % and the difference to 1 point."""
    preset, os_doc, ws_doc, claim = row
    quant = "smoothquant_w8a8" if preset == "gemmini" else "q0f16"
    args = ["model", "--model", "llama-2-7b", "--phase", "prefill", "--prompt", "2048",
            "--arch", preset, "--quant", quant]
    os_s = _seconds(*args, "--dataflow", "os")
    ws_s = _seconds(*args, "--dataflow", "ws")
    assert os_s == pytest.approx(float(os_doc), rel=0.01)
    assert ws_s == pytest.approx(float(ws_doc), rel=0.01)
    percent, word = re.fullmatch(r"([\d.]+) % (slower|faster)", claim).groups()
    measured = (ws_s / os_s - 1) * 100
    assert (measured > 0) == (word == "slower"), preset
    assert abs(abs(measured) - float(percent)) <= 1.0, (preset, measured)
    assert (word == "faster") == (preset == "tpu-v1")  # the docs' sentence


def test_ws_decode_claim():
    """docs/cli.md: ws is 2.76x slower than os on Llama-2-7B decode (context 2048, default
    accelerator)."""
    text = doc("cli.md")
    factor = float(re.search(r"ws pays a weight preload per fold: ([\d.]+)× slower on Llama-2-7B "
                             r"decode, context 2048", text).group(1))
    args = ["model", "--model", "llama-2-7b", "--phase", "decode", "--context", "2048"]
    ratio = _seconds(*args, "--dataflow", "ws") / _seconds(*args, "--dataflow", "os")
    assert ratio == pytest.approx(factor, abs=0.01)


def test_w4a16_decode_claim():
    """docs/output.md#array-use: W4A16 is no faster in decode (1.00x), 3.2 % utilization, 99 %
    of the cycles in rows whose array the mapping under-uses."""
    text = " ".join(doc("output.md").split())
    m = re.search(r"a speed-up of ([\d.]+)×, ([\d.]+) % utilization, (\d+) % of the cycles in "
                  r"such rows", text)
    speedup, util, share = float(m.group(1)), float(m.group(2)), float(m.group(3))
    d = cli_json("model", "--model", "llama-3-8b", "--phase", "decode", "--context", "1024",
                 "--quant", "q0f16,q4f16_1")
    w4 = d["schemes"][1]["summary"]
    assert w4["speedup"] == pytest.approx(speedup, abs=0.005)
    assert w4["utilization"] * 100 == pytest.approx(util, abs=0.05)
    assert w4["array_underused_share"] * 100 == pytest.approx(share, abs=0.5)


def test_packed_bytes_formula():
    """docs/quantization.md and docs/hardware.md: dram_bytes = ceil((dram_reads + dram_writes) x
    storage_bits / 8), reads counted in words for a packed tensor; q4f16_1's B at M = 1,
    N = K = 1024 is 131,072 words, 524,288 bytes."""
    text = " ".join(doc("quantization.md").split())
    words, nbytes = re.search(r"q4f16_1 at M = 1, N = K = 1024 reads ([\d,]+) words of B, "
                              r"[\d,]+ × 32 / 8 = ([\d,]+) bytes", text).groups()
    d = cli_json("analyze", "--gemm", "1,1024,1024", "--arch", "scalable-32x32", "--quant",
                 "q4f16_1")
    b = d["tensors"]["B"]
    assert b["dram_reads"] == int(words.replace(",", ""))
    assert b["dram_bytes"] == int(nbytes.replace(",", ""))
    assert "(dram_reads + dram_writes) · storage_bits / 8" in " ".join(doc("hardware.md").split())
    for quant in ["q4f16_1", "q3f16_1", "awq_w4a16_g128", "w4a8", "smoothquant_w8a8", "kv_int4"]:
        report = cli_json("analyze", "--gemm", "37,200,300", "--arch", "scalable-32x32",
                          "--quant", quant)
        for name, t in report["tensors"].items():
            moved = t["dram_reads"] + t["dram_writes"]
            assert t["dram_bytes"] == -(-moved * t["storage_bits"] // 8), (quant, name)
