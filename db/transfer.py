"""Moving records between databases: what an export reads and what an import writes.

The file format belongs to ``playbench.app.exports``; this module only reads rows for it and merges
checked rows back. :func:`merge` writes everything inside one transaction: every statement goes
through its one connection, because opening another would wait on the transaction's own write
lock (SQLite) and see none of its rows (PostgreSQL).

Merging recognises what the database already holds: episodes by uid (an episode already here
gains the steps it lacks), participants by (kind, name), tasks by (game, level hash), frames by
hash, studies by uid, else by name. New rows get this database's own ids.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import groupby
from operator import itemgetter
from typing import Any, Protocol

import sqlalchemy as sa

from playbench.db.driver_rows import driver_rows as _driver_rows
from playbench.db.engine import Database
from playbench.db.episodes import (
    EpisodeRow,
    all_scores,
    episode_info,
    participant_info,
    task_info,
)
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
from playbench.db.steps import RECORD_FIELDS, StoredStep
from playbench.db.store import Store, new_uid
from playbench.db.studies import StudyInfo, study_info

# -- reading for an export --------------------------------------------------------------------


@dataclass(frozen=True)
class MemberRecord:
    """A study member as exported: who, and the seed and task order recorded for them."""

    kind: str
    name: str
    seed: int
    task_order: list[str]
    joined: datetime | None


def studies_with_members(db: Database, study_ids: Iterable[int]
                         ) -> list[tuple[StudyInfo, list[MemberRecord]]]:
    """The studies in ``study_ids`` (by id) with their members in joining order."""
    ids = sorted(set(i for i in study_ids if i is not None))
    if not ids:
        return []
    with db.engine.connect() as conn:
        studies = [study_info(r) for r in conn.execute(
            sa.select(Study.__table__).where(Study.id.in_(ids)).order_by(Study.id))]
        members = conn.execute(
            sa.select(StudyMember.study_id, StudyMember.seed, StudyMember.task_order,
                      StudyMember.joined, Participant.kind, Participant.name)
            .join(Participant, Participant.id == StudyMember.participant_id)
            .where(StudyMember.study_id.in_(ids)).order_by(StudyMember.id)).all()
    return [(s, [MemberRecord(m.kind, m.name, m.seed, list(m.task_order), m.joined)
                 for m in members if m.study_id == s.id]) for s in studies]


_EXPORT_COLUMNS = (*[getattr(Step, n) for n in RECORD_FIELDS if n != "info"], Step.frame,
                   Step.episode_id, sa.cast(Step.info, sa.Text))
_EXPORT_NAMES = (*[n for n in RECORD_FIELDS if n != "info"], "frame", "episode_id", "info_text")


def steps_for_export(db: Database, episode_ids: Sequence[int]
                     ) -> dict[int, list[tuple[StoredStep, str]]]:
    """The steps of the given episodes, each episode's in order, as ``(step, info JSON)``:
    the step's ``info`` is left empty and its stored JSON text given beside it, so an export
    can splice it into its line unchanged (decoding and re-encoding it cost a third of the
    export time)."""
    out: dict[int, list[tuple[StoredStep, str]]] = {}
    with db.engine.connect() as conn:
        rows = conn.execute(sa.select(*_EXPORT_COLUMNS)
                            .where(Step.episode_id.in_(list(episode_ids)))
                            .order_by(Step.episode_id, Step.index))
        for r in rows:
            values = dict(zip(_EXPORT_NAMES, r, strict=True))
            values["valid"] = bool(values["valid"])
            values["changed"] = bool(values["changed"])
            info_text = values.pop("info_text") or "{}"
            step = StoredStep.unchecked({**values, "info": {}, "created": None})
            out.setdefault(step.episode_id, []).append((step, info_text))
    return out


STEP_EXPORT_COLUMNS = ("episode_id", "index", "decision", "action", "raw", "valid",
                       "invalid_kind", "invalid_reason", "changed", "reward", "state_hash",
                       "frame", "think_ms", "prompt_tokens", "completion_tokens", "cost",
                       "latency_ms")
"""The columns of :func:`step_values_for_export`'s rows, in order (its ``info`` JSON text
last)."""


def step_values_for_export(db: Database, episode_ids: Sequence[int]
                           ) -> dict[int, list[Sequence[Any]]]:
    """The steps of the given episodes as plain rows of :data:`STEP_EXPORT_COLUMNS` and the
    stored ``info`` JSON text, each episode's in order: what an export writes, with no
    :class:`StoredStep` built per step (making one per row was half of the export's time;
    cProfile, bench_results' database). ``valid`` and ``changed`` are as the driver gives
    them (0/1 on SQLite): the rows come straight from the driver's cursor, as tuples, which
    took 105 ms for 50,000 steps where SQLAlchemy's result rows took 150 ms."""
    out: dict[int, list[Sequence[Any]]] = {}
    columns = [getattr(Step, n) for n in STEP_EXPORT_COLUMNS]
    query = (sa.select(*columns, sa.cast(Step.info, sa.Text))
             .where(Step.episode_id.in_(list(episode_ids)))
             .order_by(Step.episode_id, Step.index))
    with db.engine.connect() as conn:
        rows = _driver_rows(conn, query)
    for episode_id, steps in groupby(rows, key=itemgetter(0)):
        out[episode_id] = list(steps)
    return out


def episodes_for_export(db: Database, episode_ids: Sequence[int]) -> list[EpisodeRow]:
    """The given episodes (those that exist), by id, with task, participant and scores, as
    :func:`playbench.db.episodes.episode_rows` gives them: read as plain rows, each task and
    participant once (loading ORM objects took 60 us an episode, a sixth of an export of
    50-step episodes; cProfile, bench_results' database)."""
    ids = sorted(set(episode_ids))
    if not ids:
        return []
    with db.engine.connect() as conn:
        episodes: list[sa.Row[Any]] = []
        for i in range(0, len(ids), 500):
            episodes += conn.execute(sa.select(Episode.__table__)
                                     .where(Episode.id.in_(ids[i:i + 500]))).all()
        tasks = {r.id: task_info(r) for r in conn.execute(sa.select(Task.__table__).where(
            Task.id.in_(sorted({e.task_id for e in episodes}))))}
        people = {r.id: participant_info(r) for r in conn.execute(
            sa.select(Participant.__table__).where(
                Participant.id.in_(sorted({e.participant_id for e in episodes}))))}
    scores = all_scores(db, ids)
    return [EpisodeRow(episode_info(e), tasks[e.task_id], people[e.participant_id],
                       scores.get(e.id, {})) for e in sorted(episodes, key=lambda e: e.id)]


# -- merging an import ------------------------------------------------------------------------


class MergeReport(Protocol):
    """The counters :func:`merge` adds to (the importer's report)."""

    episodes_new: int
    episodes_extended: int
    episodes_skipped: int
    steps: int
    frames: int
    participants: int
    tasks: int
    studies: int
    warnings: list[str]


@dataclass
class Incoming:
    """An export to merge, checked but for its steps, which ``step_rows`` may check as it
    yields them (an exception it raises rolls the whole merge back).

    ``episodes``: episode uid -> the export's episode object (``docs/export-format.md``);
    ``studies``: the export's study objects; ``frames``: hashes of the frames it holds, read
    by ``frame_png``; ``steps()``: every step as ``(episode uid, step with its frame hash)``,
    each episode's in order."""

    episodes: dict[str, dict[str, Any]]
    studies: list[dict[str, Any]]
    frames: set[str]
    frame_png: Callable[[str], bytes]
    steps: Callable[[], Iterator[tuple[str, StoredStep]]]
    step_rows: Callable[[], Iterator[tuple[str, dict[str, Any]]]] | None = None
    """Instead of ``steps``, when given: each step as ``(episode uid, row)``, the row being
    :meth:`StepRecord.to_row`'s values plus ``frame`` (already held to the caps), for a reader
    that can build them without a :class:`StoredStep` in between."""


BATCH = 2000


def insert_many(conn: sa.Connection, table: sa.Table, rows: list[dict[str, Any]]) -> None:
    """Insert ``rows`` (each with the same keys) in one ``executemany``, each value through its
    column type's own bind processor, the statement compiled once for the connection's dialect.

    The same as ``conn.execute(sa.insert(table), rows)`` without SQLAlchemy's per-row parameter
    bookkeeping, which cost 9.7 us of a step row's insert against 3 us here (timeit, 20,000
    rows into SQLite) and was the largest cost of an import. A row's values are picked by one
    ``itemgetter`` and only the columns whose type has a processor go through it, each
    remembering its last value and result (an episode's steps share their ``created`` time, a
    boolean is one of two objects, steps without ``info`` may share one empty mapping): 1.6 us
    a step row against 3 us (timeit, bench_results' rows)."""
    names = list(rows[0])
    dialect = conn.dialect
    compiled = sa.insert(table).compile(dialect=dialect, column_keys=names)
    keys = list(compiled.positiontup or []) if compiled.positional else names
    pick = itemgetter(*keys)
    processed = [(i, p) for i, k in enumerate(keys)
                 if (p := table.c[k].type.dialect_impl(dialect).bind_processor(dialect))]
    # each processed column remembers its last value and result: rows are not changed while
    # they are inserted, so the same object has the same result
    last_in: list[Any] = [_NOTHING] * len(keys)
    last_out: list[Any] = [None] * len(keys)
    values = []
    for row in rows:
        picked = pick(row)
        if len(keys) == 1:
            picked = (picked,)
        if processed:
            out = list(picked)
            for i, process in processed:
                value = out[i]
                if value is not last_in[i]:
                    last_in[i], last_out[i] = value, process(value)
                out[i] = last_out[i]
            picked = tuple(out)
        values.append(picked if compiled.positional else dict(zip(keys, picked, strict=True)))
    conn.exec_driver_sql(compiled.string, values)


_NOTHING = object()


def merge(store: Store, incoming: Incoming, report: MergeReport,
          progress: Callable[[int], None] | None = None) -> None:
    """Merge ``incoming`` into ``store``'s database in one transaction (all or nothing)."""
    with store.db.engine.begin() as conn:
        _Merge(store, conn, incoming, report, progress).run()


def _when(text: str | None) -> datetime | None:
    if text is None:
        return None
    value = datetime.fromisoformat(text)
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _png_size(png: bytes) -> tuple[int, int]:
    """(width, height) from a PNG's IHDR chunk."""
    width, height = struct.unpack(">II", png[16:24])
    return int(width), int(height)


class _Merge:
    def __init__(self, store: Store, conn: sa.Connection, incoming: Incoming,
                 report: MergeReport, progress: Callable[[int], None] | None) -> None:
        self.store = store
        self.conn = conn
        self.incoming = incoming
        self.report = report
        self.progress = progress
        self.participants: dict[tuple[str, str], int] = {}
        self.frames_here: set[str] = set()
        """Frames known to be in the database (found there or written by this merge)."""

    def _new_id(self, insert: sa.Insert) -> int:
        """Run an insert of one row and return the new row's id."""
        key = self.conn.execute(insert).inserted_primary_key
        assert key is not None
        return int(key[0])

    def run(self) -> None:
        self._frames()
        tasks = self._tasks()
        studies = self._studies()
        plan = self._episodes(tasks, studies)
        self._steps(plan)

    # -- frames, participants, tasks, studies -------------------------------------------------

    def _frames(self, digests: Iterable[str] | None = None) -> None:
        """Write the frames in ``digests`` (default: the export's, as known when the merge
        starts) that the database lacks. Steps' frames are written as their steps are
        (:meth:`_flush`): an import checks a step's frame while reading its line."""
        wanted = sorted(set(self.incoming.frames if digests is None else digests)
                        - self.frames_here)
        self.frames_here.update(wanted)
        for i in range(0, len(wanted), 500):
            chunk = wanted[i:i + 500]
            have = set(self.conn.scalars(sa.select(Frame.hash).where(Frame.hash.in_(chunk))))
            rows = []
            for digest in chunk:
                if digest in have:
                    continue
                png = self.incoming.frame_png(digest)
                width, height = _png_size(png)
                rows.append({"hash": digest, "width": width, "height": height, "png": png})
            if rows:
                self.conn.execute(self.store._insert_ignore(Frame.__table__), rows)
                self.report.frames += len(rows)

    def participant(self, kind: str, name: str, details: dict[str, Any] | None = None) -> int:
        key = (kind, name)
        if key not in self.participants:
            pid = self.conn.scalar(sa.select(Participant.id).where(
                Participant.kind == kind, Participant.name == name))
            if pid is None:
                pid = self._new_id(sa.insert(Participant).values(
                    uid=new_uid(), kind=kind, name=name, details=details or {},
                    created=utcnow()))
                self.report.participants += 1
            self.participants[key] = int(pid)
        return self.participants[key]

    def _tasks(self) -> dict[tuple[str, str], int]:
        """(game, level hash) -> task id here, for every episode's task; the missing ones
        written. Looked up 500 hashes a query and written by one statement with parameters
        (a statement per task, its values inlined, was compiled anew each time)."""
        wanted: dict[tuple[str, str], dict[str, Any]] = {}
        for e in self.incoming.episodes.values():
            wanted.setdefault((e["game"], e["level"]["hash"]), e["level"])
        out: dict[tuple[str, str], int] = {}
        hashes = sorted({h for _, h in wanted})
        for i in range(0, len(hashes), 500):
            for tid, game, digest in self.conn.execute(
                    sa.select(Task.id, Task.game, Task.level_hash)
                    .where(Task.level_hash.in_(hashes[i:i + 500]))):
                if (game, digest) in wanted:
                    out[(game, digest)] = int(tid)
        insert = sa.insert(Task.__table__)
        for (game, digest), lv in wanted.items():
            if (game, digest) in out:
                continue
            key = self.conn.execute(insert, dict(
                game=game, level_hash=digest, level_text=lv["text"],
                level_number=lv["number"], title=lv.get("title") or "",
                source=lv.get("source") or "", meta=lv.get("meta") or {})).inserted_primary_key
            assert key is not None
            out[(game, digest)] = int(key[0])
            self.report.tasks += 1
        return {k: out[k] for k in wanted}

    def _studies(self) -> dict[str, int]:
        """Incoming study uid -> study id here."""
        out: dict[str, int] = {}
        for s in self.incoming.studies:
            sid = self.conn.scalar(sa.select(Study.id).where(Study.uid == s["id"]))
            if sid is None:
                sid = self.conn.scalar(sa.select(Study.id).where(Study.name == s["name"]))
                if sid is not None:
                    self.report.warnings.append(
                        f"study {s['name']!r} was created separately on another machine; "
                        "merged with the one here (same tasks and rules)")
            if sid is None:
                sid = self._new_id(sa.insert(Study).values(
                    uid=s["id"], name=s["name"], protocol=s["protocol"],
                    created=_when(s.get("created")) or utcnow()))
                self.report.studies += 1
            out[s["id"]] = int(sid)
            for m in s.get("members", []):
                p = m["participant"]
                pid = self.participant(p["kind"], p["name"])
                row = self.conn.execute(sa.select(StudyMember.task_order).where(
                    StudyMember.study_id == sid, StudyMember.participant_id == pid)).first()
                if row is None:
                    self.conn.execute(sa.insert(StudyMember).values(
                        study_id=sid, participant_id=pid, seed=m["seed"],
                        task_order=list(m["task_order"]),
                        joined=_when(m.get("joined")) or utcnow()))
                elif list(row.task_order) != list(m["task_order"]):
                    self.report.warnings.append(
                        f"study {s['name']!r}: {p['kind']}:{p['name']} has another recorded "
                        "task order here; kept the one here")
        return out

    # -- episodes, scores, steps ----------------------------------------------------------------

    def _episodes(self, tasks: dict[tuple[str, str], int],
                  studies: dict[str, int]) -> dict[str, tuple[int, int, datetime]]:
        """Write episode rows; returns uid -> (episode id, first step index to write, time)
        for the episodes whose steps are to be written."""
        plan: dict[str, tuple[int, int, datetime]] = {}
        uids = list(self.incoming.episodes)
        existing: dict[str, Any] = {}
        for i in range(0, len(uids), 500):
            for row in self.conn.execute(sa.select(Episode.uid, Episode.id, Episode.n_steps,
                                                   Episode.status)
                                         .where(Episode.uid.in_(uids[i:i + 500]))):
                existing[row.uid] = row
        new: list[tuple[str, dict[str, Any]]] = []
        for uid, e in self.incoming.episodes.items():
            status, end_reason = e["status"], e.get("end_reason")
            if status == "running":  # nobody plays it in this database
                status, end_reason = "interrupted", end_reason or "interrupted"
            values = dict(status=status, end_reason=end_reason, n_steps=e["n_steps"],
                          ended=_when(e.get("ended")), meta=e.get("meta") or {})
            started = _when(e["started"]) or utcnow()
            old = existing.get(uid)
            if old is None:
                p = e["participant"]
                pid = self.participant(p["kind"], p["name"], e.get("participant_details"))
                start = e.get("start_frame")
                new.append((uid, dict(
                    uid=uid, participant_id=pid, task_id=tasks[(e["game"], e["level"]["hash"])],
                    study_id=studies.get(e["study"]) if e.get("study") else None,
                    setting=e["setting"], player=e.get("player") or "", budget=e["budget"],
                    rules=e["rules"], seed=e["seed"], owner=e.get("owner") or "",
                    start_frame=start[:-4] if start else None,
                    start_state=e.get("start_state") or "", started=started,
                    practice=bool(e.get("practice", False)), **values)))
            elif e["n_steps"] > old.n_steps or (old.status != "done" and status == "done"):
                eid = old.id
                self.conn.execute(sa.update(Episode).where(Episode.id == eid)
                                  .values(**values))
                self.conn.execute(sa.delete(Score).where(Score.episode_id == eid))
                plan[uid] = (eid, old.n_steps, started)
                self.report.episodes_extended += 1
            else:
                self.report.episodes_skipped += 1
        # the new episodes in statements of many rows that return their ids in order: one
        # statement per episode took a third of an import of 50-step episodes (cProfile,
        # bench_results' database)
        insert = sa.insert(Episode.__table__).returning(Episode.__table__.c.id,
                                                        sort_by_parameter_order=True)
        for i in range(0, len(new), 500):
            chunk = new[i:i + 500]
            ids = self.conn.execute(insert, [values for _, values in chunk]).scalars().all()
            for (uid, values), eid in zip(chunk, ids, strict=True):
                plan[uid] = (int(eid), 0, values["started"])
            self.report.episodes_new += len(chunk)
        scores = [{"episode_id": plan[uid][0], "name": k, "value": v}
                  for uid in plan for k, v in self.incoming.episodes[uid]["scores"].items()]
        for i in range(0, len(scores), 5000):
            self.conn.execute(sa.insert(Score.__table__), scores[i:i + 5000])
        return plan

    def _steps(self, plan: dict[str, tuple[int, int, datetime]]) -> None:
        rows: list[dict[str, Any]] = []
        make = self.incoming.step_rows
        given = make() if make is not None else (
            (uid, {**step.to_row(), "frame": step.frame}) for uid, step in self.incoming.steps())
        for uid, row in given:
            target = plan.get(uid)
            if target is None or row["index"] < target[1]:
                continue
            row["episode_id"] = target[0]
            row["created"] = target[2]
            rows.append(row)
            if len(rows) >= BATCH:
                self._flush(rows)
        self._flush(rows)

    def _flush(self, rows: list[dict[str, Any]]) -> None:
        if not rows:
            return
        self._frames({f for r in rows if (f := r["frame"]) is not None})
        insert_many(self.conn, Step.__table__, rows)
        self.report.steps += len(rows)
        if self.progress is not None:
            self.progress(len(rows))
        rows.clear()
