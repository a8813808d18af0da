"""Recording episodes: every step is committed before the next one starts.

The loop hands the recorder plain :class:`StepRecord` values (defined beside their one mapping
to a ``steps`` row in ``playbench.db.steps``, re-exported here) and frames; :class:`DbRecorder`
writes them
through ``playbench.db.store``, :class:`MemoryRecorder` keeps them in a list (replay checks,
Gymnasium, benchmarks). The loop awaits each call.

The protocol is asynchronous so that a commit (a network round trip on a shared PostgreSQL)
and a frame's PNG encoding never run on the thread driving the event loop - in the desktop app
that is the Qt thread. :class:`DbRecorder` does all its work on one worker thread of its own:
the loop still awaits each step's commit before the next decision, and one thread keeps an
episode's writes in the order they were asked for even when the awaiting task is cancelled
(a cancelled ``finish`` is queued behind the step still being written).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

import numpy as np

from playbench.app.core.png import FrameCodec, frame_data
from playbench.db.steps import StepRecord
from playbench.db.store import FrameData, Store

__all__ = ["DbRecorder", "EpisodeStart", "MemoryEpisode", "MemoryRecorder", "Recorder",
           "StepRecord", "StoreWriter"]


@dataclass(frozen=True)
class EpisodeStart:
    """Everything the record of a new episode holds before its first step."""

    game: str
    level_hash: str
    level_text: str
    level_number: int
    level_title: str
    level_source: str
    level_meta: dict[str, Any]
    participant_kind: str
    participant_name: str
    participant_details: dict[str, Any]
    setting: str
    player: str
    budget: dict[str, Any]
    rules: dict[str, Any]
    seed: int
    owner: str
    start_state: str
    study: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)


T = TypeVar("T")


class Recorder(Protocol):
    """Where the loop writes an episode. Each call returns once the write is durable."""

    async def begin(self, start: EpisodeStart, frame: np.ndarray | None) -> int:
        """Record a new episode; returns its id."""

    async def resume(self, episode_id: int, owner: str) -> None:
        """Take over a recorded episode (``owner``: this process's token)."""

    async def step(self, episode_id: int, record: StepRecord,
                   frame: np.ndarray | None) -> None:
        """Commit one step (and its frame, stored once per distinct picture)."""

    async def finish(self, episode_id: int, status: str, end_reason: str | None,
                     scores: dict[str, float | None]) -> None:
        """Record how the episode ended."""


class StoreWriter:
    """Writes episodes to a PlayBench database, synchronously. :class:`DbRecorder` calls it
    from its worker thread; a script that has no event loop may call it directly."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._written: set[str] = set()
        # Ids already looked up by this writer: a run of many episodes asks for the same
        # participant and tasks again and again.
        self._participants: dict[tuple[str, str, str], int] = {}
        self._tasks: dict[tuple[str, str], int] = {}
        # Each running episode's codec, which encodes a frame from the episode's previous one
        # (playbench.app.core.png): a step redoes only the bands of the picture it changed.
        self._codecs: dict[int, FrameCodec] = {}
        self.reused_bands = 0
        """Frame bands taken from the previous frame in the episodes finished so far."""

    def _frame(self, frame: np.ndarray | None, codec: FrameCodec) -> FrameData | None:
        """The frame as the store takes it: digest, size, and the PNG unless already written.
        The PNG is worked out even for a frame already written: the next prompt shows it, and
        the codec, which works from the previous frame, gives its digest on the way."""
        if frame is None:
            return None
        digest, png = frame_data(frame, codec)
        return (digest, frame.shape[1], frame.shape[0],
                None if digest in self._written else png)

    def begin(self, start: EpisodeStart, frame: np.ndarray | None) -> int:
        pkey = (start.participant_kind, start.participant_name,
                json.dumps(start.participant_details, sort_keys=True, default=str))
        pid = self._participants.get(pkey)
        if pid is None:
            pid = self._participants[pkey] = self.store.participant(
                start.participant_kind, start.participant_name, start.participant_details)
        tkey = (start.game, start.level_hash)
        tid = self._tasks.get(tkey)
        if tid is None:
            tid = self._tasks[tkey] = self.store.task(
                start.game, start.level_hash, start.level_text, number=start.level_number,
                title=start.level_title, source=start.level_source, meta=start.level_meta)
        sid = self.store.study_id(start.study) if start.study else None
        codec = FrameCodec()
        data = self._frame(frame, codec)
        eid = self.store.begin_episode(
            participant_id=pid, task_id=tid, setting=start.setting, player=start.player,
            budget=start.budget, rules=start.rules, seed=start.seed, owner=start.owner,
            start_state=start.start_state, start_frame=data, study_id=sid,
            meta=start.meta)
        self._remember(data)
        self._codecs[eid] = codec
        return eid

    def resume(self, episode_id: int, owner: str) -> None:
        self.store.set_owner(episode_id, owner)

    def step(self, episode_id: int, record: StepRecord, frame: np.ndarray | None) -> None:
        codec = self._codecs.get(episode_id)
        if codec is None:  # a resumed episode: its first frame here is encoded afresh
            codec = self._codecs[episode_id] = FrameCodec()
        data = self._frame(frame, codec)  # the PNG encoding happens here, with the commit
        self.store.add_step(episode_id, record, data)
        self._remember(data)

    def _remember(self, data: FrameData | None) -> None:
        if data is not None:
            self._written.add(data[0])

    def finish(self, episode_id: int, status: str, end_reason: str | None,
               scores: dict[str, float | None]) -> None:
        codec = self._codecs.pop(episode_id, None)
        if codec is not None:
            self.reused_bands += codec.reused
        self.store.finish_episode(episode_id, status=status, end_reason=end_reason,
                                  scores=scores)


class DbRecorder:
    """The loop's recorder for a PlayBench database: a :class:`StoreWriter` run on one worker
    thread of this recorder's own (see the module docstring), so the writer's caches are only
    touched there and the event loop never waits on a commit or a PNG encoding."""

    def __init__(self, store: Store, writer: StoreWriter | None = None) -> None:
        self.store = store
        self.writer = writer or StoreWriter(store)
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="recorder")

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn`` on the worker thread and wait for it without holding the loop. A job
        asked for runs to its end even if the awaiting task is cancelled (shielded: a
        cancelled wait must not drop a queued ``finish`` or leave a step half-written)."""
        return await asyncio.shield(asyncio.wrap_future(self._worker.submit(fn, *args)))

    async def begin(self, start: EpisodeStart, frame: np.ndarray | None) -> int:
        return await self._run(self.writer.begin, start, frame)

    async def resume(self, episode_id: int, owner: str) -> None:
        await self._run(self.writer.resume, episode_id, owner)

    async def step(self, episode_id: int, record: StepRecord,
                   frame: np.ndarray | None) -> None:
        await self._run(self.writer.step, episode_id, record, frame)

    async def finish(self, episode_id: int, status: str, end_reason: str | None,
                     scores: dict[str, float | None]) -> None:
        await self._run(self.writer.finish, episode_id, status, end_reason, scores)

    def close(self) -> None:
        """Let the worker thread end once the writes already asked for are done."""
        self._worker.shutdown(wait=False)


@dataclass
class MemoryEpisode:
    start: EpisodeStart
    steps: list[StepRecord] = field(default_factory=list)
    status: str = "running"
    end_reason: str | None = None
    scores: dict[str, float | None] = field(default_factory=dict)


class MemoryRecorder:
    """Keeps episodes in memory (replay verification, Gymnasium, benchmarks)."""

    def __init__(self, keep_frames: bool = False) -> None:
        self.episodes: dict[int, MemoryEpisode] = {}
        self.keep_frames = keep_frames
        self.frames: list[np.ndarray] = []

    async def begin(self, start: EpisodeStart, frame: np.ndarray | None) -> int:
        eid = len(self.episodes) + 1
        self.episodes[eid] = MemoryEpisode(start)
        return eid

    async def resume(self, episode_id: int, owner: str) -> None:
        self.episodes[episode_id].status = "running"

    async def step(self, episode_id: int, record: StepRecord,
                   frame: np.ndarray | None) -> None:
        self.episodes[episode_id].steps.append(record)
        if self.keep_frames and frame is not None:
            self.frames.append(frame)

    async def finish(self, episode_id: int, status: str, end_reason: str | None,
                     scores: dict[str, float | None]) -> None:
        ep = self.episodes[episode_id]
        ep.status, ep.end_reason, ep.scores = status, end_reason, scores
