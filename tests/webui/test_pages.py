"""Every bundled WebUI page (30), in one Chromium: the reference page scores AES 1.0 against the
targets read from it, and a blank page scores 0 (MageBench: nothing matched, every interaction
fails). Plus the env's treatment of broken and hanging answers and of wrong interactive names.
"""

from __future__ import annotations

import time

import pytest
import pytest_asyncio

from playbench.games.base import MoveError
from playbench.games.browser.browser import Browser
from playbench.games.coding.fences import as_answer
from playbench.games.coding.sandbox import Limits, Sandbox, SiteServer
from playbench.games.types import Task
from playbench.games.webui.aes import aes
from playbench.games.webui.env import WebUIEnv
from playbench.games.webui.render import (
    PAUSE_MS,
    TRUTH_PROPERTIES,
    VIEWPORT,
    interact,
    read_elements,
    run_page,
)
from playbench.games.webui.tasks import load_levels, task_of

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.browser, pytest.mark.content]

LEVELS = load_levels("webui")
LIMIT = 3.0
"""The script limit of the env test (a hanging page must fail within it)."""


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser():
    async with Browser() as b:
        yield b


@pytest.fixture(scope="module")
def sandbox(browser):
    with SiteServer() as server:
        yield Sandbox(browser, server, Limits())


@pytest.fixture(scope="module")
def blank_runs() -> dict:
    return {}


async def test_the_set_has_thirty_pages_of_four_kinds_that_differ() -> None:
    tasks = [task_of(lv) for lv in LEVELS]
    assert len(tasks) == 30
    assert {t.category for t in tasks} == {"landing", "form", "dashboard", "article"}
    assert len({t.reference["index.html"] for t in tasks}) == 30
    assert len({t.reference["style.css"] for t in tasks}) == 30
    for t in tasks:
        assert t.interactions and t.names
        assert all(s.get("selector") in (None, *t.names) for s in t.interactions)
        assert "data-filter-by" in t.reference["index.html"]


async def read_both(sandbox, task):
    """One render of the reference: in each state the truth (annotated elements) and the page
    as a submission is read (every element, every property AES knows)."""
    truth, full = [], []
    async with sandbox.open(task.reference_files(), viewport=VIEWPORT) as page:
        for step in (None, *task.interactions):
            if step is not None:
                await interact(page, step)
                await page.pause(PAUSE_MS)
            truth.append(await read_elements(page, TRUTH_PROPERTIES, True))
            full.append(await read_elements(page, TRUTH_PROPERTIES, False))
    return truth, full


@pytest.mark.parametrize("level", LEVELS, ids=[lv.meta["id"] for lv in LEVELS])
async def test_reference_scores_one_and_blank_scores_zero(sandbox, blank_runs, level) -> None:
    task = task_of(level)
    states, ref = await read_both(sandbox, task)
    score, parts = aes(states, ref)
    assert score == pytest.approx(1.0)
    assert all(p.matched == p.counted for p in parts)
    # Some interaction changes something that is scored.
    assert any(p.counted and p.weight > 0 for p in parts[1:])
    key = tuple(s["do"] for s in task.interactions)
    if key not in blank_runs:
        blank_runs[key] = await run_page(sandbox, {"index.html": ""}, task.interactions,
                                         props=list(TRUTH_PROPERTIES), shots=False)
    blank = blank_runs[key]
    assert blank.failure is None
    assert aes(states, blank.states)[0] == 0.0


def task_for(level) -> Task:
    return Task("webui", level, {}, "webui")


async def test_env_scores_broken_hanging_and_misnamed_answers(browser) -> None:
    level = LEVELS[0]  # a landing page: one click on .cta
    env = WebUIEnv(browser=browser, limits=Limits(script_seconds=LIMIT))
    try:
        await env.reset(task_for(level), 0)
        reference = task_of(level).reference
        with pytest.raises(MoveError):
            env.parse_action("Sorry, here is my page: <h1>no fence</h1>")
        # A hanging script: the page fails as a whole within the limit and scores 0.
        hang = dict(reference, **{"script.js": "while (true) {}"})
        start = time.monotonic()
        t = await env.step(env.parse_action(as_answer(hang)))
        assert time.monotonic() - start < 3 * LIMIT + 5
        assert t.reward == 0.0 and t.info["failure"]
        # The button under another class: the click fails, that state's score is lost.
        renamed = {k: v.replace('class="cta"', 'class="go"') for k, v in reference.items()}
        t = await env.step(env.parse_action(as_answer(renamed)))
        assert 0.5 < t.reward < 1.0 and any(".cta" in n for n in t.info["notes"])
        t = await env.step(env.parse_action(as_answer(dict(reference))))
        assert t.reward == pytest.approx(1.0) and t.terminated
        metrics = await env.score([], None)  # type: ignore[arg-type]
        assert metrics["aes"] == pytest.approx(1.0) and metrics["submissions"] == 3
        assert metrics["best_aes"] == pytest.approx(1.0)
    finally:
        await env.close()


async def test_a_live_render_after_the_episode_closed_starts_no_browser() -> None:
    """A person's live render can still be queued when the episode ends; once the env is
    closed it must not launch a Chromium that nobody would close."""
    env = WebUIEnv()  # its own browser, launched on first use
    try:
        await env.reset(task_for(LEVELS[0]), 0)
        files = dict(task_of(LEVELS[0]).reference)
        assert (await env.preview(files)).score == pytest.approx(1.0)
    finally:
        await env.close()
    assert env.browser is None
    with pytest.raises(RuntimeError, match="episode is over"):
        await env.preview(files)
    assert env.browser is None
