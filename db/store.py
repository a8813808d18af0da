"""Reading and writing PlayBench records: the repository the app holds.

Only ``db`` knows the tables (an import-linter contract in pyproject.toml keeps SQLAlchemy and
``playbench.db.models`` out of every other package). This module writes episodes as they are played
and reads them back as plain values; the other queries live beside it by what they hold:
``playbench.db.steps`` (the step record and its row mapping), ``playbench.db.episodes``,
``playbench.db.studies``,
``playbench.db.results`` and ``playbench.db.transfer`` (exports and imports).

Each write is one short transaction. ``add_step`` commits the step, its frame and the episode's
step count together, so after it returns the step survives a killed process; episode writes go
through ``Database.writing`` (playbench.db.engine), which refuses to write into a WAL file another
process deleted under us.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import sqlite

from playbench.db.engine import Database
from playbench.db.episodes import EpisodeRow, episode_rows
from playbench.db.lengths import checked, fitted
from playbench.db.models import (
    Episode,
    Frame,
    Participant,
    Score,
    Step,
    Study,
    StudyMember,
    Task,
    utcnow,
)
from playbench.db.step_sql import PreparedStepWrite
from playbench.db.steps import StepRecord, StoredStep, stored_steps
from playbench.db.studies import (
    MemberInfo,
    StudyInfo,
    delete_empty_study,
    find_study,
    member_info,
    recorded_episodes,
    set_archived,
)

__all__ = ["EpisodeRow", "FrameData", "NotFound", "Store", "StudyExists", "iso", "new_uid",
           "utcnow"]


FrameData = tuple[str, int, int, "bytes | None"]
"""(pixel hash, width, height, PNG bytes or None when already stored)."""


class NotFound(LookupError):
    """No such record; the message names what was asked for."""


class StudyInUse(ValueError):
    """A study that still holds recorded episodes cannot be deleted."""


class StudyExists(ValueError):
    """A study of that name is stored already."""


def new_uid() -> str:
    return str(uuid.uuid4())


def inserted_id(result: sa.CursorResult[Any]) -> int:
    """The new row's integer key after a single-row INSERT."""
    key = result.inserted_primary_key
    if key is None:
        raise RuntimeError("the INSERT returned no primary key")
    return int(key[0])


class Store:
    """Repository over an open :class:`Database`."""

    def __init__(self, db: Database, *, prepared_steps: bool = True) -> None:
        """``prepared_steps`` False writes steps with SQLAlchemy Core statements on SQLite too
        (tests compare the two; see ``playbench.db.step_sql``)."""
        self.db = db
        # Built once: constructing statements per step costs more than executing them.
        self._insert_step = sa.insert(Step.__table__)
        self._insert_frame = self._insert_ignore(Frame.__table__)
        self._count_steps = (sa.update(Episode.__table__)
                             .where(Episode.id == sa.bindparam("episode_id_"))
                             .values(n_steps=sa.bindparam("n_steps_")))
        # On SQLite the same statements run as prepared SQL (playbench.db.step_sql).
        self._prepared_step = PreparedStepWrite(
            db.engine.dialect, self._insert_step, Step.__table__, self._insert_frame,
            Frame.__table__, self._count_steps) if db.is_sqlite and prepared_steps else None

    # -- participants, tasks, studies ------------------------------------------------------

    def participant(self, kind: str, name: str, details: dict[str, Any] | None = None) -> int:
        """Id of the participant (kind, name), created on first use; details are updated.

        Insert-if-absent, then read: two processes (or two annotators' sessions on a shared
        PostgreSQL store) asking for the same new participant at once both get its one id."""
        checked("participants", "kind", kind, "participant kind")
        checked("participants", "name", name, "participant name")
        with self.db.engine.begin() as conn:
            conn.execute(self._insert_ignore(Participant.__table__).values(
                uid=new_uid(), kind=kind, name=name, details=details or {}, created=utcnow()))
            row = conn.execute(sa.select(Participant.id, Participant.details).where(
                Participant.kind == kind, Participant.name == name)).one()
            if details is not None and details != row.details:
                conn.execute(sa.update(Participant.__table__)
                             .where(Participant.id == row.id).values(details=details))
            return int(row.id)

    def task(self, game: str, level_hash: str, level_text: str, *, number: int = 1,
             title: str = "", source: str = "", meta: dict[str, Any] | None = None) -> int:
        """Id of the task for this level content, created on first use (race-free, as
        :meth:`participant`)."""
        with self.db.engine.begin() as conn:
            return self._task_in(conn, game, level_hash, level_text, number=number,
                                 title=title, source=source, meta=meta)

    def _task_in(self, conn: sa.Connection, game: str, level_hash: str, level_text: str, *,
                 number: int = 1, title: str = "", source: str = "",
                 meta: dict[str, Any] | None = None) -> int:
        checked("tasks", "game", game, "game")
        checked("tasks", "level_hash", level_hash, "level hash")
        conn.execute(self._insert_ignore(Task.__table__).values(
            game=game, level_hash=level_hash, level_text=level_text, level_number=number,
            title=fitted("tasks", "title", title), source=fitted("tasks", "source", source),
            meta=meta or {}))
        return int(conn.execute(sa.select(Task.id).where(
            Task.game == game, Task.level_hash == level_hash)).scalar_one())

    def study_id(self, name: str) -> int:
        with self.db.sessions() as s:
            sid = s.scalar(sa.select(Study.id).where(Study.name == name))
        if sid is None:
            raise NotFound(f"no study named {name!r}")
        return int(sid)

    def study(self, name: str) -> StudyInfo:
        """The study called ``name`` (its protocol included)."""
        row = find_study(self.db, name)
        if row is None:
            names = self.study_names()
            raise NotFound(f"no study named {name!r}" + (
                f" (studies: {', '.join(names)})" if names else " (no studies yet)"))
        return row

    def study_names(self, archived: bool = True) -> list[str]:
        """Every study's name; ``archived`` False leaves archived studies out."""
        query = sa.select(Study.name).order_by(Study.name)
        if not archived:
            query = query.where(Study.archived.is_(None))
        with self.db.engine.connect() as conn:
            return list(conn.scalars(query))

    def archive_study(self, name: str, archived: bool = True) -> None:
        """Archive the study (it leaves the Studies list; nothing is deleted), or with
        ``archived`` False make it active again."""
        if not set_archived(self.db, name, utcnow() if archived else None):
            self.study(name)  # raises NotFound naming the studies there are

    def delete_study(self, name: str) -> None:
        """Delete a study in which no episode is recorded (a mistaken one); a study with
        episodes is refused (:class:`StudyInUse`): archive it instead."""
        if delete_empty_study(self.db, name):
            return
        self.study(name)  # raises NotFound when there is no such study
        n = recorded_episodes(self.db, name)
        raise StudyInUse(f"study {name!r} has {n} recorded episode{'s' if n != 1 else ''}, "
                         "which deleting would orphan: archive it instead "
                         f"(`playbench study archive {name}`)")

    def create_study(self, name: str, protocol: dict[str, Any],
                     tasks: Sequence[dict[str, Any]]) -> tuple[int, list[int]]:
        """Store a study and the tasks it plays in one transaction: either all of it is
        there afterwards or none. ``tasks`` are :meth:`task` keyword sets (``game``,
        ``level_hash``, ``level_text``, ``number``, ``title``, ``source``, ``meta``).
        Returns the study id and the task ids in order; a taken name raises
        :class:`StudyExists` and writes nothing."""
        taken = StudyExists(f"a study named {name!r} exists already")
        try:
            with self.db.engine.begin() as conn:
                if conn.scalar(sa.select(Study.id).where(Study.name == name)) is not None:
                    raise taken
                task_ids = [self._task_in(conn, **t) for t in tasks]
                result = conn.execute(sa.insert(Study.__table__).values(
                    uid=new_uid(), name=name, protocol=protocol, created=utcnow()))
                return inserted_id(result), task_ids
        except sa.exc.IntegrityError:  # created by another process a moment ago
            raise taken from None

    def is_study_member(self, study_id: int, participant_id: int) -> bool:
        """Whether the participant has opened their queue in the study before."""
        with self.db.engine.connect() as conn:
            return conn.scalar(sa.select(StudyMember.id).where(
                StudyMember.study_id == study_id,
                StudyMember.participant_id == participant_id)) is not None

    def study_member(self, study_id: int, participant_id: int,
                     make_order: Callable[[], tuple[int, Sequence[str]]]) -> MemberInfo:
        """The membership of a participant in a study, recorded on first call with the seed
        and task order ``make_order()`` returns as ``(seed, order)``; later calls return the
        recorded one whatever ``make_order`` would say now."""
        with self.db.engine.begin() as conn:
            existing = conn.execute(sa.select(StudyMember.__table__).where(
                StudyMember.study_id == study_id,
                StudyMember.participant_id == participant_id)).first()
            if existing is None:
                seed, order = make_order()
                conn.execute(self._insert_ignore(StudyMember.__table__).values(
                    study_id=study_id, participant_id=participant_id, seed=seed,
                    task_order=list(order), joined=utcnow()))
            row = conn.execute(sa.select(StudyMember.__table__).where(
                StudyMember.study_id == study_id,
                StudyMember.participant_id == participant_id)).one()
        return member_info(row)

    # -- frames -----------------------------------------------------------------------------

    def _insert_ignore(self, table: Any) -> sa.Insert:
        """An insert of ``table`` rows that skips rows clashing with a unique key."""
        if self.db.engine.dialect.name == "postgresql":
            # Imported here: the dialect's modules cost a SQLite user's every start ~20 ms.
            from sqlalchemy.dialects import postgresql
            return postgresql.insert(table).on_conflict_do_nothing()
        if self.db.engine.dialect.name == "sqlite":
            return sqlite.insert(table).on_conflict_do_nothing()
        return sa.insert(table).prefix_with("IGNORE")

    def _put_frame(self, conn: sa.Connection, frame: FrameData | None) -> str | None:
        """Store a frame unless it is there already; ``png`` None means the caller knows it is."""
        if frame is None:
            return None
        digest, width, height, png = frame
        if png is not None:
            conn.execute(self._insert_frame,
                         {"hash": digest, "width": width, "height": height, "png": png})
        return digest

    def frame_png(self, digest: str) -> bytes:
        with self.db.engine.connect() as conn:
            png = conn.scalar(sa.select(Frame.png).where(Frame.hash == digest))
        if png is None:
            raise NotFound(f"no frame {digest}")
        return png

    # -- episodes and steps -----------------------------------------------------------------

    def begin_episode(self, *, participant_id: int, task_id: int, setting: str, player: str,
                      budget: dict[str, Any], rules: dict[str, Any], seed: int, owner: str,
                      start_state: str, start_frame: FrameData | None,
                      study_id: int | None = None, meta: dict[str, Any] | None = None) -> int:
        checked("episodes", "setting", setting, "setting")
        checked("episodes", "player", player, "player")
        checked("episodes", "owner", owner, "episode owner")
        checked("episodes", "start_state", start_state, "start state")
        with self.db.writing() as conn:
            frame = self._put_frame(conn, start_frame)
            result = conn.execute(sa.insert(Episode.__table__).values(
                uid=new_uid(), participant_id=participant_id, task_id=task_id,
                study_id=study_id, setting=setting, player=player, budget=budget, rules=rules,
                seed=seed, status="running", n_steps=0, owner=owner, start_frame=frame,
                start_state=start_state, started=utcnow(), meta=meta or {},
                practice=bool((meta or {}).get("practice", False))))
            return inserted_id(result)

    def add_step(self, episode_id: int, step: StepRecord,
                 frame: FrameData | None) -> None:
        """Commit one step (and its frame) before returning."""
        with self.db.writing() as conn:
            if self._prepared_step is not None:
                self._prepared_step(
                    conn, None if frame is None or frame[3] is None else dict(
                        zip(("hash", "width", "height", "png"), frame, strict=True)),
                    {**step.to_row(), "episode_id": episode_id,
                     "frame": None if frame is None else frame[0], "created": utcnow()},
                    {"episode_id_": episode_id, "n_steps_": step.index + 1})
                return
            digest = self._put_frame(conn, frame)
            conn.execute(self._insert_step, {**step.to_row(), "episode_id": episode_id,
                                             "frame": digest, "created": utcnow()})
            conn.execute(self._count_steps,
                         {"episode_id_": episode_id, "n_steps_": step.index + 1})

    def set_owner(self, episode_id: int, owner: str) -> None:
        with self.db.writing() as conn:
            conn.execute(sa.update(Episode.__table__).where(Episode.id == episode_id)
                         .values(owner=owner, status="running", end_reason=None, ended=None))

    def finish_episode(self, episode_id: int, *, status: str, end_reason: str | None,
                       scores: dict[str, float | None]) -> None:
        with self.db.writing() as conn:
            conn.execute(sa.delete(Score.__table__).where(Score.episode_id == episode_id))
            if scores:
                conn.execute(sa.insert(Score.__table__), [
                    {"episode_id": episode_id, "name": k, "value": v} for k, v in scores.items()])
            reason = None if end_reason is None else fitted("episodes", "end_reason", end_reason)
            conn.execute(sa.update(Episode.__table__).where(Episode.id == episode_id).values(
                status=status, end_reason=reason, ended=utcnow()))

    def set_scores(self, episode_id: int, scores: dict[str, float | None]) -> None:
        """Add or replace the named scores of an episode, leaving its other scores, status and
        times as they are (a score an outside harness reports after the episode ended)."""
        with self.db.writing() as conn:
            conn.execute(sa.delete(Score.__table__).where(
                Score.episode_id == episode_id, Score.name.in_(list(scores))))
            if scores:
                conn.execute(sa.insert(Score.__table__), [
                    {"episode_id": episode_id, "name": k, "value": v} for k, v in scores.items()])

    def mark_interrupted(self, is_alive: Callable[[str], bool | None]) -> list[int]:
        """Episodes left ``running`` by a process that is gone become ``interrupted``.

        ``is_alive(owner)`` answers for owners on this machine; others are left alone."""
        with self.db.engine.begin() as conn:
            rows = conn.execute(sa.select(Episode.id, Episode.owner)
                                .where(Episode.status == "running")).all()
            dead = [r.id for r in rows if is_alive(r.owner) is False]
            if dead:
                conn.execute(sa.update(Episode.__table__).where(Episode.id.in_(dead)).values(
                    status="interrupted", end_reason="interrupted", ended=utcnow()))
        return dead

    # -- reading ----------------------------------------------------------------------------

    def episode(self, episode_id: int) -> EpisodeRow:
        """The episode with its task, participant and scores, as plain values."""
        rows = episode_rows(self.db, ids=[episode_id])
        if not rows:
            raise NotFound(f"no episode with id {episode_id}")
        return rows[0]

    def steps(self, episode_id: int) -> list[StoredStep]:
        """The episode's steps in order, as plain records (with their frame hashes)."""
        return stored_steps(self.db, episode_id)

    def episodes(self, *, limit: int | None = None, ids: Sequence[int] | None = None,
                 newest_first: bool = True) -> list[EpisodeRow]:
        """Episodes (all, the newest ``limit``, or those in ``ids``) as plain values."""
        return episode_rows(self.db, ids=ids, limit=limit, newest_first=newest_first)

    def all_episode_ids(self) -> list[int]:
        with self.db.engine.connect() as conn:
            return list(conn.scalars(sa.select(Episode.id).order_by(Episode.id)))

    def frames(self, digests: Iterable[str]) -> dict[str, bytes]:
        wanted = sorted(set(d for d in digests if d))
        out: dict[str, bytes] = {}
        with self.db.engine.connect() as conn:
            for i in range(0, len(wanted), 500):
                chunk = wanted[i:i + 500]
                out.update(conn.execute(sa.select(Frame.hash, Frame.png)
                                        .where(Frame.hash.in_(chunk))).all())
        return out


def iso(dt: datetime | None) -> str | None:
    return None if dt is None else dt.isoformat()
