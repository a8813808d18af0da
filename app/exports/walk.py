"""Reading episodes for an export a bounded piece at a time.

The Hugging Face and ATIF exports go through the selected episodes in database order, a group
at a time: a group holds at most :data:`MAX_EPISODES` episodes and, unless one episode alone is
longer, at most :data:`MAX_STEPS` steps, with their steps and the frames they show. Memory
therefore follows the size of a group, not of the export (a 100,000-step export peaks where a
10,000-step one does: benchmarks/bench_export_hf.py).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from playbench.db.steps import StoredStep
from playbench.db.store import EpisodeRow, NotFound, Store
from playbench.db.studies import study_uids
from playbench.db.transfer import steps_for_export

MAX_EPISODES = 200
"""Episodes read per query (as the JSONL export reads them)."""
MAX_STEPS = 5_000
"""Steps held at once (unless a single episode has more). Measured with
benchmarks/bench_export_hf.py: at 20,000 a 100,000-step export peaked 39 MB above a 10,000-step
one (whose single group was smaller); at 5,000 both fill their groups and peak alike, and the
rate is the same (one steps query per group)."""


@dataclass(frozen=True)
class EpisodeData:
    """One episode with everything an export writes of it."""

    row: EpisodeRow
    steps: list[StoredStep]
    """In order, each with its ``info`` decoded."""
    study_uid: str | None


@dataclass(frozen=True)
class Group:
    """Episodes read together, and the frames (hash -> PNG) any of them shows."""

    episodes: list[EpisodeData]
    frames: dict[str, bytes]


def frames_shown(data: EpisodeData) -> set[str]:
    """Hashes of every frame the episode shows: its start and each step's."""
    out = {s.frame for s in data.steps if s.frame}
    if data.row.episode.start_frame:
        out.add(data.row.episode.start_frame)
    return out


def episode_groups(store: Store, episode_ids: Sequence[int],
                   skip_frames: set[str] | None = None) -> Iterator[Group]:
    """The episodes of ``episode_ids`` (in that order), a group at a time. Frames whose hash is
    in ``skip_frames`` are not read (an export that writes each frame once passes the ones it
    has written)."""
    skip = skip_frames if skip_frames is not None else set()
    studies: dict[int, str] = {}
    for start in range(0, len(episode_ids), MAX_EPISODES):
        chunk = list(episode_ids[start:start + MAX_EPISODES])
        rows = {r.episode.id: r for r in store.episodes(ids=chunk, newest_first=False)}
        missing = [i for i in chunk if i not in rows]
        if missing:
            raise NotFound(f"no episode with id {missing[0]}")
        new = {sid for r in rows.values()
               if (sid := r.episode.study_id) is not None and sid not in studies}
        if new:
            studies.update(study_uids(store.db, new))
        for part in _by_steps([rows[i] for i in chunk]):
            by_episode = steps_for_export(store.db, [r.episode.id for r in part])
            episodes = []
            for r in part:
                sid = r.episode.study_id
                steps = [_with_info(s, text) for s, text in by_episode.get(r.episode.id, [])]
                episodes.append(EpisodeData(r, steps, None if sid is None else studies.get(sid)))
            wanted = set().union(*(frames_shown(e) for e in episodes)) - skip
            yield Group(episodes, store.frames(wanted))


def _by_steps(rows: list[EpisodeRow]) -> Iterator[list[EpisodeRow]]:
    part: list[EpisodeRow] = []
    steps = 0
    for r in rows:
        if part and steps + r.episode.n_steps > MAX_STEPS:
            yield part
            part, steps = [], 0
        part.append(r)
        steps += r.episode.n_steps
    if part:
        yield part


def _with_info(step: StoredStep, info_text: str) -> StoredStep:
    info: dict[str, Any] = json.loads(info_text) if info_text and info_text != "{}" else {}
    return StoredStep.unchecked({**step.__dict__, "info": info})
