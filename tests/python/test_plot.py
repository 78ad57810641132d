"""Every plot of tenet.plot is drawn from real results: it has the data it should (bars, points,
lines) and renders to a non-blank PNG."""
import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
from PIL import Image  # noqa: E402

import tenet  # noqa: E402
import tenet.plot as tp  # noqa: E402
from conftest import src  # noqa: E402

SCHEMES = ["q0f16", "q4f16_1", "smoothquant_w8a8"]


@pytest.fixture(scope="module")
def comparison():
    return tenet.model(src("workloads", "models", "gpt2-medium.json"), phase="prefill",
                       prompt=64, quant=SCHEMES)


def rendered(fig, tmp_path, name):
    path = tmp_path / f"{name}.png"
    fig.savefig(path, dpi=60)
    image = Image.open(path).convert("L")
    pixels = list(image.getdata())
    assert sum(1 for p in pixels if p < 200) / len(pixels) > 0.01, name
    return fig.axes[0]


def test_layers_by_scheme(comparison, tmp_path):
    for metric in ("cycles", "energy_pj", "dram_bytes", "seconds"):
        ax = rendered(tp.layers_by_scheme(comparison, metric, top=4), tmp_path, metric)
        # 4 layers + other, one bar per scheme each; the stacks add up to the totals.
        assert len(ax.patches) == 5 * len(SCHEMES)
    ax = tp.layers_by_scheme(comparison, "cycles").axes[0]
    tops = {}
    for bar in ax.patches:
        x = round(bar.get_x(), 3)
        tops[x] = max(tops.get(x, 0), bar.get_y() + bar.get_height())
    totals = comparison.totals
    assert sorted(tops.values()) == pytest.approx(sorted(float(totals[s]["cycles"])
                                                         for s in SCHEMES))


def test_roofline(comparison, tmp_path):
    ax = rendered(tp.roofline(comparison, "scalable-32x32"), tmp_path, "roofline")
    points = sum(len(c.get_offsets()) for c in ax.collections)
    assert points == len(comparison.layers)  # every layer of every scheme
    assert len(ax.lines) == 3  # fp16, int8, int4 roofs
    # No layer runs above the accelerator's highest roof, nor above the bandwidth slope.
    peak = max(max(line.get_ydata()) for line in ax.lines)
    for c in ax.collections:
        for x, y in c.get_offsets():
            assert y <= peak * (1 + 1e-9)


def test_pareto(tmp_path):
    found = tenet.search((64, 512, 384), arch="systolic-16x16", quant="q0f16")
    ax = rendered(tp.pareto(found), tmp_path, "pareto")
    assert len(ax.lines[0].get_xdata()) == len(found[0]["front"])


def test_sweep_plots(tmp_path):
    result = tenet.sweep(src("workloads", "sweeps", "example.json"))
    frame = result.to_frame()
    ax = rendered(tp.sweep_line(result, "rows", "cycles", hue="dataflow"), tmp_path, "line")
    assert len(ax.lines) == frame["dataflow"].nunique()
    ax = rendered(tp.sweep_heatmap(result, "dataflow", "quant", "energy_pj"), tmp_path, "heat")
    assert ax.images[0].get_array().shape == (frame["quant"].nunique(),
                                              frame["dataflow"].nunique())


def test_ski_slope(tmp_path):
    curve = tenet.ski_slope((512, 1024, 768), quant="q4f16_1", points=6)
    ax = rendered(tp.ski_slope(curve), tmp_path, "ski")
    assert len(curve["points"]) == 6
    for p in curve["points"]:
        assert float(p["bound_dram_bytes"]) <= float(p["dram_bytes"])
        assert float(p["compulsory_dram_bytes"]) <= float(p["bound_dram_bytes"])
    traffic = [float(p["dram_bytes"]) for p in curve["points"]]
    assert traffic[-1] < traffic[0]  # a bigger buffer moves less
    for p in curve["points"]:  # the schedule-independent bound lies below the modelled one
        assert float(p["schedule_independent_dram_bytes"]) <= float(p["bound_dram_bytes"])
    assert len(ax.lines) == 4
