"""Football on the real engine (Google Research Football in its own process, frames under
Xvfb): a model session through serve-model over HTTP recorded in SQLite and checked with
``playbench replay --verify``, MageBench's automation, determinism under GRF's seed, and the
frames. Needs the football extra, which ``./bootstrap test`` (CI's command) builds."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys

import numpy as np
import pytest

from playbench.app.agents.serve import ModelServer, ServeOptions
from playbench.app.agents.session import ModelPlayerFactory
from playbench.app.core.recorder import DbRecorder
from playbench.app.core.runs import RunRequest, run_many
from playbench.app.core.settings import get_setting
from playbench.db.engine import open_database
from playbench.db.store import Store
from playbench.games.football import game
from playbench.games.football.kind import KIND
from playbench.games.football.policies import SCRIPT
from playbench.games.types import Action, Task
from tests.agents.helpers import server_profile

pytestmark = pytest.mark.football

LEVEL = KIND.load("magebench-mini:5")[0]


def task() -> Task:
    return Task("football", LEVEL, {}, "magebench-mini")


async def decide_all(env, moves):
    out = []
    for m in moves:
        tr = await env.step(Action(m, m))
        out.append(tr)
        if tr.terminated:
            break
    return out


def test_the_engine_is_installed_here():
    assert KIND.unavailable() is None, KIND.unavailable()


async def test_same_seed_same_game_and_another_seed_another():
    moves = ["action_right", "action_right", "action_top_right", "action_short_pass",
             "action_right", "action_right"]
    runs = []
    for seed in (5, 5, 6):
        env = KIND.make_env(task(), render=False)
        try:
            await env.reset(task(), seed)
            trs = await decide_all(env, moves)
            runs.append(([tr.reward for tr in trs], env.state_hash(),
                         env.board.state.raw["left_team"]))
        finally:
            await env.close()
    assert runs[0] == runs[1]
    assert runs[0][1] != runs[2][1]


async def test_a_second_episode_in_the_same_engine_is_the_game_a_fresh_engine_plays():
    # GRF crashes when its rendering engine is reset with drawing off (worker.py): a reused
    # engine must survive the reset and replay the same game as a fresh one
    moves = ["action_right", "action_right", "action_short_pass", "action_right"]
    env = KIND.make_env(task(), render=False)
    try:
        await env.reset(task(), 8)
        await decide_all(env, moves)
        await env.reset(task(), 9)
        await decide_all(env, moves)
        reused = env.state_hash()
    finally:
        await env.close()
    fresh = KIND.make_env(task(), render=False)
    try:
        await fresh.reset(task(), 9)
        await decide_all(fresh, moves)
        assert fresh.state_hash() == reused
    finally:
        await fresh.close()


async def test_a_repeated_direction_runs_on_and_a_pass_plays_until_someone_has_the_ball():
    env = KIND.make_env(task(), render=False)
    try:
        await env.reset(task(), 1)
        await env.step(Action("action_right", "action_right"))
        one = env.board.state.frames
        assert one == 1  # a first direction plays one frame
        await env.step(Action("action_right", "action_right"))
        ran = env.board.state.frames - one
        assert 1 <= ran <= game.MAX_AUTO_FRAMES
        state = env.board.state
        if not state.done:
            await env.step(Action("action_short_pass", "action_short_pass"))
            after = env.board.state
            # the pass is played until the ball is no longer in the air (or the play ends)
            assert after.done or int(after.raw["ball_owned_team"]) != -1
            assert after.frames - state.frames >= 1
    finally:
        await env.close()


@pytest.mark.smoke  # the football kind's real-engine check in the fast tier
async def test_frames_come_from_the_engine_under_a_display():
    env = KIND.make_env(task(), render=True, render_options={"width": 320})
    try:
        obs = await env.reset(task(), 2)
        frame = obs.frame
        assert frame is not None and frame.dtype == np.uint8 and frame.shape == (180, 320, 3)
        assert float(frame.mean()) > 60  # a lit pitch, not the dark offscreen picture
        # our team plays in yellow (MageBench): yellow shirts, not the cyan of swapped channels
        r, g, b = (frame[..., i].astype(int) for i in range(3))
        yellow = int(((r > 140) & (g > 140) & (b < 90)).sum())
        cyan = int(((b > 140) & (g > 140) & (r < 90)).sum())
        assert yellow > 3 * cyan and yellow >= 10, (yellow, cyan)
        tr = await env.step(Action("action_right", "action_right"))
        assert tr.observation.frame is not None
        assert not np.array_equal(tr.observation.frame, frame)
    finally:
        await env.close()


async def test_a_scripted_model_session_over_http_is_recorded_and_verifies(tmp_path):
    db = tmp_path / "football.sqlite3"
    url = f"sqlite:///{db}"
    store = Store(open_database(url))
    server = ModelServer(ServeOptions(port=0, policy="football:scripted")).start()
    factory = ModelPlayerFactory(server_profile(server.url, model="playbench-scripted"))
    setting = get_setting("magebench:online", "football")
    try:
        request = RunRequest([task()], factory, setting, setting.budget, seed=3)
        (result,) = await asyncio.wait_for(run_many(request, DbRecorder(store)), timeout=300)
    finally:
        await factory.aclose()
        server.stop()
    assert result.status == "done", result
    steps = store.steps(result.episode_id)
    assert steps and all(s.valid for s in steps)
    assert [s.action for s in steps] == [SCRIPT[i % len(SCRIPT)] for i in range(len(steps))]
    assert "action_" in steps[0].raw and steps[0].prompt_tokens > 0
    assert result.scores["decisions"] == len(steps)
    assert result.scores["frames"] >= len(steps)
    assert result.scores["score"] >= 0
    cli = subprocess.run(
        [sys.executable, "-m", "playbench", "replay", "--verify", str(result.episode_id)],
        capture_output=True, text=True, timeout=600,
        env={**os.environ, "PLAYBENCH_DB": url})
    assert cli.returncode == 0, cli.stdout + cli.stderr
    assert "ok" in cli.stdout.lower()
