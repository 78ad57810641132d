"""tenet.calibrate: the same fit and JSON as `tenet calibrate --format json`."""
import pytest

import tenet
from conftest import cli_json, src

CSV = "workloads/calibration/sauria/calibration.csv"


def test_calibrate_matches_the_command():
    py = tenet.calibrate(CSV, "sauria-int8-8x16-idealmem", config="int8_8x16_idealmem",
                         free=["/microarchitecture/tile/overhead_cycles=0:200"], max_sweeps=20)
    cli = cli_json("calibrate", "--measurements", CSV, "--config", "int8_8x16_idealmem",
                   "--arch", "sauria-int8-8x16-idealmem",
                   "--free", "/microarchitecture/tile/overhead_cycles=0:200",
                   "--max-sweeps", "20")
    assert py == cli
    assert len(py["rows"]) == 18
    assert py["objective_after"] <= py["objective_before"]
    assert all(abs(r["error"]) <= 0.05 for r in py["rows"])


def test_calibrate_bad_input():
    with pytest.raises(tenet.InputError) as e:
        tenet.calibrate(CSV, "sauria-int8-8x16", config="no-such-config", predict_only=True)
    assert e.value.code == "range"
    with pytest.raises(tenet.InputError):
        tenet.calibrate(CSV, "sauria-int8-8x16", free=["/no/such/number"])


def test_calibrate_widths_come_from_the_preset():
    """No bits: the accelerator's one MAC precision gives them (16/16/16 on the FP16 preset, as
    `tenet calibrate` without --bits-*); several precisions need them (issue 34)."""
    py = tenet.calibrate(CSV, "sauria-fp16-8x16", config="fp16_8x16", predict_only=True)
    assert (py["bits"]["a"], py["bits"]["b"], py["bits"]["c"]) == (16, 16, 16)
    assert py["within_5_percent"] == pytest.approx(17 / 17)  # docs/validation.md
    cli = cli_json("calibrate", "--measurements", CSV, "--config", "fp16_8x16",
                   "--arch", "sauria-fp16-8x16", "--predict-only")
    assert py == cli
    given = tenet.calibrate(CSV, "sauria-fp16-8x16", config="fp16_8x16", predict_only=True,
                            bits=(8, 8, 32))
    assert given["bits"]["source"] == "given"
    with pytest.raises(tenet.InputError) as e:
        tenet.calibrate(CSV, "scalable-32x32", config="fp16_8x16", predict_only=True)
    assert e.value.code == "usage"


def test_accumulate_matches_the_command():
    """accumulate=True is ``--accumulate`` (C = C + A·B) in analyze, evaluate and compare."""
    kw = dict(arch="sauria-int8-8x16", dataflow="os", bits=(8, 8, 32), tile="64x16x64:kmn",
              edge_transfers=True)
    py = tenet.analyze((64, 64, 64), accumulate=True, **kw)
    cli = cli_json("analyze", "--gemm", "64,64,64", "--arch", "sauria-int8-8x16", "--dataflow",
                   "os", "--bits-a", "8", "--bits-b", "8", "--bits-c", "32", "--tile",
                   "64x16x64:kmn", "--edge-transfers", "--accumulate")
    assert py.to_dict() == cli
    assert py["gemm"]["accumulate"] is True
    plain = tenet.analyze((64, 64, 64), **kw)
    assert py["cycles"]["total"] > plain["cycles"]["total"]  # P1 on every context
    on = tenet.evaluate((100, 60, 30), arch="systolic-8x8", tile="0x0x0", accumulate=True)
    off = tenet.evaluate((100, 60, 30), arch="systolic-8x8", tile="0x0x0")
    assert on["dram_bytes"] - off["dram_bytes"] == 100 * 60 * 2  # C's fp16 values read once
    cmp = tenet.compare((100, 60, 30), "q0f16", arch="systolic-8x8", accumulate=True)
    assert cmp.to_dict() == cli_json("compare", "--gemm", "100,60,30", "--quant", "q0f16",
                                     "--arch", "systolic-8x8", "--accumulate")
    with pytest.raises(tenet.InputError):
        tenet.analyze(spec="workloads/specs/gpt2-medium-attn-cproj-os16.json", accumulate=True)


def test_calibrate_reads_kernel_times():
    """The kernel form (workload, dtype, latency_ns): TPU v6e matmuls measured on silicon, widths
    from the dtype column; the fused kinds costed as `tenet kernel` costs them (issue 36)."""
    tpu = src("workloads", "calibration", "tpu-v6e", "calibration.csv")
    py = tenet.calibrate(tpu, "tpu-v6e", predict_only=True)
    cli = cli_json("calibrate", "--measurements", tpu, "--arch", "tpu-v6e", "--predict-only")
    assert py == cli
    assert py["bits"]["source"] == "the dtype column of each row"
    assert py["kinds"]["gemm"]["costed"] == 104
    assert py["kinds"]["gemm"]["within_10_percent"] >= 0.97  # docs/validation.md#tpu-v6e
    for kind, n in (("ffn_gated", 11), ("ffn_erf", 11), ("attn_enc", 29), ("attn_dec", 38)):
        assert py["kinds"][kind]["costed"] == n
    assert all(r["costed"] for r in py["rows"])
    # a fused row is the seconds of tenet.kernel (docs/hardware.md#calibration-tenet-calibrate)
    rows = {r["name"]: r["predicted_ns"] for r in py["rows"]}
    same = [("ffn_erf_4096x384x1536", dict(ffn=(4096, 384, 1536), activation="gelu", bias=True)),
            ("ffn_gated_512x2048x8192", dict(ffn=(512, 2048, 8192), activation="silu_gated")),
            ("attn_enc_96x328x32",
             dict(attention=(96, 96, 328, 328, 32), scores="materialised")),
            ("attn_dec_24x8x32x2048x128", dict(attention=(24, 8, 32, 2048, 128), causal=True))]
    for name, kwargs in same:
        k = tenet.kernel(arch="tpu-v6e", quant="q0bf16", **kwargs)
        assert rows[name] == round(k["seconds"] * 1e9), name
