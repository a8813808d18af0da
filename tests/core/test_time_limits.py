"""Time limits end an episode the same way whatever the clock reads when they fire.

The loop's clock (``Episode.clock``) and the event loop's timer are two clocks: a time-out can
fire while the loop's clock reads a hair under the limit (a coarse clock, a qasync timer that
fires early, a clock read before the timer's). The outcome must come from which limit was set,
not from a reading taken afterwards: the overall limit ends the episode on ``time``, a
per-action limit alone makes an invalid ``timeout`` step. Checked on plain asyncio and on the
qasync loop the desktop app runs on.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from playbench.app.core.budget import Budget
from playbench.app.core.env import make_env
from playbench.app.core.episode import Episode
from playbench.app.core.recorder import MemoryRecorder
from playbench.app.core.settings import get_setting
from playbench.app.core.task import Task
from tests.core.test_episode import ROOM

LIMIT = 0.02
"""Real seconds each limit lasts: the event loop's timer fires after it."""


class Silent:
    """A player who never answers (a person away from the keyboard, a hung endpoint)."""

    kind, name, spec = "human", "silent", "silent"

    def details(self):
        return {}

    async def act(self, observation, context):
        await asyncio.Event().wait()


class Readings:
    """The loop's clock: the given readings in order, then the last one forever."""

    def __init__(self, readings: list[float]):
        self.readings = list(readings)

    def __call__(self) -> float:
        return self.readings.pop(0) if len(self.readings) > 1 else self.readings[0]


def episode(budget: Budget, clock: Callable[[], float]) -> tuple[Episode, MemoryRecorder]:
    task = Task("sokoban", ROOM)
    rec = MemoryRecorder()
    ep = Episode(make_env(task), Silent(), task, setting=get_setting("default", "sokoban"),
                 budget=budget, recorder=rec, clock=clock)
    return ep, rec


# A reading after the time-out fired, relative to the limit: well under it (a clock that lags),
# a hair under, exactly at it, and past it.
around_the_limit = st.one_of(
    st.floats(min_value=-0.99, max_value=2.0),
    st.sampled_from([-1e-9, -1e-6, 0.0, 1e-9]),
)


def readings(before: float, after: float, limit: float) -> list[float]:
    """Clock readings: start, loop top and decision start at ``before``; every later one at
    ``before + limit * (1 + after)``."""
    later = before + limit * (1.0 + after)
    return [0.0, before, before, later]


@pytest.fixture(scope="module", params=["asyncio", "qasync"])
def run(request):
    """Run a coroutine to the end on the named event loop."""
    if request.param == "asyncio":
        yield asyncio.run
        return
    import qasync
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])
    loop = qasync.QEventLoop(app)
    yield loop.run_until_complete
    loop.close()
    asyncio.set_event_loop(None)


@given(after=around_the_limit, spent=st.floats(min_value=0.0, max_value=0.5))
def test_the_overall_limit_always_ends_on_time(run, after, spent):
    # ``spent`` of the overall limit is already used when the decision starts; the time-out
    # fires on what is left, and the clock then reads anywhere around the overall limit.
    overall = LIMIT / (1.0 - spent)
    ep, rec = episode(Budget(max_actions=10, seconds=overall),
                      Readings(readings(overall * spent, after, overall - overall * spent)))
    result = run(ep.run())
    assert (result.status, result.end_reason) == ("done", "time")
    assert rec.episodes[result.episode_id].steps == []


@given(after=around_the_limit)
def test_the_overall_limit_ends_on_time_when_it_is_the_nearer_of_two(run, after):
    ep, _ = episode(Budget(max_actions=10, seconds=LIMIT, action_seconds=LIMIT * 50),
                    Readings(readings(0.0, after, LIMIT)))
    result = run(ep.run())
    assert (result.status, result.end_reason) == ("done", "time")


@given(after=around_the_limit)
def test_a_per_action_limit_alone_makes_invalid_timeout_steps(run, after):
    ep, rec = episode(Budget(max_actions=2, action_seconds=LIMIT),
                      Readings(readings(0.0, after, LIMIT)))
    result = run(ep.run())
    steps = rec.episodes[result.episode_id].steps
    assert (result.status, result.end_reason) == ("done", "budget")
    assert [s.invalid_kind for s in steps] == ["timeout", "timeout"]
    assert all(f"{LIMIT:g} s" in s.invalid_reason for s in steps)


@given(after=around_the_limit)
def test_the_nearer_per_action_limit_makes_a_timeout_step(run, after):
    ep, rec = episode(Budget(max_actions=1, seconds=LIMIT * 50, action_seconds=LIMIT),
                      Readings(readings(0.0, after, LIMIT)))
    result = run(ep.run())
    assert result.end_reason == "budget"
    assert [s.invalid_kind for s in rec.episodes[result.episode_id].steps] == ["timeout"]


def test_a_timeout_the_player_raises_itself_is_an_error_not_a_time_limit(run):
    class Raising(Silent):
        async def act(self, observation, context):
            raise TimeoutError("the endpoint timed out")

    for budget in (Budget(max_actions=5), Budget(max_actions=5, seconds=60)):
        task = Task("sokoban", ROOM)
        ep = Episode(make_env(task), Raising(), task, setting=get_setting("default", "sokoban"),
                     budget=budget, recorder=MemoryRecorder())
        result = run(ep.run())
        assert result.status == "error" and "endpoint timed out" in result.end_reason
