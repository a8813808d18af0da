"""The browser-games harness in real Chromium (Debian's, through Playwright) on a small test
game of our own (``tests/browser_games/catalog``, ``01_probe``): its gameAPI contract, the
same states under the same seed and actions, game time standing still while paused,
``continue_on_fail`` resets that keep the budget and the best score, progress and success,
invalid actions recorded with reasons, and a GameWorld-layout catalog the code has never seen.
One browser for the module.
"""

from __future__ import annotations

import asyncio
import shutil
import time
from pathlib import Path

import numpy as np
import pytest
import pytest_asyncio

from playbench.app.core.play import play
from playbench.app.core.recorder import DbRecorder
from playbench.app.core.types import Decision
from playbench.db.engine import open_database
from playbench.db.store import Store
from playbench.games.base import MoveError
from playbench.games.browser.browser import Browser
from playbench.games.browser_games.env import BrowserGameEnv, settled_state
from playbench.games.browser_games.kind import KIND, SETTINGS
from playbench.games.kind import EnvServices
from playbench.games.types import Invalid, Task

pytestmark = pytest.mark.browser

CATALOG = Path(__file__).parent / "catalog"
in_module_loop = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser():
    b = Browser()
    await b.start()
    yield b
    await b.close()


def probe(task_id: str = "01_01", root: Path = CATALOG) -> Task:
    level = KIND.load_with(f"01_probe/{task_id}", options={"catalog": str(root)})[0]
    return Task(KIND.name, level, {}, "test")


def new_env(browser: Browser, setting: str = "default") -> BrowserGameEnv:
    env = KIND.make_env(probe(), services=EnvServices(extra={"browser": browser}))
    assert isinstance(env, BrowserGameEnv)
    env.use_setting(SETTINGS[setting])
    return env


class Texts:
    """Plays the given action texts in order, then gives up; unreadable ones are sent as
    invalid entries the way a model player's parser sends them."""

    kind = "script"

    def __init__(self, texts: list[str]) -> None:
        self.texts = texts
        self.name = self.spec = "texts"

    def details(self) -> dict:
        return {"player": self.spec}

    async def act(self, observation, context) -> Decision:
        if context.step >= len(self.texts):
            return Decision.quit("out of script")
        text = self.texts[context.step]
        try:
            entry = context.parse(text)
        except MoveError as err:
            entry = Invalid(err.kind, err.reason, text)
        return Decision((entry,), text)


@in_module_loop
async def test_the_probe_game_keeps_the_gameapi_contract(browser):
    env = new_env(browser)
    try:
        obs = await env.reset(probe(), 1)
        page = env.session.page
        api = await page.evaluate("""() => Object.fromEntries(['init', 'reset', 'restart',
            'start', 'getState'].map(k => [k, typeof window.gameAPI[k]]))""")
        assert set(api.values()) == {"function"}
        assert await page.evaluate("() => typeof window.gameAPI.version") == "string"
        state = await env.read_state()
        assert state["schemaVersion"] == "2.0" and state["gameId"] == "01_probe"
        assert state["status"] in ("loading", "menu", "ready", "playing", "paused", "terminal")
        assert {"isTerminal", "outcome", "reason"} <= set(state["terminal"])
        assert {"score", "level"} <= set(state["game_state"])
        assert obs.frame is not None and obs.frame.shape == (720, 1280, 3)
        assert await page.evaluate("() => window.__getDeterministicSeed()") == 1
        assert obs.info["hud"]["target"] == 6 and obs.info["hud"]["score"] == 0
    finally:
        await env.close()


async def _states(browser: Browser, seed: int, texts: list[str]) -> list[dict]:
    env = new_env(browser)
    try:
        await env.reset(probe(), seed)
        out = [settled_state(env.state)]
        for text in texts:
            await env.step(env.parse_action(text))
            out.append(settled_state(env.state))
        return out
    finally:
        await env.close()


@in_module_loop
async def test_same_seed_and_actions_give_the_same_states(browser):
    texts = ["step_right", "step_right", "poke", "step_right", "fall", "step_right",
             "step_right", "step_right"]
    first = await _states(browser, 11, texts)
    second = await _states(browser, 11, texts)
    assert first == second
    bonuses = first[-1]["game_state"]["bonuses"]
    assert len(bonuses) == 3  # the fall reset the game, three steps after it
    other = await _states(browser, 12, texts)
    assert [s["game_state"]["bonuses"] for s in other] != [
        s["game_state"]["bonuses"] for s in first]


@in_module_loop
async def test_paused_game_time_stands_still_while_real_time_passes(browser):
    env = new_env(browser)
    try:
        await env.reset(probe(), 3)
        await env.step(env.parse_action("step_right"))  # ran, then paused again
        before = await env.read_state()
        start = time.monotonic()
        await asyncio.sleep(2.0)  # real time passes; the game's clock must not
        elapsed = time.monotonic() - start
        after = await env.read_state()
        assert elapsed >= 2.0
        assert after["gameTimeMs"] == before["gameTimeMs"]
        assert after["debug"] == before["debug"]  # timer ticks and animation frames held
        # the same reading while running does move: the check can fail
        await env.session.page.evaluate("() => window.__resumeGame()")
        await asyncio.sleep(0.3)
        running = await env.read_state()
        assert running["gameTimeMs"] > after["gameTimeMs"] + 100
        assert running["debug"]["ticks"] > after["debug"]["ticks"]
    finally:
        await env.close()


@in_module_loop
async def test_each_steps_frame_shows_the_paused_moment_its_state_was_read_at(browser):
    """The screenshot is requested while the pause-and-read call is still in flight (the
    two waits overlap); it must still show the paused page. The probe draws its animation
    frame count on every frame, so a frame taken one animation frame before the pause
    differs from the page as it stands paused afterwards."""
    env = new_env(browser)
    try:
        await env.reset(probe(), 5)
        for i in range(30):
            tr = await env.step(env.parse_action("wait" if i % 3 else "step_right"))
            assert tr.observation.frame is not None
            await asyncio.sleep(0.05)  # paused: more real time must not change the page
            again = await env.frame()  # a fresh capture, taken strictly after the pause
            assert np.array_equal(tr.observation.frame, again), f"step {i}"
        await env.session.page.evaluate("() => window.__resumeGame()")
        await asyncio.sleep(0.1)  # the check can fail: a running page draws new frames
        assert not np.array_equal(again, await env.frame())
    finally:
        await env.close()


@in_module_loop
async def test_real_time_setting_leaves_the_game_running(browser):
    env = new_env(browser, "tools:semantic-rt")
    try:
        await env.reset(probe(), 3)
        a = await env.read_state()
        await asyncio.sleep(0.5)
        b = await env.read_state()
        assert b["gameTimeMs"] - a["gameTimeMs"] > 300
    finally:
        await env.close()


@in_module_loop
async def test_a_failed_end_resets_the_game_and_keeps_the_best_score(browser):
    env = new_env(browser)
    try:
        await env.reset(probe(), 5)
        await env.step(env.parse_action("step_right"))
        await env.step(env.parse_action("step_right"))
        best = env.progress.best
        assert best >= 2
        tr = await env.step(env.parse_action("fall"))
        assert not tr.terminated and tr.info["reset"] and "continue_on_fail" in tr.reason
        assert env.state["game_state"]["score"] == 0 and env.progress.best == best
        assert env.progress.resets == 1 and env.state["status"] == "playing"
        scores = await env.score([], SETTINGS["default"])
        assert scores["progress"] == pytest.approx(best / 6) and scores["resets"] == 1
    finally:
        await env.close()
    env = new_env(browser)
    try:
        await env.reset(probe("01_02"), 5)  # continue_on_fail: false
        tr = await env.step(env.parse_action("fall"))
        assert tr.terminated and "fell" in tr.reason
    finally:
        await env.close()


@in_module_loop
async def test_reaching_the_target_is_success_with_full_progress(browser, tmp_path):
    store = Store(open_database(f"sqlite:///{tmp_path / 'bg.sqlite3'}"))
    task = probe()
    setting = SETTINGS["default"]
    result = await play(task, Texts(["step_right"] * 8), setting=setting,
                        budget=setting.budget, recorder=DbRecorder(store), seed=2,
                        services=EnvServices(extra={"browser": browser}))
    row = store.episode(result.episode_id)
    steps = store.steps(result.episode_id)
    assert row.scores["solved"] == 1.0 and row.scores["completion"] == 100.0
    assert row.episode.end_reason and len(steps) <= 6  # 1-2 points a step, target 6
    assert steps[-1].info["best"] >= 6


@in_module_loop
async def test_invalid_actions_are_recorded_with_reasons(browser, tmp_path):
    store = Store(open_database(f"sqlite:///{tmp_path / 'bg.sqlite3'}"))
    services = EnvServices(extra={"browser": browser})
    sem, cu = SETTINGS["tools:semantic"], SETTINGS["tools:computer-use"]
    a = await play(probe("01_02"), Texts(["moonwalk", "step_right", "press_key ArrowRight"]),
                   setting=sem, budget=sem.budget, recorder=DbRecorder(store),
                   services=services)
    b = await play(probe("01_02"), Texts(["press_key Enter", "press_key ArrowRight",
                                          "step_right", "click 640 360"]),
                   setting=cu, budget=cu.budget, recorder=DbRecorder(store), services=services)
    sa, sb = store.steps(a.episode_id), store.steps(b.episode_id)
    assert [s.valid for s in sa] == [False, True, False]
    assert "not a registered action" in sa[0].invalid_reason and "step_right" in \
        sa[0].invalid_reason
    assert [s.valid for s in sb] == [False, True, False, True]
    assert "not allowed" in sb[0].invalid_reason and "Enter" in sb[0].invalid_reason
    assert store.episode(a.episode_id).scores["invalid_rate"] == pytest.approx(100 * 2 / 3)
    assert store.episode(b.episode_id).scores["invalid_rate"] == pytest.approx(50.0)


def _unseen_catalog(root: Path) -> Path:
    """A GameWorld-layout catalog the code has never seen: a copy of the probe under a new
    name, with its YAMLs rewritten to match."""
    (root / "catalog" / "games").mkdir(parents=True)
    (root / "catalog" / "tasks" / "42_unseen").mkdir(parents=True)
    shutil.copytree(CATALOG / "games" / "benchmark" / "01_probe",
                    root / "games" / "benchmark" / "42_unseen")
    game = (CATALOG / "catalog" / "games" / "01_probe.yaml").read_text(encoding="utf-8")
    (root / "catalog" / "games" / "42_unseen.yaml").write_text(
        game.replace("game_name: 01_probe", "game_name: 42_unseen"), encoding="utf-8")
    task = (CATALOG / "catalog" / "tasks" / "01_probe" / "01_01.yaml").read_text(
        encoding="utf-8")
    (root / "catalog" / "tasks" / "42_unseen" / "42_03.yaml").write_text(
        task.replace("01_probe", "42_unseen").replace('"01_01"', '"42_03"')
            .replace("task_target_score_field: 6", "task_target_score_field: 3"),
        encoding="utf-8")
    return root


@in_module_loop
async def test_an_unseen_gameworld_catalog_loads_and_plays(browser, tmp_path):
    root = _unseen_catalog(tmp_path / "gw")
    levels = KIND.load_with("42_unseen", options={"catalog": str(root)})
    assert [lv.title for lv in levels] == ["42_unseen/42_03"]
    KIND.check_level(levels[0])
    store = Store(open_database(f"sqlite:///{tmp_path / 'bg.sqlite3'}"))
    setting = SETTINGS["tools:computer-use"]
    result = await play(Task(KIND.name, levels[0], {}, str(root)),
                        Texts(["press_key ArrowRight"] * 4), setting=setting,
                        budget=setting.budget, recorder=DbRecorder(store),
                        services=EnvServices(extra={"browser": browser}))
    assert store.episode(result.episode_id).scores["solved"] == 1.0
