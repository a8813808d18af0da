"""Sweep files and the local engine: every problem of a file is named; a sweep plays each
cell once, skips finished cells when run again, continues an interrupted cell from its last
recorded step; ``sweep status`` reads it back; ``--engine ray`` without Ray says how to
install it."""

from __future__ import annotations

import asyncio

import pytest

from playbench.app.agents.profiles import ModelProfile
from playbench.app.agents.serve import ModelServer, ServeOptions
from playbench.app.agents.session import ModelPlayerFactory
from playbench.app.core.events import Stepped
from playbench.app.core.recorder import DbRecorder
from playbench.app.studies.sweepfile import SweepFileError, load_sweep_file, plan_cells
from playbench.app.sweeps import LocalEngine, SweepProgress, play_cell, sweep_status
from playbench.db.engine import open_database
from playbench.db.store import Store
from tests.sweeps.helpers import outcomes, playbench, step_integrity, sweep_file


def test_a_bad_sweep_file_names_every_problem(tmp_path):
    path = sweep_file(tmp_path, "bad", ["solver"])
    path.write_text(path.read_text().replace("repeats: 2", "repeats: 0")
                    .replace("- solver", "- chess-master\n- solver\n- solver")
                    .replace("rooms.xsb:1-3", "nowhere.xsb"))
    with pytest.raises(SweepFileError) as err:
        load_sweep_file(path)
    fields = sorted(p.field for p in err.value.problems)
    assert fields == ["participants[0]", "participants[2]", "repeats", "tasks[0].levels"]


def test_a_sweep_file_that_is_not_yaml_names_the_line(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\nparticipants: [solver]\ntasks: [unclosed\n")
    with pytest.raises(SweepFileError, match=r"bad.yaml: line \d+, column \d+: not valid YAML"):
        load_sweep_file(bad)


def test_local_sweep_runs_once_and_reports_status(tmp_path, db_url):
    config = tmp_path / "config"
    path = sweep_file(tmp_path, "grid", ["solver", "random"])
    spec = load_sweep_file(path)
    assert spec.cells == 28 and len({c.key for c in plan_cells(spec)}) == 28
    code, out, err = playbench(["sweep", "run", str(path), "--concurrency", "3", "--no-progress"],
                               db=db_url, cwd=tmp_path, config=config)
    assert code == 0, err
    assert "28 cells, 0 already done, 28 to play" in out
    first = outcomes(db_url)
    assert len(first) == 28 and set(step_integrity(db_url).values()) == {1}
    code, out, err = playbench(["sweep", "run", str(path), "--no-progress"], db=db_url,
                               cwd=tmp_path, config=config)
    assert code == 0 and "28 already done, 0 to play" in out
    assert outcomes(db_url) == first
    code, out, err = playbench(["sweep", "status"], db=db_url, cwd=tmp_path, config=config)
    assert code == 0
    assert ["grid", "28", "28", "0", "0", "0", "0"] in [line.split() for line in
                                                        out.splitlines()]
    # Another sweep with cells equal to some of these plays and counts its own.
    other = sweep_file(tmp_path, "grid-b", ["solver"], sokoban="1", maze=None, repeats=1)
    code, out, err = playbench(["sweep", "run", str(other), "--no-progress"], db=db_url,
                               cwd=tmp_path, config=config)
    assert code == 0 and "1 cells, 0 already done, 1 to play" in out
    assert len(outcomes(db_url)) == 29


def test_ray_engine_without_ray_says_how_to_install(tmp_path, db_url):
    fake = tmp_path / "noray" / "ray"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('no ray here')\n")
    path = sweep_file(tmp_path, "grid", ["solver"])
    import os
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = str(tmp_path / "noray")
    try:
        code, out, err = playbench(["sweep", "run", str(path), "--engine", "ray"], db=db_url,
                                   cwd=tmp_path, config=tmp_path / "config")
    finally:
        if old is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = old
    assert code == 2
    assert "pip install 'playbench[ray]'" in err


async def test_an_interrupted_cell_continues_from_its_last_step(tmp_path, db_url):
    server = ModelServer(ServeOptions(latency_ms=30)).start()
    store = Store(open_database(db_url))
    try:
        profile = ModelProfile("stand", server.url, "playbench-oracle", state_hints=True)
        path = sweep_file(tmp_path, "one", ["model:stand"], sokoban="1", maze=None, repeats=1)
        (cell,) = plan_cells(load_sweep_file(path))
        factory = ModelPlayerFactory(profile)
        recorder = DbRecorder(store)
        job: asyncio.Task | None = None

        def stop_after_three(event) -> None:
            if isinstance(event, Stepped) and event.record.index == 2 and job is not None:
                job.cancel()

        job = asyncio.ensure_future(play_cell(store, cell, factory, recorder=recorder,
                                              listeners=[stop_after_three]))
        with pytest.raises(asyncio.CancelledError):
            await job
        assert sweep_status(store, "one").interrupted == 1
        progress = SweepProgress(1)
        (outcome,) = await LocalEngine(store, {"model:stand": factory},
                                       recorder=recorder).run([cell], progress)
        assert outcome.how == "resumed" and outcome.status == "done"
        assert progress.resumed == 1 and progress.done == 1
        assert set(step_integrity(db_url).values()) == {1}
        assert sweep_status(store, "one").done == 1
        await factory.aclose()
        recorder.close()
    finally:
        store.db.dispose()
        server.stop()
