"""A Chromium that dies or freezes during a real ``playbench run`` costs the episode that was
using it, not the run.

``playbench run`` plays three Snake episodes in a subprocess (each episode starts its own
Chromium); once the first episode has committed three steps, its Chromium is killed from
outside with SIGKILL (a crash), or frozen with SIGSTOP (a browser that no longer answers).
That episode must end as ``error`` naming the cause, with its committed steps kept; the two
episodes after it must play to their end; the run exits 1 because one episode failed.
Studies and sweeps play each episode through the same loop (``playbench.app.core.play``),
so what holds here holds there.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from playbench.db.engine import open_database
from playbench.db.store import Store

pytestmark = pytest.mark.browser


def _processes() -> tuple[dict[int, int], dict[int, str]]:
    parents: dict[int, int] = {}
    names: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        pid = int(entry.name)
        names[pid] = stat[stat.index("(") + 1:stat.rindex(")")]
        parents[pid] = int(stat[stat.rindex(")") + 2:].split()[1])
    return parents, names


def browser_processes_below(root: int) -> list[int]:
    """The main Chromium processes started below ``root`` (Chromium's helpers excluded: the
    main process is a Chromium whose parent is not one)."""
    parents, names = _processes()

    def below(pid: int) -> bool:
        while pid > 1:
            pid = parents.get(pid, 0)
            if pid == root:
                return True
        return False

    def chromium(pid: int) -> bool:
        return "chrom" in names.get(pid, "").lower()

    return [p for p in names if chromium(p) and below(p) and not chromium(parents.get(p, 0))]


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGSTOP], ids=["killed", "frozen"])
def test_the_episode_whose_chromium_dies_ends_as_error_and_the_run_goes_on(tmp_path, sig):
    db = f"sqlite:///{tmp_path / 'run.sqlite3'}"
    env = {**os.environ, "PLAYBENCH_CONFIG_DIR": str(tmp_path / "config")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "playbench", "run", "--game", "browser-games", "--tasks",
         "02_snake/02_01", "--player", "random", "--budget", "8", "--repeat", "3",
         "--no-progress", "--log-steps", "--db", db],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        start_new_session=True)
    hit: list[int] = []
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if not line.startswith("{"):
                continue
            step = json.loads(line)
            if not hit and step["episode"] == 1 and step["index"] == 2:
                hit = browser_processes_below(proc.pid)
                assert len(hit) == 1, hit
                os.kill(hit[0], sig)
        _, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)
        for pid in hit:  # a frozen Chromium the run gave up on, if it is still there
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    assert proc.returncode == 1, err
    store = Store(open_database(db))
    rows = {r.episode.id: r for r in store.episodes()}
    assert sorted(rows) == [1, 2, 3]
    failed = rows[1].episode
    assert failed.status == "error"
    cause = "stopped answering" if sig == signal.SIGSTOP else "closed"
    assert cause in (failed.end_reason or ""), failed.end_reason
    assert "\n" not in failed.end_reason  # one line, not the browser's log
    assert len(store.steps(1)) >= 3  # the committed steps are kept
    assert all(s.state_hash for s in store.steps(1))
    for later in (2, 3):
        assert rows[later].episode.status == "done", rows[later].episode.end_reason
        assert len(store.steps(later)) == 8
    assert "playbench run --resume 1" in err  # paused browser games can be resumed
