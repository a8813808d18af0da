"""The versioned JSONL trajectory export (format documented in docs/export-format.md).

A directory holds ``manifest.json``, ``episodes.jsonl`` (one object per episode),
``steps.jsonl`` (one object per step), ``studies.jsonl`` (the studies those episodes belong
to, with their members' recorded task orders) and ``frames/<hash>.png``. JSON only: no pickles,
nothing that runs code when read. ``app.exports.importer`` reads it back into any database.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

import sqlalchemy as sa

from app import __version__
from db.models import Participant, Step, Study, StudyMember
from db.store import EpisodeRow, NotFound, Store, iso

SCHEMA_VERSION = 1
FORMAT = "playbench-trajectories"
CHUNK = 200
"""Episodes read per query while exporting (steps of a chunk come in one query)."""

STEP_COLUMNS = (Step.episode_id, Step.index, Step.decision, Step.action, Step.raw, Step.valid,
                Step.invalid_kind, Step.invalid_reason, Step.changed, Step.reward,
                Step.state_hash, Step.frame, Step.think_ms, Step.prompt_tokens,
                Step.completion_tokens, Step.cost, Step.latency_ms,
                sa.cast(Step.info, sa.Text).label("info_text"))
"""Step columns in export order; ``info`` comes as its stored JSON text, spliced into the line
as it is (decoding and re-encoding it cost a third of the export time)."""


def episode_object(row: EpisodeRow, study_uid: str | None = None) -> dict:
    e, t, p = row.episode, row.task, row.participant
    return {
        "schema": SCHEMA_VERSION,
        "id": e.uid,
        "local_id": e.id,
        "participant": {"kind": p.kind, "name": p.name},
        "participant_details": p.details,
        "player": e.player,
        "game": t.game,
        "level": {"id": t.id, "hash": t.level_hash, "text": t.level_text,
                  "number": t.level_number, "title": t.title, "source": t.source,
                  "meta": t.meta},
        "setting": e.setting,
        "budget": e.budget,
        "rules": e.rules,
        "seed": e.seed,
        "status": e.status,
        "end_reason": e.end_reason,
        "scores": row.scores,
        "n_steps": e.n_steps,
        "start_state": e.start_state,
        "start_frame": f"{e.start_frame}.png" if e.start_frame else None,
        "started": iso(e.started),
        "ended": iso(e.ended),
        "study": study_uid,
        "practice": bool(e.practice),
        "owner": e.owner,
        "meta": e.meta,
    }


def step_object(episode_uid: str, s: Any) -> dict:
    return {
        "episode": episode_uid,
        "index": s.index,
        "decision": s.decision,
        "action": s.action,
        "raw": s.raw,
        "valid": bool(s.valid),
        "invalid_kind": s.invalid_kind,
        "invalid_reason": s.invalid_reason,
        "changed": bool(s.changed),
        "reward": s.reward,
        "state_hash": s.state_hash,
        "frame": f"{s.frame}.png" if s.frame else None,
        "think_ms": s.think_ms,
        "tokens": {"prompt": s.prompt_tokens, "completion": s.completion_tokens},
        "cost": s.cost,
        "latency_ms": s.latency_ms,
        "info": s.info,
    }


def step_lines(episode_uid: str, rows: Sequence[Any]) -> list[str]:
    """``steps.jsonl`` lines of one episode's rows (``STEP_COLUMNS``): the same objects as
    :func:`step_object`, built from plain tuples for speed."""
    out = []
    for (_eid, index, decision, action, raw, valid, invalid_kind, invalid_reason, changed,
         reward, state_hash, frame, think_ms, prompt_tokens, completion_tokens, cost,
         latency_ms, info_text) in rows:
        head = dump({
            "episode": episode_uid, "index": index, "decision": decision, "action": action,
            "raw": raw, "valid": bool(valid), "invalid_kind": invalid_kind,
            "invalid_reason": invalid_reason, "changed": bool(changed), "reward": reward,
            "state_hash": state_hash, "frame": f"{frame}.png" if frame else None,
            "think_ms": think_ms,
            "tokens": {"prompt": prompt_tokens, "completion": completion_tokens},
            "cost": cost, "latency_ms": latency_ms})
        out.append(f'{head[:-1]},"info":{info_text or "{}"}}}')
    return out


def study_objects(store: Store, study_ids: Iterable[int]) -> list[dict]:
    """The studies (protocol and members' recorded orders) behind exported episodes."""
    ids = sorted(set(i for i in study_ids if i is not None))
    if not ids:
        return []
    with store.db.sessions() as session:
        studies = list(session.scalars(sa.select(Study).where(Study.id.in_(ids))
                                       .order_by(Study.id)))
    with store.db.engine.connect() as conn:
        members = conn.execute(
            sa.select(StudyMember.study_id, StudyMember.seed, StudyMember.task_order,
                      StudyMember.joined, Participant.kind, Participant.name)
            .join(Participant, Participant.id == StudyMember.participant_id)
            .where(StudyMember.study_id.in_(ids)).order_by(StudyMember.id)).all()
    out = []
    for s in studies:
        out.append({
            "schema": SCHEMA_VERSION, "id": s.uid, "name": s.name, "protocol": s.protocol,
            "created": iso(s.created),
            "members": [{"participant": {"kind": m.kind, "name": m.name}, "seed": m.seed,
                         "task_order": list(m.task_order), "joined": iso(m.joined)}
                        for m in members if m.study_id == s.id]})
    return out


def dump(obj: dict) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), sort_keys=False)


def export_jsonl(store: Store, out: Path, episode_ids: Sequence[int] | None = None,
                 progress: Any | None = None) -> dict:
    """Write the export; returns the manifest (counts). Existing files in ``out`` are
    replaced."""
    out.mkdir(parents=True, exist_ok=True)
    frames_dir = out / "frames"
    frames_dir.mkdir(exist_ok=True)
    ids = list(episode_ids) if episode_ids else store.all_episode_ids()
    n_steps = 0
    written: set[str] = set()
    study_ids: set[int] = set()
    study_uids: dict[int, str] = {}
    with open(out / "episodes.jsonl", "w", encoding="utf-8") as ef, \
            open(out / "steps.jsonl", "w", encoding="utf-8") as sf:
        for chunk in _chunks(_progress(ids, progress), CHUNK):
            rows = {r.episode.id: r for r in store.episodes(ids=chunk, newest_first=False)}
            missing = [i for i in chunk if i not in rows]
            if missing:
                raise NotFound(f"no episode with id {missing[0]}")
            new_studies = {r.episode.study_id for r in rows.values()} - set(study_uids) - {None}
            if new_studies:
                with store.db.engine.connect() as conn:
                    study_uids.update(conn.execute(sa.select(Study.id, Study.uid).where(
                        Study.id.in_(sorted(new_studies)))).all())
            with store.db.engine.connect() as conn:
                steps = conn.execute(sa.select(*STEP_COLUMNS)
                                     .where(Step.episode_id.in_(chunk))
                                     .order_by(Step.episode_id, Step.index)).all()
            by_episode: dict[int, list[Any]] = {}
            for s in steps:
                by_episode.setdefault(s[0], []).append(s)
            wanted = {s[11] for s in steps if s[11]} | {
                r.episode.start_frame for r in rows.values() if r.episode.start_frame}
            wanted -= written
            for digest, png in store.frames(wanted).items():
                (frames_dir / f"{digest}.png").write_bytes(png)
                written.add(digest)
            for eid in chunk:
                row = rows[eid]
                study_ids.add(row.episode.study_id)
                ef.write(dump(episode_object(row, study_uids.get(row.episode.study_id))) + "\n")
                lines = step_lines(row.episode.uid, by_episode.get(eid, []))
                if lines:
                    sf.write("\n".join(lines) + "\n")
                n_steps += len(lines)
    studies = study_objects(store, study_ids)
    with open(out / "studies.jsonl", "w", encoding="utf-8") as f:
        for s in studies:
            f.write(dump(s) + "\n")
    manifest = {"format": FORMAT, "schema_version": SCHEMA_VERSION,
                "playbench": __version__, "episodes": len(ids), "steps": n_steps,
                "frames": len(written), "studies": len(studies)}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return manifest


def _chunks(items: Iterable[int], size: int) -> Iterator[list[int]]:
    chunk: list[int] = []
    for i in items:
        chunk.append(i)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _progress(ids: list[int], progress) -> Iterator[int]:
    if progress is None:
        yield from ids
    else:
        yield from progress(ids)
