"""A WebUI episode killed after its first submission resumes with ``playbench run --resume``.

Real processes end to end: ``playbench run`` plays a model profile over HTTP against the
``serve-model`` stand-in (its ``random`` policy submits perturbed reference pages, each chosen
from the episode seed and the step, so a resumed player answers as an uninterrupted one would);
the stand-in holds the second request (a ``timeout`` fault) and the run is killed with SIGKILL
once the first submission is recorded in the SQLite file. ``run --resume`` rebuilds the episode
by submitting the recorded page again in Chromium, counts it against the budget of five, and
plays on; the result equals a run of the same seed that was never interrupted (same
submissions, same state hashes, same AES scores). (``replay --verify`` on a WebUI episode is
``tests/kinds/test_conformance.py``'s resumability check.)
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
from contextlib import closing
from typing import Any

import pytest

from playbench.app.agents.serve import ModelServer, ServeOptions
from playbench.app.agents.session import ModelPlayerFactory
from playbench.app.core.events import Stepped
from playbench.app.core.recorder import DbRecorder
from playbench.app.core.runs import resume_episode
from playbench.db.engine import open_database
from playbench.db.store import Store
from playbench.games.webui.kind import ONLINE
from tests.agents.helpers import server_profile

pytestmark = pytest.mark.browser

LEVEL = "webui:form-02"
SEED = 4


def playbench(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "playbench", *args], capture_output=True,
                          text=True, env=env, timeout=400)


def run_args(db: str) -> list[str]:
    return ["run", "--game", "webui", "--levels", LEVEL, "--player", "model:stand-in",
            "--setting", ONLINE.name, "--seed", str(SEED), "--no-progress", "--db", db]


def killed_after_first_step(env: dict[str, str], db: str) -> None:
    """Start a run, wait for its first step report, then SIGKILL it (and its Chromium)."""
    proc = subprocess.Popen([sys.executable, "-m", "playbench", *run_args(db), "--log-steps"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            start_new_session=True)
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("{") and json.loads(line).get("index") == 0:
                break
        else:
            pytest.fail(f"the run ended before a step: {proc.stderr.read() if proc.stderr else ''}")
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL


def test_a_killed_webui_episode_resumes_to_the_uninterrupted_result(tmp_path):
    env = {**os.environ, "PLAYBENCH_CONFIG_DIR": str(tmp_path / "config"),
           "SDL_VIDEODRIVER": "dummy"}
    broken = f"sqlite:///{tmp_path / 'killed.sqlite3'}"
    clean = f"sqlite:///{tmp_path / 'clean.sqlite3'}"
    options = ServeOptions(port=0, policy="random", seed=7, faults="timeout@2",
                           hold_seconds=300)
    with ModelServer(options) as server:
        added = playbench(env, "models", "add", "stand-in", "--base-url", server.url,
                          "--model", "m", "--state-hints")
        assert added.returncode == 0, added.stderr
        killed_after_first_step(env, broken)
        store = Store(open_database(broken))
        (row,) = store.episodes()
        episode_id = row.episode.id
        assert len(store.steps(episode_id)) == 1
        with closing(sqlite3.connect(tmp_path / "killed.sqlite3")) as src, \
                closing(sqlite3.connect(tmp_path / "copy.sqlite3")) as dst:
            src.backup(dst)
        # The same killed episode resumed in this process: what the model is shown next.
        prompt = resumed_first_prompt(f"sqlite:///{tmp_path / 'copy.sqlite3'}", episode_id,
                                      server.url)

        resumed = playbench(env, "run", "--resume", str(episode_id), "--db", broken)
        assert resumed.returncode == 0, resumed.stderr
        again = playbench(env, *run_args(clean))
        assert again.returncode == 0, again.stderr

    row = store.episode(episode_id)
    assert row.episode.status == "done"
    steps = store.steps(episode_id)
    assert [s.index for s in steps] == list(range(len(steps)))
    assert len(steps) == ONLINE.budget.max_actions  # the first submission was counted
    reference_store = Store(open_database(clean))
    (ref_row,) = reference_store.episodes()
    reference = reference_store.steps(ref_row.episode.id)
    assert [(s.action, s.state_hash, s.valid) for s in steps] == \
        [(s.action, s.state_hash, s.valid) for s in reference]
    assert [s.reward for s in steps] == pytest.approx([s.reward for s in reference])
    scores = {k: v for k, v in row.scores.items() if k in ("aes", "best_aes", "solved",
                                                           "submissions", "steps")}
    assert scores and scores == pytest.approx(
        {k: ref_row.scores[k] for k in scores}), (row.scores, ref_row.scores)
    # The resumed model was shown what an uninterrupted episode shows at its second
    # decision: its first submission and that submission's render.
    assert [m["role"] for m in prompt.messages] == ["user", "assistant", "user"]
    assert prompt.messages[1]["content"] == steps[0].raw
    assert any(p.get("type") == "image_url" for p in prompt.messages[2]["content"])


def resumed_first_prompt(db: str, episode_id: int, url: str) -> Any:
    """Resume ``episode_id`` in this process with a model player on ``url`` and return the
    prompt of its first new decision."""
    factory = ModelPlayerFactory(server_profile(url))
    player = factory.resumed(None, 1)  # type: ignore[arg-type]
    store = Store(open_database(db))
    seen: list[Any] = []

    def first(event: Any) -> None:
        if isinstance(event, Stepped) and event.record.index == 1:
            seen.append(player.last_prompt)

    async def go() -> None:
        try:
            await resume_episode(store, episode_id, player, DbRecorder(store), [first])
        finally:
            await factory.aclose()
    asyncio.run(go())
    assert seen
    return seen[0]
