"""``play()``, the one entry every caller uses, the recorder that commits off the event loop's
thread, and invalid kinds carried by the environment's transitions.

Environments are the real Sokoban env (wrapped where a test needs to see ``close`` or to
refuse a move its own way); the database is a real SQLite file.
"""

from __future__ import annotations

import asyncio
import dataclasses
import threading
import time

import pytest

from playbench.app.core.budget import Budget
from playbench.app.core.env import make_env
from playbench.app.core.events import Ended, Moved, Started, Stepped
from playbench.app.core.play import Resume, play
from playbench.app.core.recorder import DbRecorder, MemoryRecorder, StoreWriter
from playbench.app.core.settings import get_setting
from playbench.app.core.task import Task
from playbench.app.core.types import Decision, Transition
from playbench.app.players.scripted import SolverPlayer
from playbench.db.engine import open_database
from playbench.db.store import Store
from playbench.games.base import Level

ROOM = Level("sokoban", "########\n#@     #\n# $  . #\n#   $ .#\n########", 1, "two boxes")
TASK = Task("sokoban", ROOM)


class Watched:
    """The real env for a task, noting whether it was closed."""

    def __init__(self, task: Task) -> None:
        self.inner = make_env(task)
        self.closed = 0

    def __getattr__(self, name):
        return getattr(self.inner, name)

    async def close(self) -> None:
        self.closed += 1
        await self.inner.close()


class Texts:
    """Sends fixed action texts, then gives up."""

    kind, name, spec = "script", "texts", "texts"

    def __init__(self, texts) -> None:
        self.texts = list(texts)

    def details(self):
        return {}

    async def act(self, observation, context):
        if not self.texts:
            return Decision.quit()
        text = self.texts.pop(0)
        return Decision.act(context.parse(text), text)


class Stuck:
    """Waits for a decision that never comes (a person who does not press a key)."""

    kind, name, spec = "human", "stuck", "human"

    def __init__(self) -> None:
        self.asked = asyncio.Event()

    def details(self):
        return {}

    async def act(self, observation, context):
        self.asked.set()
        await asyncio.Event().wait()


class Failing:
    kind, name, spec = "script", "failing", "failing"

    def details(self):
        return {}

    async def act(self, observation, context):
        raise RuntimeError("the model endpoint went away")


def options(**kw):
    return {"setting": get_setting("default"), "budget": Budget(max_actions=20), **kw}


# -- play() --------------------------------------------------------------------------------------

async def test_play_runs_an_episode_and_closes_its_env():
    made: list[Watched] = []
    rec = MemoryRecorder()
    events = []

    def factory(task):
        made.append(Watched(task))
        return made[-1]
    result = await play(TASK, SolverPlayer(), recorder=rec, make_env=factory,
                        listeners=[events.append], **options())
    assert result.end_reason == "solved" and len(made) == 1 and made[0].closed == 1
    assert isinstance(events[0], Started) and isinstance(events[-1], Ended)
    assert rec.episodes[result.episode_id].steps == result.steps


async def test_play_closes_the_env_when_the_player_fails():
    made: list[Watched] = []
    result = await play(TASK, Failing(), recorder=MemoryRecorder(),
                        make_env=lambda t: made.append(Watched(t)) or made[-1], **options())
    assert result.status == "error" and "went away" in result.end_reason
    assert made[0].closed == 1


async def test_play_closes_the_env_when_resume_cannot_rebuild_the_state():
    made: list[Watched] = []
    first = await play(TASK, Texts(["R", "R"]), recorder=MemoryRecorder(), **options())
    forged = [dataclasses.replace(first.steps[0], state_hash="0" * 16)]
    with pytest.raises(Exception, match="step 0"):
        await play(TASK, Texts([]), recorder=MemoryRecorder(),
                   make_env=lambda t: made.append(Watched(t)) or made[-1],
                   resume=Resume(first.episode_id, forged), **options())
    assert made[0].closed == 1


async def test_play_closes_the_env_on_cancel_and_records_the_interruption():
    made: list[Watched] = []
    rec = MemoryRecorder()
    player = Stuck()
    running = asyncio.ensure_future(play(
        TASK, player, recorder=rec, make_env=lambda t: made.append(Watched(t)) or made[-1],
        **options()))
    await asyncio.wait_for(player.asked.wait(), 10)
    running.cancel()
    with pytest.raises(asyncio.CancelledError):
        await running
    assert made[0].closed == 1
    assert [e.status for e in rec.episodes.values()] == ["interrupted"]


async def test_play_resumes_where_the_record_stops():
    rec = MemoryRecorder()
    full = await play(TASK, SolverPlayer(), recorder=rec, **options())
    cut = full.steps[:3]
    again = MemoryRecorder()
    eid = await again.begin(rec.episodes[full.episode_id].start, None)
    for s in cut:
        await again.step(eid, s, None)
    events = []
    result = await play(TASK, SolverPlayer(), recorder=again, listeners=[events.append],
                        resume=Resume(eid, cut), **options())
    assert [s.state_hash for s in result.steps] == [s.state_hash for s in full.steps]
    started = events[0]
    assert isinstance(started, Started) and started.history == tuple(cut)


async def test_play_uses_the_given_clock():
    now = [100.0]

    def clock() -> float:
        now[0] += 30.0  # every reading is half a minute later
        return now[0]
    result = await play(TASK, Texts(["R"] * 10), recorder=MemoryRecorder(), clock=clock,
                        **options(budget=Budget(max_actions=20, seconds=100)))
    assert result.end_reason == "time" and len(result.steps) < 10


# -- the recorder runs off the loop's thread ----------------------------------------------------

class SlowWriter(StoreWriter):
    """A writer whose step commits wait until the test lets them go (or 10 s pass)."""

    def __init__(self, store: Store) -> None:
        super().__init__(store)
        self.release = threading.Event()
        self.started = threading.Event()
        self.threads: set[str] = set()
        self.committed = 0

    def step(self, episode_id, record, frame) -> None:
        self.threads.add(threading.current_thread().name)
        self.started.set()
        if not self.release.wait(10):
            raise TimeoutError("the commit was never released")
        super().step(episode_id, record, frame)
        self.committed += 1


class Counting:
    """Moves right, noting how many steps were committed when each decision was asked."""

    kind, name, spec = "script", "counting", "counting"

    def __init__(self, writer: SlowWriter, moves: int) -> None:
        self.writer = writer
        self.moves = moves
        self.seen: list[tuple[int, int]] = []

    def details(self):
        return {}

    async def act(self, observation, context):
        self.seen.append((context.step, self.writer.committed))
        if self.moves == 0:
            return Decision.quit()
        self.moves -= 1
        return Decision.act(context.parse("R"), "R")


@pytest.fixture
def store(tmp_path):
    db = open_database(f"sqlite:///{tmp_path / 'play.sqlite3'}")
    yield Store(db)
    db.dispose()


async def test_a_slow_commit_does_not_hold_the_event_loop(store):
    writer = SlowWriter(store)
    recorder = DbRecorder(store, writer)
    player = Counting(writer, 1)
    moved = asyncio.Event()
    running = asyncio.ensure_future(play(
        TASK, player, recorder=recorder,
        listeners=[lambda e: moved.set() if isinstance(e, Moved) else None], **options()))
    await asyncio.wait_for(moved.wait(), 10)
    # The step's commit is now blocked in the worker thread; the loop must keep turning.
    ticks, t0 = 0, time.monotonic()
    while not writer.started.is_set() or ticks < 20:
        await asyncio.sleep(0.001)
        ticks += 1
        assert time.monotonic() - t0 < 10, "the loop did not turn while the commit ran"
    assert not running.done() and writer.committed == 0
    writer.release.set()
    result = await asyncio.wait_for(running, 20)
    recorder.close()
    assert ticks >= 20 and threading.current_thread().name not in writer.threads
    # Each decision still started only after every earlier step was committed.
    assert player.seen == [(0, 0), (1, 1)]
    assert [s.action for s in store.steps(result.episode_id)] == ["R"]


async def test_a_cancel_during_a_commit_waits_for_it_and_records_the_end(store):
    writer = SlowWriter(store)
    recorder = DbRecorder(store, writer)
    stepped = []
    running = asyncio.ensure_future(play(
        TASK, Counting(writer, 5), recorder=recorder, listeners=[stepped.append],
        **options()))
    while not writer.started.is_set():
        await asyncio.sleep(0.001)
    running.cancel()
    writer.release.set()
    with pytest.raises(asyncio.CancelledError):
        await running
    recorder.close()
    ended = [e for e in stepped if isinstance(e, Ended)]
    assert len(ended) == 1 and ended[0].result.status == "interrupted"
    row = store.episode(ended[0].episode_id).episode
    assert row.status == "interrupted"
    # The step that was being written when the cancel came is kept, in order.
    assert [s.index for s in store.steps(ended[0].episode_id)] == [0]
    assert not any(isinstance(e, Stepped) for e in stepped)


# -- invalid kinds come from the environment ------------------------------------------------------

class Forbidding(Watched):
    """Refuses moves to the left as a setting would, with a reason that does not say so."""

    async def step(self, action):
        if action.text == "L":
            obs = (await self.inner.step(action)).observation  # the wall bump: no change
            return Transition(obs, False, False, reason="left is switched off here",
                              invalid_kind="not_allowed")
        return await self.inner.step(action)


async def test_the_invalid_kind_is_the_one_the_env_gives():
    result = await play(TASK, Texts(["L", "U", "R"]), recorder=MemoryRecorder(),
                        make_env=Forbidding, **options())
    kinds = [(s.action, s.valid, s.invalid_kind) for s in result.steps]
    assert kinds == [("L", False, "not_allowed"), ("U", False, "illegal"), ("R", True, None)]
    assert result.steps[0].invalid_reason == "left is switched off here"


async def test_board_envs_name_refused_moves_illegal():
    env = make_env(TASK)
    await env.reset(TASK, 0)
    bump = await env.step(env.parse_action("U"))
    move = await env.step(env.parse_action("R"))
    assert (bump.valid, bump.invalid_kind) == (False, "illegal")
    assert (move.valid, move.invalid_kind) == (True, None)
    await env.close()


async def test_restore_is_awaited_by_undo():
    env = make_env(TASK)
    start = await env.reset(TASK, 0)
    snap = env.snapshot()
    await env.step(env.parse_action("R"))
    back = await env.restore(snap)
    assert back.text == start.text
    await env.close()


class LosesTheDatabase(MemoryRecorder):
    """Stores two steps, then refuses the way ``Database.writing`` does when another program
    has taken the WAL away (playbench.db.engine.DatabaseLost) or the disk is full (DiskFull)."""

    def __init__(self, error: type[Exception]) -> None:
        super().__init__()
        self.error = error
        self.finished: list[str] = []

    async def step(self, episode_id, record, frame):
        if record.index >= 2:
            raise self.error("the database's WAL was deleted by another program")
        await super().step(episode_id, record, frame)

    async def finish(self, episode_id, status, end_reason, scores):
        self.finished.append(status)
        await super().finish(episode_id, status, end_reason, scores)


@pytest.mark.parametrize("error", ["DatabaseLost", "DiskFull"])
async def test_a_lost_or_full_database_stops_the_run_and_names_the_episode(error):
    """Nothing more can be recorded safely, so the run stops (no error end is written into a
    database that refuses writes) and the message says which episode to resume."""
    from playbench.db import engine
    rec = LosesTheDatabase(getattr(engine, error))
    with pytest.raises(getattr(engine, error), match=r"playbench run --resume 1"):
        await play(TASK, Texts(["R", "R", "R", "R"]), recorder=rec, **options())
    assert rec.finished == []
    assert len(rec.episodes[1].steps) == 2
