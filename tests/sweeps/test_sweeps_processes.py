"""``sweep run --engine processes``: a sweep played by two worker processes into one real
SQLite file against a real serve-model endpoint records every cell exactly once, the same
episodes the local engine records, and the two processes both played; a second run plays
nothing again."""

from __future__ import annotations

import sqlite3

import pytest

from playbench.app.agents.serve import ModelServer, ServeOptions
from tests.sweeps.helpers import outcomes, playbench, step_integrity, sweep_file, write_profile


@pytest.fixture
def endpoint():
    server = ModelServer(ServeOptions(latency_ms=40)).start()
    yield server
    server.stop()


def owners(db_path) -> set[str]:
    """The owner tokens (``host:pid:start``) the episodes were recorded under."""
    with sqlite3.connect(db_path) as conn:
        return {row[0] for row in conn.execute("SELECT owner FROM episodes")}


def test_two_worker_processes_record_every_cell_once(tmp_path, endpoint):
    config = tmp_path / "config"
    write_profile(config, "stand", endpoint.url)
    path = sweep_file(tmp_path, "grid", ["model:stand", "random"], sokoban="1-2", maze="1",
                      repeats=1)
    local_db = f"sqlite:///{tmp_path / 'local.sqlite3'}"
    code, out, err = playbench(["sweep", "run", str(path), "--concurrency", "4",
                                "--no-progress"], db=local_db, cwd=tmp_path, config=config)
    assert code == 0, err
    cells = int(out.split(" cells,")[0].rsplit(" ", 1)[1])

    db_path = tmp_path / "procs.sqlite3"
    db = f"sqlite:///{db_path}"
    code, out, err = playbench(["sweep", "run", str(path), "--engine", "processes",
                                "--workers", "2", "--concurrency", "4", "--no-progress"],
                               db=db, cwd=tmp_path, config=config)
    assert code == 0, err
    assert f"{cells} to play (processes engine" in out
    per_cell = step_integrity(db)  # every episode's steps are 0..n-1
    assert len(per_cell) == cells and set(per_cell.values()) == {1}
    assert outcomes(db) == outcomes(local_db)
    recorders = {token.split(":")[1] for token in owners(db_path)}
    assert len(recorders) == 2, recorders  # two processes, neither of them the driver

    code, out, err = playbench(["sweep", "run", str(path), "--engine", "processes",
                                "--workers", "2", "--no-progress"], db=db, cwd=tmp_path,
                               config=config)
    assert code == 0 and f"{cells} already done, 0 to play" in out
    assert set(step_integrity(db).values()) == {1}


def test_workers_go_with_an_engine_that_has_them(tmp_path):
    path = sweep_file(tmp_path, "grid", ["solver"], maze=None, repeats=1)
    code, out, err = playbench(["sweep", "run", str(path), "--workers", "2"],
                               db=f"sqlite:///{tmp_path / 'x.sqlite3'}", cwd=tmp_path,
                               config=tmp_path / "config")
    assert code == 2 and "--workers goes with --engine processes or --engine ray" in err
