"""tenet: exact latency, utilization, traffic and energy of LLM matmuls on spatial accelerators.

The Python face of the tenet library (docs/python.md). Every function goes through the library's
one evaluation entry point, as the ``tenet`` command does, and a result's ``to_dict()`` is exactly
the JSON the command prints for the same inputs.

    >>> import tenet
    >>> r = tenet.analyze((37, 1024, 1024), arch="scalable-32x32", quant="q4f16_1")
    >>> r["cycles"]["total"], r["bounds"]["dram_bytes"]
    >>> m = tenet.model("workloads/models/llama-2-7b.json", phase="decode", context=1024,
    ...                 quant="q4f16_1")
    >>> m.layers          # a pandas DataFrame (a list of dicts without pandas)

Inputs are file paths, preset names or Python dicts (the content of the JSON file). Bad input
raises :class:`tenet.InputError` with ``.code``, ``.file`` and ``.pointer`` (the JSON pointer,
line or field). Evaluation releases the GIL, so threads evaluate in parallel.
"""

import json as _json
import os

from . import _tenet
from ._tenet import InputError

__all__ = [
    "InputError", "Result", "ModelResult", "SweepResult", "analyze", "evaluate", "compare",
    "kernel",
    "model", "generate", "log", "tir", "sweep", "search", "bounds", "ski_slope", "model_matmuls", "accelerator", "calibrate",
    "defaults", "quant_presets",
]

InputError.__doc__ = """Bad input: a file, a field or a value tenet cannot use.

Attributes: ``code`` (parse, type, range, unknown-name, missing-field, unknown-field, overflow,
usage, io, ...), ``file`` (the file, or "" for a dict or a value), ``pointer`` (JSON pointer such
as ``/weights/scales``, ``line N``, or the name of the argument) and ``detail`` (what was
expected)."""


def _error(pointer, detail, code="usage"):
    """A tenet.InputError raised by the Python layer (an argument, not a file)."""
    err = InputError(f"{pointer}: {detail} [{code}]")
    err.code, err.file, err.pointer, err.detail = code, "", pointer, detail
    return err


def _frame(rows):
    """A pandas DataFrame of the rows when pandas is installed, else the list itself."""
    try:
        import pandas
    except ImportError:  # pandas is optional
        return rows
    return pandas.DataFrame(rows)


class Result:
    """A report: ``to_dict()`` is the command's JSON; ``result[key]`` reads it; ``text`` is the
    table the command prints (when asked with ``format="table"``)."""

    def __init__(self, data, kind):
        self._data = data
        self.kind = kind

    def to_dict(self):
        """The report as the ``tenet`` command's ``--format json`` prints it (a fresh copy)."""
        return _json.loads(_json.dumps(self._data))

    def __getitem__(self, key):
        return self._data[key]

    def __contains__(self, key):
        return key in self._data

    def keys(self):
        return self._data.keys()

    def __repr__(self):
        items = self._data if isinstance(self._data, dict) else {}
        keys = ", ".join(list(items)[:8])
        return f"<tenet.{type(self).__name__} {self.kind}: {keys}>"


class ModelResult(Result):
    """A model, log or TIR report: ``layers`` and ``totals``; with several schemes ``schemes``."""

    @property
    def layers(self):
        """One row per matmul entry (a DataFrame with pandas): the shape columns, the costs over
        all calls of the entry, ``bounds_*`` columns, ``scheme`` (the scheme each row was costed
        with), ``precision_fallback`` ("fp16 on int16", or None) and the array's use
        (``array_rows``, ``array_cols``, ``rows_used``, ``cols_used``, ``array_note``: why a
        compute-bound row is slow when the mapping under-uses the array, or None)."""
        rows = []
        if "schemes" in self._data:
            for s in self._data["schemes"]:
                for layer in s.get("layers", []):
                    rows.append(dict(_flat_layer(layer), scheme=s["scheme"]))
        else:
            rows = [_flat_layer(layer) for layer in self._data.get("layers", [])]
        return _frame(rows)

    @property
    def totals(self):
        """The totals (dict), or per scheme {scheme: totals} for a comparison."""
        if "schemes" in self._data:
            return {s["scheme"]: s["totals"] for s in self._data["schemes"]}
        return self._data["totals"]


def _flat_layer(layer):
    row = {k: v for k, v in layer.items() if not isinstance(v, dict)}
    fallback = layer.get("precision_fallback")
    if fallback:  # {"requested": "fp16", "used": "int16"} -> "fp16 on int16"
        row["precision_fallback"] = fallback["requested"] + " on " + fallback["used"]
    for key, value in layer.get("bounds", {}).items():
        row["bounds_" + key] = value
    use = layer.get("array_use")
    if use:  # the CSV's columns: the array, the rows and columns in use, the note (or None)
        row.update(array_rows=use["rows"], array_cols=use["cols"], rows_used=use["rows_used"],
                   cols_used=use["cols_used"], array_note=use["note"])
    return row


class SweepResult:
    """The rows of a sweep, exactly as ``tenet sweep --out FILE.jsonl`` writes them."""

    def __init__(self, rows, summary):
        self.rows = rows
        self.summary = summary

    def to_dict(self):
        return {"rows": _json.loads(_json.dumps(self.rows)), "summary": dict(self.summary)}

    def to_frame(self):
        """The rows as a pandas DataFrame (columns in the CLI's order)."""
        import pandas
        return pandas.DataFrame(self.rows, columns=self.summary.get("columns"))

    def __len__(self):
        return len(self.rows)

    def __iter__(self):
        return iter(self.rows)

    def __repr__(self):
        return f"<tenet.SweepResult {len(self.rows)} rows>"


def _settings(arch=None, array=None, dataflow=None, quant=None, timing=None, tile=None,
              tiling_objective=None, dequant_rate=None, dequant_ops_rate=None,
              edge_transfers=None):
    s = {"arch": arch, "array": array, "dataflow": dataflow, "quant": quant, "timing": timing,
         "tile": tile, "tiling_objective": tiling_objective, "dequant_rate": dequant_rate,
         "dequant_ops_rate": dequant_ops_rate, "edge_transfers": edge_transfers}
    return {k: v for k, v in s.items() if v is not None}


def _gemm(gemm):
    if isinstance(gemm, str):
        parts = gemm.split(",")
    else:
        parts = list(gemm)
    if len(parts) != 3:
        raise _error("gemm", f"expected (M, N, K), got {gemm!r}", "parse")
    try:
        return tuple(int(p) for p in parts)
    except (TypeError, ValueError):
        raise _error("gemm", f"expected three integers (M, N, K), got {gemm!r}", "parse") from None


def _report(text, kind, cls=Result):
    return cls(_json.loads(text), kind)


def analyze(gemm=None, *, spec=None, tenet_files=None, arch=None, array=None, dataflow=None,
            quant=None, timing=None, tile=None, tiling_objective=None, loop_order=None,
            dequant_rate=None, edge_transfers=None, bits=(16, 16, 16), bandwidth=64, latency=1,
            hops=None, same_time=None, prev_time=None, compute_delay=None, accumulate=False,
            format="json"):
    """``tenet analyze``: one workload's metrics.

    gemm: (M, N, K) or "M,N,K" (with ``arch`` and/or ``array``); or spec: a JSON spec path or
    dict; or tenet_files: (statement.s, pe.p, mapping.m). The other arguments are the command's
    options (docs/cli.md); accumulate=True is ``--accumulate`` (C = C + A·B, a GEMM only).
    format="json" returns a :class:`Result`; "table" / "csv" the text.
    """
    analysis = {"hops": hops, "same_time": same_time, "prev_time": prev_time,
                "compute_delay": compute_delay}
    analysis = {k: v for k, v in analysis.items() if v is not None}
    given = sum(x is not None for x in (gemm, spec, tenet_files))
    if given != 1:
        raise _error("gemm", "give exactly one of gemm, spec or tenet_files")
    if gemm is not None:
        if arch is None and array is None:
            raise _error("array", "a GEMM needs arch (an accelerator) or array (RxC)")
        m, n, k = _gemm(gemm)
        settings = _settings(arch, array, dataflow, quant, timing, tile, tiling_objective,
                             dequant_rate, None, edge_transfers)
        text = _tenet.analyze_gemm(m, n, k, settings, list(bits), bandwidth, latency,
                                   loop_order or "", analysis, bool(accumulate), format)
    else:
        if accumulate:
            raise _error("accumulate", "accumulate is a GEMM generator setting (gemm=...); a "
                         "spec states C's read access itself", "usage")
        text = _tenet.analyze_problem(spec, list(tenet_files or []), analysis, format)
    return _report(text, "analyze") if format == "json" else text


_EVALUATORS = {}


def _evaluator(settings):
    """The resolved settings (presets read once per process; a file again when it changes)."""
    try:
        key = tuple(sorted(settings.items()))
        hash(key)
    except TypeError:  # a dict (an accelerator or scheme given inline): not cached
        return _tenet.Evaluator(settings)
    for field in ("arch", "quant"):
        value = settings.get(field)
        if isinstance(value, str) and (value.endswith(".json") or os.sep in value):
            try:
                key += (os.stat(value).st_mtime_ns,)
            except OSError:
                pass
    evaluator = _EVALUATORS.get(key)
    if evaluator is None:
        if len(_EVALUATORS) > 256:
            _EVALUATORS.clear()
        evaluator = _EVALUATORS[key] = _tenet.Evaluator(settings)
    return evaluator


def evaluate(gemm, *, batch=1, arch=None, array=None, dataflow=None, quant=None, tile=None,
             tiling_objective=None, dequant_rate=None, dequant_ops_rate=None,
             edge_transfers=None, name="gemm", accumulate=False):
    """One matmul's cost, the fast path: ``{cycles, bound, utilization, dram_bytes, sram_bytes,
    energy_pj, bounds, tiling, dataflow, scheme}`` (the per-call fields of a model report).
    accumulate=True: C = C + A·B (``--accumulate``)."""
    m, n, k = _gemm(gemm)
    settings = _settings(arch, array, dataflow, quant, None, tile, tiling_objective, dequant_rate,
                         dequant_ops_rate, edge_transfers)
    return _evaluator(settings).evaluate(m, n, k, batch, name, bool(accumulate))


def bounds(gemm, **settings):
    """The physical limits of one GEMM (docs/output.md#physical-limits-bounds): the least DRAM
    traffic and cycles of the modelled mapping classes, the schedule-independent lower bound
    (``schedule_independent_dram_bytes``), with the achieved/bound ratios of tenet's mapping."""
    return evaluate(gemm, **settings)["bounds"]


def compare(gemm, quant, *, arch=None, array=None, dataflow=None, tile=None,
            tiling_objective=None, dequant_rate=None, edge_transfers=None, kv=False,
            kv_token_axis="n", accumulate=False, format="json"):
    """``tenet compare``: one GEMM under several schemes (names, paths or dicts; a list or
    "a,b,c"); accumulate=True is ``--accumulate`` (C = C + A·B)."""
    m, n, k = _gemm(gemm)
    schemes = quant.split(",") if isinstance(quant, str) else list(quant)
    settings = _settings(arch, array, dataflow, None, None, tile, tiling_objective, dequant_rate,
                         None, edge_transfers)
    text = _tenet.compare(m, n, k, schemes, settings, kv, kv_token_axis, bool(accumulate),
                          format)
    return _report(text, "compare") if format == "json" else text


def _sizes(value, count, field, names):
    if value is None:
        return []
    parts = value.split(",") if isinstance(value, str) else list(value)
    try:
        sizes = [int(p) for p in parts]
    except (TypeError, ValueError):
        raise _error(field, f"expected {count} integers {names}, got {value!r}", "range")
    if len(sizes) != count:
        raise _error(field, f"expected {count} integers {names}, got {value!r}", "range")
    return sizes


def kernel(*, ffn=None, activation=None, bias=False, attention=None, causal=False, scores=None,
           arch=None, array=None, dataflow=None, quant=None, dequant_rate=None,
           dequant_ops_rate=None, relation_centric=False, format="json", window=None):
    """``tenet kernel``: one fused kernel on one accelerator. ffn=(S, H, I) with
    activation="silu_gated" | "gelu" (bias=True for bias vectors), or attention=(HQ, HKV, Q, KV,
    D) with causal, window=W (``--window``: a sliding window, causal only) and scores="on_chip" |
    "dram" | "materialised" | "chip" (None: the chip's own, docs/cli.md); relation_centric=True is ``--relation-centric``. Returns the JSON
    report (docs/output.md)."""
    settings = _settings(arch, array, dataflow, quant, None, None, None, dequant_rate,
                         dequant_ops_rate, None)
    text = _tenet.kernel(_sizes(ffn, 3, "ffn", "S,H,I"),
                         _sizes(attention, 5, "attention", "HQ,HKV,Q,KV,D"), activation or "",
                         bool(bias), bool(causal), scores or "", bool(relation_centric),
                         settings, format, window)
    return _report(text, "kernel") if format == "json" else text


def _pass(phase, batch, prompt, context, qkv, gate_up, lm_head, attention, mla, routing,
          attention_kernel=None):
    p = {"phase": phase, "batch": batch, "prompt": prompt, "context": context, "qkv": qkv,
         "gate_up": gate_up, "lm_head": lm_head, "attention": attention, "mla": mla,
         "routing": routing, "attention_kernel": attention_kernel}
    return {k: v for k, v in p.items() if v is not None}


def model(config, *, phase=None, batch=None, prompt=None, context=None, qkv=None,
          gate_up=None, lm_head=None, attention=None, mla=None, routing=None, arch=None,
          array=None, dataflow=None, quant=None, tile=None, tiling_objective=None,
          dequant_rate=None, dequant_ops_rate=None, edge_transfers=None, shapes_only=False,
          merge_shapes=False, attention_kernel=None, format="json"):
    """``tenet model``: the matmuls of a Hugging Face config (path or dict) in one prefill or
    decode pass and their cost. ``quant`` may list schemes ("a,b" or a list of names): a
    side-by-side comparison."""
    if isinstance(quant, (list, tuple)):
        quant = ",".join(quant)
    p = _pass(phase, batch, prompt, context, qkv, gate_up, lm_head, attention, mla, routing,
              attention_kernel)
    settings = _settings(arch, array, dataflow, quant, None, tile, tiling_objective,
                         dequant_rate, dequant_ops_rate, edge_transfers)
    text = _tenet.model(config, p, settings, shapes_only, merge_shapes, format)
    return _report(text, "model", ModelResult) if format == "json" else text


def generate(config, *, prompt, tokens, batch=None, tp=None, pp=None, micro_batches=None,
             link_gbps=None, link_latency_us=None, qkv=None, gate_up=None, attention=None,
             attention_kernel=None, arch=None, array=None, dataflow=None, quant=None, tile=None,
             tiling_objective=None, dequant_rate=None, dequant_ops_rate=None,
             edge_transfers=None, format="json"):
    """``tenet generate``: a whole generation request of a Hugging Face config (path or dict):
    the prefill of ``prompt`` tokens then ``tokens`` - 1 decode steps at ``batch``; returns the
    command's JSON as a dict (``timeline``, ``memory``, ``ops``, ``parallel``; docs/generate.md),
    or its text for another ``format``."""
    request = {"prompt": prompt, "tokens": tokens, "batch": batch, "tp": tp, "pp": pp,
               "micro_batches": micro_batches, "link_gbps": link_gbps,
               "link_latency_us": link_latency_us}
    request = {k: v for k, v in request.items() if v is not None}
    p = _pass(None, None, None, None, qkv, gate_up, None, attention, None, None,
              attention_kernel)
    settings = _settings(arch, array, dataflow, quant, None, tile, tiling_objective,
                         dequant_rate, dequant_ops_rate, edge_transfers)
    text = _tenet.generate(config, request, p, settings, format)
    return _json.loads(text) if format == "json" else text


def log(path, *, log_format="auto", lenient=False, tokens=None, tir=None, arch=None, array=None,
        dataflow=None, quant=None, tile=None, tiling_objective=None, dequant_rate=None,
        dequant_ops_rate=None, edge_transfers=None, shapes_only=False, merge_shapes=False,
        format="json"):
    """``tenet log``: the matmul calls of a workload log (tenet_hook JSON Lines or text), with
    their cost. Warnings (skipped lines with ``lenient``) go to ``warnings`` of the result."""
    import warnings
    if isinstance(quant, (list, tuple)):
        quant = ",".join(quant)
    settings = _settings(arch, array, dataflow, quant, None, tile, tiling_objective,
                         dequant_rate, dequant_ops_rate, edge_transfers)
    text, notes = _tenet.log(str(path), log_format, lenient, tokens or 0, tir or "", settings,
                             shapes_only, merge_shapes, format)
    for note in notes:
        warnings.warn("tenet: " + note, stacklevel=2)
    return _report(text, "log", ModelResult) if format == "json" else text


def tir(path, *, bind=None, func=None, arch=None, dataflow=None, quant="auto",
        shapes_only=False, format="json"):
    """``tenet tir``: the matmul kernels of a TVMScript dump (a printed IRModule or one PrimFunc),
    recognised by structure, bound to sizes (``bind``: {"seq_len": 512} or "seq_len=512") and
    costed; ``quant="auto"`` takes each kernel's own dequantize chain."""
    if isinstance(bind, dict):
        bind = ",".join(f"{k}={v}" for k, v in bind.items())
    text, notes = _tenet.tir(str(path), func or "", bind or "", arch or "", dataflow or "",
                             quant or "auto", shapes_only, format)
    if notes:
        import warnings
        warnings.warn("tenet: " + notes.strip(), stacklevel=2)
    return _report(text, "tir", ModelResult) if format == "json" else text


def model_matmuls(config, *, phase=None, batch=None, prompt=None, context=None, **kw):
    """The matmul entries of a model pass: [{name, m, n, k, batch, count}]. Attention as its two
    matmuls qk and pv (``attention_kernel="unfused"``) unless ``attention_kernel="fused"`` is
    given (a fused row is a kernel, not a matmul: docs/llm.md#fused-attention)."""
    return _tenet.model_matmuls(config, {"attention_kernel": "unfused"} |
                                _pass(phase, batch, prompt, context, None, None, None, None, None,
                                      None) | kw)


def search(gemm=None, *, model=None, phase=None, batch=None, prompt=None, context=None,
           arch=None, quant=None, objective=None, dataflows=None, front="exact",
           dequant_rate=None):
    """``tenet search``: the best mapping (dataflow, tiles, loop order) of a GEMM or of every
    matmul of a model pass under an objective, with the Pareto front (the CLI's JSON). Unset
    settings take the library's defaults (``defaults()``: scalable-32x32, q0f16, latency,
    os/ws/is)."""
    model = os.fspath(model) if isinstance(model, os.PathLike) else model
    text = _tenet.search(None if gemm is None else _gemm(gemm), model,
                         _pass(phase, batch, prompt, context, None, None, None, None, None, None),
                         _settings(arch=arch, quant=quant, dequant_rate=dequant_rate),
                         objective or "", list(dataflows or ()), front == "exact")
    return Result(_json.loads(text), "search")


def sweep(spec, *, threads=1, progress=None, shard=None, memo=True, client=None, shards=None):
    """``tenet sweep``: every point of a sweep spec (path or dict), one row per point.

    threads: worker threads of the library. progress: True for a tqdm bar (when tqdm is
    installed), a callable ``f(done, total, elapsed_seconds)``, or None. shard: "i/n".
    client: a dask.distributed Client: the sweep runs as ``shards`` tasks (default: twice the
    workers) on the cluster and the rows are gathered in point order; a task whose worker dies is
    run again, so no point is lost. The rows equal a local run's.
    """
    if client is not None:
        from ._cluster import sweep_on_cluster
        return sweep_on_cluster(spec, client, shards=shards, threads=threads, memo=memo)
    bar = None
    callback = progress if callable(progress) else None
    if progress is True:
        try:
            from tqdm import tqdm
            bar = tqdm(unit="point", desc="sweep")

            def callback(done, total, elapsed):
                bar.total = total
                bar.n = done
                bar.refresh()
        except ImportError:
            callback = None
    try:
        lines, summary = _tenet.sweep(spec, threads, shard or "", memo, callback)
    finally:
        if bar is not None:
            bar.close()
    rows = [_json.loads(line) for line in lines.splitlines() if line]
    return SweepResult(rows, summary)


def ski_slope(gemm=None, buffers=None, *, model=None, phase="prefill", batch=1, prompt=None,
              context=None, arch=None, quant=None, dataflows=None,
              points=16, smallest=64 * 1024, largest=64 * 1024 * 1024, bound_only=False):
    """``tenet bound``: least DRAM traffic against global-buffer size (the "ski slope") for one
    GEMM or a whole model pass: per buffer size, the schedule-independent lower bound, the least
    traffic of the modelled mapping classes and the least
    traffic of tenet's mappings (best dataflow, tiling searched for dram_bytes). ``buffers``:
    sizes in bytes, else ``points`` sizes spaced geometrically from ``smallest`` to ``largest``.
    Returns {"inputs", "points": [{buffer_bytes, bound_dram_bytes, compulsory_dram_bytes,
    schedule_independent_dram_bytes,
    dram_bytes, ratio, dataflow, tiling}], "title"} (the CLI's JSON + a title)."""
    if gemm is not None:
        m, n, k = _gemm(gemm)
        title = f"{m}x{n}x{k}"
    else:
        title = f"{os.path.basename(str(model)) if isinstance(model, str) else 'model'} {phase}"
    if buffers is None:
        buffers = _tenet.buffer_sizes(int(smallest), int(largest), int(points))
    curve = _json.loads(_tenet.bound(
        None if gemm is None else (m, n, k), model,
        _pass(phase, batch, prompt, context, None, None, None, None, None, None),
        _settings(arch=arch, quant=quant), [int(b) for b in buffers], list(dataflows or ()),
        bound_only))
    inputs = curve["inputs"]
    curve["title"] = f"{title} on {inputs['arch']}" + (f", {inputs['quant']}" if quant else "")
    return curve


def accelerator(arch=None):
    """An accelerator's description (preset name, path or dict; None: the default preset) as its
    JSON file would hold it."""
    return _tenet.accelerator_info(defaults()["accelerator"] if arch is None else arch)


def defaults():
    """The library's defaults (include/tenet/eval/defaults.hpp): accelerator, dataflow, scheme,
    tiling_objective, edge_transfers and the dataflows search and ski_slope try."""
    return _tenet.defaults()


def calibrate(measurements, arch, config=None, free=None, dataflow="os", bits=None,
              edge_transfers=True, max_sweeps=200, predict_only=False):
    """Fit an accelerator file's free constants to measured runs (docs/hardware.md, Calibration).

    ``measurements`` is a CSV path (columns as ``tenet calibrate``), ``arch`` a preset name, path
    or dict; ``config`` keeps the rows of that configuration; ``free`` lists JSON pointers
    (``"/dram/latency_cycles"`` or ``"/dram/latency_cycles=0:200"``; None = the defaults);
    ``bits`` are the widths of A, B and C (None: from the accelerator's one MAC precision, as
    ``tenet calibrate`` without ``--bits-*``; an accelerator with several needs them). Returns ``tenet calibrate --format json``'s dict:
    ``arch`` (the fitted file), ``rows`` (every row's measured and predicted cycles, ``error``),
    ``within_5_percent``, ... Same inputs, same result (deterministic coordinate descent)."""
    return _json.loads(_tenet.calibrate(
        os.fspath(measurements), arch, config or "", list(free or []), dataflow,
        [int(b) for b in (bits or [])], bool(edge_transfers), int(max_sweeps), bool(predict_only)))


def quant_presets():
    """The names of the bundled quantization presets."""
    return list(_tenet.quant_presets())
