"""Model sweeps over a study: every scored task, ``repeat`` times, under the study's settings,
budgets and time limits, with the same loop and recorder the annotators use.

A sweep is resumable: repeats already ``done`` for this participant are not played again, so
running the same command after an interruption only fills the gaps. Repeat ``r`` plays with
episode seed ``r`` (random players and sampling models differ per repeat, reproducibly).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import cast

from playbench.app.core.events import EpisodeResult, Listener
from playbench.app.core.play import EnvFactory
from playbench.app.core.player import Player, SimpleFactory, TakesInstructions
from playbench.app.core.player import PlayerFactory as FullFactory
from playbench.app.core.recorder import DbRecorder, Recorder
from playbench.app.core.task import Task
from playbench.app.studies.protocol import Protocol, ProtocolTask, load_protocol, play_task
from playbench.app.sweeps.cells import Cell, cell_key
from playbench.app.sweeps.runner import LocalEngine, SweepProgress, run_cells
from playbench.db.store import Store
from playbench.db.studies import finished_metas

PlayerFactory = Callable[[Task, int], Player]


@dataclass
class SweepReport:
    participant: str
    planned: int
    skipped: int
    results: list[EpisodeResult] = field(default_factory=list)

    @property
    def errors(self) -> int:
        return sum(1 for r in self.results if r.status == "error")


class Briefed:
    """A player factory whose players are given the study's instructions (those that take
    them: ``TakesInstructions``), so models read what the annotators read."""

    def __init__(self, inner: FullFactory, instructions: str) -> None:
        self.inner = inner
        self.instructions = instructions

    def _brief(self, player: Player) -> Player:
        if isinstance(player, TakesInstructions):
            player.take_instructions(self.instructions)
        return player

    def __call__(self, task: Task, repeat: int) -> Player:
        return self._brief(self.inner(task, repeat))

    def resumed(self, task: Task, steps_done: int) -> Player:
        return self._brief(self.inner.resumed(task, steps_done))

    async def aclose(self) -> None:
        await self.inner.aclose()


def done_repeats(store: Store, protocol: Protocol, kind: str, name: str) -> set[tuple[str, int]]:
    """(task key, repeat) pairs this participant has finished in the study."""
    out = set()
    for meta in finished_metas(store.db, protocol.id, kind, name):
        if "study_task" in meta:
            out.add((meta["study_task"], int(meta.get("repeat", 0))))
    return out


def sweep_jobs(store: Store, protocol: Protocol, probe: Player, repeat: int,
               include_practice: bool = False) -> tuple[list[tuple[ProtocolTask, int]], int]:
    """The (task, repeat) pairs still to play, and how many are done already."""
    entries = protocol.tasks if include_practice else tuple(protocol.scored)
    have = done_repeats(store, protocol, probe.kind, probe.name)
    jobs = [(t, r) for t in entries for r in range(repeat) if (t.key, r) not in have]
    return jobs, len(entries) * repeat - len(jobs)


def _cells(protocol: Protocol, tasks: dict[str, Task], participant: str,
           jobs: Sequence[tuple[ProtocolTask, int]]) -> list[Cell]:
    """The sweep's (task, repeat) jobs as runner cells (study episodes keep their meta)."""
    out = []
    for entry, r in jobs:
        task = tasks[entry.key]
        key = cell_key(participant, task, entry.setting_value().name, entry.budget_value, r,
                       f"study:{protocol.name}/{entry.key}")
        out.append(Cell(key, participant, task, entry.setting_value().name, entry.budget_value,
                        r, r, study=protocol.name,
                        meta={"study_task": entry.key, "practice": entry.practice,
                              "repeat": r}))
    return out


async def run_sweep(store: Store, study: str, make_player: PlayerFactory, *, repeat: int = 1,
                    concurrency: int = 1, include_practice: bool = False,
                    recorder: Recorder | None = None, listeners: Sequence[Listener] = (),
                    env_factory: EnvFactory | None = None,
                    on_planned: Callable[[int], None] | None = None) -> SweepReport:
    """Play the study's tasks with fresh players from ``make_player`` (at most
    ``concurrency`` episodes at once), through the sweep runner's local engine (the same
    cells and :func:`~playbench.app.sweeps.cells.play_cell` a sweep file uses)."""
    if repeat < 1 or concurrency < 1:
        raise ValueError("repeat and concurrency must be at least 1")
    protocol = load_protocol(store, study)
    tasks = {t.key: play_task(store, t) for t in protocol.tasks}
    first = protocol.tasks[0]
    probe = make_player(tasks[first.key], 0)
    jobs, skipped = sweep_jobs(store, protocol, probe, repeat, include_practice)
    participant = f"{probe.kind}:{probe.name}"
    report = SweepReport(participant, len(jobs), skipped)
    if on_planned is not None:
        on_planned(len(jobs))
    factory: FullFactory = (cast(FullFactory, make_player) if hasattr(make_player, "resumed")
                            else SimpleFactory(make_player))
    if protocol.texts.instructions:
        factory = Briefed(factory, protocol.texts.instructions)
    engine = LocalEngine(store, {participant: factory}, concurrency=concurrency,
                         recorder=recorder or DbRecorder(store), listeners=listeners,
                         env_factory=env_factory)
    cells = _cells(protocol, tasks, participant, jobs)
    outcomes = await run_cells(engine, cells, SweepProgress(len(cells)))
    report.results = [o.result for o in outcomes if o.result is not None]
    return report
