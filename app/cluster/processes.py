"""The process engine: a sweep's cells across several worker processes on this machine.

One Python process playing model episodes tops out when its own CPU is spent (issue 32: about
7.5 ms of CPU per model step, so some 134 steps/s however many episodes are in flight). This
engine starts ``workers`` processes (``spawn``: a fresh interpreter each, nothing inherited
but the arguments); each opens its own connection to the sweep's database and plays its share
of the cells - every ``workers``-th cell, so a share is fixed when the run starts - at most
``ceil(concurrency / workers)`` at once, with :func:`~playbench.app.sweeps.cells.play_cell`,
the function every engine uses. Steps are committed one by one as in a local run (SQLite in
WAL mode lets the processes write the same file in turn; PostgreSQL is shared as usual).

Each worker tells the driver when a cell starts and what it came to, over one queue; the
driver draws the progress from that. A cell whose worker ends without reporting it (killed,
crashed) is reported failed; its episode is left ``running`` under that process's owner token,
and the next ``sweep run`` takes it over and continues it (``play_cell``), so no cell is ever
recorded twice.

Model participants travel as their profile and key (resolved by the driver); each worker has
its own client and rate limiter, so a profile's ``max_concurrency`` holds per process.
"""

from __future__ import annotations

import asyncio
import logging
import math
import multiprocessing
import queue
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from playbench.app.cluster.engine import Participant
from playbench.app.core.player import PlayerFactory
from playbench.app.sweeps.cells import Cell, CellOutcome
from playbench.app.sweeps.runner import SweepProgress

log = logging.getLogger(__name__)

POLL = 0.2
"""Seconds the driver waits on the queue before looking whether its workers still run."""


def make_factory(p: Participant) -> PlayerFactory:
    """A worker's player factory for a participant (its own client for a model)."""
    if p.profile is None:
        from playbench.app.players.factory import player_factory
        return player_factory(p.text)
    from playbench.app.agents.session import ModelPlayerFactory
    return ModelPlayerFactory(p.profile, api_key=p.api_key)


async def _play_share(db_url: str, participants: Mapping[str, Participant],
                      cells: Sequence[Cell], slots: int, report: Any) -> None:
    from playbench.app.core.recorder import DbRecorder
    from playbench.app.sweeps.cells import play_cell
    from playbench.db.engine import open_database
    from playbench.db.store import Store

    store = Store(open_database(db_url, migrate=False))  # the driver migrated it
    recorder = DbRecorder(store)
    factories: dict[str, PlayerFactory] = {}
    gate = asyncio.Semaphore(slots)

    async def one(cell: Cell) -> None:
        async with gate:
            if cell.participant not in factories:
                factories[cell.participant] = make_factory(participants[cell.participant])
            report.put(("start", cell.key))
            try:
                outcome = await play_cell(store, cell, factories[cell.participant],
                                          recorder=recorder)
            except Exception as err:  # noqa: BLE001 - reported as the cell's failure
                report.put(("failed", cell.key, cell.participant,
                            f"{type(err).__name__}: {err}"))
                return
            report.put(("done", replace(outcome, result=None)))

    try:
        await asyncio.gather(*(one(c) for c in cells))
    finally:
        recorder.close()
        for factory in factories.values():
            await factory.aclose()
        store.db.dispose()


def work(db_url: str, participants: Mapping[str, Participant], cells: Sequence[Cell],
         slots: int, report: Any) -> None:
    """A worker process's body: play ``cells``, ``slots`` at once, reporting to
    ``report``."""
    asyncio.run(_play_share(db_url, participants, cells, slots, report))


class ProcessEngine:
    """Plays cells in ``workers`` processes on this machine (see the module docstring)."""

    def __init__(self, db_url: str, participants: Mapping[str, Participant], *,
                 workers: int = 2, concurrency: int = 4) -> None:
        if workers < 1 or concurrency < 1:
            raise ValueError("workers and concurrency must be at least 1")
        self.db_url = db_url
        self.participants = dict(participants)
        self.workers = workers
        self.concurrency = concurrency

    async def run(self, cells: Sequence[Cell], progress: SweepProgress) -> list[CellOutcome]:
        cells = list(cells)
        if not cells:
            return []
        n = min(self.workers, len(cells))
        slots = max(1, math.ceil(self.concurrency / n))
        context = multiprocessing.get_context("spawn")
        report = context.Queue()
        procs = [context.Process(target=work, name=f"playbench-sweep-{i}", daemon=True,
                                 args=(self.db_url, self.participants, cells[i::n], slots,
                                       report))
                 for i in range(n)]
        for proc in procs:
            proc.start()
        by_key = {c.key: c for c in cells}
        outcomes: dict[str, CellOutcome] = {}
        started: set[str] = set()
        try:
            while len(outcomes) < len(cells):
                message = await asyncio.to_thread(_next, report)
                if message is None:
                    if not any(p.is_alive() for p in procs) and _drained(report):
                        break  # workers gone: what they did not report failed
                    continue
                if message[0] == "start":
                    started.add(message[1])
                    progress.start()
                    continue
                if message[0] == "done":
                    outcome = message[1]
                else:
                    key, participant, why = message[1:]
                    log.warning("sweep cell %s failed: %s", key, why)
                    outcome = CellOutcome(key, participant, "error", 0)
                outcomes[outcome.key] = outcome
                progress.finish(outcome)
        finally:
            for proc in procs:
                if proc.is_alive() and len(outcomes) < len(cells):
                    proc.terminate()  # cancelled: their running episodes are taken over later
                proc.join(timeout=30)
            report.close()
        for key in by_key.keys() - outcomes.keys():
            log.warning("sweep cell %s failed: its worker process ended first", key)
            lost = CellOutcome(key, by_key[key].participant, "error", 0)
            outcomes[key] = lost
            if key not in started:
                progress.start()
            progress.finish(lost)
        return [outcomes[c.key] for c in cells]


def _next(report: Any) -> Any:
    """The next message, or None when none came within :data:`POLL` seconds."""
    try:
        return report.get(timeout=POLL)
    except queue.Empty:
        return None


def _drained(report: Any) -> bool:
    try:
        return bool(report.empty())
    except (OSError, ValueError):
        return True


__all__ = ["ProcessEngine", "make_factory", "work"]
