"""A self-contained HTML report of one model on one accelerator under several quantization
schemes (docs/report.md): inline CSS and inline SVG plots, nothing fetched to view it.

    python3 -m tenet report --model workloads/models/llama-2-7b.json --phase decode \\
        --context 1024 --quant q0f16,q4f16_1,smoothquant_w8a8 --out report.html
"""

import html
import io
import math

from . import accelerator, generate, model, search, ski_slope

DEFAULT_SCHEMES = ["q0f16", "q4f16_1", "smoothquant_w8a8"]

_CSS = """
body { font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; margin: 2em auto;
       max-width: 72em; color: #1d2330; background: #fff; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { font-size: 1.2em; border-bottom: 1px solid #c8ccd4; padding-bottom: 0.2em; margin-top: 2em; }
p.facts { color: #4a5160; margin-top: 0; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0; }
th, td { border: 1px solid #d5d9e0; padding: 0.25em 0.6em; text-align: right; }
th { background: #eef1f6; }
td.name, th.name { text-align: left; }
tr.best td { background: #e7f5ea; font-weight: bold; }
figure { margin: 1em 0; }
figure svg { max-width: 100%; height: auto; }
figcaption { color: #4a5160; font-size: 0.85em; }
.plots { display: grid; grid-template-columns: repeat(auto-fit, minmax(30em, 1fr)); gap: 1em; }
footer { margin-top: 3em; color: #7a8190; font-size: 0.8em; }
"""


def _svg(fig):
    """The figure as an inline <svg> element (fonts as paths: no font needed to view it)."""
    import matplotlib
    import matplotlib.pyplot as plt
    buffer = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "path"}):
        fig.savefig(buffer, format="svg", bbox_inches="tight")
    plt.close(fig)
    text = buffer.getvalue()
    return text[text.index("<svg"):]


def _fmt(v, digits=3):
    if v is None:
        return "–"
    if isinstance(v, str):
        try:
            v = int(v)
        except ValueError:
            return html.escape(v)
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, int):
        return f"{v:,}"
    if isinstance(v, float):
        if math.isnan(v) or math.isinf(v):
            return "–"
        if v != 0 and (abs(v) >= 1e6 or abs(v) < 1e-3):
            return f"{v:.{digits}e}"
        return f"{v:,.{digits}g}" if abs(v) < 1000 else f"{v:,.0f}"
    return html.escape(str(v))


def _table(headers, rows, best=None):
    head = "".join(f'<th class="{"name" if i == 0 else ""}">{html.escape(h)}</th>'
                   for i, h in enumerate(headers))
    body = []
    for r, row in enumerate(rows):
        cls = ' class="best"' if best is not None and r == best else ""
        cells = "".join(f'<td class="{"name" if i == 0 else ""}">{_fmt(v)}</td>'
                        for i, v in enumerate(row))
        body.append(f"<tr{cls}>{cells}</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _figure(svg, caption, name):
    return (f'<figure class="plot" data-plot="{name}">{svg}'
            f"<figcaption>{html.escape(caption)}</figcaption></figure>")


def _request_view(config, *, prompt, tokens, batch, arch, scheme, dataflow):
    """The request section: a whole generation request (tenet.generate) of the first scheme —
    TTFT, TPOT, tokens/s, fits, memory, time per op kind — and its plots (time per op kind,
    TPOT against the batch)."""
    from . import plot
    batches = sorted({batch, 2 * batch, 4 * batch})
    requests = {b: generate(config, prompt=prompt, tokens=tokens, batch=b, arch=arch,
                            quant=scheme, dataflow=dataflow) for b in batches}
    r = requests[batch]
    t, m = r["timeline"], r["memory"]
    gib = 1 << 30
    summary = _table(
        ["scheme", "TTFT (ms)", "TPOT (ms)", "end to end (ms)", "tokens/s", "fits",
         "max batch"],
        [[scheme, t["ttft_seconds"] * 1e3,
          t["tpot_seconds"] * 1e3 if t["tpot_seconds"] is not None else None,
          t["e2e_seconds"] * 1e3, t["tokens_per_second"], m["fits"], m["max_batch"]]])
    memory = _table(
        ["memory", "GiB"],
        [[name, float(m[key]) / gib if m[key] is not None else None]
         for name, key in [("weights", "weights_bytes"), ("KV cache", "kv_cache_bytes"),
                           ("recurrent state", "state_bytes"),
                           ("activations (peak)", "activation_bytes"),
                           ("total", "total_bytes"), ("per chip", "per_chip_bytes"),
                           ("capacity", "capacity_bytes")]])
    busy = sum(o["seconds"] for o in r["ops"].values()) or 1.0
    ops = _table(["op kind", "seconds", "share", "DRAM bytes"],
                 [[kind, o["seconds"], o["seconds"] / busy, o["dram_bytes"]]
                  for kind, o in r["ops"].items()])
    figures = [
        _figure(_svg(plot.request_ops(r)),
                "Busy time of one chip per operator kind over the whole request (matmuls and "
                "the non-matmul operators on the vector unit).", "request-ops"),
        _figure(_svg(plot.tpot_by_batch(requests)),
                f"Mean time per output token against the batch (prompt {prompt}, "
                f"{tokens} tokens).", "tpot-batch"),
    ]
    return f"""<h2 id="request">Request</h2>
<p>One generation request under {html.escape(scheme)}: the prefill of {prompt} tokens, then
{tokens - 1} decode steps, at batch {batch} (docs/generate.md).</p>
<section class="request">
{summary}
<div class="plots"><div>{memory}</div><div>{ops}</div></div>
<div class="plots">{''.join(figures)}</div>
</section>"""


def build(config, *, phase="decode", batch=1, prompt=512, context=1024, arch=None,
          quant=None, dataflow=None, with_search=True, with_ski_slope=True,
          with_request=True, request_tokens=16):
    """The report as an HTML string. ``config``: a Hugging Face config.json path or dict.
    ``with_request``: add the request view (a whole request of the first scheme: the prompt
    of ``prompt`` tokens, then ``request_tokens`` tokens, at ``batch``; docs/report.md)."""
    from . import plot
    schemes = quant or DEFAULT_SCHEMES
    if isinstance(schemes, str):
        schemes = schemes.split(",")
    size = {"prompt": prompt} if phase == "prefill" else {"context": context}
    result = model(config, phase=phase, batch=batch, arch=arch, quant=list(schemes),
                   dataflow=dataflow, **size)
    data = result.to_dict()
    reports = {s["scheme"]: s for s in data["schemes"]} if "schemes" in data else \
        {schemes[0]: data}
    first = next(iter(reports.values()))
    inputs = data.get("inputs") or first.get("inputs", {})
    acc = accelerator(arch)
    title = f"{inputs.get('model', 'model')} {phase} on {acc['name']}"

    # Per-scheme comparison.
    rows = []
    for name, r in reports.items():
        t = r["totals"]
        bounds = t.get("bounds", {})
        rows.append([name, t["cycles"], t["seconds"] * 1e3, t.get("tokens_per_second"),
                     t["energy_pj"] / 1e6, t["dram_bytes"], t["utilization"],
                     bounds.get("cycles_ratio"), bounds.get("dram_bytes_ratio")])
    fastest = min(range(len(rows)), key=lambda i: float(rows[i][1]))
    comparison = _table(["scheme", "cycles", "time (ms)", "tokens/s", "energy (µJ)",
                         "DRAM bytes", "utilization", "cycles / bound", "DRAM / bound"],
                        rows, best=fastest)

    # Per-layer table of each scheme.
    layer_tables = []
    for name, r in reports.items():
        lrows = [[l["name"], l["M"], l["N"], l["K"], l["count"], l["cycles"], l["bound"],
                  l["utilization"], l["dram_bytes"], l["energy_pj"] / 1e6,
                  l.get("bounds", {}).get("cycles_ratio")] for l in r["layers"]]
        layer_tables.append(f"<h3>{html.escape(name)}</h3>" + _table(
            ["layer", "M", "N", "K", "calls", "cycles", "bound", "utilization", "DRAM bytes",
             "energy (µJ)", "cycles / bound"], lrows))

    # Plots.
    figures = [
        _figure(_svg(plot.layers_by_scheme(result, "cycles")),
                "Cycles per layer (all calls) under each scheme.", "layers-cycles"),
        _figure(_svg(plot.layers_by_scheme(result, "energy_pj")),
                "Energy per layer (all calls) under each scheme.", "layers-energy"),
        _figure(_svg(plot.roofline(result, acc)),
                "Each layer at its arithmetic intensity under each scheme, with the "
                "accelerator's compute roofs per MAC precision and its DRAM bandwidth.",
                "roofline"),
    ]
    heaviest = max(first["layers"], key=lambda l: float(l["cycles"]))
    gemm = (heaviest["M"], heaviest["N"], heaviest["K"])
    if with_ski_slope:
        curve = ski_slope(gemm, arch=arch, quant=schemes[0], points=10)
        figures.append(_figure(
            _svg(plot.ski_slope(curve)),
            f"DRAM traffic of {heaviest['name']} ({gemm[0]}x{gemm[1]}x{gemm[2]}, "
            f"{schemes[0]}) against the global-buffer size: tenet's least-traffic mapping, the "
            "least traffic of the modelled mapping classes and the schedule-independent lower "
            "bound.", "ski-slope"))
    if with_search:
        found = search(gemm, arch=arch, quant=schemes[0], front="exact")
        figures.append(_figure(
            _svg(plot.pareto(found)),
            f"Latency / energy Pareto front of the mappings of {heaviest['name']} "
            f"({schemes[0]}).", "pareto"))

    request_view = _request_view(config, prompt=prompt, tokens=request_tokens, batch=batch,
                                 arch=arch, scheme=schemes[0], dataflow=dataflow) \
        if with_request else ""

    facts = ", ".join(f"{k}: {v}" for k, v in inputs.items())
    assumptions = "".join(f"<li>{html.escape(a)}</li>" for a in data.get("assumptions") or first.get("assumptions", []))
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>tenet: {html.escape(title)}</title>
<style>{_CSS}</style></head>
<body>
<h1>{html.escape(title)}</h1>
<p class="facts">{html.escape(facts)}<br>{html.escape(first['cost_model']['description'])}</p>
<h2>Schemes</h2>
{comparison}
<p>Bold: the fastest scheme. "/ bound": achieved over the least DRAM traffic and cycles of the
modelled mapping classes on this accelerator (1.00 = at the limit).</p>
<h2>Plots</h2>
<div class="plots">{''.join(figures)}</div>
{request_view}
<h2>Layers</h2>
{''.join(layer_tables)}
{f'<h2>Assumptions</h2><ul>{assumptions}</ul>' if assumptions else ''}
<footer>Made by tenet (exact relation-centric model of spatial accelerators). The scheme and
layer sections count matmuls only; the request view adds the non-matmul operators on the vector
unit. Host overheads are not counted.</footer>
</body></html>
"""


def write(path, config, **options):
    """Writes the report to ``path`` (UTF-8) and returns the path."""
    text = build(config, **options)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path
