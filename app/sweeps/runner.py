"""The sweep runner: one list of cells, one way to play a cell (:func:`play_cell`), and an
engine that decides where cells run.

``LocalEngine`` plays cells on this process's asyncio loop, at most ``concurrency`` at once
(the runner PlayBench always had: batch runs, study sweeps). ``RayEngine``
(:mod:`playbench.app.sweeps.ray_engine`) plays the same cells on a Ray cluster. Both report
each cell's start and outcome to a :class:`SweepProgress`, which the command line draws as a
progress bar and ``playbench sweep status`` / the app's Studies view read back from the
database.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, cast

from playbench.app.core.events import Listener
from playbench.app.core.play import EnvFactory
from playbench.app.core.player import PlayerFactory
from playbench.app.core.recorder import DbRecorder, Recorder
from playbench.app.sweeps.cells import Cell, CellOutcome, play_cell
from playbench.db.store import Store
from playbench.db.sweeps import sweep_episodes


@dataclass
class SweepProgress:
    """Counters of a running sweep (Qt-free; a bar or a view draws them)."""

    total: int
    skipped: int = 0
    done: int = 0
    running: int = 0
    failed: int = 0
    resumed: int = 0
    tokens: int = 0
    cost: float = 0.0
    steps: int = 0
    started: float = field(default_factory=time.monotonic)
    clock: Callable[[], float] = time.monotonic
    on_change: Callable[[SweepProgress], None] | None = None

    def start(self) -> None:
        self.running += 1
        self._changed()

    def lost(self) -> None:
        """A cell's worker was lost; the cell goes back to the queue."""
        self.running = max(0, self.running - 1)
        self._changed()

    def finish(self, outcome: CellOutcome) -> None:
        self.running = max(0, self.running - 1)
        if outcome.how == "skipped":
            self.skipped += 1
        elif outcome.status == "done":
            self.done += 1
        else:
            self.failed += 1
        self.resumed += outcome.how == "resumed"
        self.tokens += outcome.tokens
        self.cost += outcome.cost
        self.steps += outcome.steps
        self._changed()

    @property
    def finished(self) -> int:
        return self.done + self.failed + self.skipped

    def eta(self) -> float | None:
        """Seconds left at the pace so far (None before the first cell ends)."""
        played = self.done + self.failed
        left = self.total - self.finished
        if played == 0:
            return None if left else 0.0
        return (self.clock() - self.started) / played * left

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change(self)


class Engine(Protocol):
    """Plays cells somewhere and hands each outcome to ``progress`` as it comes."""

    async def run(self, cells: Sequence[Cell], progress: SweepProgress) -> list[CellOutcome]: ...


class LocalEngine:
    """Cells on this process's asyncio loop, at most ``concurrency`` at once, with one player
    factory per participant (shared by that participant's episodes: one client, one rate
    limiter per profile)."""

    def __init__(self, store: Store, factories: Mapping[str, PlayerFactory], *,
                 concurrency: int = 1, recorder: Recorder | None = None,
                 listeners: Sequence[Listener] = (),
                 env_factory: EnvFactory | None = None) -> None:
        if concurrency < 1:
            raise ValueError("concurrency must be at least 1")
        self.store = store
        self.factories = factories
        self.concurrency = concurrency
        self.recorder = recorder
        self.listeners = listeners
        self.env_factory = env_factory

    async def run(self, cells: Sequence[Cell], progress: SweepProgress) -> list[CellOutcome]:
        own = DbRecorder(self.store) if self.recorder is None else None
        recorder: Recorder = own if own is not None else cast(Recorder, self.recorder)
        gate = asyncio.Semaphore(self.concurrency)
        out: list[CellOutcome | None] = [None] * len(cells)

        async def one(i: int, cell: Cell) -> None:
            async with gate:
                progress.start()
                outcome = await play_cell(self.store, cell, self.factories[cell.participant],
                                          recorder=recorder, listeners=self.listeners,
                                          env_factory=self.env_factory)
                out[i] = outcome
                progress.finish(outcome)

        tasks = [asyncio.ensure_future(one(i, c)) for i, c in enumerate(cells)]
        try:
            await asyncio.gather(*tasks)
        except BaseException:
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            raise
        finally:
            if own is not None:
                own.close()
        return [o for o in out if o is not None]


def pending_cells(store: Store, cells: Sequence[Cell]) -> tuple[list[Cell], int]:
    """The cells still to play (not ``done`` in ``store``) and how many are done already."""
    sweeps = {c.sweep for c in cells if c.sweep is not None}
    done: set[str] = set()
    for name in sweeps:
        done |= {e.cell for e in sweep_episodes(store.db, name) if e.status == "done"}
    todo = [c for c in cells if c.key not in done]
    return todo, len(cells) - len(todo)


async def run_cells(engine: Engine, cells: Sequence[Cell],
                    progress: SweepProgress | None = None) -> list[CellOutcome]:
    """Play ``cells`` with ``engine``; the one entry for sweeps from files and from
    studies."""
    progress = progress or SweepProgress(len(cells))
    return await engine.run(cells, progress)


__all__ = ["Engine", "LocalEngine", "SweepProgress", "pending_cells", "run_cells"]
