"""Sweep cells and the one function that plays a cell, whichever engine runs it.

A cell is one episode to play: a participant, a task in a setting under a budget, and a repeat
(its seed is the sweep's seed plus the repeat). Its key is a digest of all that, recorded in the
episode's ``meta`` with the sweep's name, so any database that holds the episode - the shared
one, a worker's shard, a merged copy - knows which cell it is.

:func:`play_cell` is the only place a cell becomes an episode: a cell already ``done`` is not
played again; one left ``interrupted`` (or ``error``) continues from its last recorded step;
one left ``running`` by a process that is gone (or by a worker the driver knows is lost) is
first marked interrupted and then continued. So re-running a sweep, or retrying a cell after a
lost worker, never records a cell twice.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from playbench.app.core.budget import Budget
from playbench.app.core.events import EpisodeResult, Listener
from playbench.app.core.owner import is_alive
from playbench.app.core.play import EnvFactory, play
from playbench.app.core.player import PlayerFactory
from playbench.app.core.recorder import Recorder
from playbench.app.core.runs import resume_episode
from playbench.app.core.settings import get_setting
from playbench.app.core.task import Task
from playbench.db.store import Store
from playbench.db.sweeps import cell_episodes, take_over
from playbench.games.kind import default_registry


@dataclass(frozen=True)
class Cell:
    """One episode of a sweep (picklable: it travels to cluster workers)."""

    key: str
    participant: str
    task: Task
    setting: str
    budget: Budget
    repeat: int
    seed: int
    sweep: str | None = None
    study: str | None = None
    meta: Mapping[str, Any] = field(default_factory=dict)

    def episode_meta(self) -> dict[str, Any]:
        """What the episode records about the cell."""
        out = dict(self.meta)
        out["cell"] = self.key
        out.setdefault("repeat", self.repeat)
        if self.sweep is not None:
            out["sweep"] = self.sweep
        return out


@dataclass
class CellOutcome:
    """What playing a cell came to (sent back from a worker to the driver)."""

    key: str
    participant: str
    status: str
    episode_id: int
    steps: int = 0
    tokens: int = 0
    cost: float = 0.0
    how: str = "new"
    """``new``, ``resumed`` (continued from a recorded step) or ``skipped`` (already done)."""
    solved: bool = False
    bundle: bytes | None = None
    """A worker's shard export of the episode, for the driver to import (SQLite)."""
    result: EpisodeResult | None = None
    """The episode's result with its steps (local engine only; not sent by workers)."""


def cell_key(participant: str, task: Task, setting: str, budget: Budget, seed: int,
             scope: str) -> str:
    """A digest naming the cell: equal inputs give equal keys on every machine. ``scope``
    names what the cell belongs to (``sweep:NAME``, ``study:NAME/TASK``), so two sweeps that
    share a cell still each play and count their own."""
    ident = {"p": participant, "g": task.game, "l": task.level_hash, "s": setting,
             "o": sorted(task.options.items()), "b": budget.to_dict(), "seed": seed,
             "scope": scope}
    return hashlib.sha256(json.dumps(ident, sort_keys=True, default=str).encode()
                          ).hexdigest()[:24]


async def play_cell(store: Store, cell: Cell, factory: PlayerFactory, *,
                    recorder: Recorder, listeners: Sequence[Listener] = (),
                    env_factory: EnvFactory | None = None,
                    lost: bool = False) -> CellOutcome:
    """Play ``cell`` into ``store`` (see the module docstring). ``lost``: an earlier attempt's
    worker is known to be gone, so a ``running`` episode of this cell is taken over even when
    its owner's liveness cannot be checked from here."""
    known = cell_episodes(store.db, cell.key)
    done = [e for e in known if e.status == "done"]
    if done:
        return CellOutcome(cell.key, cell.participant, "done", done[0].id, done[0].n_steps,
                           how="skipped")
    for e in known:
        if e.status == "running" and (lost or is_alive(e.owner) is False):
            take_over(store.db, e.id)
    open_ = [e for e in cell_episodes(store.db, cell.key)
             if e.status in ("interrupted", "error")]
    # a kind that cannot rebuild this setting's episodes (a live site, a game on the wall
    # clock) starts the cell over; the unfinished episode stays as it was
    if open_ and default_registry().get(cell.task.game).replay.resumes(cell.setting):
        e = open_[-1]
        player = factory.resumed(cell.task, e.n_steps)
        result = await resume_episode(store, e.id, player, recorder, listeners=listeners,
                                      env_factory=env_factory)
        return outcome_of(cell, result, "resumed")
    result = await play(cell.task, factory(cell.task, cell.repeat),
                        setting=get_setting(cell.setting, cell.task.game), budget=cell.budget,
                        recorder=recorder, seed=cell.seed, study=cell.study,
                        meta=cell.episode_meta(), listeners=listeners, make_env=env_factory)
    return outcome_of(cell, result, "new")


def outcome_of(cell: Cell, result: EpisodeResult, how: str) -> CellOutcome:
    """A cell's outcome from its episode's result (tokens and cost summed over its steps)."""
    tokens = sum(s.prompt_tokens + s.completion_tokens for s in result.steps)
    cost = sum(s.cost for s in result.steps)
    solved = bool(result.scores.get("solved"))
    return CellOutcome(cell.key, cell.participant, result.status, result.episode_id,
                       len(result.steps), tokens, cost, how, solved, result=result)


__all__ = ["Cell", "CellOutcome", "cell_key", "outcome_of", "play_cell"]
