"""The versioned JSONL trajectory export (format documented in docs/export-format.md).

A directory holds ``manifest.json``, ``episodes.jsonl`` (one object per episode),
``steps.jsonl`` (one object per step) and ``frames/<hash>.png``. JSON only: no pickles, nothing
that runs code when read.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterable, Iterator, Sequence

from app import __version__
from db.store import EpisodeRow, Store, iso

SCHEMA_VERSION = 1
FORMAT = "playbench-trajectories"


def episode_object(row: EpisodeRow) -> dict:
    e, t, p = row.episode, row.task, row.participant
    return {
        "schema": SCHEMA_VERSION,
        "id": e.uid,
        "local_id": e.id,
        "participant": {"kind": p.kind, "name": p.name},
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
    }


def step_object(episode_uid: str, s) -> dict:
    return {
        "episode": episode_uid,
        "index": s.index,
        "decision": s.decision,
        "action": s.action,
        "raw": s.raw,
        "valid": s.valid,
        "invalid_kind": s.invalid_kind,
        "invalid_reason": s.invalid_reason,
        "changed": s.changed,
        "reward": s.reward,
        "state_hash": s.state_hash,
        "frame": f"{s.frame}.png" if s.frame else None,
        "think_ms": s.think_ms,
        "tokens": {"prompt": s.prompt_tokens, "completion": s.completion_tokens},
        "cost": s.cost,
        "latency_ms": s.latency_ms,
        "info": s.info,
    }


def _dump(obj: dict) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), sort_keys=False)


def export_jsonl(store: Store, out: Path, episode_ids: Sequence[int] | None = None,
                 progress: Iterable | None = None) -> dict:
    """Write the export; returns counts. Existing files in ``out`` are replaced."""
    out.mkdir(parents=True, exist_ok=True)
    frames_dir = out / "frames"
    frames_dir.mkdir(exist_ok=True)
    ids = list(episode_ids) if episode_ids else store.all_episode_ids()
    rows = {r.episode.id: r for r in store.episodes(ids=ids, newest_first=False)}
    missing = [i for i in ids if i not in rows]
    if missing:
        from db.store import NotFound
        raise NotFound(f"no episode with id {missing[0]}")
    n_steps = 0
    written: set[str] = set()
    with open(out / "episodes.jsonl", "w", encoding="utf-8") as ef, \
            open(out / "steps.jsonl", "w", encoding="utf-8") as sf:
        for eid in _progress(ids, progress):
            row = rows[eid]
            ef.write(_dump(episode_object(row)) + "\n")
            steps = store.steps(eid)
            wanted = {s.frame for s in steps if s.frame} | (
                {row.episode.start_frame} if row.episode.start_frame else set())
            wanted -= written
            for digest, png in store.frames(wanted).items():
                (frames_dir / f"{digest}.png").write_bytes(png)
                written.add(digest)
            for s in steps:
                sf.write(_dump(step_object(row.episode.uid, s)) + "\n")
            n_steps += len(steps)
    manifest = {"format": FORMAT, "schema_version": SCHEMA_VERSION,
                "playbench": __version__, "episodes": len(ids), "steps": n_steps,
                "frames": len(written)}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return manifest


def _progress(ids: list[int], progress) -> Iterator[int]:
    if progress is None:
        yield from ids
    else:
        yield from progress(ids)
