"""Every bundled task is solved by its reference trajectory (score 1) and failed by its wrong
one (score 0), played in real Chromium through the loop.

Each episode starts its own copy of the offline site, as a run does. The episodes are played
a few at a time by one module fixture (the browser waits on pages most of the time); each task
then has its own test over its two results."""

from __future__ import annotations

import asyncio

import pytest
import pytest_asyncio

from playbench.games.web.config import WebConfig
from playbench.games.web.env import WebTaskEnv
from playbench.games.web.sources import load_tasks
from playbench.games.web.tasks import task_from_level
from tests.web.conftest import play

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.browser, pytest.mark.content]
TASKS = load_tasks("classifieds")
AT_ONCE = 3


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def results(browser, judge):
    gate = asyncio.Semaphore(AT_ONCE)

    async def one(task, plan):
        async with gate:
            env = WebTaskEnv(browser=browser, config=WebConfig(), judge=judge, vqa=judge,
                             plan=plan, axtree=False)
            return (task.level.number, plan), await play(env, task)

    pairs = await asyncio.gather(*[one(t, p) for t in TASKS for p in ("reference", "wrong")])
    return dict(pairs)


@pytest.mark.parametrize("task", TASKS, ids=lambda t: f"task{t.level.number}")
async def test_reference_scores_one_and_wrong_scores_zero(task, results):
    good = results[(task.level.number, "reference")]
    bad = results[(task.level.number, "wrong")]
    wt = task_from_level(task.level)

    assert good.status == "done" and good.end_reason == "stopped", good.end_reason
    assert [s.action for s in good.steps][-1].startswith("stop")
    assert len(good.steps) == len(wt.reference)
    assert all(s.valid for s in good.steps), [(s.action, s.invalid_reason) for s in good.steps]
    assert good.scores["score"] == 1.0, good.scores
    assert good.scores["solved"] == 1.0

    assert bad.status == "done" and bad.end_reason == "stopped", bad.end_reason
    assert len(bad.steps) == len(wt.wrong)
    assert bad.scores["score"] == 0.0, bad.scores
    assert bad.scores["solved"] == 0.0
