"""MageBench's own WebUI task folders played in one Chromium: the steps read from each
``actions.py`` replayed on the reference (every kind of step changes the page as written), the
reference scoring AES 1.0 against itself and a blank page 0.0 as MageBench's harness scores
them, a linked file that is missing noted, a page that is only slow not blamed on its scripts,
and ``playbench run`` playing the list file end to end with the built-in oracle model.

Fixtures: our own three tasks in MageBench's layout (``tests/webui/magebench_files``)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest
import pytest_asyncio

from playbench.games.browser.browser import Browser
from playbench.games.coding.sandbox import Limits, RenderFailed, Sandbox, SiteServer
from playbench.games.types import Task
from playbench.games.webui.env import TargetCache, WebUIEnv
from playbench.games.webui.tasks import load_levels

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.browser]

LIST = Path(__file__).parent / "magebench_files" / "resources" / "WebUI_mini.json"
LEVELS = {lv.title: lv for lv in load_levels(str(LIST))}
BLANK = {"index.html": "<!DOCTYPE html><html><body></body></html>"}


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser():
    async with Browser() as b:
        yield b


@pytest.fixture(scope="module")
def cache() -> TargetCache:
    return TargetCache()


async def started(browser, cache, title: str, options: dict | None = None) -> WebUIEnv:
    env = WebUIEnv(browser=browser, targets=cache)
    await env.reset(Task("webui", LEVELS[title], options or {}), 0)
    assert env.error is None, env.error
    return env


def texts(state) -> list[str]:
    return [e.values.get("text", "") for e in state]


@pytest.mark.parametrize("title", sorted(LEVELS))
async def test_reference_scores_one_and_a_blank_page_zero(browser, cache, title) -> None:
    env = await started(browser, cache, title)
    try:
        assert env.mode == "magebench"  # the task's file asks for the harness's reading
        assert all(s is not None for s in env.targets.run.states)
        assert len(env.targets.run.states) == 1 + len(env.page.interactions)
        ref = await env.submit(dict(env.page.reference))
        assert ref.failure is None and ref.score == pytest.approx(1.0)
        blank = await env.submit(BLANK)
        assert blank.score == 0.0
    finally:
        await env.close()


async def test_every_step_changes_the_reference_as_its_actions_py_says(browser, cache) -> None:
    card = await started(browser, cache, "Counter-Card")
    form = await started(browser, cache, "Signup-Form")
    drop = await started(browser, cache, "Drop-Zone")
    try:
        # A compound step (two clicks, each followed by a one-second sleep of game time in
        # which the page's half-second timer fires), then a hover.
        counts = [s[2].values["text"] for s in card.targets.run.states]
        assert counts == ["0", "2", "2"]
        backgrounds = [s[0].values["background-color"] for s in card.targets.run.states]
        assert backgrounds[1:] == ["rgb(255, 246, 221)"] * 2  # hovered (the mouse stays)
        # A wait for an element and typing; a double click, a text read and typed back with a
        # key; a loop choosing by text; an indexed element; a form submitted.
        states = form.targets.run.states
        assert "Code copied" in texts(states[2])
        chosen = [[e.values["text"] for e in s if e.values.get("background-color")
                   == "rgb(51, 68, 102)"] for s in states[3:5]]
        assert chosen == [["Team"], ["Plus"]]
        assert "Welcome, Ada!" in texts(states[5])
        # Drag and drop, key presses (Shift held), scrolling to the bottom.
        states = drop.targets.run.states
        chip = [e for e in states[1] if e.filter_by == "background-color"][0]
        to = [e for e in states[1] if e.filter_by == "border-top-style"][0]
        assert to.box[0] <= chip.box[0] and chip.box[2] <= to.box[2]
        assert "Last key: W" in texts(states[2])
        foot = [e for e in states[3] if e.values.get("text") == "The end of the page"][0]
        assert foot.values["background-color"] == "rgb(74, 38, 50)"
    finally:
        for env in (card, form, drop):
            await env.close()


async def test_a_missing_linked_file_is_noted_and_the_page_renders_without_it(browser,
                                                                              cache) -> None:
    env = await started(browser, cache, "Drop-Zone")
    try:
        note = "index.html links style.css, which is not there: the page renders without it"
        assert note in env.targets.run.notes
        assert note in env._observe(None).text
        sub = await env.submit(dict(env.page.reference))
        assert note in sub.notes and sub.failure is None
    finally:
        await env.close()


async def test_our_stricter_reading_is_one_rule_option_away(browser, cache) -> None:
    env = await started(browser, cache, "Counter-Card", {"aes": "playbench"})
    try:
        assert env.mode == "playbench"
        wrong = dict(env.page.reference)
        wrong["style.css"] = wrong["style.css"].replace("border-radius: 14px",
                                                        "border-radius: 4px")
        strict = (await env.submit(wrong)).score
        env.mode = "magebench"
        harness = (await env.submit(wrong)).score
        # The card's border-radius weighs 4 x 100 in ours and 100 in the harness's.
        assert strict < harness < 1.0
    finally:
        await env.close()


async def test_a_slow_call_is_not_blamed_on_a_script_but_a_looping_one_is(browser) -> None:
    page = ('<!DOCTYPE html><html><body><button id="b">Go</button><script>'
            'document.getElementById("b").onclick = () => { while (true) {} };'
            '</script></body></html>')
    with SiteServer() as server:
        box = Sandbox(browser, server, Limits(script_seconds=1.5))
        async with box.open({"index.html": page}) as view:
            with pytest.raises(RenderFailed) as slow:
                await view.call(asyncio.get_running_loop().create_future(), "a screenshot")
            assert slow.value.reason == "timeout"
            assert "hangs or loops" not in str(slow.value)
            assert "the browser was slow" in str(slow.value)
            with pytest.raises(RenderFailed) as looping:
                await view.evaluate("() => document.getElementById('b').click()")
            assert "a script hangs or loops" in str(looping.value)


async def test_the_run_command_plays_the_list_file_with_the_oracle_model(tmp_path) -> None:
    db = f"sqlite:///{tmp_path / 'cli.sqlite3'}"
    env = {**os.environ, "PLAYBENCH_CONFIG_DIR": str(tmp_path / "config")}
    args = [sys.executable, "-m", "playbench", "run", "--game", "webui", "--levels", str(LIST),
            "--player", "model:demo", "--setting", "webui:global", "--no-progress", "--db", db]
    proc = await asyncio.to_thread(subprocess.run, args, capture_output=True, text=True,
                                   timeout=600, env=env)
    assert proc.returncode == 0, proc.stderr
    rows = [line.split() for line in proc.stdout.splitlines() if line.strip()[:1].isdigit()]
    assert len(rows) == 3, proc.stdout
    assert all(r[1:4] == ["done", "solved", "1"] for r in rows), proc.stdout
