"""``playbench export --format hf``: a Hugging Face dataset folder, one row per step.

The folder (docs/export-format.md, "Hugging Face dataset"):

```
DIR/
  README.md                  dataset card: schema, the studies' population fields, licence
  data/train-00000.parquet   rows, in episode then step order, in shards
```

``datasets.load_dataset("parquet", data_dir=DIR)`` (or ``load_dataset(DIR)``, which reads the
card's ``configs``) gives the rows back with ``observation`` decoded as an image: the feature
types travel in each shard's schema metadata, as ``datasets`` itself writes them.

Rows are written as they are read (:mod:`playbench.app.exports.walk`): a record batch of at
most :data:`BATCH_ROWS` rows at a time through ``pyarrow.parquet.ParquetWriter``, a new shard
after :data:`SHARD_ROWS` rows or :data:`SHARD_BYTES` bytes, so memory stays bounded whatever
the export's length. ``datasets`` and ``pyarrow`` come with the optional extra ``hf``; without
them :func:`export_hf` raises :class:`MissingExtra` naming it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playbench.app import __version__
from playbench.app.exports.walk import EpisodeData, episode_groups
from playbench.db.store import Store, iso

BATCH_ROWS = 2_000
"""Rows per record batch (one parquet row group)."""
SHARD_ROWS = 50_000
SHARD_BYTES = 256 * 1024 * 1024
"""A shard is closed after this many rows or (about) this many bytes of images and replies."""

COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("episode", "string", "the episode's UUID (the `id` of the JSONL export)"),
    ("episode_id", "int64", "its id in the database it came from"),
    ("step", "int32", "0-based step number within the episode"),
    ("decision", "int32", "0-based decision (one model reply or human submission)"),
    ("participant_kind", "string", "`human`, `model` or `script`"),
    ("participant", "string", "the participant's name"),
    ("player", "string", "how the player was asked for (`human`, `model:NAME`, `solver`...)"),
    ("game", "string", "the task kind"),
    ("level_hash", "string", "SHA-256 of the game and level text"),
    ("level_number", "int32", "the level's number in its pack"),
    ("setting", "string", "the play setting"),
    ("study", "string", "the study's UUID, or null"),
    ("practice", "bool", "a study's practice task"),
    ("seed", "int64", "the episode's seed"),
    ("episode_status", "string", "`done`, `interrupted`, `error` or `running`"),
    ("end_reason", "string", "why the episode ended (`solved`, `budget`, `gave_up`...)"),
    ("episode_scores", "string", "the episode's scores, a JSON object"),
    ("observation", "image", "the frame the player saw when choosing this step (PNG)"),
    ("observation_hash", "string", "the frame's hash (null when none was recorded)"),
    ("action", "string", "canonical action text, or null when nothing readable was sent"),
    ("reply", "string", "what the player sent: the key or click, or the model's whole reply "
                        "(on a decision's first step)"),
    ("reasoning", "string", "a model's separate reasoning, or null"),
    ("valid", "bool", "whether the action was applied"),
    ("invalid_kind", "string", "why not, as a kind (`illegal`, `malformed`...), or null"),
    ("invalid_reason", "string", "why not, as shown to the player, or null"),
    ("changed", "bool", "whether the state changed"),
    ("reward", "float64", "the game's step reward"),
    ("state_hash", "string", "hash of the state after the step"),
    ("think_ms", "float64", "observation to decision, milliseconds (a decision's first step)"),
    ("latency_ms", "float64", "the model endpoint's answer time, milliseconds"),
    ("prompt_tokens", "int64", "prompt tokens of the decision (model players)"),
    ("completion_tokens", "int64", "completion tokens of the decision (model players)"),
    ("cost", "float64", "money spent on the decision, in the profile's currency"),
    ("started", "string", "when the episode started (ISO 8601, UTC)"),
    ("info", "string", "other facts of the step, a JSON object"),
)
"""(column, type, meaning): the rows' schema, also written into the dataset card."""


class MissingExtra(RuntimeError):
    """``datasets`` or ``pyarrow`` is not installed."""


@dataclass
class HfReport:
    episodes: int = 0
    rows: int = 0
    shards: list[str] = field(default_factory=list)
    study_ids: set[int] = field(default_factory=set)
    participants: dict[str, set[str]] = field(default_factory=dict)
    """Participant kind -> names (for the card)."""
    by_kind: dict[str, int] = field(default_factory=dict)
    """Participant kind -> episodes."""

    def count(self, ep: EpisodeData) -> None:
        e, p = ep.row.episode, ep.row.participant
        self.episodes += 1
        if e.study_id is not None:
            self.study_ids.add(e.study_id)
        self.participants.setdefault(p.kind, set()).add(p.name)
        self.by_kind[p.kind] = self.by_kind.get(p.kind, 0) + 1


def _libraries() -> tuple[Any, Any, Any]:
    try:
        import datasets  # type: ignore[import-untyped]
        import pyarrow as pa  # type: ignore[import-untyped]
        import pyarrow.parquet as pq  # type: ignore[import-untyped]
    except ImportError as err:
        raise MissingExtra(
            f"the Hugging Face export needs the optional extra 'hf' ({err.name} is not "
            "installed): pip install 'playbench[hf]'") from None
    return datasets, pa, pq


def require_libraries() -> None:
    """Raise :class:`MissingExtra` unless ``datasets`` and ``pyarrow`` can be imported."""
    _libraries()


def features() -> Any:
    """The rows' ``datasets.Features`` (needs the ``hf`` extra)."""
    datasets, _, _ = _libraries()
    return datasets.Features({
        name: datasets.Image() if kind == "image" else datasets.Value(kind)
        for name, kind, _ in COLUMNS})


class _Shards:
    """Parquet shards under ``data/``, opened as rows come."""

    def __init__(self, directory: Path, schema: Any, pq: Any) -> None:
        self.directory, self.schema, self.pq = directory, schema, pq
        self.names: list[str] = []
        self.writer: Any = None
        self.rows = 0
        self.bytes = 0

    def write(self, batch: Any, size: int) -> None:
        if self.writer is None:
            name = f"train-{len(self.names):05d}.parquet"
            self.writer = self.pq.ParquetWriter(self.directory / name, self.schema,
                                                compression="zstd")
            self.names.append(name)
        self.writer.write_batch(batch)
        self.rows += batch.num_rows
        self.bytes += size
        if self.rows >= SHARD_ROWS or self.bytes >= SHARD_BYTES:
            self.close()

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer, self.rows, self.bytes = None, 0, 0


def export_hf(store: Store, out: Path, episode_ids: Sequence[int],
              progress: Callable[[int], None] | None = None) -> HfReport:
    """Write the dataset folder for ``episode_ids`` to ``out`` (the shards and card of an
    earlier export there are replaced);
    ``progress`` is told how many rows are written so far after each batch."""
    _, pa, pq = _libraries()
    feats = features()
    schema = feats.arrow_schema
    data = out / "data"
    data.mkdir(parents=True, exist_ok=True)
    for old in data.glob("train-*.parquet"):  # an earlier export's shards, not other files
        old.unlink()
    shards = _Shards(data, schema, pq)
    report = HfReport()
    columns: dict[str, list[Any]] = {name: [] for name, _, _ in COLUMNS}
    size = 0
    try:
        for group in episode_groups(store, episode_ids):
            for ep in group.episodes:
                report.count(ep)
                for row in _rows(ep, group.frames):
                    for name, value in row.items():
                        columns[name].append(value)
                    size += len(row["reply"]) + (len(row["observation"]["bytes"])
                                                 if row["observation"] else 0)
                    if len(columns["step"]) >= BATCH_ROWS:
                        report.rows += _flush(columns, schema, pa, shards, size)
                        size = 0
                        if progress is not None:
                            progress(report.rows)
        if columns["step"]:
            report.rows += _flush(columns, schema, pa, shards, size)
    finally:
        shards.close()
    report.shards = [f"data/{n}" for n in shards.names]
    (out / "README.md").write_text(dataset_card(store, report), encoding="utf-8")
    return report


def _flush(columns: dict[str, list[Any]], schema: Any, pa: Any, shards: _Shards,
           size: int) -> int:
    batch = pa.RecordBatch.from_pydict(columns, schema=schema)
    shards.write(batch, size)
    for values in columns.values():
        values.clear()
    return batch.num_rows


def _rows(ep: EpisodeData, frames: dict[str, bytes]):
    """The rows of one episode. A step's observation is the newest frame shown before it: the
    start frame, then each step's frame after it (a step that recorded none keeps the last)."""
    e, t, p = ep.row.episode, ep.row.task, ep.row.participant
    head = {
        "episode": e.uid, "episode_id": e.id, "participant_kind": p.kind,
        "participant": p.name, "player": e.player, "game": t.game,
        "level_hash": t.level_hash, "level_number": t.level_number, "setting": e.setting,
        "study": ep.study_uid, "practice": bool(e.practice), "seed": e.seed,
        "episode_status": e.status, "end_reason": e.end_reason,
        "episode_scores": json.dumps(ep.row.scores, sort_keys=True),
        "started": iso(e.started)}
    shown = e.start_frame
    for s in ep.steps:
        png = frames.get(shown) if shown else None
        info = dict(s.info)
        reasoning = info.pop("reasoning", None)
        yield {**head, "step": s.index, "decision": s.decision,
               "observation": {"bytes": png, "path": None} if png else None,
               "observation_hash": shown if png else None,
               "action": s.action, "reply": s.raw,
               "reasoning": reasoning if isinstance(reasoning, str) else None,
               "valid": s.valid, "invalid_kind": s.invalid_kind,
               "invalid_reason": s.invalid_reason, "changed": s.changed,
               "reward": float(s.reward), "state_hash": s.state_hash,
               "think_ms": float(s.think_ms), "latency_ms": float(s.latency_ms or 0.0),
               "prompt_tokens": s.prompt_tokens, "completion_tokens": s.completion_tokens,
               "cost": float(s.cost), "info": json.dumps(info, ensure_ascii=False)}
        if s.frame:
            shown = s.frame


def dataset_card(store: Store, report: HfReport) -> str:
    """The dataset card (``README.md``) of a written export."""
    from playbench.app.exports.card import Card, card_text
    return card_text(store, Card(episodes=report.episodes, rows=report.rows,
                                 shards=report.shards, study_ids=report.study_ids,
                                 participants=report.participants, by_kind=report.by_kind),
                     COLUMNS, __version__)
