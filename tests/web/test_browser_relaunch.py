"""A shared Chromium that is killed or stops answering mid-module costs one test, not the rest.

The module shares one browser (tests/web/conftest.py) as every browser test module does, and
its tests run in order on one worker (xdist hands out whole modules): the first plays a task,
the second kills the browser from outside, the ones after it play again on the same fixture -
Browser.new_session starts a new Chromium - and the last freezes it (SIGSTOP) to show that one
which no longer answers is replaced too.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from pathlib import Path

import pytest

from tests.web.conftest import ListPlayer, play, web_task

pytestmark = pytest.mark.asyncio(loop_scope="module")
START = "__CLASSIFIEDS__/index.php?page=search&category=art"


def chromium_pids() -> list[int]:
    """Chromium processes started below this test process (through Playwright's driver)."""
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

    def below_us(pid: int) -> bool:
        while pid > 1:
            pid = parents.get(pid, 0)
            if pid == os.getpid():
                return True
        return False

    return [p for p, name in names.items() if "chrom" in name.lower() and below_us(p)]


async def plays_a_task(make_env) -> None:
    result = await play(make_env(), web_task(start=START), ListPlayer(["stop [ok]"]))
    assert (result.status, result.scores["solved"]) == ("done", 1), result.end_reason


async def test_a_task_plays_on_the_shared_browser(make_env):
    await plays_a_task(make_env)


async def test_the_shared_browser_is_killed_from_outside(browser, make_env):
    await plays_a_task(make_env)  # the fixture's Chromium is up
    pids = chromium_pids()
    assert pids, "no Chromium below this process"
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):  # a helper that left with its parent
            os.kill(pid, signal.SIGKILL)
    for _ in range(200):  # Playwright notices the closed pipe
        if not browser._browser.is_connected():
            break
        await asyncio.sleep(0.05)
    assert not browser._browser.is_connected()


async def test_the_next_test_plays_on_a_relaunched_browser(make_env):
    before = set(chromium_pids())
    await plays_a_task(make_env)
    assert set(chromium_pids()) - before, "a new Chromium was started"


async def test_and_the_one_after_it_too(make_env):
    await plays_a_task(make_env)


async def test_a_browser_that_stops_answering_is_replaced(browser, make_env, monkeypatch):
    await plays_a_task(make_env)
    frozen = chromium_pids()
    monkeypatch.setattr(browser, "answer_seconds", 2.0)
    for pid in frozen:
        # a renderer of the task just played may end between the listing and the signal
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGSTOP)
    try:
        await plays_a_task(make_env)
        assert set(chromium_pids()) - set(frozen), "a new Chromium was started"
    finally:
        for pid in frozen:
            for sig in (signal.SIGKILL, signal.SIGCONT):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, sig)
