"""The versioned JSONL trajectory export (format documented in docs/export-format.md).

A directory holds ``manifest.json``, ``episodes.jsonl`` (one object per episode),
``steps.jsonl`` (one object per step), ``studies.jsonl`` (the studies those episodes belong
to, with their members' recorded task orders) and ``frames/<hash>.png``. JSON only: no pickles,
nothing that runs code when read. ``playbench.app.exports.importer`` reads it back into any
database.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from json.encoder import encode_basestring
from math import isfinite
from pathlib import Path
from typing import Any

from pydantic_core import to_json

from playbench.app import __version__
from playbench.app.exports.schema import FORMAT, SCHEMA_VERSION, StepLine
from playbench.db.steps import StoredStep
from playbench.db.store import EpisodeRow, NotFound, Store, iso
from playbench.db.studies import study_uids
from playbench.db.transfer import (
    STEP_EXPORT_COLUMNS,
    episodes_for_export,
    step_values_for_export,
    studies_with_members,
)

CHUNK = 200
"""Episodes read per query while exporting (steps of a chunk come in one query)."""
STEP_FIELDS = tuple(StepLine.model_fields)
"""A step line's fields in the order they are written (``info`` last, spliced in as text)."""
_FRAME = STEP_EXPORT_COLUMNS.index("frame")


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


def step_object(episode_uid: str, s: StoredStep) -> dict:
    """The ``steps.jsonl`` object of a stored step (its frame as a file name under
    ``frames/``)."""
    return {**_head(episode_uid, _values(s)), "info": s.info}


def _values(s: StoredStep) -> tuple[Any, ...]:
    """A stored step as a row of ``STEP_EXPORT_COLUMNS`` (its info left out)."""
    return (s.episode_id, s.index, s.decision, s.action, s.raw, s.valid, s.invalid_kind,
            s.invalid_reason, s.changed, s.reward, s.state_hash, s.frame, s.think_ms,
            s.prompt_tokens, s.completion_tokens, s.cost, s.latency_ms)


def _head(episode_uid: str, row: Sequence[Any]) -> dict[str, Any]:
    """A step line's fields but ``info`` (:class:`StepLine`, in its order) from a row of
    ``playbench.db.transfer.STEP_EXPORT_COLUMNS``."""
    (_, index, decision, action, raw, valid, invalid_kind, invalid_reason, changed, reward,
     state_hash, frame, think_ms, prompt, completion, cost, latency_ms) = row[:17]
    return {"episode": episode_uid, "index": index, "decision": decision, "action": action,
            "raw": raw, "valid": bool(valid), "invalid_kind": invalid_kind,
            "invalid_reason": invalid_reason, "changed": bool(changed), "reward": reward,
            "state_hash": state_hash, "frame": f"{frame}.png" if frame else None,
            "think_ms": think_ms, "tokens": {"prompt": prompt, "completion": completion},
            "cost": cost, "latency_ms": latency_ms}


def step_of_object(obj: dict) -> tuple[str, StoredStep]:
    """The inverse of :func:`step_object`: (episode uid, stored step) of a line's object."""
    return step_of_line(StepLine.model_validate(obj))


def step_of_line(line: StepLine) -> tuple[str, StoredStep]:
    """(episode uid, stored step) of a checked step line."""
    frame = line.frame
    return line.episode, StoredStep.unchecked({
        "index": line.index, "decision": line.decision, "action": line.action,
        "raw": line.raw, "valid": line.valid, "invalid_kind": line.invalid_kind,
        "invalid_reason": line.invalid_reason, "changed": line.changed,
        "reward": line.reward, "state_hash": line.state_hash, "think_ms": line.think_ms,
        "prompt_tokens": line.tokens.prompt, "completion_tokens": line.tokens.completion,
        "cost": line.cost, "latency_ms": line.latency_ms or 0.0, "info": line.info,
        "frame": frame[:-4] if frame else None, "created": None, "episode_id": 0})


def step_lines(episode_uid: str, steps: Sequence[tuple[StoredStep, str]]) -> list[str]:
    """``steps.jsonl`` lines of one episode's steps (``playbench.db.transfer.steps_for_export``):
    the objects of :func:`step_object`, with ``info`` spliced in as the stored JSON text."""
    return _step_texts(episode_uid, [(*_values(s), info_text) for s, info_text in steps])


_FORMATS = {"episode": "%s", "index": "%s", "decision": "%s", "action": "%s", "raw": "%s",
            "valid": "%s", "invalid_kind": "%s", "invalid_reason": "%s", "changed": "%s",
            "reward": "%r", "state_hash": "%s", "frame": "%s", "think_ms": "%r",
            "tokens": '{"prompt":%s,"completion":%s}', "cost": "%r", "latency_ms": "%r",
            "info": "%s"}
"""How each field of a step line is written into :data:`_LINE` (every field of
:class:`StepLine` must have one: a field added to the model and not here fails at import)."""
_LINE = "{" + ",".join(f'"{name}":{_FORMATS[name]}' for name in STEP_FIELDS) + "}"
"""A step line as one %-template, its fields in the model's order."""
_text = encode_basestring
"""A str as a JSON string, UTF-8 kept (the C encoder of ``json``)."""


def _step_texts(episode_uid: str, rows: Sequence[Sequence[Any]]) -> list[str]:
    """The lines of ``playbench.db.transfer.step_values_for_export``'s rows as the export
    writes them (encoded once per episode, not per line: 4 % of the export's time): each line
    filled into one %-template, its texts through ``json``'s C string encoder, its numbers as
    Python writes them (``repr`` is JSON's form of a finite float), its ``info`` spliced in as
    the stored JSON text (decoding and re-encoding it cost a third of the export time). 1.5 us
    a step against 2.1 us for a dict through pydantic-core's ``to_json`` (timeit,
    bench_results' steps). A row with a number that is not finite goes through ``to_json``,
    which writes it as before."""
    episode = _text(episode_uid)
    lines = []
    for r in rows:
        (_, index, decision, action, raw, valid, invalid_kind, invalid_reason, changed,
         reward, state_hash, frame, think_ms, prompt, completion, cost, latency_ms,
         info) = r
        if not isfinite(reward + think_ms + cost + latency_ms):
            head = to_json(_head(episode_uid, r))[:-1].decode()
            lines.append(f'{head},"info":{info or "{}"}}}')
            continue
        lines.append(_LINE % (
            episode, index, decision, "null" if action is None else _text(action), _text(raw),
            "true" if valid else "false",
            "null" if invalid_kind is None else _text(invalid_kind),
            "null" if invalid_reason is None else _text(invalid_reason),
            "true" if changed else "false", reward, _text(state_hash),
            "null" if frame is None else _text(f"{frame}.png"), think_ms, prompt, completion, cost,
            latency_ms, info or "{}"))
    return lines


def study_objects(store: Store, study_ids: Iterable[int]) -> list[dict]:
    """The studies (protocol and members' recorded orders) behind exported episodes."""
    out = []
    for s, members in studies_with_members(store.db, study_ids):
        out.append({
            "schema": SCHEMA_VERSION, "id": s.uid, "name": s.name, "protocol": s.protocol,
            "created": iso(s.created),
            "members": [{"participant": {"kind": m.kind, "name": m.name}, "seed": m.seed,
                         "task_order": list(m.task_order), "joined": iso(m.joined)}
                        for m in members]})
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
    uids_of_studies: dict[int, str] = {}
    with open(out / "episodes.jsonl", "w", encoding="utf-8") as ef, \
            open(out / "steps.jsonl", "wb") as sf:
        for chunk in _chunks(_progress(ids, progress), CHUNK):
            rows = {r.episode.id: r for r in episodes_for_export(store.db, chunk)}
            missing = [i for i in chunk if i not in rows]
            if missing:
                raise NotFound(f"no episode with id {missing[0]}")
            new_studies = {sid for r in rows.values()
                           if (sid := r.episode.study_id) is not None
                           and sid not in uids_of_studies}
            if new_studies:
                uids_of_studies.update(study_uids(store.db, new_studies))
            by_episode = step_values_for_export(store.db, chunk)
            wanted = {s[_FRAME] for steps in by_episode.values() for s in steps if s[_FRAME]} | {
                r.episode.start_frame for r in rows.values() if r.episode.start_frame}
            wanted -= written
            for digest, png in store.frames(wanted).items():
                (frames_dir / f"{digest}.png").write_bytes(png)
                written.add(digest)
            for eid in chunk:
                row = rows[eid]
                sid = row.episode.study_id
                if sid is not None:
                    study_ids.add(sid)
                study_uid = None if sid is None else uids_of_studies.get(sid)
                ef.write(to_json(episode_object(row, study_uid)).decode() + "\n")
                lines = _step_texts(row.episode.uid, by_episode.get(eid, []))
                if lines:
                    sf.write(("\n".join(lines) + "\n").encode())
                n_steps += len(lines)
    studies = study_objects(store, study_ids)
    with open(out / "studies.jsonl", "w", encoding="utf-8") as f:
        for study in studies:
            f.write(dump(study) + "\n")
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
