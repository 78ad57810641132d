"""Bad inputs raise tenet.InputError naming the file and the JSON pointer (or the argument)."""
import json

import pytest

import tenet
from conftest import src


def raises(fn, **expected):
    with pytest.raises(tenet.InputError) as info:
        fn()
    err = info.value
    for key, value in expected.items():
        assert getattr(err, key) == value, (key, getattr(err, key), str(err))
    assert isinstance(err, ValueError)
    assert str(err)
    return err


def test_bad_files_name_file_and_pointer(tmp_path):
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"model_type": "llama", "hidden_size": -4}))
    err = raises(lambda: tenet.model(str(config), phase="decode", context=8),
                 file=str(config))
    assert err.pointer.startswith("/")
    arch = tmp_path / "arch.json"
    arch.write_text('{"name": "x", "pe": {"rows": 0}}')
    raises(lambda: tenet.evaluate((4, 4, 4), arch=str(arch)), file=str(arch))
    raises(lambda: tenet.model(src("tests", "data", "llm", "not_json.json"), phase="decode",
                               context=4), code="parse")


def test_bad_dicts_name_the_pointer():
    raises(lambda: tenet.model({"model_type": "llama", "hidden_size": "x"}), code="type",
           pointer="/hidden_size", file="")
    quant = json.load(open(src("configs", "quant", "q4f16_1.json")))
    quant["weights"]["group_size"] = -1
    err = raises(lambda: tenet.evaluate((1, 64, 64), arch="scalable-32x32", quant=quant))
    assert err.pointer.startswith("/weights")
    raises(lambda: tenet.sweep({"name": "x", "workloads": 3}), file="")


def test_bad_arguments():
    raises(lambda: tenet.analyze((0, 4, 4), array="2x2"), code="range")
    raises(lambda: tenet.analyze((4, 4), array="2x2"), code="parse", pointer="gemm")
    raises(lambda: tenet.evaluate((4, 4, 4), arch="no-such-accelerator"), code="unknown-name",
           pointer="arch")
    raises(lambda: tenet.evaluate((4, 4, 4), dataflow="xs"), code="unknown-name",
           pointer="dataflow")
    raises(lambda: tenet.model(src("workloads", "models", "gpt2.json"), phase="sideways"),
           pointer="phase")
    raises(lambda: tenet.sweep(src("workloads", "sweeps", "example.json"), shard="4/3"))
    raises(lambda: tenet.compare((4, 4, 4), []), code="missing-field")
    raises(lambda: tenet.analyze((4, 4, 4), arch="scalable-32x32", format="yaml"),
           code="unknown-name")


def test_quantized_logs_and_precisions(tmp_path):
    """A dequantize kernel with no scheme raises (the three ways named); a scheme the
    accelerator cannot run names its file, the scheme and the precision."""
    log = tmp_path / "run.jsonl"
    log.write_text('{"kernel":"fused_fused_dequantize_fused_NT_matmul5_add6",'
                   '"batch":1,"M":4,"N":64,"K":64}\n')
    err = raises(lambda: tenet.log(str(log)), code="missing-field", file=str(log))
    for way in ("header record", "--tir", "--quant"):
        assert way in str(err)
    assert tenet.log(str(log), quant="q4f16_1").to_dict()["layers"][0]["scheme"] == "q4f16_1"
    log.write_text('{"record":"header","quantization":"q4f16_1"}\n' + log.read_text())
    assert tenet.log(str(log)).totals["by_scheme"][0]["scheme"] == "q4f16_1"
    err = raises(lambda: tenet.log(str(log), arch="gemmini"), code="unknown-name",
                 pointer="/pe/precisions")
    assert err.file.endswith("gemmini.json")
    assert "q4f16_1" in str(err) and "fp16" in str(err)
