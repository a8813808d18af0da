"""The results' load as it was before it read columns (issue 32): one SQLAlchemy query with
the scores pivoted by ``max(CASE ...)`` under ``GROUP BY``, one ``EpisodeFacts`` made per
row. Kept here as the reference the column load is compared with, and a database of varied
episodes written in bulk (NULL scores, a stored NaN where the server keeps one, practice,
unfinished and errored episodes, a study, several games, settings and kinds)."""

from __future__ import annotations

import random
import uuid
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa

from playbench.app.results.data import SCORE_COLUMNS, EpisodeFacts, Scope, level_groups
from playbench.app.studies.access import hidden_study_ids
from playbench.app.studies.protocol import load_protocol
from playbench.db.engine import Database
from playbench.db.models import Episode, Participant, Score, Study, Task
from playbench.db.store import Store, utcnow


def pivot_rows(db: Database, score_names: Sequence[str], *, study_id: int | None = None,
               game: str | None = None, setting: str | None = None, kind: str | None = None,
               include_practice: bool = False, hidden_study_ids: Sequence[int] = ()
               ) -> list[tuple[Any, ...]]:
    """One tuple per episode in scope with its scores pivoted into columns (the old query)."""
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


def reference_load(store: Store, scope: Scope = Scope()) -> tuple[list[EpisodeFacts],
                                                                  dict[str, int]]:
    """``(episodes, excluded)`` as ``load_episodes`` gave them before."""
    rows = pivot_rows(
        store.db, SCORE_COLUMNS,
        study_id=None if scope.study is None else load_protocol(store, scope.study).id,
        game=scope.game, setting=scope.setting, kind=scope.kind,
        include_practice=scope.include_practice,
        hidden_study_ids=hidden_study_ids(store, scope.viewer))
    excluded: dict[str, int] = {}
    groups = level_groups(store, sorted({r[4] for r in rows if r[10] in scope.statuses}))
    if scope.episodes is not None:
        rows = [r for r in rows if r[0] in scope.episodes]
    for r in rows:
        if r[10] not in scope.statuses:
            excluded[r[10]] = excluded.get(r[10], 0) + 1
    kept = [EpisodeFacts._make((*r[:9], bool(r[9]), r[10], int(r[11]), *r[12:], key,
                                groups.get(key, "")))
            for r in rows if r[10] in scope.statuses for key in (f"{r[4]}:{r[5]}",)]
    kept.sort(key=lambda e: (e.game, e.level_hash, e.setting, e.uid))
    return kept, excluded


GAMES = ("sokoban", "maze", "hanoi")
PEOPLE = [("human", "h1"), ("human", "h2"), ("human", "h3"), ("model", "m1"),
          ("model", "m2"), ("script", "solver")]


def varied_database(store: Store, rng: random.Random, n: int, *, nan: bool = False) -> int:
    """``n`` episodes written in bulk; returns the id of the study some of them belong to.
    ``nan``: store NaN as some scores (PostgreSQL keeps it; SQLite stores NULL)."""
    now = utcnow()
    with store.db.engine.begin() as conn:
        pids = [conn.execute(sa.insert(Participant.__table__).values(
            uid=str(uuid.uuid4()), kind=kind, name=name, details={}, created=now)
        ).inserted_primary_key[0] for kind, name in PEOPLE]
        tids = [conn.execute(sa.insert(Task.__table__).values(
            game=game, level_hash=f"{level}" * 8, level_text="x", level_number=i + 1,
            title="", source="test", meta={})).inserted_primary_key[0]
            for game in GAMES for i, level in enumerate("abcd")]
        study = conn.execute(sa.insert(Study.__table__).values(
            uid=str(uuid.uuid4()), name="varied", protocol={}, created=now)
        ).inserted_primary_key[0]
        episodes, scores = [], []
        for e in range(1, n + 1):
            episodes.append(dict(
                id=e, uid=str(uuid.UUID(int=rng.getrandbits(128))),
                participant_id=rng.choice(pids), task_id=rng.choice(tids),
                study_id=study if rng.random() < 0.3 else None,
                setting=rng.choice(["default", "ingvp:text-multi", ""]), player="p",
                budget={}, rules={}, seed=0,
                status=rng.choice(["done"] * 6 + ["error", "interrupted", "running"]),
                n_steps=rng.randint(0, 40), owner="", start_frame=None, start_state="s",
                started=now, ended=now, meta={}, practice=rng.random() < 0.1))
            if rng.random() < 0.05:
                continue  # an episode without scores
            solved = rng.choice([0.0, 1.0, 1.0, None])
            values = {"solved": solved, "completion": rng.choice([None, rng.uniform(0, 100)]),
                      "efficiency": rng.uniform(0, 100) if rng.random() < 0.9 else None,
                      "magebench": rng.uniform(0, 100) if rng.random() < 0.5 else None,
                      "steps_over_optimal": rng.uniform(1, 3) if solved else None,
                      "steps": 3.0}
            if nan and rng.random() < 0.2:
                values[rng.choice(list(values))] = float("nan")
            scores += [{"episode_id": e, "name": k, "value": v} for k, v in values.items()
                       if v is not None or rng.random() < 0.5]  # NULL rows and no rows
        conn.execute(sa.insert(Episode.__table__), episodes)
        conn.execute(sa.insert(Score.__table__), scores)
    return int(study)


def rescored_between_reads(store: Store, url: str, monkeypatch: Any) -> list[float | None]:
    """What ``scored_episodes`` reads of episode 1's scores when another connection rescores
    it (every score 12345) right after the episodes were read: the write is real, on a second
    engine; wrapping ``driver_rows`` only places it between the reads."""
    import playbench.db.results as db_results
    from playbench.db.engine import open_database

    other = open_database(url)
    real = db_results.driver_rows
    calls: list[int] = []

    def then_rescore(conn: Any, query: Any) -> list[tuple[Any, ...]]:
        rows = real(conn, query)
        calls.append(1)
        if len(calls) == 1:
            with other.engine.begin() as c:
                c.execute(sa.update(Score.__table__).where(Score.episode_id == 1)
                          .values(value=12345.0))
        return rows

    monkeypatch.setattr(db_results, "driver_rows", then_rescore)
    found = db_results.scored_episodes(store.db, SCORE_COLUMNS)
    other.dispose()
    return [v for name in SCORE_COLUMNS for e, v in found.scores[name] if e == 1]
