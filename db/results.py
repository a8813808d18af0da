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

from playbench.db.engine import Database
from playbench.db.models import Episode, Participant, Score, Step, Study, Task


def scored_episodes(db: Database, score_names: Sequence[str], *, study_id: int | None = None,
                    game: str | None = None, setting: str | None = None,
                    kind: str | None = None, include_practice: bool = False,
                    hidden_study_ids: Sequence[int] = ()) -> list[tuple[Any, ...]]:
    """One tuple per episode in scope, in one aggregate query with the scores pivoted into
    columns: ``(id, uid, participant kind, participant name, game, level hash, level number,
    setting, study name, practice, status, actions, *scores in score_names order)``.

    Plain tuples: ten thousand are read per leaderboard, and no step row is touched."""
    cols = [sa.func.max(sa.case((Score.name == n, Score.value))).label(n) for n in score_names]
    sc = (sa.select(Score.episode_id, *cols)
          .where(Score.name.in_(list(score_names)))
          .group_by(Score.episode_id).subquery("sc"))
    q = (sa.select(Episode.id, Episode.uid, Participant.kind, Participant.name, Task.game,
                   Task.level_hash, Task.level_number, Episode.setting, Study.name,
                   Episode.practice, Episode.status, Episode.n_steps,
                   *[sc.c[n] for n in score_names])
         .join(Participant, Participant.id == Episode.participant_id)
         .join(Task, Task.id == Episode.task_id)
         .outerjoin(Study, Study.id == Episode.study_id)
         .outerjoin(sc, sc.c.episode_id == Episode.id))
    if study_id is not None:
        q = q.where(Episode.study_id == study_id)
    if game is not None:
        q = q.where(Task.game == game)
    if setting is not None:
        q = q.where(Episode.setting == setting)
    if kind is not None:
        q = q.where(Participant.kind == kind)
    if not include_practice:
        q = q.where(Episode.practice == sa.false())
    if hidden_study_ids:
        q = q.where(sa.or_(Episode.study_id.is_(None),
                           Episode.study_id.not_in(list(hidden_study_ids))))
    with db.engine.connect() as conn:
        return [tuple(r) for r in conn.execute(q)]


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
