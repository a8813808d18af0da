"""Sweeps on a real local Ray cluster (a head and two worker nodes on 127.0.0.1, started with
``ray start`` for this module) against a serve-model endpoint with latency: the same results
as the local engine; a worker process killed mid-sweep loses nothing and duplicates nothing;
the shared limiter keeps the request rate at the server under the profile's limit."""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import time
from pathlib import Path

import pytest

from playbench.app.agents.serve import ModelServer, ServeOptions
from tests.studies.pgserver import start_server
from tests.sweeps.helpers import (
    board,
    outcomes,
    playbench,
    step_integrity,
    sweep_file,
    write_profile,
)
from tests.sweeps.raycluster import start_cluster

pytestmark = pytest.mark.ray


@pytest.fixture(scope="module")
def cluster():
    c = start_cluster(workers=2)
    yield c
    c.stop()


@pytest.fixture(scope="module")
def endpoint():
    server = ModelServer(ServeOptions(latency_ms=150)).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def local_run(tmp_path_factory, endpoint):
    """The sweep played by the local engine: the reference every Ray run must match."""
    root = tmp_path_factory.mktemp("local")
    write_profile(root / "config", "stand", endpoint.url)
    path = sweep_file(root, "grid", ["model:stand", "random"])
    db = f"sqlite:///{root / 'local.sqlite3'}"
    code, out, err = playbench(["sweep", "run", str(path), "--concurrency", "4",
                                "--no-progress"], db=db, cwd=root, config=root / "config")
    assert code == 0, err
    return db


def test_ray_engine_gives_the_local_results(cluster, endpoint, local_run, tmp_path):
    write_profile(tmp_path / "config", "stand", endpoint.url)
    path = sweep_file(tmp_path, "grid", ["model:stand", "random"])
    db = f"sqlite:///{tmp_path / 'ray.sqlite3'}"
    args = ["sweep", "run", str(path), "--engine", "ray", "--address", cluster.address,
            "--concurrency", "4", "--shard-dir", str(tmp_path / "shards"), "--no-progress"]
    code, out, err = playbench(args, db=db, cwd=tmp_path, config=tmp_path / "config")
    assert code == 0, err + cluster.logs()
    assert outcomes(db) == outcomes(local_run)
    assert board(db) == board(local_run)
    assert len(outcomes(db)) == 28 and set(step_integrity(db).values()) == {1}
    # Running the file again plays nothing and records nothing new.
    code, out, err = playbench(args, db=db, cwd=tmp_path, config=tmp_path / "config")
    assert code == 0, err
    assert "28 already done, 0 to play" in out
    assert outcomes(db) == outcomes(local_run)


def test_with_postgresql_the_workers_write_the_shared_database(cluster, endpoint, local_run,
                                                              tmp_path):
    pg = start_server()
    try:
        db = pg.create_database("sweep_ray")
        write_profile(tmp_path / "config", "stand", endpoint.url)
        path = sweep_file(tmp_path, "grid", ["model:stand", "random"])
        code, out, err = playbench(["sweep", "run", str(path), "--engine", "ray", "--address",
                                    cluster.address, "--concurrency", "4",
                                    "--shard-dir", str(tmp_path / "shards"), "--no-progress"],
                                   db=db, cwd=tmp_path, config=tmp_path / "config")
        assert code == 0, err + cluster.logs()
        assert not list((tmp_path / "shards").glob("*.sqlite3"))  # no shard was needed
        assert outcomes(db) == outcomes(local_run)
        assert set(step_integrity(db).values()) == {1}
    finally:
        pg.stop()


def _running_shard(shards: Path) -> tuple[int, int] | None:
    """(pid, steps) of a worker playing a cell with a few steps recorded in its shard."""
    for shard in shards.glob("*.sqlite3"):
        if shard.name.startswith("."):
            continue
        try:
            with sqlite3.connect(f"file:{shard}?mode=ro", uri=True, timeout=1) as conn:
                row = conn.execute("select owner, n_steps from episodes where status = "
                                   "'running' and n_steps >= 2").fetchone()
        except sqlite3.Error:
            continue
        if row:
            return int(row[0].rsplit(":", 2)[1]), int(row[1])
    return None


def test_a_killed_worker_loses_nothing_and_duplicates_nothing(cluster, endpoint, local_run,
                                                              tmp_path):
    write_profile(tmp_path / "config", "stand", endpoint.url)
    path = sweep_file(tmp_path, "grid", ["model:stand", "random"])
    db = f"sqlite:///{tmp_path / 'ray.sqlite3'}"
    shards = tmp_path / "shards"
    proc = playbench(["sweep", "run", str(path), "--engine", "ray", "--address",
                      cluster.address, "--concurrency", "4", "--shard-dir", str(shards),
                      "--no-progress"], db=db, cwd=tmp_path, config=tmp_path / "config",
                     wait=False)
    found = None
    deadline = time.monotonic() + 180
    while found is None and time.monotonic() < deadline and proc.poll() is None:
        found = _running_shard(shards)  # polling for the moment to strike, not for a result
        time.sleep(0.05)
    assert found is not None, "no cell was seen mid-episode"
    os.kill(found[0], signal.SIGKILL)
    out, err = proc.communicate(timeout=400)
    assert proc.returncode == 0, err + cluster.logs()
    assert "lost a worker" in err
    resumed = int(re.search(r"\((\d+) resumed\)", out).group(1))
    assert resumed >= 1
    assert outcomes(db) == outcomes(local_run)
    assert set(step_integrity(db).values()) == {1}  # one episode per cell


def test_the_shared_limiter_holds_the_profile_rate_at_the_server(cluster, tmp_path):
    limit = 12
    server = ModelServer(ServeOptions(latency_ms=50)).start()
    try:
        write_profile(tmp_path / "config", "slow", server.url, requests_per_minute=limit)
        path = sweep_file(tmp_path, "limited", ["model:slow"], sokoban="1-4", maze=None,
                          repeats=1)
        db = f"sqlite:///{tmp_path / 'ray.sqlite3'}"
        code, out, err = playbench(
            ["sweep", "run", str(path), "--engine", "ray", "--address", cluster.address,
             "--concurrency", "4", "--shard-dir", str(tmp_path / "shards"), "--no-progress"],
            db=db, cwd=tmp_path, config=tmp_path / "config")
        arrivals = sorted(server.stats.arrivals)
    finally:
        server.stop()
    assert code == 0, err + cluster.logs()
    assert len(arrivals) > limit  # the limit had to hold some requests back
    # At the server, no 60-second window (less 0.5 s for the trip from limiter to server)
    # holds more requests than the profile allows - with two workers asking at once.
    busiest = max(sum(1 for t in arrivals if a <= t < a + 59.5) for a in arrivals)
    assert busiest <= limit
    assert arrivals[-1] - arrivals[0] >= 59.5
