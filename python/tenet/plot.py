"""Plots of tenet results (matplotlib; docs/python.md#plots). Each function returns a
matplotlib Figure (pass ``ax=`` to draw into an existing Axes instead).

- :func:`layers_by_scheme`: per-layer time or energy across schemes (stacked bars)
- :func:`roofline`: each layer a point at its arithmetic intensity, per scheme, under the
  accelerator's compute and DRAM-bandwidth roofs
- :func:`pareto`: the latency / energy Pareto front of a mapping search
- :func:`sweep_line`, :func:`sweep_heatmap`: a metric against one sweep axis, or over two
- :func:`ski_slope`: least DRAM traffic against buffer size, tenet's mapping and the lower bound
- :func:`request_ops`, :func:`tpot_by_batch`: a generation request's time per operator kind, and
  time per output token against the batch (tenet.generate)
"""

import math

import matplotlib.pyplot as plt

_METRICS = {
    "cycles": ("cycles", "cycles"),
    "seconds": ("seconds", "s"),
    "energy_pj": ("energy", "pJ"),
    "dram_bytes": ("DRAM traffic", "bytes"),
    "sram_bytes": ("global-buffer traffic", "bytes"),
}


def _axes(ax, size=(7, 4)):
    if ax is not None:
        return ax.figure, ax
    fig, ax = plt.subplots(figsize=size, layout="constrained")
    return fig, ax


def _num(v):
    """A count of a report (an int, or a decimal string beyond 64 bits) as a float."""
    return float(v) if v is not None else math.nan


def _schemes(results):
    """{scheme: report dict} from a comparison ModelResult, a dict of results, or one result."""
    if isinstance(results, dict) and all(hasattr(r, "to_dict") for r in results.values()):
        return {k: r.to_dict() for k, r in results.items()}
    d = results.to_dict() if hasattr(results, "to_dict") else results
    if "schemes" in d:
        return {s["scheme"]: s for s in d["schemes"]}
    return {d.get("inputs", {}).get("quant", "scheme"): d}


def layers_by_scheme(results, metric="cycles", top=8, ax=None):
    """Stacked bars: one bar per scheme, one segment per layer (the ``top`` largest layers of the
    first scheme; the rest summed as "other"). ``results``: ``tenet.model(..., quant=[...])``, or
    {scheme: tenet.model(...)}. metric: cycles, seconds, energy_pj, dram_bytes or sram_bytes."""
    schemes = _schemes(results)
    label, unit = _METRICS.get(metric, (metric, ""))
    first = next(iter(schemes.values()))

    def value(layer, report):
        if metric == "seconds":
            seconds = report["totals"]["seconds"]
            return _num(layer["cycles"]) / max(_num(report["totals"]["cycles"]), 1) * seconds
        return _num(layer[metric])

    order = sorted(first["layers"], key=lambda l: -value(l, first))
    names = [l["name"] for l in order[:top]]
    fig, ax = _axes(ax)
    bottoms = [0.0] * len(schemes)
    colors = plt.get_cmap("tab10")
    for i, name in enumerate(names + ["other"]):
        heights = []
        for report in schemes.values():
            layers = report["layers"]
            if name == "other":
                heights.append(sum(value(l, report) for l in layers if l["name"] not in names))
            else:
                heights.append(sum(value(l, report) for l in layers if l["name"] == name))
        ax.bar(list(schemes), heights, bottom=bottoms, label=name, color=colors(i % 10))
        bottoms = [b + h for b, h in zip(bottoms, heights)]
    ax.set_ylabel(f"{label} ({unit})" if unit else label)
    ax.set_title(f"{label} per layer and scheme")
    ax.legend(fontsize="small", bbox_to_anchor=(1.01, 1), loc="upper left")
    return fig


def _peak(acc, precision):
    """Peak MACs per second of the accelerator at a precision, and DRAM bytes per second."""
    clock = float(acc["clock_mhz"]) * 1e6
    pes = acc["pe_array"]["rows"] * acc["pe_array"]["cols"]
    rates = acc["pe"]["precisions"]
    rate = rates.get(precision) or rates.get("fp16") or next(iter(rates.values()))
    macs = pes * rate.get("macs_per_cycle", 1) / rate.get("cycles_per_mac", 1) * clock
    dram = acc["dram"]["bandwidth_bytes_per_cycle"]
    bandwidth = math.inf if dram in (None, 0) else float(dram) * clock
    return macs, bandwidth


def roofline(results, arch=None, ax=None):
    """Each layer of each scheme a point at (MACs per DRAM byte, MACs per second), with the
    accelerator's roofs: peak MAC rate per precision it offers (horizontal) and the DRAM
    bandwidth (slope). ``arch``: a preset name, path or dict (tenet.accelerator)."""
    from . import accelerator
    acc = accelerator(arch) if not isinstance(arch, dict) or "pe" not in arch else arch
    schemes = _schemes(results)
    fig, ax = _axes(ax)
    xs = []
    markers = "osD^v<>*"
    for i, (scheme, report) in enumerate(schemes.items()):
        clock_hz = report["cost_model"]["clock_hz"]
        x, y = [], []
        for layer in report["layers"]:
            dram = _num(layer["dram_bytes"])
            cycles = _num(layer["cycles"])
            if dram <= 0 or cycles <= 0:
                continue
            macs = _num(layer["macs"])  # over all calls of the entry, as cycles and bytes
            x.append(macs / dram)
            y.append(macs / (cycles / clock_hz))
        xs += x
        ax.scatter(x, y, label=scheme, marker=markers[i % len(markers)], alpha=0.8)
    lo = min(xs) / 4 if xs else 0.1
    hi = max(xs) * 4 if xs else 1e4
    for precision in acc["pe"]["precisions"]:
        peak, bandwidth = _peak(acc, precision)
        ridge = peak / bandwidth if bandwidth != math.inf else lo
        grid = [lo, max(lo, min(ridge, hi)), hi]
        ax.plot(grid, [min(peak, g * bandwidth) for g in grid], "--", linewidth=1,
                label=f"roof {precision}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("arithmetic intensity (MACs per DRAM byte)")
    ax.set_ylabel("performance (MACs/s)")
    ax.set_title(f"roofline on {acc['name']}")
    ax.legend(fontsize="small")
    return fig


def pareto(search, layer=0, ax=None):
    """The latency / energy Pareto front of a search (tenet.search) for one layer, with the
    built-in mappings and the best one marked."""
    data = search.to_dict() if hasattr(search, "to_dict") else search
    entry = data[layer]
    fig, ax = _axes(ax, (6, 4))
    front = sorted(entry["front"], key=lambda c: _num(c["cycles"]))
    ax.step([_num(c["cycles"]) for c in front], [c["energy_pj"] for c in front], where="post",
            marker="o", label="Pareto front")
    best = entry["best"]
    builtin = entry.get("best_built_in")
    if builtin:
        ax.scatter([_num(builtin["cycles"])], [builtin["energy_pj"]], marker="s", s=80,
                   facecolors="none", edgecolors="black", label="best built-in mapping")
    ax.scatter([_num(best["cycles"])], [best["energy_pj"]], marker="*", s=160, color="red",
               label=f"best ({entry['objective']}): {best['dataflow']} {best['tiling']}")
    ax.set_xlabel("cycles")
    ax.set_ylabel("energy (pJ)")
    ax.set_title(f"{entry['name']} {entry['M']}x{entry['N']}x{entry['K']}: latency / energy")
    ax.legend(fontsize="small")
    return fig


def _rows(sweep):
    if hasattr(sweep, "to_frame"):
        return sweep.to_frame()
    return sweep


def sweep_line(sweep, x, y="cycles", hue=None, ax=None):
    """A metric (column ``y``) against a sweep axis (column ``x``), one line per value of
    ``hue``; error rows are left out. ``sweep``: a SweepResult or a DataFrame."""
    frame = _rows(sweep)
    frame = frame[frame["status"] == "ok"] if "status" in frame else frame
    fig, ax = _axes(ax)
    groups = [(None, frame)] if hue is None else list(frame.groupby(hue))
    for key, group in groups:
        g = group.groupby(x)[y].apply(lambda s: s.astype(float).sum()).sort_index()
        ax.plot(g.index, g.values, marker="o", label=None if key is None else f"{hue}={key}")
    ax.set_xlabel(x)
    label, unit = _METRICS.get(y, (y, ""))
    ax.set_ylabel(f"{label} ({unit})" if unit else label)
    if hue is not None:
        ax.legend(fontsize="small")
    return fig


def sweep_heatmap(sweep, x, y, value="cycles", ax=None):
    """A metric over two sweep axes (summed over the other axes), as a heatmap."""
    frame = _rows(sweep)
    frame = frame[frame["status"] == "ok"] if "status" in frame else frame
    table = frame.assign(_v=frame[value].astype(float)).pivot_table(
        index=y, columns=x, values="_v", aggfunc="sum")
    fig, ax = _axes(ax, (6, 4.5))
    image = ax.imshow(table.values, aspect="auto", cmap="viridis", origin="lower")
    ax.set_xticks(range(len(table.columns)), [str(c) for c in table.columns], rotation=45)
    ax.set_yticks(range(len(table.index)), [str(i) for i in table.index])
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    label, unit = _METRICS.get(value, (value, ""))
    fig.colorbar(image, ax=ax, label=f"{label} ({unit})" if unit else label)
    return fig


def ski_slope(curve, ax=None):
    """Least DRAM traffic against on-chip buffer size (tenet.ski_slope): the schedule-independent
    lower bound, the least traffic of the modelled mapping classes and the traffic of tenet's
    least-traffic mapping, log-log."""
    fig, ax = _axes(ax, (6, 4))
    sizes = [p["buffer_bytes"] for p in curve["points"]]
    if all("schedule_independent_dram_bytes" in p for p in curve["points"]):
        ax.plot(sizes, [_num(p["schedule_independent_dram_bytes"]) for p in curve["points"]],
                "k:", label="lower bound (any schedule)")
    ax.plot(sizes, [_num(p["bound_dram_bytes"]) for p in curve["points"]], "k--",
            label="least traffic (modelled mappings)")
    ax.plot(sizes, [_num(p["dram_bytes"]) for p in curve["points"]], "o-",
            label="tenet's least-traffic mapping")
    ax.axhline(_num(curve["points"][0]["compulsory_dram_bytes"]), color="grey", linewidth=0.8,
               label="compulsory traffic")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("global buffer (bytes)")
    ax.set_ylabel("DRAM traffic (bytes)")
    ax.set_title(curve.get("title", "DRAM traffic against buffer size"))
    ax.legend(fontsize="small")
    return fig


def request_ops(request, ax=None):
    """Time per operator kind of a generation request (tenet.generate): one bar per kind
    (``matmul`` and each non-matmul kind), seconds of one chip over the whole request."""
    ops = request["ops"]
    fig, ax = _axes(ax, (6, 3.5))
    kinds = list(ops)
    ax.barh(kinds, [ops[k]["seconds"] for k in kinds])
    ax.invert_yaxis()
    ax.set_xlabel("busy time over the request (s)")
    t = request["timeline"]
    ax.set_title(f"TTFT {t['ttft_seconds'] * 1e3:.1f} ms, {t['tokens_per_second']:.1f} tokens/s")
    return fig


def tpot_by_batch(requests, ax=None):
    """Time per output token against the batch: ``requests`` maps a batch size to its
    tenet.generate result (e.g. ``{b: tenet.generate(cfg, prompt=P, tokens=G, batch=b)}``), or
    is a tenet.sweep result with request rows (one line per workload, prompt, tokens, tp, pp,
    quant and arch point; docs/sweep.md)."""
    fig, ax = _axes(ax, (6, 3.5))
    if hasattr(requests, "rows") or isinstance(requests, list):
        lines = {}
        for r in (requests.rows if hasattr(requests, "rows") else requests):
            if r.get("kind") != "request" or r.get("tpot_seconds") is None:
                continue
            key = (r["workload"], r["seq_len"], r["tokens"], r["tp"], r["pp"], r["quant"],
                   r["arch"], r["dataflow"])
            lines.setdefault(key, []).append((r["batch"], r["tpot_seconds"] * 1e3))
        for key, points in lines.items():
            points.sort()
            label = f"P {key[1]}, G {key[2]}, tp {key[3]}, pp {key[4]}, {key[5]}"
            ax.plot([p[0] for p in points], [p[1] for p in points], "o-",
                    label=label if len(lines) > 1 else None)
        if len(lines) > 1:
            ax.legend(fontsize="small")
    else:
        batches = sorted(requests)
        ax.plot(batches, [requests[b]["timeline"]["tpot_seconds"] * 1e3 for b in batches], "o-")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("batch (sequences)")
    ax.set_ylabel("time per output token (ms)")
    return fig
