"""Python results equal the CLI's JSON (issue 14): analyze, compare, model, log, search and sweep
rows on a grid of cases (odd sizes, M = 1, several schemes, dataflows and accelerators)."""
import itertools
import json
import os
import subprocess

import pytest

import tenet
from conftest import CLI, cli_json, src

def metrics(report):
    """A report without `counting` (the counter's own statistics: cache hits depend on what the
    process counted before, and a Python session is one long process)."""
    return {k: v for k, v in report.items() if k != "counting"}


GEMMS = [(1, 1000, 777), (37, 1024, 1024), (129, 65, 300)]
ARCHS = ["scalable-32x32", "systolic-16x16"]
SCHEMES = ["q0f16", "q4f16_1", "smoothquant_w8a8"]
FLOWS = ["os", "ws", "is"]


@pytest.mark.parametrize("gemm,arch,quant,flow",
                         list(itertools.product(GEMMS, ARCHS, SCHEMES, FLOWS))[::2])
def test_analyze_gemm(gemm, arch, quant, flow):
    m, n, k = gemm
    ours = tenet.analyze(gemm, arch=arch, quant=quant, dataflow=flow)
    theirs = cli_json("analyze", "--gemm", f"{m},{n},{k}", "--arch", arch, "--quant", quant,
                      "--dataflow", flow)
    assert metrics(ours.to_dict()) == metrics(theirs)
    # The fast path gives the same cost as the report.
    fast = tenet.evaluate(gemm, arch=arch, quant=quant, dataflow=flow)
    assert fast["cycles"] == theirs["cycles"]["total"]
    assert fast["bounds"] == theirs["bounds"]


def test_analyze_tenet_timing_and_problems():
    ours = tenet.analyze("8,8,8", array="4x4", dataflow="ws", bits=(8, 8, 32))
    assert metrics(ours.to_dict()) == metrics(cli_json(
        "analyze", "--gemm", "8,8,8", "--array", "4x4", "--dataflow", "ws", "--bits-a", "8",
        "--bits-b", "8", "--bits-c", "32"))
    for spec in sorted(os.listdir(src("workloads", "specs"))):
        path = src("workloads", "specs", spec)
        assert metrics(tenet.analyze(spec=path).to_dict()) == metrics(
            cli_json("analyze", "--spec", path))
        with open(path) as f:
            as_dict = json.load(f)
        # The same spec as a dict: the same metrics (the echo does not name a file).
        assert tenet.analyze(spec=as_dict)["tensors"] == cli_json("analyze", "--spec",
                                                                  path)["tensors"]


def test_analyze_other_formats_are_the_cli_text():
    text = tenet.analyze((16, 16, 16), arch="systolic-8x8", format="table")
    out = subprocess.run([CLI, "analyze", "--gemm", "16,16,16", "--arch", "systolic-8x8"],
                         capture_output=True, text=True)
    # (the table's counting line may differ in cache hits: see metrics())
    assert [l for l in text.splitlines() if "cache" not in l] == \
        [l for l in out.stdout.splitlines() if "cache" not in l]
    assert tenet.analyze((16, 16, 16), arch="systolic-8x8", format="csv").startswith("section")


@pytest.mark.parametrize("gemm", GEMMS)
def test_compare(gemm):
    m, n, k = gemm
    ours = tenet.compare(gemm, SCHEMES, arch="scalable-32x32")
    assert ours.to_dict() == cli_json("compare", "--gemm", f"{m},{n},{k}", "--arch",
                                      "scalable-32x32", "--quant", ",".join(SCHEMES))


@pytest.mark.parametrize("config,phase,quant,flow", [
    ("gpt2-medium", "decode", "q4f16_1", "os"),
    ("gpt2-medium", "prefill", "q0f16", "ws"),
    ("llama-2-7b", "decode", "smoothquant_w8a8", "is"),
    ("mixtral-8x7b-v0.1", "decode", "q4f16_1", "os"),
    ("deepseek-v2-lite", "prefill", "q0f16", "os"),
])
def test_model(config, phase, quant, flow):
    path = src("workloads", "models", config + ".json")
    size = {"prompt": 128} if phase == "prefill" else {"context": 1024}
    ours = tenet.model(path, phase=phase, quant=quant, dataflow=flow, **size)
    flag, value = next(iter(size.items()))
    theirs = cli_json("model", "--model", path, "--phase", phase, "--quant", quant, "--dataflow",
                      flow, f"--{flag}", str(value))
    assert ours.to_dict() == theirs
    assert len(ours.layers) == len(theirs["layers"])
    # A config given as a dict: the same costs (only the source differs).
    with open(path) as f:
        as_dict = tenet.model(json.load(f), phase=phase, quant=quant, dataflow=flow, **size)
    assert as_dict["totals"] == theirs["totals"]


@pytest.mark.parametrize("kernel", ["fused", "unfused", None])
def test_model_attention_kernel(kernel):
    """attention_kernel= is --attention-kernel: the fused rows (default) or the qk / pv pair."""
    kwargs = {} if kernel is None else {"attention_kernel": kernel}
    flags = [] if kernel is None else ["--attention-kernel", kernel]
    for phase, size in (("prefill", {"prompt": 600}), ("decode", {"context": 900})):
        ours = tenet.model(src("workloads", "models", "llama-3.2-1b.json"), phase=phase,
                           **size, **kwargs)
        flag, value = next(iter(size.items()))
        theirs = cli_json("model", "--model", src("workloads", "models", "llama-3.2-1b.json"),
                          "--phase", phase, f"--{flag}", str(value), *flags)
        assert ours.to_dict() == theirs
        names = {r["name"] for r in theirs["layers"]}
        if kernel == "unfused":
            assert {"self_attn.qk", "self_attn.pv"} <= names
        else:
            assert "self_attn.attention" in names and "self_attn.qk" not in names
    ours = tenet.generate(src("workloads", "models", "llama-3.2-1b.json"), prompt=300, tokens=3,
                          **kwargs)
    theirs = cli_json("generate", "--model", src("workloads", "models", "llama-3.2-1b.json"),
                      "--prompt", "300", "--tokens", "3", *flags)
    assert ours == theirs


def test_model_scheme_comparison():
    path = src("workloads", "models", "gpt2-medium.json")
    ours = tenet.model(path, phase="decode", context=512, quant=["q0f16", "q4f16_1"])
    theirs = cli_json("model", "--model", path, "--phase", "decode", "--context", "512",
                      "--quant", "q0f16,q4f16_1")
    assert ours.to_dict() == theirs
    assert set(ours.totals) == {"q0f16", "q4f16_1"}
    assert set(ours.layers["scheme"]) == {"q0f16", "q4f16_1"}


@pytest.mark.parametrize("log,arch", [("gpt2-medium-q4f16_1.jsonl", "scalable-32x32"),
                                      ("gpt2-medium-q4f16_1.txt", "systolic-32x32")])
def test_log(log, arch):
    path = src("workloads", "logs", log)
    ours = tenet.log(path, arch=arch)
    assert ours.to_dict() == cli_json("log", "--input", path, "--arch", arch)


def test_search():
    ours = tenet.search((37, 512, 256), arch="systolic-16x16", quant="q4f16_1", front="winner")
    assert ours.to_dict() == cli_json("search", "--gemm", "37,512,256", "--arch",
                                      "systolic-16x16", "--quant", "q4f16_1", "--front", "winner")


@pytest.mark.parametrize("objective", ["latency", "energy", "dram_bytes", "edp"])
def test_search_every_objective(objective):
    # Every objective the CLI's --help names works from both doors and gives the same JSON.
    ours = tenet.search((64, 300, 200), arch="systolic-16x16", objective=objective,
                        dataflows=("os", "ws"))
    theirs = cli_json("search", "--gemm", "64,300,200", "--arch", "systolic-16x16",
                      "--objective", objective, "--dataflows", "os,ws")
    assert ours.to_dict() == theirs
    assert theirs[0]["objective"] == objective


def test_search_defaults_are_the_librarys():
    # No setting given: both doors resolve eval/defaults.hpp (tenet.defaults()) the same way.
    d = tenet.defaults()
    assert d["search_dataflows"] == ["os", "ws", "is"]
    ours = tenet.search((16, 48, 40))
    assert ours.to_dict() == cli_json("search", "--gemm", "16,48,40")
    explicit = cli_json("search", "--gemm", "16,48,40", "--arch", d["accelerator"], "--quant",
                        d["scheme"], "--objective", d["tiling_objective"], "--dataflows",
                        ",".join(d["search_dataflows"]))
    assert ours.to_dict() == explicit


@pytest.mark.parametrize("spec", ["example.json", "llama2-7b-quant-dataflows.json",
                                  "requests.json"])
def test_sweep_rows(spec, tmp_path):
    path = src("workloads", "sweeps", spec)
    out = tmp_path / "rows.jsonl"
    done = subprocess.run([CLI, "sweep", "--spec", path, "--out", str(out), "--progress", "none"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    theirs = [json.loads(line) for line in out.read_text().splitlines()]
    for threads in (1, 2):
        ours = tenet.sweep(path, threads=threads)
        assert ours.rows == theirs
    frame = ours.to_frame()
    assert list(frame.columns) == ours.summary["columns"]
    assert len(frame) == len(theirs)
    # A shard is the CLI's shard.
    shard = tenet.sweep(path, shard="2/3")
    assert shard.rows == [row for row in theirs if row["index"] % 3 == 1]


@pytest.mark.parametrize("dump,bind", [("gpt2_phase3.py", {"seq_len": 128}),
                                       ("quant.py", {"seq_len": 3, "n": 2})])
def test_tir(dump, bind):
    path = src("tests", "data", "tir", dump)
    args = ["tir", "--input", path, "--arch", "scalable-32x32"]
    if bind:
        args += ["--bind", ",".join(f"{k}={v}" for k, v in bind.items())]
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = tenet.tir(path, bind=bind, arch="scalable-32x32")
    assert ours.to_dict() == cli_json(*args)


def test_ski_slope_is_tenet_bound():
    ours = tenet.ski_slope((300, 1000, 700), quant="q4f16_1", points=5, smallest=32 * 1024,
                           largest=4 * 1024 * 1024)
    theirs = cli_json("bound", "--gemm", "300,1000,700", "--quant", "q4f16_1", "--buffers",
                      "32KiB..4MiB:5")
    assert ours["points"] == theirs["points"]
    model = tenet.ski_slope(model=src("workloads", "models", "gpt2.json"), phase="decode",
                            context=128, buffers=[65536, 1 << 20], bound_only=True)
    cli = cli_json("bound", "--model", src("workloads", "models", "gpt2.json"), "--phase",
                   "decode", "--context", "128", "--buffers", "64KiB,1MiB", "--bound-only")
    assert model["points"] == cli["points"]


def test_log_joined_with_tir_and_precision_fallback(tmp_path):
    """A mixed log through --tir and an fp16 model on tpu-v1: the same report from both doors,
    rows with their scheme, totals per scheme, fallbacks flagged."""
    log = tmp_path / "mixed.jsonl"
    log.write_text(
        '{"record":"header","quantization":"q4f16_1","model":"mixed"}\n'
        '{"kernel":"fused_dequantize_matmul_q4f16_0","M":7,"N":4096,"K":1024}\n'
        '{"kernel":"fused_dequantize_matmul_gptq","M":1,"N":128,"K":512}\n'
        '{"kernel":"fused_dequantize_NT_matmul_elsewhere","M":5,"N":64,"K":64}\n')
    tir = src("tests", "data", "tir", "quant.py")
    with pytest.warns(UserWarning, match="elsewhere has no recognised matmul"):
        ours = tenet.log(str(log), tir=tir)
    assert ours.to_dict() == cli_json("log", "--input", str(log), "--tir", tir)
    schemes = [s["scheme"] for s in ours.totals["by_scheme"]]
    assert schemes == ["q4f16_0", "gptq_w4a16_g128", "q4f16_1"]
    path = src("workloads", "models", "gpt2-medium.json")
    tpu = tenet.model(path, phase="decode", context=64, arch="tpu-v1")
    assert tpu.to_dict() == cli_json("model", "--model", path, "--phase", "decode", "--context",
                                     "64", "--arch", "tpu-v1")
    for layer in tpu.to_dict()["layers"]:
        assert layer["precision_fallback"] == {"requested": "fp16", "used": "int16"}
