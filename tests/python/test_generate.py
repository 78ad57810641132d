"""tenet.generate (issue 24): the Python result equals `tenet generate --format json`, the
contract's keys are all there, bad input raises tenet.InputError naming the argument."""
import json

import pytest

import tenet
from conftest import cli_json, src

MODEL = src("workloads", "models", "llama-3.2-1b.json")


@pytest.mark.parametrize("extra", [{}, {"tp": 2, "link_gbps": 400.0}, {"pp": 2, "link_gbps": 400.0}])
def test_python_equals_cli(extra):
    args = ["generate", "--model", MODEL, "--arch", "systolic-32x32", "--quant", "q4f16_1",
            "--prompt", "64", "--tokens", "5", "--batch", "2"]
    for key, value in extra.items():
        args += ["--" + key.replace("_", "-"), str(value)]
    theirs = cli_json(*args)
    ours = tenet.generate(MODEL, arch="systolic-32x32", quant="q4f16_1", prompt=64, tokens=5,
                          batch=2, **extra)
    assert ours == theirs


def test_contract_keys():
    r = tenet.generate(MODEL, prompt=16, tokens=3, batch=1)
    assert set(r["timeline"]) >= {"ttft_seconds", "tpot_seconds", "e2e_seconds",
                                  "tokens_per_second", "steps"}
    assert [s["context"] for s in r["timeline"]["steps"]] == [17, 18]
    assert set(r["memory"]) >= {"weights_bytes", "kv_cache_bytes", "total_bytes",
                                "capacity_bytes", "fits", "max_batch"}
    assert "matmul" in r["ops"] and all(set(v) == {"seconds", "dram_bytes"}
                                        for v in r["ops"].values())
    assert set(r["parallel"]) >= {"tp", "pp", "layer_collective_bytes", "collective_seconds",
                                  "embedding_collective_bytes", "logits_collective_bytes"}
    # The default accelerator declares its DRAM: the request fits.
    assert r["memory"]["fits"] is True


def test_bad_input_names_the_argument():
    with pytest.raises(tenet.InputError) as e:
        tenet.generate(MODEL, prompt=16, tokens=0)
    assert e.value.pointer == "tokens"
    with pytest.raises(tenet.InputError) as e:
        tenet.generate(MODEL, prompt=16, tokens=2, tp=2, arch="eyeriss")
    assert e.value.pointer == "link_gbps"


def test_plots():
    import matplotlib
    matplotlib.use("Agg")
    import tenet.plot
    requests = {b: tenet.generate(MODEL, prompt=16, tokens=3, batch=b) for b in (1, 2, 4)}
    fig = tenet.plot.request_ops(requests[1])
    assert len(fig.axes[0].patches) == len(requests[1]["ops"])
    fig = tenet.plot.tpot_by_batch(requests)
    line = fig.axes[0].lines[0]
    assert list(line.get_xdata()) == [1, 2, 4]
    # A larger batch never makes a step shorter.
    y = list(line.get_ydata())
    assert y == sorted(y)


def test_every_key_is_documented():
    from test_docs import backticked, doc, keys
    documented = backticked(doc("generate.md"))
    report = tenet.generate(src("workloads", "models", "mixtral-8x7b-v0.1.json"), prompt=8,
                            tokens=2, tp=2, link_gbps=100.0)
    missing = sorted(k for k in keys(report) - set(report["ops"]) if k not in documented)
    assert missing == []
    assert all(kind in documented for kind in report["ops"])


def test_sweep_rows_equal_tenet_generate(tmp_path):
    """A sweep's request rows (prompt, tokens, batch, tp axes) are tenet.generate's numbers."""
    import tenet.plot
    spec = {"architectures": {"presets": ["systolic-32x32"]}, "quant": ["q4f16_1"],
            "workloads": [{"request": MODEL, "prompt": 32, "tokens": [1, 3],
                           "batch": [1, 2, 4], "tp": [1, 2], "link_gbps": 400.0}]}
    result = tenet.sweep(spec, threads=2)
    assert len(result) == 12
    columns = result.summary["columns"]
    for key in ("tokens", "tp", "pp", "ttft_seconds", "tpot_seconds", "e2e_seconds", "fits",
                "max_batch", "memory_bytes"):
        assert key in columns
    from test_docs import backticked, doc
    assert sorted(c for c in columns if c not in backticked(doc("sweep.md"))) == []
    for row in result:
        extra = {"tp": 2, "link_gbps": 400.0} if row["tp"] == 2 else {}
        r = tenet.generate(MODEL, arch="systolic-32x32", quant="q4f16_1", prompt=32,
                           tokens=row["tokens"], batch=row["batch"], **extra)
        assert row["ttft_seconds"] == r["timeline"]["ttft_seconds"]
        assert row["tpot_seconds"] == r["timeline"]["tpot_seconds"]
        assert row["e2e_seconds"] == r["timeline"]["e2e_seconds"] == row["seconds"]
        assert row["tokens_per_second"] == r["timeline"]["tokens_per_second"]
        assert row["fits"] == r["memory"]["fits"]
        assert row["memory_bytes"] == r["memory"]["per_chip_bytes"]
    # TPOT against the batch straight from the sweep: one line per (tokens, tp) with a TPOT.
    fig = tenet.plot.tpot_by_batch(result)
    lines = fig.axes[0].lines
    assert len(lines) == 2
    for line in lines:
        assert list(line.get_xdata()) == [1, 2, 4]
        y = list(line.get_ydata())
        assert y == sorted(y)
