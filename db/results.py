"""The aggregate queries behind results: leaderboards, annotator reports, the compare view's
task list. Each returns plain tuples or dataclasses; the statistics live in
``playbench.app.results``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from playbench.db.driver_rows import driver_rows, read_snapshot
from playbench.db.engine import Database
from playbench.db.models import Episode, Participant, Score, Step, Study, Task


@dataclass(frozen=True)
class ScoredEpisodes:
    """The episodes results read, as plain rows and lookups rather than one wide joined row
    each: the joined strings (participant, game, level hash) and the score pivot were most of
    the load (issue 32: at 100,000 episodes the pivot's GROUP BY took 0.34 s of CPU in SQLite
    and the joined strings 0.16 s; one query per score name reads the covering index
    ``ix_scores_name`` in 0.05 s, and each task's strings are made once, not per episode)."""

    episodes: list[tuple[Any, ...]]
    """``(id, uid, participant id, task id, study id, setting, practice, status, actions)``
    per episode in scope, by id (``practice`` is 0/1 or a bool, as the driver gives it)."""
    participants: dict[int, tuple[str, str]]
    """Participant id -> ``(kind, name)``."""
    tasks: dict[int, tuple[str, str, int]]
    """Task id -> ``(game, level hash, level number)``."""
    studies: dict[int, str]
    """Study id -> name."""
    scores: dict[str, list[tuple[int, float]]]
    """Score name -> ``(episode id, value)`` of every episode that has a value for it (NULL
    values are left out: they read as a missing score; this may include episodes out of
    scope, the caller keeps those of :attr:`episodes`)."""


def scored_episodes(db: Database, score_names: Sequence[str], *, study_id: int | None = None,
                    game: str | None = None, setting: str | None = None,
                    kind: str | None = None, include_practice: bool = False,
                    hidden_study_ids: Sequence[int] = ()) -> ScoredEpisodes:
    """The episodes in scope with what results show of them, and their ``score_names``
    scores; no step row is touched. Read from the driver's cursor (``driver_rows``): every
    column is an integer, a float or a string."""
    q = (sa.select(Episode.id, Episode.uid, Episode.participant_id, Episode.task_id,
                   Episode.study_id, Episode.setting, Episode.practice, Episode.status,
                   Episode.n_steps).order_by(Episode.id))
    if game is not None:
        q = q.join(Task, Task.id == Episode.task_id).where(Task.game == game)
    if kind is not None:
        q = q.join(Participant, Participant.id == Episode.participant_id).where(
            Participant.kind == kind)
    if study_id is not None:
        q = q.where(Episode.study_id == study_id)
    if setting is not None:
        q = q.where(Episode.setting == setting)
    if not include_practice:
        q = q.where(Episode.practice == sa.false())
    if hidden_study_ids:
        q = q.where(sa.or_(Episode.study_id.is_(None),
                           Episode.study_id.not_in(list(hidden_study_ids))))
    narrowed = any(x is not None for x in (study_id, game, setting, kind)) or hidden_study_ids
    in_scope = q.with_only_columns(Episode.id).order_by(None)
    with db.engine.connect() as conn:
        read_snapshot(conn)  # the queries below see one state, as a single query would
        episodes = driver_rows(conn, q)
        participants = {r[0]: (r[1], r[2]) for r in driver_rows(
            conn, sa.select(Participant.id, Participant.kind, Participant.name))}
        tasks = {r[0]: (r[1], r[2], int(r[3])) for r in driver_rows(
            conn, sa.select(Task.id, Task.game, Task.level_hash, Task.level_number))}
        studies = {r[0]: r[1] for r in driver_rows(conn, sa.select(Study.id, Study.name))}
        scores = {}
        for name in score_names:
            sq = sa.select(Score.episode_id, Score.value).where(Score.name == name,
                                                                Score.value.is_not(None))
            if narrowed:  # a study or one game: read only its scores, not every episode's
                sq = sq.where(Score.episode_id.in_(in_scope))
            scores[name] = driver_rows(conn, sq)
    return ScoredEpisodes(episodes, participants, tasks, studies, scores)


def played_levels(db: Database, games: Sequence[str]
                  ) -> list[tuple[str, str, str, int, str, dict[str, Any]]]:
    """Tasks of ``games`` that have episodes: ``(game, level hash, level text, level number,
    title, meta)``. Results read them only for kinds that sort their levels into sub-groups
    (``games.kind.result_group``): tasks are few beside their episodes."""
    if not games:
        return []
    played = sa.select(Episode.task_id).where(Episode.task_id == Task.id).exists()
    q = (sa.select(Task.game, Task.level_hash, Task.level_text, Task.level_number, Task.title,
                   Task.meta)
         .where(Task.game.in_(list(games)), played))
    with db.engine.connect() as conn:
        return [(r[0], r[1], r[2], int(r[3]), r[4] or "", dict(r[5] or {}))
                for r in conn.execute(q)]


def games_and_settings(db: Database) -> tuple[list[str], list[str]]:
    """The games that have episodes and every setting episodes were played in, sorted."""
    with db.engine.connect() as conn:
        games = list(conn.scalars(sa.select(Task.game).distinct()
                                  .join(Episode, Episode.task_id == Task.id)
                                  .order_by(Task.game)))
        settings = list(conn.scalars(sa.select(Episode.setting).distinct()
                                     .order_by(Episode.setting)))
    return games, settings


@dataclass(frozen=True)
class HumanEpisode:
    """A human annotator's episode in a study, as the annotator report reads it."""

    id: int
    name: str
    task_id: int
    setting: str
    practice: bool
    status: str
    n_steps: int
    started: datetime | None
    ended: datetime | None
    meta: dict[str, Any]


def human_study_episodes(db: Database, study_id: int, kind: str | None = "human"
                         ) -> list[HumanEpisode]:
    """Every episode of a study by participants of ``kind`` (None: any), oldest first."""
    query = (sa.select(Episode.id, Participant.name, Episode.task_id, Episode.setting,
                       Episode.practice, Episode.status, Episode.n_steps, Episode.started,
                       Episode.ended, Episode.meta)
             .join(Participant, Participant.id == Episode.participant_id)
             .where(Episode.study_id == study_id).order_by(Episode.id))
    if kind is not None:
        query = query.where(Participant.kind == kind)
    with db.engine.connect() as conn:
        rows = conn.execute(query).all()
    return [HumanEpisode(r.id, r.name, r.task_id, r.setting, bool(r.practice), r.status,
                         r.n_steps, r.started, r.ended, dict(r.meta or {})) for r in rows]


def think_totals(db: Database, episode_ids: Iterable[int]) -> dict[int, float]:
    """Episode id -> summed think time of its steps (ms); episodes without steps are
    absent."""
    ids = sorted(set(episode_ids))
    out: dict[int, float] = {}
    with db.engine.connect() as conn:
        for i in range(0, len(ids), 500):
            for eid, total in conn.execute(
                    sa.select(Step.episode_id, sa.func.sum(Step.think_ms))
                    .where(Step.episode_id.in_(ids[i:i + 500])).group_by(Step.episode_id)):
                out[eid] = float(total or 0.0)
    return out


def played_tasks(db: Database, *, study: str | None = None, game: str | None = None,
                 include_practice: bool = False) -> list[tuple[int, str, int, str, str, int, int]]:
    """Tasks that have episodes: ``(task id, game, level number, title, level hash,
    episodes, distinct participants)``, unordered."""
    q = (sa.select(Task.id, Task.game, Task.level_number, Task.title, Task.level_hash,
                   sa.func.count(Episode.id), sa.func.count(sa.distinct(Episode.participant_id)))
         .join(Episode, Episode.task_id == Task.id)
         .group_by(Task.id, Task.game, Task.level_number, Task.title, Task.level_hash))
    if study is not None:
        q = q.join(Study, Study.id == Episode.study_id).where(Study.name == study)
    if game is not None:
        q = q.where(Task.game == game)
    if not include_practice:
        q = q.where(Episode.practice == sa.false())
    with db.engine.connect() as conn:
        return [(r[0], r[1], r[2], r[3], r[4], r[5], r[6]) for r in conn.execute(q)]


def task_episode_ids(db: Database, task_id: int, *, study: str | None = None,
                     setting: str | None = None, statuses: Sequence[str] | None = None
                     ) -> list[int]:
    """Episodes of a task (optionally of one study and setting), oldest first."""
    q = sa.select(Episode.id).where(Episode.task_id == task_id).order_by(Episode.id)
    if study is not None:
        q = q.join(Study, Study.id == Episode.study_id).where(Study.name == study)
    if setting is not None:
        q = q.where(Episode.setting == setting)
    if statuses is not None:
        q = q.where(Episode.status.in_(list(statuses)))
    with db.engine.connect() as conn:
        return list(conn.scalars(q))
