"""Sweeps on a Dask cluster (python3-distributed, a LocalCluster of worker processes): the same
rows as a local run, and a worker killed mid-run loses no point (its shard runs again)."""
import os
import signal
import threading
import time

import pytest

import tenet
from conftest import src

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None, silence_logs=50)
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


def test_cluster_rows_equal_local(client):
    spec = src("workloads", "sweeps", "example.json")
    local = tenet.sweep(spec)
    remote = tenet.sweep(spec, client=client, shards=5)
    assert remote.rows == local.rows
    assert remote.summary["shards"] == 5
    assert remote.summary["written"] == len(local)


def test_killed_worker_loses_no_point(client):
    spec = src("workloads", "sweeps", "llama-arch-grid.json")
    local = tenet.sweep(spec, threads=2)
    before = set(client.scheduler_info()["workers"])
    result = {}

    def run():
        result["sweep"] = tenet.sweep(spec, client=client, shards=4)

    thread = threading.Thread(target=run)
    thread.start()
    # Wait until a worker is busy with a shard, then kill that worker's process.
    victim = None
    for _ in range(200):
        busy = [w for w, keys in client.processing().items()
                if any("tenet-sweep" in str(k) for k in keys)]
        if busy:
            victim = busy[0]
            break
        time.sleep(0.05)
    assert victim is not None
    time.sleep(0.5)  # mid-run
    pid = client.run(os.getpid, workers=[victim])[victim]
    os.kill(pid, signal.SIGKILL)
    thread.join(timeout=300)
    assert not thread.is_alive()
    assert result["sweep"].rows == local.rows
    # The worker really died (the nanny started a new one at another address).
    after = set(client.scheduler_info()["workers"])
    assert victim not in after
