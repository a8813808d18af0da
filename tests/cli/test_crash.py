"""A real ``playbench run`` killed with SIGKILL: integrity, completeness, interrupted, resume."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from playbench.db.engine import open_database
from playbench.db.store import Store


@pytest.fixture
def pack(cli):
    r = cli("levels", "sokoban", "--generate", "3", "--seed", "21", "--size", "8x8", "--boxes",
            "2", "--out", "pack.xsb")
    assert r.code == 0, r.err
    return cli.cwd / "pack.xsb"


def start_run(cli, pack, *extra):
    args = [sys.executable, "-m", "playbench", "run", "--game", "sokoban", "--levels", str(pack),
            "--player", "random", "--budget", "400", "--repeat", "3", "--seed", "3",
            "--log-steps", "--no-progress", *extra]
    return subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=cli.env, cwd=cli.cwd)


def read_reports(proc, count: int) -> list[dict]:
    """The next ``count`` step reports the run prints (fewer if it ends first)."""
    reported = []
    while len(reported) < count:
        line = proc.stdout.readline()
        if not line:
            break
        if line.startswith("{"):
            reported.append(json.loads(line))
    return reported


def open_episodes(db_path) -> int:
    """Episodes the database holds as running: those a kill now would leave interrupted."""
    con = sqlite3.connect(db_path)
    try:
        return con.execute("SELECT count(*) FROM episodes WHERE status = 'running'").fetchone()[0]
    finally:
        con.close()


def kill(proc, reported: list[dict]) -> list[dict]:
    """SIGKILL the run, then collect the step reports still in the pipe: those steps were
    committed before they were printed, so they count as reported."""
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    for line in proc.stdout.read().splitlines():
        if line.startswith("{"):
            reported.append(json.loads(line))
    return reported


def kill_after_seconds(proc, db_path, seconds: float) -> list[dict]:
    """Let the run go on for ``seconds`` after its first step, then kill it wherever it is
    (possibly inside a commit) - but inside an episode, so there is one to resume.

    The run is frozen with SIGSTOP first; while it cannot move, the database says whether an
    episode is open. If the moment fell between two episodes, the run goes on for one more step
    and is frozen again. The writer uses WAL, so reading beside a frozen commit never blocks."""
    reported = read_reports(proc, 1)
    time.sleep(seconds)
    for _ in range(50):
        os.kill(proc.pid, signal.SIGSTOP)
        if open_episodes(db_path):
            return kill(proc, reported)
        os.kill(proc.pid, signal.SIGCONT)
        more = read_reports(proc, 1)
        assert more, "the run ended before it could be killed inside an episode"
        reported += more
    raise AssertionError("50 tries never froze the run inside an episode")


@pytest.mark.parametrize("moment", [("steps", 1), ("steps", 57), ("steps", 300),
                                    ("seconds", 0.4), ("seconds", 1.3)])
def test_sigkill_loses_nothing_reported_and_resumes(cli, pack, db_url, moment):
    proc = start_run(cli, pack)
    kind, amount = moment
    path = db_url.removeprefix("sqlite:///")
    if kind == "steps":
        reported = kill(proc, read_reports(proc, amount))
    else:
        reported = kill_after_seconds(proc, path, amount)
    assert proc.returncode == -signal.SIGKILL

    con = sqlite3.connect(path)
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    stored = set(con.execute('SELECT episode_id, "index" FROM steps').fetchall())
    con.close()
    assert {(r["episode"], r["index"]) for r in reported} <= stored

    listing = cli("episodes", "--limit", "50")
    assert listing.code == 0
    store = Store(open_database(db_url))
    episodes = store.episodes()
    killed = [r for r in episodes if r.episode.status != "done"]
    assert killed, "the run was killed before finishing every episode"
    assert all(r.episode.status == "interrupted" for r in killed)
    assert "interrupted" in listing.out

    target = killed[0].episode
    before = target.n_steps
    resumed = cli("run", "--resume", str(target.id))
    assert resumed.code == 0, resumed.err
    row = store.episode(target.id)
    assert row.episode.status == "done" and row.episode.n_steps >= before
    steps = store.steps(target.id)
    assert [s.index for s in steps] == list(range(len(steps)))

    # The resumed episode is the one an uninterrupted run with the same seed would record.
    clean_url = f"sqlite:///{cli.cwd / 'clean.sqlite3'}"
    level = row.task.level_number
    again = cli("run", "--game", "sokoban", "--levels", f"{pack}:{level}", "--player", "random",
                "--budget", "400", "--seed", str(row.episode.seed), "--db", clean_url)
    assert again.code == 0, again.err
    clean = Store(open_database(clean_url))
    reference = clean.steps(clean.all_episode_ids()[0])
    assert [(s.action, s.state_hash) for s in steps] == \
        [(s.action, s.state_hash) for s in reference]
    clean_row = clean.episode(clean.all_episode_ids()[0])
    assert row.scores == pytest.approx(clean_row.scores), (
        row.episode.end_reason, clean_row.episode.end_reason, len(steps), before)
    assert cli("replay", str(target.id), "--verify").code == 0
