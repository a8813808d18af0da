"""Operations shared by the command line and the UI: run episodes, resume one, rebuild a
recorded episode's task.

Many episodes run concurrently on one asyncio loop; each has its own environment and player, and
all share one recorder (one database).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from playbench.app.core.budget import Budget
from playbench.app.core.events import EpisodeResult, Listener
from playbench.app.core.owner import is_alive
from playbench.app.core.play import EnvFactory, Resume, play
from playbench.app.core.player import Player
from playbench.app.core.recorder import Recorder, StepRecord
from playbench.app.core.settings import Setting, get_setting
from playbench.app.core.task import Task
from playbench.db.store import EpisodeRow, Store
from playbench.db.thinking import carried_ms
from playbench.games.base import Level
from playbench.games.kind import EnvServices, default_registry


@dataclass
class RunRequest:
    """Episodes to play: every level, ``repeat`` times, with fresh players from the factory."""

    tasks: Sequence[Task]
    make_player: Callable[[Task, int], Player]
    setting: Setting
    budget: Budget
    repeat: int = 1
    seed: int = 0
    concurrency: int = 1
    study: str | None = None
    make_env: EnvFactory | None = None
    """Replaces the kind's environment factory (default: the kind's, given ``services``)."""
    services: EnvServices | None = None
    meta: dict[str, Any] = field(default_factory=dict)


def episode_seed(base: int, repeat_index: int) -> int:
    """Seed of the r-th repeat: distinct per repeat, reproducible from the base seed."""
    return base + repeat_index


async def run_many(request: RunRequest, recorder: Recorder,
                   listeners: Sequence[Listener] = (),
                   on_result: Callable[[EpisodeResult], None] | None = None
                   ) -> list[EpisodeResult]:
    """Play every (task, repeat) pair, at most ``concurrency`` at a time, in a stable order."""
    jobs = [(task, r) for task in request.tasks for r in range(request.repeat)]
    gate = asyncio.Semaphore(max(1, request.concurrency))
    results: list[EpisodeResult | None] = [None] * len(jobs)

    async def one(i: int, task: Task, r: int) -> None:
        async with gate:
            result = results[i] = await play(
                task, request.make_player(task, r), setting=request.setting,
                budget=request.budget, recorder=recorder, seed=episode_seed(request.seed, r),
                study=request.study, listeners=listeners, meta=request.meta,
                make_env=request.make_env, services=request.services)
            if on_result is not None:
                on_result(result)

    await _gather_all([one(i, t, r) for i, (t, r) in enumerate(jobs)])
    return [r for r in results if r is not None]


async def _gather_all(coros: Sequence[Awaitable[None]]) -> None:
    """Run all; on cancellation cancel the rest and wait for them to record their state."""
    tasks = [asyncio.ensure_future(c) for c in coros]
    try:
        await asyncio.gather(*tasks)
    except BaseException:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise


def task_of(row: EpisodeRow) -> Task:
    """The task a recorded episode played, rebuilt from the database."""
    t = row.task
    level = Level(t.game, t.level_text, t.level_number, t.title, dict(t.meta or {}))
    return Task(t.game, level, dict(row.episode.rules or {}), t.source)


def records_of(steps: Sequence[Any]) -> list[StepRecord]:
    """Stored steps (``Store.steps``) as the plain records the loop produced."""
    return [StepRecord.from_row(s) for s in steps]


class NotResumable(RuntimeError):
    pass


async def resume_episode(store: Store, episode_id: int, player: Player, recorder: Recorder,
                         listeners: Sequence[Listener] = (),
                         env_factory: EnvFactory | None = None,
                         clock: Callable[[], float] | None = None,
                         services: EnvServices | None = None) -> EpisodeResult:
    """Continue an interrupted (or errored) episode from its last recorded step. ``clock``
    replaces the episode's monotonic clock (the desktop demo's pausable one); ``env_factory``
    and ``services`` are as for :func:`playbench.app.core.play.play`."""
    store.mark_interrupted(is_alive)
    row = store.episode(episode_id)
    ep = row.episode
    if ep.status not in ("interrupted", "error"):
        raise NotResumable(f"episode {episode_id} is {ep.status}; only interrupted or failed "
                           "episodes can be resumed")
    task = task_of(row)
    spec = default_registry().get(task.game).replay
    if not spec.resumes(ep.setting or "default"):
        raise NotResumable(f"episode {episode_id} cannot be resumed: {spec.reason}")
    records = records_of(store.steps(episode_id))
    carried = carried_ms(store.db, episode_id, len(records))
    return await play(task, player, setting=get_setting(ep.setting or "default", task.game),
                      budget=Budget.from_dict(ep.budget), recorder=recorder, seed=ep.seed,
                      listeners=listeners, clock=clock, make_env=env_factory, services=services,
                      resume=Resume(episode_id, records, carried))
