"""Pausing, single-stepping and slowing down a model demo without touching what is recorded.

The demo wraps the model player in a :class:`PacedPlayer`: before each decision it waits for
its turn at the :class:`Pacer` (running, paused, one step granted, a delay between steps). That
wait happens inside ``act``, so the episode runs on a :class:`PausableClock` that leaves the
held time out: the recorded think time and elapsed seconds are the model's own, whatever the
person watching did.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from playbench.app.core.player import PlayContext, Player
from playbench.app.core.types import Decision, Observation


class PausableClock:
    """A monotonic clock that stops while held."""

    def __init__(self, base: Callable[[], float] = time.monotonic) -> None:
        self._base = base
        self._held = 0.0
        self._since: float | None = None

    def __call__(self) -> float:
        now = self._base()
        held = self._held + (now - self._since if self._since is not None else 0.0)
        return now - held

    def hold(self) -> None:
        if self._since is None:
            self._since = self._base()

    def release(self) -> None:
        if self._since is not None:
            self._held += self._base() - self._since
            self._since = None


class Pacer:
    """When the next decision may start: ``pause``/``resume``, ``step`` (one decision while
    paused) and ``delay`` (seconds between decisions while running)."""

    def __init__(self, clock: PausableClock, delay: float = 0.0,
                 sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep) -> None:
        self.clock = clock
        self.delay = delay
        self.paused = False
        self.waiting = False
        """True while a decision is held back (the view shows "paused")."""
        self._sleep = sleep
        self._grants = 0
        self._wake: asyncio.Event | None = None
        self._decisions = 0

    def _poke(self) -> None:
        if self._wake is not None:
            self._wake.set()

    def pause(self) -> None:
        self.paused = True

    def resume(self) -> None:
        self.paused = False
        self._poke()

    def step(self) -> None:
        """Let exactly one more decision through (pausing first if running)."""
        self.paused = True
        self._grants += 1
        self._poke()

    def set_delay(self, seconds: float) -> None:
        self.delay = max(0.0, seconds)

    async def wait_turn(self) -> None:
        self.clock.hold()
        self.waiting = True
        try:
            if self._decisions and self.delay > 0 and not self.paused:
                await self._sleep(self.delay)
            while self.paused and self._grants == 0:
                self._wake = asyncio.Event()
                await self._wake.wait()
            if self.paused:
                self._grants -= 1
        finally:
            self.waiting = False
            self._wake = None
            self._decisions += 1
            self.clock.release()


class PacedPlayer:
    """A player whose decisions wait for the pacer first; everything else is the inner
    player's (kind, name, spec and details are recorded unchanged)."""

    def __init__(self, inner: Player, pacer: Pacer) -> None:
        self.inner = inner
        self.pacer = pacer
        self.kind = inner.kind
        self.name = inner.name
        self.spec = inner.spec

    def details(self) -> dict[str, Any]:
        return self.inner.details()

    def recall(self, observation: Observation, context: PlayContext) -> None:
        """Passed on to the inner player (see ``Player``): a resume rebuilds its memory."""
        recall = getattr(self.inner, "recall", None)
        if callable(recall):
            recall(observation, context)

    async def act(self, observation: Observation, context: PlayContext) -> Decision:
        await self.pacer.wait_turn()
        return await self.inner.act(observation, context)
