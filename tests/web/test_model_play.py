"""Model play on web tasks end to end: the official openai SDK over real HTTP to serve-model,
real Chromium (one per module) and the offline site, episodes recorded in SQLite.

The oracle stand-in replays each task's reference trajectory from the hint the client sends.
Every bundled task takes seconds in a browser, so the suite plays a subset that covers every
evaluator kind and string check (``SUBSET``) in both web settings; set
``PLAYBENCH_WEB_ALL_TASKS=1`` to play all 35 instead (70 episodes, about 3 minutes). One more
test runs the ``playbench run ... --player model:demo`` command itself.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys

import pytest
import pytest_asyncio

from playbench.app.agents.serve import ModelServer, ServeOptions
from playbench.app.agents.session import ModelPlayerFactory
from playbench.app.core.recorder import DbRecorder
from playbench.app.core.runs import RunRequest, run_many
from playbench.app.core.settings import get_setting
from playbench.app.core.types import INVALID_KINDS
from playbench.db.engine import open_database
from playbench.db.store import Store
from playbench.games.browser.actions import SUMMARY_PHRASE
from playbench.games.web.config import WebConfig
from playbench.games.web.env import WebTaskEnv
from playbench.games.web.kind import VWA_BUDGET
from playbench.games.web.sources import load_tasks
from playbench.games.web.tasks import task_from_level
from tests.agents.helpers import server_profile

pytestmark = pytest.mark.browser

in_module_loop = pytest.mark.asyncio(loop_scope="module")

SUBSET = {
    2: "string_match exact_match",
    9: "string_match fuzzy_match N/A (unachievable)",
    17: "string_match must_include + must_exclude",
    7: "url_match EXACT",
    1: "url_match GOLD in PRED",
    22: "program_html exact_match, logged in, type without Enter",
    29: "url_match + program_html + page_image_query eval_vqa",
    27: "page_image_query eval_fuzzy_image_match with an input image",
}
ALL = load_tasks("classifieds")
TASKS = ALL if os.environ.get("PLAYBENCH_WEB_ALL_TASKS") else [
    t for t in ALL if t.level.number in SUBSET]
SETTINGS = ("vwa:som", "vwa:text")
AT_ONCE = 3


class KeepingFactory(ModelPlayerFactory):
    """The run's model player factory, keeping each player to look at its last prompt."""

    def __init__(self, *args, **kw) -> None:
        super().__init__(*args, **kw)
        self.players = []

    def __call__(self, task, repeat):
        player = super().__call__(task, repeat)
        self.players.append((task.level.number, player))
        return player


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    return Store(open_database(f"sqlite:///{tmp_path_factory.mktemp('db') / 'web.sqlite3'}"))


@pytest.fixture(scope="module")
def oracle_url():
    with ModelServer(ServeOptions(port=0)) as server:
        yield server.url


async def play(browser, judge, store, profile, setting, tasks, budget=None):
    """Play ``tasks`` with a model profile; each episode has its own copy of the site."""
    factory = KeepingFactory(profile)

    def env(task):
        return WebTaskEnv(browser=browser, config=WebConfig(), judge=judge, vqa=judge,
                          axtree=False)
    request = RunRequest(tasks, factory, get_setting(setting, "web"), budget or VWA_BUDGET,
                         concurrency=AT_ONCE, make_env=env)
    try:
        results = await asyncio.wait_for(run_many(request, DbRecorder(store)), timeout=600)
    finally:
        await factory.aclose()
    return results, factory


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def oracle_runs(browser, judge, store, oracle_url):
    out = {}
    for setting in SETTINGS:
        results, factory = await play(browser, judge, store, server_profile(oracle_url),
                                      setting, TASKS)
        out[setting] = ({t.level.number: r for t, r in zip(TASKS, results, strict=True)},
                        dict(factory.players))
    return out


def test_the_subset_covers_every_evaluator_kind():
    kinds, checks = set(), set()
    for t in TASKS:
        ev = task_from_level(t.level).eval
        kinds.update(ev["eval_types"])
        checks.update((ev.get("reference_answers") or {}).keys())
        checks.update(k for p in ev.get("page_image_query") or [] for k in p
                      if k in ("eval_vqa", "eval_fuzzy_image_match"))
    assert kinds == {"string_match", "url_match", "program_html", "page_image_query"}
    assert checks >= {"exact_match", "must_include", "must_exclude", "fuzzy_match", "eval_vqa",
                      "eval_fuzzy_image_match"}


@in_module_loop
@pytest.mark.parametrize("setting", SETTINGS)
@pytest.mark.parametrize("task", TASKS, ids=lambda t: f"task{t.level.number}")
async def test_oracle_stand_in_solves_the_task(task, setting, oracle_runs, store):
    result = oracle_runs[setting][0][task.level.number]
    reference = task_from_level(task.level).reference
    assert result.status == "done" and result.end_reason == "stopped", result.end_reason
    assert result.scores["score"] == 1.0 and result.scores["solved"] == 1.0, result.scores
    steps = store.steps(result.episode_id)
    assert len(steps) == len(reference)
    assert all(s.valid for s in steps), [(s.action, s.invalid_reason) for s in steps]
    for s in steps:
        assert SUMMARY_PHRASE in s.raw and s.raw.rstrip().endswith(f"```{s.action}```")
        assert s.info["protocol"] == "vwa" and s.prompt_tokens > 0 and s.completion_tokens > 0
    ep = store.episode(result.episode_id).episode
    assert ep.setting == setting and ep.budget == VWA_BUDGET.to_dict()


@in_module_loop
@pytest.mark.parametrize("setting", SETTINGS)
async def test_prompts_carry_the_screenshot_only_in_the_image_setting(setting, oracle_runs):
    players = oracle_runs[setting][1]
    for number, player in players.items():
        messages = player.last_prompt.messages
        last = messages[-1]["content"]
        images = [p for p in last if p["type"] == "image_url"] if isinstance(last, list) else []
        text = last if isinstance(last, str) else last[0]["text"]
        assert "OBSERVATION:\n[1] [A] [Swapyard]" in text and "OBJECTIVE: " in text
        assert "PREVIOUS ACTION: " in text and "URL: http://127.0.0.1:" in text
        has_input = bool(task_from_level(ALL[number].level).images)
        if setting == "vwa:som":
            assert len(images) == 1 + has_input
            assert images[0]["image_url"]["url"].startswith("data:image/png;base64,")
        else:
            assert images == []
            assert all(isinstance(m["content"], str) for m in messages)


@in_module_loop
async def test_noise_records_every_invalid_reply_with_its_reason(browser, judge, store):
    with ModelServer(ServeOptions(port=0, noise=0.6, seed=2)) as server:
        tasks = [t for t in ALL if t.level.number in (0, 4, 10, 14, 18, 25)]
        results, _ = await play(browser, judge, store, server_profile(server.url), "vwa:text",
                                tasks)
        noisy = server.stats.noisy
    kinds = set()
    for r in results:
        assert r.status == "done", r.end_reason
        for s in store.steps(r.episode_id):
            assert s.raw
            if not s.valid:
                assert s.invalid_kind in INVALID_KINDS and s.invalid_reason
                kinds.add(s.invalid_kind)
    assert noisy >= 10
    assert {"no_action", "malformed", "not_in_vocabulary"} <= kinds, kinds


@in_module_loop
async def test_random_policy_plays_the_page_within_the_budget(browser, judge, store):
    with ModelServer(ServeOptions(port=0, policy="random", seed=5)) as server:
        tasks = [t for t in ALL if t.level.number in (0, 13)]
        results, _ = await play(browser, judge, store, server_profile(server.url), "vwa:som",
                                tasks, VWA_BUDGET.merged(max_actions=6))
    for r in results:
        assert r.status == "done" and r.end_reason in ("budget", "repeated_actions")
        steps = store.steps(r.episode_id)
        assert len(steps) == 6
        assert all(s.action and not s.action.startswith("stop") for s in steps)


@in_module_loop
async def test_replay_policy_repeats_recorded_web_replies(browser, judge, store, oracle_runs,
                                                          tmp_path):
    picked = [t for t in TASKS if t.level.number in (22, 27)]
    path = tmp_path / "replies.jsonl"
    lines = []
    for t in picked:
        r = oracle_runs["vwa:text"][0][t.level.number]
        for s in store.steps(r.episode_id):
            lines.append(json.dumps({"content": s.raw, "level_hash": t.level.content_hash,
                                     "decision": s.decision}))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with ModelServer(ServeOptions(port=0, policy=f"replay:{path}")) as server:
        results, _ = await play(browser, judge, store, server_profile(server.url), "vwa:text",
                                picked)
    for t, r in zip(picked, results, strict=True):
        before = store.steps(oracle_runs["vwa:text"][0][t.level.number].episode_id)
        assert [s.action for s in store.steps(r.episode_id)] == [s.action for s in before]
        assert r.scores["score"] == 1.0


def test_cli_run_with_the_demo_profile(tmp_path):
    db = tmp_path / "cli.sqlite3"
    env = dict(os.environ, PLAYBENCH_DB=f"sqlite:///{db}",
               PLAYBENCH_CONFIG_DIR=str(tmp_path / "config"))
    proc = subprocess.run(
        [sys.executable, "-m", "playbench", "run", "--game", "web", "--tasks", "classifieds:1,3",
         "--player", "model:demo", "--setting", "vwa:som", "--no-progress"],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    store = Store(open_database(f"sqlite:///{db}"))
    rows = store.episodes()
    assert len(rows) == 2
    for row in rows:
        ep = row.episode
        assert (ep.status, ep.end_reason, ep.setting) == ("done", "stopped", "vwa:som")
        assert ep.player == "model:demo" and ep.budget == VWA_BUDGET.to_dict()
        assert row.scores["score"] == 1.0 and row.participant.kind == "model"
        steps = store.steps(ep.id)
        assert steps and all(s.valid and SUMMARY_PHRASE in s.raw for s in steps)
    assert "stopped" in proc.stdout
