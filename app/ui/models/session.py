"""One episode played from the desktop app - by a person or a model - as a view sees it.

A :class:`PlaySession` builds the same :class:`~playbench.app.core.episode.Episode` the command line
runs (``DbRecorder``, agent scores, the chosen setting and budget), follows its events and keeps
what the HUD and transcript show: the current observation and game state, the steps so far, the
last decision context, the clock. Views subscribe with :meth:`PlaySession.subscribe`; all of it
runs on the one asyncio loop, so no locking is needed.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from playbench.app.core.budget import Budget
from playbench.app.core.events import (
    Deciding,
    Ended,
    EpisodeEvent,
    EpisodeResult,
    Listener,
    Started,
    Stepped,
)
from playbench.app.core.play import EnvFactory, new_env, play
from playbench.app.core.player import PastStep, PlayContext, Player
from playbench.app.core.recorder import DbRecorder, StepRecord
from playbench.app.core.runs import resume_episode
from playbench.app.core.settings import Setting, undo_allowed
from playbench.app.core.task import Task
from playbench.app.core.types import Decision, Observation
from playbench.app.players.human import undo_target
from playbench.app.studies.timekeeping import ThinkKeeper
from playbench.db.store import Store
from playbench.games import registry
from playbench.games.env import BoardTaskEnv


@dataclass(frozen=True)
class Budgeted:
    """Budget figures for the HUD."""

    used: int
    limit: int | None
    decisions: int
    decision_limit: int | None

    @property
    def left(self) -> int | None:
        return None if self.limit is None else max(0, self.limit - self.used)


class PlaySession:
    """Runs one episode and remembers what the views need about it."""

    def __init__(self, store: Store, task: Task, setting: Setting, budget: Budget,
                 player: Player, *, seed: int = 0, meta: dict[str, Any] | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 on_close: Callable[[], Awaitable[None]] | None = None,
                 env_factory: EnvFactory | None = None, spec: Any = None) -> None:
        self.store = store
        self.task = task
        self.setting = setting
        self.budget = budget
        self.player = player
        self.seed = seed
        self.meta = dict(meta or {})
        self.clock = clock
        self._on_close = on_close
        self._listeners: list[Listener] = []
        self.env: Any = None
        # Web tasks are not registry games: their views pass a spec (title, move help) and an
        # env factory that shares one Chromium between episodes.
        self.spec = spec if spec is not None else registry.get(task.game)
        self._env_factory = env_factory
        self.episode_id = 0
        self.steps: list[StepRecord] = []
        self.decisions: list[Decision] = []
        self.observation: Observation | None = None
        self.context: PlayContext | None = None
        self.result: EpisodeResult | None = None
        self.resumed_steps = 0
        self.started_at: float | None = None
        self.deciding_since: float | None = None
        self.seconds_before = 0.0
        self._geometry: Any = None

    # -- running ------------------------------------------------------------------------------

    def _make_env(self, task: Task) -> Any:
        self.env = self._env_factory(task) if self._env_factory else new_env(task)
        return self.env

    async def play(self) -> EpisodeResult:
        """Play a new episode to its end (cancel the awaiting task to interrupt it). Steps
        are committed by :class:`DbRecorder` off the Qt thread."""
        recorder = DbRecorder(self.store)
        try:
            return await play(self.task, self.player, setting=self.setting,
                              budget=self.budget, recorder=recorder,
                              seed=self.seed, listeners=self._listeners_for_loop(),
                              clock=self.clock, meta=self.meta, make_env=self._make_env)
        finally:
            recorder.close()
            await self._close()

    async def resume(self, episode_id: int) -> EpisodeResult:
        """Continue a recorded episode after its last step."""
        recorder = DbRecorder(self.store)
        try:
            return await resume_episode(self.store, episode_id, self.player,
                                        recorder, self._listeners_for_loop(),
                                        env_factory=self._make_env, clock=self.clock)
        finally:
            recorder.close()
            await self._close()

    def _listeners_for_loop(self) -> list[Listener]:
        """This session's listener, plus a keeper of the time in flight when a person plays
        under a time limit (pausing or a crash must not give time back)."""
        listeners: list[Listener] = [self._on_event]
        if self.player.kind == "human" and self.budget.seconds is not None:
            listeners.append(ThinkKeeper(self.store.db, self.clock))
        return listeners

    async def _close(self) -> None:
        """Release what the player's factory holds (the environment is closed by play)."""
        if self._on_close is not None:
            close, self._on_close = self._on_close, None
            await close()

    # -- events -------------------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def _on_event(self, event: EpisodeEvent) -> None:
        now = self.clock()
        if isinstance(event, Started):
            self.episode_id = event.episode_id
            self.observation = event.observation
            self.resumed_steps = event.resumed_steps
            self.started_at = now
            if event.resumed_steps:
                self.steps = list(event.history)
            # Time already used: the recorded steps' and the decision in flight's (pause).
            self.seconds_before = (sum(s.think_ms for s in self.steps) / 1000.0
                                   + event.carried)
        elif isinstance(event, Deciding):
            self.context = event.context
            self.deciding_since = now
        elif isinstance(event, Stepped):
            self.steps.append(event.record)
            self.observation = event.observation
            if not self.decisions or self.decisions[-1] is not event.decision:
                self.decisions.append(event.decision)
            self.deciding_since = None
        elif isinstance(event, Ended):
            self.result = event.result
            self.deciding_since = None
        for fn in list(self._listeners):
            fn(event)

    # -- what the views read ------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self.episode_id != 0 and self.result is None

    @property
    def state(self) -> Any:
        """The game's current state (for hit testing and key maps), or None before start."""
        return self.env.board.state if isinstance(self.env, BoardTaskEnv) else None

    @property
    def geometry(self) -> Any:
        """A renderer with the frames' geometry (``locate``/``area``) for this game."""
        if self._geometry is None and self.env is not None:
            board = self.env.board
            self._geometry = self.spec.make_renderer(board.rules, {})
        return self._geometry

    @property
    def undo_allowed(self) -> bool:
        return undo_allowed(self.setting, self.task.game)

    def can_undo(self) -> bool:
        """Whether the setting allows undo here and there is a move to take back."""
        if not self.undo_allowed:
            return False
        past = [PastStep(s.index, s.decision, s.action, s.raw, s.valid, s.invalid_reason)
                for s in self.steps]
        return undo_target(past) is not None

    def budget_use(self) -> Budgeted:
        used = sum(1 if s.valid else self.budget.invalid_cost for s in self.steps)
        decisions = len({s.decision for s in self.steps})
        return Budgeted(used, self.budget.max_actions, decisions, self.budget.max_decisions)

    def elapsed(self) -> float:
        """Seconds of play so far (earlier sessions of a resumed episode included)."""
        if self.started_at is None:
            return 0.0
        return self.seconds_before + (self.clock() - self.started_at)

    def thinking(self) -> float | None:
        """Seconds the player has been on the current decision, or None when not asked."""
        if self.deciding_since is None or self.result is not None:
            return None
        return self.clock() - self.deciding_since
