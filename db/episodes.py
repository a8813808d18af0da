"""Episodes, their tasks, participants and scores as plain values.

Callers outside ``db`` never hold ORM objects: a detached ORM row outlives its session and
invites lazy loads; these frozen dataclasses carry the same attribute names as the columns, so
``row.episode.status`` reads the same, and nothing about the tables leaks.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from datetime import datetime
from types import MappingProxyType
from typing import Any

import sqlalchemy as sa

from playbench.db.engine import Database
from playbench.db.models import Episode, Participant, Score, Step, Task


@dataclass(frozen=True)
class TaskInfo:
    """A stored level: the board text and what identifies it."""

    id: int
    game: str
    level_hash: str
    level_text: str
    level_number: int
    title: str
    source: str
    meta: dict[str, Any]


@dataclass(frozen=True)
class ParticipantInfo:
    """A player as stored: kind (human, model, script), name and details."""

    id: int
    uid: str
    kind: str
    name: str
    details: dict[str, Any]
    created: datetime | None


@dataclass(frozen=True)
class EpisodeInfo:
    """One recorded play (the ``episodes`` columns)."""

    id: int
    uid: str
    participant_id: int
    task_id: int
    study_id: int | None
    setting: str
    player: str
    budget: dict[str, Any]
    rules: dict[str, Any]
    seed: int
    status: str
    end_reason: str | None
    n_steps: int
    owner: str
    start_frame: str | None
    start_state: str
    started: datetime | None
    ended: datetime | None
    meta: dict[str, Any]
    practice: bool


@dataclass(frozen=True)
class EpisodeRow:
    """An episode with the names a listing needs."""

    episode: EpisodeInfo
    task: TaskInfo
    participant: ParticipantInfo
    scores: dict[str, float | None]


def _plain(cls: type, obj: Any, **given: Any) -> Any:
    """``cls`` filled from the same-named attributes of ``obj`` (an ORM row or query row),
    ``given`` values replacing them; JSON columns are copied so the caller cannot change a
    cached value. (A class's field names are read once: asking ``dataclasses.fields`` per row
    was most of the cost of turning 1,000 episode rows into values, 20 ms.)"""
    values = {}
    for name in _FIELD_NAMES[cls]:
        v = getattr(obj, name)
        values[name] = dict(v) if isinstance(v, dict) else v
    return cls(**{**values, **given})


_FIELD_NAMES: Mapping[type, tuple[str, ...]] = MappingProxyType({
    cls: tuple(f.name for f in fields(cls)) for cls in (TaskInfo, ParticipantInfo, EpisodeInfo)})
"""Each value class's field names, in order."""


def task_info(row: Any) -> TaskInfo:
    info: TaskInfo = _plain(TaskInfo, row)
    return info


def episode_info(row: Any) -> EpisodeInfo:
    info: EpisodeInfo = _plain(EpisodeInfo, row, practice=bool(row.practice))
    return info


def participant_info(row: Any) -> ParticipantInfo:
    info: ParticipantInfo = _plain(ParticipantInfo, row)
    return info


def _joined() -> sa.Select[Episode, Task, Participant]:
    return (sa.select(Episode, Task, Participant)
            .join(Task, Task.id == Episode.task_id)
            .join(Participant, Participant.id == Episode.participant_id))


def episode_rows(db: Database, *, ids: Sequence[int] | None = None, limit: int | None = None,
                 newest_first: bool = True) -> list[EpisodeRow]:
    """Episodes with task, participant and scores (all, or those in ``ids``)."""
    with db.sessions() as s:
        q = _joined()
        if ids is not None:
            q = q.where(Episode.id.in_(list(ids)))
        q = q.order_by(Episode.id.desc() if newest_first else Episode.id)
        if limit is not None:
            q = q.limit(limit)
        rows = [(episode_info(e), task_info(t), participant_info(p))
                for e, t, p in s.execute(q).all()]
    by_episode = all_scores(db, [e.id for e, _t, _p in rows])
    return [EpisodeRow(e, t, p, by_episode.get(e.id, {})) for e, t, p in rows]


def all_scores(db: Database, episode_ids: Iterable[int]) -> dict[int, dict[str, float | None]]:
    """Every score of the given episodes: episode id -> {metric: value}. (Rows fetched all at
    once: iterating the result fetched them one by one, at twice the cost.)"""
    ids = sorted(set(episode_ids))
    out: dict[int, dict[str, float | None]] = {}
    with db.engine.connect() as conn:
        for i in range(0, len(ids), 500):
            for eid, name, value in conn.execute(
                    sa.select(Score.episode_id, Score.name, Score.value)
                    .where(Score.episode_id.in_(ids[i:i + 500]))).all():
                out.setdefault(eid, {})[name] = value
    return out


def score_of(db: Database, episode_ids: Iterable[int], name: str) -> dict[int, float | None]:
    """One metric (e.g. ``solved``) of the given episodes; episodes without it are absent."""
    ids = sorted(set(episode_ids))
    out: dict[int, float | None] = {}
    with db.engine.connect() as conn:
        for i in range(0, len(ids), 500):
            for eid, value in conn.execute(sa.select(Score.episode_id, Score.value).where(
                    Score.episode_id.in_(ids[i:i + 500]), Score.name == name)):
                out[eid] = value
    return out


def scores_of(db: Database, episode_ids: Iterable[int]) -> dict[int, dict[str, float | None]]:
    """Every stored score of the given episodes: episode id -> {name: value}."""
    ids = sorted(set(episode_ids))
    out: dict[int, dict[str, float | None]] = {}
    with db.engine.connect() as conn:
        for i in range(0, len(ids), 500):
            for eid, name, value in conn.execute(
                    sa.select(Score.episode_id, Score.name, Score.value)
                    .where(Score.episode_id.in_(ids[i:i + 500]))):
                out.setdefault(eid, {})[name] = value
    return out


def last_actions(db: Database, episode_ids: Iterable[int]) -> dict[int, str]:
    """Episode id -> the action text of its last recorded step (a web task's ``stop [...]``
    answer); episodes without steps are absent."""
    ids = sorted(set(episode_ids))
    out: dict[int, str] = {}
    with db.engine.connect() as conn:
        for i in range(0, len(ids), 500):
            last = (sa.select(Step.episode_id, sa.func.max(Step.index).label("last"))
                    .where(Step.episode_id.in_(ids[i:i + 500])).group_by(Step.episode_id)
                    .subquery())
            for eid, action in conn.execute(
                    sa.select(Step.episode_id, Step.action).join(
                        last, sa.and_(last.c.episode_id == Step.episode_id,
                                      last.c.last == Step.index))):
                out[eid] = action or ""
    return out


def episode_times(db: Database, episode_ids: Iterable[int]
                  ) -> dict[int, tuple[datetime | None, datetime | None, str | None]]:
    """Episode id -> (started, ended, end reason)."""
    ids = sorted(set(episode_ids))
    out: dict[int, tuple[datetime | None, datetime | None, str | None]] = {}
    with db.engine.connect() as conn:
        for i in range(0, len(ids), 500):
            for eid, start, end, reason in conn.execute(sa.select(
                    Episode.id, Episode.started, Episode.ended, Episode.end_reason)
                    .where(Episode.id.in_(ids[i:i + 500]))):
                out[eid] = (start, end, reason)
    return out


def task_by_level(db: Database, game: str, level_hash: str) -> TaskInfo | None:
    """The stored task of this level content, or None."""
    with db.engine.connect() as conn:
        row = conn.execute(sa.select(Task.__table__).where(
            Task.game == game, Task.level_hash == level_hash)).first()
    return None if row is None else task_info(row)


def task_ids_by_level(db: Database, level_hashes: Iterable[str]) -> dict[tuple[str, str], int]:
    """(game, level hash) -> task id for the stored levels among ``level_hashes``."""
    hashes = sorted(set(level_hashes))
    found: dict[tuple[str, str], int] = {}
    with db.engine.connect() as conn:
        for i in range(0, len(hashes), 500):
            rows = conn.execute(sa.select(Task.id, Task.game, Task.level_hash)
                                .where(Task.level_hash.in_(hashes[i:i + 500]))).all()
            found.update({(game, h): tid for tid, game, h in rows})
    return found
