"""A study task's clock is exact across pause, resume and a crash: the think time of the
decision in flight is saved (on pause and every half second) and counted on resume, so
pausing before each move gives no time back."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from playbench.app.core.budget import Budget
from playbench.app.core.events import Deciding, Started
from playbench.app.core.player import PlayContext
from playbench.app.core.settings import get_setting
from playbench.app.core.task import Task
from playbench.app.players.human import HumanPlayer
from playbench.app.studies import StudyQueue, create_study, load_study_file
from playbench.app.studies.timekeeping import SAVE_EVERY
from playbench.app.ui.models.session import PlaySession
from playbench.db.engine import open_database
from playbench.db.store import Store
from playbench.games import registry
from playbench.games.packs import resolve
from tests.studies.helpers import optimal, press, study_yaml

LIMIT = 600


@pytest.fixture
def store(tmp_path, db_url):
    s = Store(open_database(db_url))
    create_study(s, load_study_file(study_yaml(tmp_path, order="fixed", time_limit=LIMIT)))
    yield s
    s.db.dispose()


class Session:
    """One sitting at a study task: the loop runs in a task, the test watches its events,
    moves a hand-wound clock (the loop's) and presses keys or pauses (cancels)."""

    def __init__(self, queue: StudyQueue, clock) -> None:
        self.player = HumanPlayer(queue.annotator)
        self.started: Started | None = None
        self.contexts: list[PlayContext] = []
        self.deciding = asyncio.Event()
        self.task = asyncio.ensure_future(queue.play(queue.next(), self.player,
                                                     listeners=[self._event], clock=clock))

    def _event(self, event) -> None:
        if isinstance(event, Started):
            self.started = event
        elif isinstance(event, Deciding):
            self.contexts.append(event.context)
            self.deciding.set()

    async def decision(self) -> PlayContext:
        await asyncio.wait_for(self.deciding.wait(), 30)
        self.deciding.clear()
        return self.contexts[-1]

    async def pause(self) -> None:
        self.task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await self.task


async def test_pause_and_resume_keep_the_time_of_the_decision_in_flight(store):
    now = [1000.0]
    clock = lambda: now[0]  # noqa: E731 - the loop's clock, wound by hand
    queue = StudyQueue(store, "pilot", "alice")

    first = Session(queue, clock)
    ctx = await first.decision()
    assert ctx.seconds_left == pytest.approx(LIMIT)
    now[0] += 22.0  # 22 s thinking, then pause before moving
    await first.pause()
    episode_id = first.started.episode_id

    second = Session(queue, clock)
    ctx = await second.decision()
    assert second.started.episode_id == episode_id
    assert second.started.carried == pytest.approx(22.0)
    assert ctx.seconds_left == pytest.approx(LIMIT - 22.0)  # not back to the full limit
    now[0] += 3.0
    press(second.player, ctx, optimal(ctx))
    ctx = await second.decision()  # step 0 recorded with all its think time
    assert store.steps(episode_id)[0].think_ms == pytest.approx(25_000.0)
    assert ctx.seconds_left == pytest.approx(LIMIT - 25.0)
    now[0] += 7.0
    await second.pause()

    third = Session(queue, clock)
    ctx = await third.decision()
    assert ctx.seconds_left == pytest.approx(LIMIT - 32.0)
    now[0] += 1.0
    press(third.player, ctx, optimal(ctx))
    await third.decision()
    steps = store.steps(episode_id)
    assert [s.think_ms for s in steps] == pytest.approx([25_000.0, 8_000.0])
    await third.pause()


async def test_pausing_past_the_limit_ends_the_task_on_time(store):
    now = [0.0]
    queue = StudyQueue(store, "pilot", "bob")
    first = Session(queue, lambda: now[0])
    await first.decision()
    now[0] += LIMIT + 5.0  # the whole limit spent thinking, then paused
    await first.pause()
    again = Session(queue, lambda: now[0])
    result = await asyncio.wait_for(again.task, 30)
    assert (result.status, result.end_reason) == ("done", "time")


async def test_sigkill_loses_at_most_the_save_interval(store, tmp_path):
    """A real process plays the task and is killed with SIGKILL while the annotator thinks;
    the resumed task counts all but at most ``SAVE_EVERY`` s (+ one write) of that time."""
    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONPATH=str(root), SDL_VIDEODRIVER="dummy")
    child = subprocess.Popen([sys.executable, "-m", "tests.studies.clock_child",
                              store.db.url, "carol"], cwd=root, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = await asyncio.to_thread(child.stdout.readline)
        assert line.startswith("deciding"), (line, child.stderr.read())
        asked = time.monotonic()
        await asyncio.sleep(2.3)  # the annotator thinks; no answer comes
        child.send_signal(signal.SIGKILL)
        thought = time.monotonic() - asked
        assert child.wait(30) == -signal.SIGKILL
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    queue = StudyQueue(store, "pilot", "carol")
    assert queue.next().status == "interrupted"
    again = Session(queue, time.monotonic)
    ctx = await again.decision()
    carried = again.started.carried
    assert thought - (SAVE_EVERY + 0.5) <= carried <= thought
    assert ctx.seconds_left <= LIMIT - carried + 0.01
    await again.pause()


async def test_a_timed_level_outside_studies_keeps_its_clock_too(tmp_path, db_url):
    """A person's Library level under a time limit (the play view's PlaySession): pausing
    (cancelling) and resuming keeps the time spent on the decision in flight."""
    store = Store(open_database(db_url))
    spec = registry.get("maze")
    task = Task("maze", resolve(spec, "ingvp:1").levels[0], spec.rule_options({}), "ingvp")
    now = [50.0]
    budget = Budget(max_actions=40, seconds=120)

    def session() -> tuple[PlaySession, asyncio.Event]:
        s = PlaySession(store, task, get_setting("default", "maze"), budget,
                        HumanPlayer("dora"), clock=lambda: now[0])
        asking = asyncio.Event()
        s.subscribe(lambda e: asking.set() if isinstance(e, Deciding) else None)
        return s, asking

    first, asking = session()
    running = asyncio.ensure_future(first.play())
    await asyncio.wait_for(asking.wait(), 30)
    now[0] += 40.0
    running.cancel()
    with pytest.raises(asyncio.CancelledError):
        await running
    second, asking = session()
    running = asyncio.ensure_future(second.resume(first.episode_id))
    await asyncio.wait_for(asking.wait(), 30)
    assert second.elapsed() == pytest.approx(40.0)
    assert second.context.seconds_left == pytest.approx(80.0)
    running.cancel()
    with pytest.raises(asyncio.CancelledError):
        await running
    store.db.dispose()
