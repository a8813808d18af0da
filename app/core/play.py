"""One entry for playing one episode: make the environment, run the loop, close the
environment.

Every caller that plays an episode - batch runs, resumes, study sweeps and queues, replay
checks, chat export, the desktop app - goes through :func:`play`, so the order (environment
made per episode, closed whatever happens: a finished episode, an error, a cancel) and the
options (resume, clock, listeners, services) are written once.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from playbench.app.core.budget import Budget
from playbench.app.core.env import Env
from playbench.app.core.env import make_env as default_make_env
from playbench.app.core.episode import Episode
from playbench.app.core.events import EpisodeResult, Listener
from playbench.app.core.player import Player
from playbench.app.core.recorder import Recorder, StepRecord
from playbench.app.core.settings import Setting
from playbench.app.core.task import Task
from playbench.games.kind import EnvServices, default_registry

log = logging.getLogger(__name__)

EnvFactory = Callable[[Task], Env]
"""Makes a fresh environment for one episode's task."""


@dataclass(frozen=True)
class Resume:
    """Continue recorded episode ``episode_id`` after its ``records`` instead of starting a
    new one (the loop re-applies them, checking each recorded state)."""

    episode_id: int
    records: Sequence[StepRecord]
    carried_ms: float = 0.0
    """Think time already spent on the next decision (saved when it was paused)."""


def new_env(task: Task, *, services: EnvServices | None = None, render: bool = True) -> Env:
    """The task kind's environment; ``services`` (judges, a shared browser) go to the kind."""
    if services is None:
        return default_make_env(task, render=render)
    env: Env = default_registry().get(task.game).make_env(task, services=services,
                                                         render=render)
    return env


async def play(task: Task, player: Player, *, setting: Setting, budget: Budget,
               recorder: Recorder, seed: int = 0, study: str | None = None,
               meta: Mapping[str, Any] | None = None, listeners: Sequence[Listener] = (),
               clock: Callable[[], float] | None = None, make_env: EnvFactory | None = None,
               services: EnvServices | None = None, render: bool = True,
               resume: Resume | None = None) -> EpisodeResult:
    """Play one episode of ``task`` with ``player`` to its end and return the result.

    ``make_env`` replaces the kind's environment factory (a shared browser, a test double);
    ``services`` and ``render`` go to the kind's factory otherwise. ``clock`` replaces the
    loop's monotonic clock (the desktop demo's pausable one). The environment is closed on
    every way out, cancellation included.
    """
    env = make_env(task) if make_env is not None else new_env(task, services=services,
                                                              render=render)
    try:
        episode = Episode(env, player, task, setting=setting, budget=budget, recorder=recorder,
                          seed=seed, study=study, listeners=listeners, clock=clock,
                          meta=dict(meta or {}))
        if resume is not None:
            return await episode.resume(resume.episode_id, resume.records, resume.carried_ms)
        return await episode.run()
    finally:
        await _close(env)


async def _close(env: Env) -> None:
    """Close the episode's environment. A close that fails (its browser died with the
    episode) is logged, not raised: the episode's end is recorded already, and raising here
    would take the rest of a run or sweep down with it. Cancellation still propagates."""
    try:
        await env.close()
    except Exception as err:
        log.warning("closing the %s environment failed: %s: %s", type(env).__name__,
                    type(err).__name__, str(err).splitlines()[0][:200] if str(err) else "")


__all__ = ["EnvFactory", "Resume", "new_env", "play"]
