"""Browser-game records replay: ``playbench replay --verify`` and ``run --resume`` on Snake (a
real-time game, whose snake moves on the game's clock) with real processes, real Chromium and
a real SQLite file.

In the paused settings the page's clock is stepped by the harness (``inject/control.js``), so
the start state and every state after it follow from the seed and the actions alone: several
never-interrupted episodes all verify, and an episode whose ``playbench run`` was killed with
SIGKILL mid-way resumes to exactly the steps, states and scores of an uninterrupted run with
the same seed. In a real-time setting the game runs on the wall clock: the kind says so,
``replay --verify`` compares the actions only and says that it did, and resume is refused with
the kind's reason.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from playbench.db.engine import open_database
from playbench.db.store import Store
from playbench.games.browser_games.kind import KIND

pytestmark = pytest.mark.browser

SNAKE = "02_snake/02_01"
BUDGET = "10"


def playbench(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "playbench", *args], capture_output=True,
                          text=True, env=env, timeout=400)


def run_args(db: str, *more: str) -> list[str]:
    return ["run", "--game", "browser-games", "--tasks", SNAKE, "--player", "random",
            "--budget", BUDGET, "--no-progress", "--db", db, *more]


def environment(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "PLAYBENCH_CONFIG_DIR": str(tmp_path / "config")}


def steps_of(db: str, episode: int) -> list[tuple[str | None, bool, str]]:
    store = Store(open_database(db))
    return [(s.action, s.valid, s.state_hash) for s in store.steps(episode)]


def test_never_interrupted_snake_episodes_all_verify(tmp_path):
    env = environment(tmp_path)
    db = f"sqlite:///{tmp_path / 'snake.sqlite3'}"
    ran = playbench(env, *run_args(db, "--repeat", "3", "--seed", "11"))
    assert ran.returncode == 0, ran.stdout + ran.stderr
    verified = playbench(env, "replay", "--verify", "--all", "--db", db)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "3 of 3 episodes verified" in verified.stdout
    store = Store(open_database(db))
    rows = store.episodes()
    # the snake moved: the states differ from step to step, so the check compared something
    assert all(len({s.state_hash for s in store.steps(r.episode.id)}) > 3 for r in rows)


def test_a_run_killed_mid_episode_resumes_to_the_uninterrupted_result(tmp_path):
    env = environment(tmp_path)
    db = f"sqlite:///{tmp_path / 'killed.sqlite3'}"
    clean = playbench(env, *run_args(db, "--seed", "5"))
    assert clean.returncode == 0, clean.stdout + clean.stderr

    proc = subprocess.Popen([sys.executable, "-m", "playbench",
                             *run_args(db, "--seed", "5", "--log-steps")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            start_new_session=True)
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("{") and json.loads(line).get("index") == 3:
                break
        else:
            pytest.fail(f"the run ended before step 3: {proc.stderr.read() if proc.stderr else ''}")
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the run and its Chromium, as a crash would
        proc.wait(timeout=30)

    killed = 2
    assert 4 <= len(steps_of(db, killed)) < int(BUDGET)
    resumed = playbench(env, "run", "--resume", str(killed), "--no-progress", "--db", db)
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert steps_of(db, killed) == steps_of(db, 1)
    store = Store(open_database(db))
    first, again = store.episode(1), store.episode(killed)
    assert again.episode.status == "done" and again.episode.end_reason == first.episode.end_reason
    for name in ("solved", "completion", "best_score", "resets"):
        assert again.scores[name] == first.scores[name], name
    verified = playbench(env, "replay", "--verify", "--all", "--db", db)
    assert verified.returncode == 0, verified.stdout + verified.stderr


def test_a_real_time_episode_verifies_its_actions_only_and_is_not_resumed(tmp_path):
    env = environment(tmp_path)
    db = f"sqlite:///{tmp_path / 'rt.sqlite3'}"
    setting = "tools:semantic-rt"
    assert KIND.replay.clocked(setting) and not KIND.replay.resumes(setting)
    ran = playbench(env, *run_args(db, "--setting", setting, "--budget", "4"))
    assert ran.returncode == 0, ran.stdout + ran.stderr
    verified = playbench(env, "replay", "1", "--verify", "--db", db)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "only the actions were compared" in verified.stdout
    # an interrupted real-time episode is refused with the kind's reason
    with closing(sqlite3.connect(tmp_path / "rt.sqlite3")) as conn, conn:
        conn.execute("UPDATE episodes SET status = 'interrupted' WHERE id = 1")
    refused = playbench(env, "run", "--resume", "1", "--no-progress", "--db", db)
    assert refused.returncode != 0
    assert "wall clock" in refused.stderr and "cannot be resumed" in refused.stderr


async def test_a_sweep_starts_a_real_time_cell_over_instead_of_resuming_it(tmp_path, db_url):
    """A sweep continues an unfinished cell by resuming its episode; a cell whose setting the
    kind cannot resume (a real-time browser game) is played again from the start, and the
    unfinished episode is left as it was."""
    import asyncio

    from playbench.app.core.events import Stepped
    from playbench.app.core.player import SimpleFactory
    from playbench.app.core.recorder import DbRecorder
    from playbench.app.core.task import Task
    from playbench.app.players.scripted import RandomPlayer
    from playbench.app.sweeps import LocalEngine, SweepProgress, play_cell
    from playbench.app.sweeps.cells import Cell

    catalog = Path(__file__).parent / "catalog"
    level = KIND.load_with("01_probe/01_01", options={"catalog": str(catalog)})[0]
    setting = "tools:semantic-rt"
    cell = Cell("rt-cell", "random", Task(KIND.name, level, {}, "test"), setting,
                KIND.settings()[setting].budget.merged(max_actions=4), 0, 1, sweep="rt")
    store = Store(open_database(db_url))
    factory = SimpleFactory(lambda task, repeat: RandomPlayer())
    recorder = DbRecorder(store)
    job: asyncio.Task | None = None

    def stop_after_two(event) -> None:
        if isinstance(event, Stepped) and event.record.index == 1 and job is not None:
            job.cancel()

    job = asyncio.ensure_future(play_cell(store, cell, factory, recorder=recorder,
                                          listeners=[stop_after_two]))
    with pytest.raises(asyncio.CancelledError):
        await job
    (outcome,) = await LocalEngine(store, {"random": factory}, recorder=recorder).run(
        [cell], SweepProgress(1))
    recorder.close()
    assert outcome.how == "new" and outcome.status == "done" and outcome.steps == 4
    statuses = sorted(r.episode.status for r in store.episodes())
    assert statuses == ["done", "interrupted"]
