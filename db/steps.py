"""The step record and its one mapping to a ``steps`` row.

A :class:`StepRecord` is what the loop hands the recorder for every action attempt; a
:class:`StoredStep` is the same record read back, with the frame it showed and when it was
written. ``to_row``/``from_row`` are the only place that pairs record fields with columns: the
recorder writes through them, the export, the import, the viewer and the results read through
them, so a new column is added here once instead of in every caller.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from playbench.db.caps import cap_step_row
from playbench.db.engine import Database
from playbench.db.models import Step


@dataclass(frozen=True)
class StepRecord:
    """One action attempt, valid or not: what the player sent and what it did."""

    index: int
    decision: int
    action: str | None
    raw: str
    valid: bool
    invalid_kind: str | None
    invalid_reason: str | None
    changed: bool
    reward: float
    state_hash: str
    think_ms: float = 0.0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float = 0.0
    latency_ms: float = 0.0
    info: dict[str, Any] = field(default_factory=dict)

    def to_row(self) -> dict[str, Any]:
        """Column values of the ``steps`` row holding this record (without the episode,
        frame and creation time, which the writer adds), every text held to the stored-field
        cap (:mod:`playbench.db.caps`; what was cut is named in ``info["cut"]``)."""
        row = {name: getattr(self, name) for name in RECORD_FIELDS}
        row["info"] = dict(self.info)
        return cap_step_row(row)

    @classmethod
    def from_row(cls, row: Any) -> StepRecord:
        """The record held by ``row``: anything with the record's field names as attributes
        (a stored step, a query row) or keys (a mapping)."""
        get = _getter(row)
        values = {name: get(name) for name in RECORD_FIELDS}
        values["valid"] = bool(values["valid"])
        values["changed"] = bool(values["changed"])
        values["info"] = dict(values["info"] or {})
        return cls(**values)


def _getter(row: Any) -> Callable[[str], Any]:
    if isinstance(row, Mapping):
        return row.__getitem__
    return lambda name: getattr(row, name)


RECORD_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(StepRecord))
"""The record's fields, which are also the names of their columns."""


@dataclass(frozen=True)
class StoredStep(StepRecord):
    """A recorded step as read back from the database."""

    frame: str | None = None
    """Hash of the frame shown after the step (``frames`` table), or None."""
    created: datetime | None = None
    episode_id: int = 0

    @property
    def record(self) -> StepRecord:
        """The plain loop record (compares equal to the one the loop produced)."""
        return StepRecord.from_row(self)

    @classmethod
    def unchecked(cls, values: dict[str, Any]) -> StoredStep:
        """A stored step from a complete dict of its fields, skipping ``__init__``: a frozen
        dataclass's init sets each of these 19 fields through ``object.__setattr__`` and
        measured 5-8 times slower than this (50,000 steps, timeit), which made it the largest
        per-step cost of a JSONL export. The caller guarantees every field is present."""
        step = object.__new__(cls)
        step.__dict__.update(values)
        return step

    @classmethod
    def from_row(cls, row: Any) -> StoredStep:
        """The stored step held by ``row`` (as :meth:`StepRecord.from_row`, plus its frame,
        time and episode), built through :meth:`unchecked`: going through a record and two
        frozen-dataclass inits took 39 us a step, most of reading an episode's steps."""
        get = _getter(row)
        values = {name: get(name) for name in _STORED_FIELDS}
        values["valid"] = bool(values["valid"])
        values["changed"] = bool(values["changed"])
        values["info"] = dict(values["info"] or {})
        return cls.unchecked(values)


_STORED_FIELDS = (*RECORD_FIELDS, "frame", "created", "episode_id")
_STORED_COLUMNS = [getattr(Step, name) for name in _STORED_FIELDS]


def _stored(row: Sequence[Any]) -> StoredStep:
    """A stored step from a row of :data:`_STORED_COLUMNS` (read by position: asking a row
    for each field by name cost 11 us a step)."""
    values = dict(zip(_STORED_FIELDS, row, strict=True))
    values["valid"] = bool(values["valid"])
    values["changed"] = bool(values["changed"])
    values["info"] = dict(values["info"] or {})
    return StoredStep.unchecked(values)


def stored_steps(db: Database, episode_id: int) -> list[StoredStep]:
    """Every step of one episode, in order."""
    with db.engine.connect() as conn:
        rows = conn.execute(sa.select(*_STORED_COLUMNS).where(Step.episode_id == episode_id)
                            .order_by(Step.index)).all()
    return [_stored(r) for r in rows]


def steps_of_episodes(db: Database, episode_ids: Iterable[int]) -> dict[int, list[StoredStep]]:
    """The steps of several episodes, each episode's in order (episodes without steps are
    absent)."""
    ids = sorted(set(episode_ids))
    out: dict[int, list[StoredStep]] = {}
    with db.engine.connect() as conn:
        for i in range(0, len(ids), 500):
            rows = conn.execute(sa.select(*_STORED_COLUMNS)
                                .where(Step.episode_id.in_(ids[i:i + 500]))
                                .order_by(Step.episode_id, Step.index)).all()
            for r in rows:
                out.setdefault(r.episode_id, []).append(_stored(r))
    return out
