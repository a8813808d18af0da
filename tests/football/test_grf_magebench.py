"""MageBench's published football scenarios (our fixtures in its layout) played on the real
engine: imported from the list file, each starts where GRF itself places the file's players -
GRF, in its own process, running the same file as its scenario module - and plays on; a
scenario's own settings reach GRF. Needs the football extra (``./bootstrap test`` builds it)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from playbench.games.base import Level
from playbench.games.football.engine import find_python
from playbench.games.football.kind import KIND
from playbench.games.types import Action, Task

pytestmark = pytest.mark.football

RESOURCES = Path(__file__).parent / "data" / "magebench" / "resources"

NATIVE = r"""
import importlib.util, json, sys
from gfootball.env import config, football_env
NAME = "gfootball.scenarios.playbench_native_check"
env = None
out = []
for path in sys.argv[2:]:
    spec = importlib.util.spec_from_file_location(NAME, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[NAME] = module
    spec.loader.exec_module(module)  # our own fixture, run by GRF as MageBench's harness does
    if env is None:
        env = football_env.FootballEnv(config.Config({
            "action_set": "full", "players": ["agent:left_players=1"], "real_time": False,
            "level": NAME.rsplit(".", 1)[1], "game_engine_random_seed": int(sys.argv[1])}))
    o = env.reset()
    o = o[0] if isinstance(o, list) else o
    r = lambda a: [[round(float(v), 6) for v in p[:2]] for p in a]
    out.append({"ball": [round(float(v), 6) for v in o["ball"][:2]],
                "left_team": r(o["left_team"]), "right_team": r(o["right_team"])})
print("RESULT " + json.dumps(out))
"""


def native_start(paths: list[Path], seed: int) -> list[dict]:
    """Positions at reset when GRF runs the files themselves as scenario modules."""
    python = find_python()
    assert python is not None, "the football extra is not installed here"
    proc = subprocess.run([python, "-c", NATIVE, str(seed), *map(str, paths)],
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "SDL_AUDIODRIVER": "dummy"})
    line = next((x for x in proc.stdout.splitlines() if x.startswith("RESULT ")), None)
    assert line is not None, proc.stdout[-2000:] + proc.stderr[-2000:]
    found: list[dict] = json.loads(line[7:])
    return found


async def test_imported_scenarios_start_where_grf_places_the_files_players_and_play_on():
    levels = KIND.load(str(RESOURCES / "Football_all.json") + ":1-2")  # R5_T_3 (8 v 10), R1_P_1
    assert [lv.title for lv in levels] == ["R5_T_3", "R1_P_1"]
    seed = 7
    files = [RESOURCES / "Football" / f"{lv.title}.py" for lv in levels]
    native = native_start(files, seed)
    env = KIND.make_env(Task("football", levels[0], {}, "Football_all.json"), render=False)
    try:
        for lv, grf in zip(levels, native, strict=True):
            task = Task("football", lv, {}, "Football_all.json")
            await env.reset(task, seed)
            raw = env.board.state.raw
            ours = {"ball": [round(v, 6) for v in raw["ball"][:2]],
                    "left_team": raw["left_team"], "right_team": raw["right_team"]}
            assert ours == grf, lv.title
            if lv.title == "R5_T_3":
                assert (len(raw["left_team"]), len(raw["right_team"])) == (8, 10)
            frames = []
            for move in ("action_right", "action_right", "action_short_pass"):
                tr = await env.step(Action(move, move))
                assert tr.valid
                frames.append(env.board.state.frames)
                if tr.terminated:
                    break
            assert frames[0] == 1 and frames == sorted(frames)
            assert env.board.state.raw["left_team"] != raw["left_team"]  # the game moved
    finally:
        await env.close()


async def test_a_scenarios_own_settings_reach_the_engine():
    # GRF ends its game after game_duration frames: set to 3, the episode is over within four
    # frames (GRF counts the kick-off frame too); MageBench's 400, which the engine used for
    # every scenario before, plays on
    base = KIND.load(str(RESOURCES / "Football" / "R1_P_1.py"))[0]
    text = base.text.replace("config game_duration 400", "config game_duration 3")
    lv = Level("football", text, 1, "short")
    task = Task("football", lv, {}, "test")
    env = KIND.make_env(task, render=False)
    try:
        await env.reset(task, 3)
        for _ in range(10):
            tr = await env.step(Action("action_idle", "action_idle"))
            if tr.terminated:
                break
        assert env.board.state.done and 3 <= env.board.state.frames <= 4
    finally:
        await env.close()


def test_run_plays_a_magebench_list_on_the_engine(tmp_path):
    db = tmp_path / "f.sqlite3"
    proc = subprocess.run(
        [sys.executable, "-m", "playbench", "run", "--game", "football", "--levels",
         f"{RESOURCES / 'Football_mini.json'}:2", "--player", "random", "--seed", "1",
         "--budget", "5"],
        capture_output=True, text=True, timeout=600, cwd=tmp_path,
        env={**os.environ, "PLAYBENCH_DB": f"sqlite:///{db}",
             "PLAYBENCH_CONFIG_DIR": str(tmp_path / "config")})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    body = [line.split() for line in proc.stdout.splitlines()[2:] if line.strip()]
    assert [row[1] for row in body] == ["done"]
