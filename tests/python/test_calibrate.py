"""tenet.calibrate: the same fit and JSON as `tenet calibrate --format json`."""
import pytest

import tenet
from conftest import cli_json

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
    assert py["within_5_percent"] == pytest.approx(16 / 17)
    cli = cli_json("calibrate", "--measurements", CSV, "--config", "fp16_8x16",
                   "--arch", "sauria-fp16-8x16", "--predict-only")
    assert py == cli
    given = tenet.calibrate(CSV, "sauria-fp16-8x16", config="fp16_8x16", predict_only=True,
                            bits=(8, 8, 32))
    assert given["bits"]["source"] == "given"
    with pytest.raises(tenet.InputError) as e:
        tenet.calibrate(CSV, "scalable-32x32", config="fp16_8x16", predict_only=True)
    assert e.value.code == "usage"
