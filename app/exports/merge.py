"""The writing pass of an import (``app.exports.importer`` checks first): merges a checked
export into the database inside the caller's one transaction.

Every statement goes through the caller's connection: opening another would wait on the
transaction's own write lock (SQLite) and see none of its rows (PostgreSQL).
"""

from __future__ import annotations

import json
import struct
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from db.models import Episode, Frame, Participant, Score, Step, Study, StudyMember, Task
from db.store import Store, new_uid, utcnow

BATCH = 2000


def _when(text: str | None) -> datetime | None:
    if text is None:
        return None
    value = datetime.fromisoformat(text)
    return value if value.tzinfo is not None else value.replace(tzinfo=timezone.utc)


def _png_size(png: bytes) -> tuple[int, int]:
    """(width, height) from a PNG's IHDR chunk."""
    return struct.unpack(">II", png[16:24])


class Writer:
    def __init__(self, store: Store, conn: sa.Connection, directory: Path, seen: Any,
                 report: Any, progress: Callable[[int], None] | None = None) -> None:
        self.store = store
        self.conn = conn
        self.directory = directory
        self.seen = seen
        self.report = report
        self.progress = progress
        self.participants: dict[tuple[str, str], int] = {}

    def _insert_ignore(self, table):
        name = self.conn.dialect.name
        if name == "postgresql":
            return postgresql.insert(table).on_conflict_do_nothing()
        if name == "sqlite":
            return sqlite.insert(table).on_conflict_do_nothing()
        return sa.insert(table).prefix_with("IGNORE")

    def run(self) -> None:
        self._frames()
        tasks = self._tasks()
        studies = self._studies()
        plan = self._episodes(tasks, studies)
        self._steps(plan)

    # -- frames, participants, tasks, studies -------------------------------------------------

    def _frames(self) -> None:
        wanted = sorted(self.seen.frames)
        for i in range(0, len(wanted), 500):
            chunk = wanted[i:i + 500]
            have = set(self.conn.scalars(sa.select(Frame.hash).where(Frame.hash.in_(chunk))))
            rows = []
            for digest in chunk:
                if digest in have:
                    continue
                png = (self.directory / "frames" / f"{digest}.png").read_bytes()
                width, height = _png_size(png)
                rows.append({"hash": digest, "width": width, "height": height, "png": png})
            if rows:
                self.conn.execute(self._insert_ignore(Frame.__table__), rows)
                self.report.frames += len(rows)

    def participant(self, kind: str, name: str, details: dict | None = None) -> int:
        key = (kind, name)
        if key not in self.participants:
            pid = self.conn.scalar(sa.select(Participant.id).where(
                Participant.kind == kind, Participant.name == name))
            if pid is None:
                pid = self.conn.execute(sa.insert(Participant.__table__).values(
                    uid=new_uid(), kind=kind, name=name, details=details or {},
                    created=utcnow())).inserted_primary_key[0]
                self.report.participants += 1
            self.participants[key] = int(pid)
        return self.participants[key]

    def _tasks(self) -> dict[tuple[str, str], int]:
        out: dict[tuple[str, str], int] = {}
        for e in self.seen.episodes.values():
            lv = e["level"]
            key = (e["game"], lv["hash"])
            if key in out:
                continue
            tid = self.conn.scalar(sa.select(Task.id).where(Task.game == key[0],
                                                            Task.level_hash == key[1]))
            if tid is None:
                tid = self.conn.execute(sa.insert(Task.__table__).values(
                    game=key[0], level_hash=key[1], level_text=lv["text"],
                    level_number=lv["number"], title=lv.get("title") or "",
                    source=lv.get("source") or "", meta=lv.get("meta") or {}
                )).inserted_primary_key[0]
                self.report.tasks += 1
            out[key] = int(tid)
        return out

    def _studies(self) -> dict[str, int]:
        """Bundle study uid -> study id here."""
        out: dict[str, int] = {}
        for s in self.seen.studies:
            sid = self.conn.scalar(sa.select(Study.id).where(Study.uid == s["id"]))
            if sid is None:
                sid = self.conn.scalar(sa.select(Study.id).where(Study.name == s["name"]))
                if sid is not None:
                    self.report.warnings.append(
                        f"study {s['name']!r} was created separately on another machine; "
                        "merged with the one here (same tasks and rules)")
            if sid is None:
                sid = self.conn.execute(sa.insert(Study.__table__).values(
                    uid=s["id"], name=s["name"], protocol=s["protocol"],
                    created=_when(s.get("created")) or utcnow())).inserted_primary_key[0]
                self.report.studies += 1
            out[s["id"]] = int(sid)
            for m in s.get("members", []):
                p = m["participant"]
                pid = self.participant(p["kind"], p["name"])
                row = self.conn.execute(sa.select(StudyMember.task_order).where(
                    StudyMember.study_id == sid, StudyMember.participant_id == pid)).first()
                if row is None:
                    self.conn.execute(sa.insert(StudyMember.__table__).values(
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
        uids = list(self.seen.episodes)
        existing: dict[str, Any] = {}
        for i in range(0, len(uids), 500):
            for row in self.conn.execute(sa.select(Episode.uid, Episode.id, Episode.n_steps,
                                                   Episode.status)
                                         .where(Episode.uid.in_(uids[i:i + 500]))):
                existing[row.uid] = row
        for uid, e in self.seen.episodes.items():
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
                eid = self.conn.execute(sa.insert(Episode.__table__).values(
                    uid=uid, participant_id=pid, task_id=tasks[(e["game"], e["level"]["hash"])],
                    study_id=studies.get(e.get("study")) if e.get("study") else None,
                    setting=e["setting"], player=e.get("player") or "", budget=e["budget"],
                    rules=e["rules"], seed=e["seed"], owner=e.get("owner") or "",
                    start_frame=start[:-4] if start else None,
                    start_state=e.get("start_state") or "", started=started,
                    practice=bool(e.get("practice", False)), **values)).inserted_primary_key[0]
                plan[uid] = (int(eid), 0, started)
                self.report.episodes_new += 1
            elif e["n_steps"] > old.n_steps or (old.status != "done" and status == "done"):
                eid = old.id
                self.conn.execute(sa.update(Episode.__table__).where(Episode.id == eid)
                                  .values(**values))
                self.conn.execute(sa.delete(Score.__table__).where(Score.episode_id == eid))
                plan[uid] = (eid, old.n_steps, started)
                self.report.episodes_extended += 1
            else:
                self.report.episodes_skipped += 1
                continue
            scores = [{"episode_id": plan[uid][0], "name": k, "value": v}
                      for k, v in e["scores"].items()]
            if scores:
                self.conn.execute(sa.insert(Score.__table__), scores)
        return plan

    def _steps(self, plan: dict[str, tuple[int, int, datetime]]) -> None:
        rows: list[dict[str, Any]] = []
        insert = sa.insert(Step.__table__)
        with open(self.directory / "steps.jsonl", encoding="utf-8") as f:
            for line in f:
                if not line.strip():
                    continue
                s = json.loads(line)
                target = plan.get(s["episode"])
                if target is None or s["index"] < target[1]:
                    continue
                frame = s.get("frame")
                rows.append({
                    "episode_id": target[0], "index": s["index"], "decision": s["decision"],
                    "action": s["action"], "raw": s["raw"], "valid": s["valid"],
                    "invalid_kind": s.get("invalid_kind"),
                    "invalid_reason": s.get("invalid_reason"), "changed": s["changed"],
                    "reward": float(s["reward"]), "state_hash": s["state_hash"],
                    "frame": frame[:-4] if frame else None, "think_ms": float(s["think_ms"]),
                    "prompt_tokens": s["tokens"]["prompt"],
                    "completion_tokens": s["tokens"]["completion"], "cost": float(s["cost"]),
                    "latency_ms": float(s.get("latency_ms") or 0.0), "created": target[2],
                    "info": s["info"]})
                if len(rows) >= BATCH:
                    self._flush(insert, rows)
        self._flush(insert, rows)

    def _flush(self, insert, rows: list[dict[str, Any]]) -> None:
        if not rows:
            return
        self.conn.execute(insert, rows)
        self.report.steps += len(rows)
        if self.progress is not None:
            self.progress(len(rows))
        rows.clear()
