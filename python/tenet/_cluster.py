"""Sweeps on a Dask distributed cluster (tenet.sweep(spec, client=...)).

The points are split into shards ("i/n": the points whose index % n == i - 1, as
``tenet sweep --shard``); each shard is one task that runs the library's sweep on its worker and
returns its rows. Dask runs a task again when its worker dies before the result is in, so a
killed worker loses no point. The rows are gathered and put back in point order: the result
equals a local run's.
"""

import json as _json
import uuid


def _run_shard(spec, index, count, threads, memo):
    """One shard, on a worker: (JSON Lines text of its rows, summary)."""
    from . import _tenet
    return _tenet.sweep(spec, threads, f"{index}/{count}", memo, None)


def sweep_on_cluster(spec, client, shards=None, threads=1, memo=True):
    from . import SweepResult
    spec_arg = spec  # a path (the workers share this machine's files) or the spec as a dict
    if shards is None:
        workers = len(client.scheduler_info().get("workers", {})) or 1
        shards = 2 * workers
    if shards < 1:
        raise ValueError("shards must be >= 1")
    run = uuid.uuid4().hex
    futures = [client.submit(_run_shard, spec_arg, i, shards, threads, memo, pure=False,
                             key=f"tenet-sweep-{run}-shard-{i}-of-{shards}")
               for i in range(1, shards + 1)]
    results = client.gather(futures)
    rows = []
    columns = None
    totals = {"points": 0, "in_shard": 0, "written": 0, "errors": 0, "layer_requests": 0,
              "layer_evaluations": 0, "seconds": 0.0}
    for lines, summary in results:
        rows.extend(_json.loads(line) for line in lines.splitlines() if line)
        columns = summary["columns"]
        for key in totals:
            if key == "points":
                totals[key] = summary[key]
            else:
                totals[key] += summary[key]
    rows.sort(key=lambda row: row["index"])
    totals["columns"] = columns
    totals["shards"] = shards
    return SweepResult(rows, totals)

