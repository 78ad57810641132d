"""Random and malformed dict inputs never crash the interpreter: each call returns a result or
raises tenet.InputError (property test, python3-hypothesis)."""
import json
import os

from hypothesis import HealthCheck, given, settings, strategies as st

import tenet
from conftest import src

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=True) |
    st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6),
                                                                       children, max_size=4),
    max_leaves=12)

with open(src("workloads", "models", "gpt2.json")) as f:
    GPT2 = json.load(f)
with open(src("configs", "quant", "q4f16_1.json")) as f:
    Q4 = json.load(f)
with open(src("configs", "arch", "systolic-8x8.json")) as f:
    ARCH = json.load(f)
with open(src("workloads", "specs", "gpt2-medium-attn-cproj-os16.json")) as f:
    SPEC = json.load(f)


def mutated(base):
    """The base document with one field replaced, removed or added (at any depth)."""
    def paths(doc, prefix=()):
        yield prefix
        if isinstance(doc, dict):
            for k, v in doc.items():
                yield from paths(v, prefix + (k,))
        elif isinstance(doc, list):
            for i, v in enumerate(doc):
                yield from paths(v, prefix + (i,))
    all_paths = list(paths(base))
    return st.tuples(st.sampled_from(all_paths), json_values, st.sampled_from(["set", "del"]))


def apply(base, change):
    path, value, op = change
    doc = json.loads(json.dumps(base))
    if not path:
        return value
    parent = doc
    for p in path[:-1]:
        parent = parent[p]
    if op == "del":
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    return doc


def survives(fn):
    try:
        fn()
    except tenet.InputError as e:
        assert e.code and isinstance(e.pointer, str)


# Derandomized in the test suite (the same examples every run, so CI is repeatable); set
# TENET_HYPOTHESIS_RANDOM=1 (and TENET_HYPOTHESIS_EXAMPLES=N) to explore new inputs.
common = settings(max_examples=int(os.environ.get("TENET_HYPOTHESIS_EXAMPLES", "60")),
                  deadline=None, suppress_health_check=list(HealthCheck),
                  derandomize=os.environ.get("TENET_HYPOTHESIS_RANDOM") != "1", database=None)


@common
@given(mutated(GPT2))
def test_model_config(change):
    survives(lambda: tenet.model(apply(GPT2, change), phase="decode", context=16,
                                 shapes_only=True))


@common
@given(mutated(Q4))
def test_quant_spec(change):
    survives(lambda: tenet.evaluate((3, 40, 96), arch="scalable-32x32", quant=apply(Q4, change)))


@common
@given(mutated(ARCH))
def test_architecture(change):
    survives(lambda: tenet.evaluate((5, 17, 9), arch=apply(ARCH, change)))


@common
@given(mutated(SPEC))
def test_spec(change):
    survives(lambda: tenet.analyze(spec=apply(SPEC, change)))


@common
@given(json_values, json_values)
def test_any_value_anywhere(a, b):
    survives(lambda: tenet.evaluate((4, 4, 4), arch=a if isinstance(a, dict) else "systolic-8x8",
                                    quant=b if isinstance(b, dict) else None))
    survives(lambda: tenet.sweep({"name": "h", "workloads": a, "quant": b}))
