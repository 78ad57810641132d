"""tenet.kernel: the fused attention and MLP kernels equal the CLI's JSON, and bad shapes raise
tenet.InputError naming the argument."""
import pytest

import tenet
from conftest import cli_json


def test_attention_equals_the_cli():
    py = tenet.kernel(attention=(16, 4, 256, 512, 64), causal=True, arch="scalable-32x32")
    cli = cli_json("kernel", "--attention", "16,4,256,512,64", "--causal", "--arch",
                   "scalable-32x32")
    assert py.to_dict() == cli
    assert py["seconds"] > 0 and py["dram_bytes"] >= py["compulsory_dram_bytes"]
    assert {t["name"] for t in py["tensors"]} == {"Q", "K", "V", "O"}
    rel = tenet.kernel(attention="16,4,256,512,64", causal=True, relation_centric=True)
    assert rel["relation_counts"]["macs"] == py["macs"]


def test_ffn_equals_the_cli():
    py = tenet.kernel(ffn="64,256,704", activation="silu_gated", quant="q4f16_1")
    cli = cli_json("kernel", "--ffn", "64,256,704", "--activation", "silu_gated", "--quant",
                   "q4f16_1")
    assert py.to_dict() == cli
    assert py["inputs"]["quant"] == "q4f16_1"
    text = tenet.kernel(ffn=(64, 256, 704), activation="gelu", bias=True, format="table")
    assert "ffn kernel" in text


@pytest.mark.parametrize("kwargs,pointer", [
    (dict(attention=(6, 4, 8, 8, 8)), "attention"),
    (dict(attention=(4, 4, 8, 8)), "attention"),
    (dict(attention=(4, 4, 16, 8, 8), causal=True), "attention"),
    (dict(ffn=(8, 8, 8)), "activation"),
    (dict(ffn=(8, 0, 8), activation="gelu"), "ffn"),
    (dict(attention=(4, 4, 8, 8, 8), scores="hbm"), "scores"),
    (dict(), "attention"),
])
def test_bad_kernels_name_the_argument(kwargs, pointer):
    with pytest.raises(tenet.InputError) as info:
        tenet.kernel(**kwargs)
    assert info.value.pointer == pointer
