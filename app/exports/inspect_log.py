"""``playbench export --format inspect``: recorded episodes as Inspect AI logs (``.eval`` files).

Evaluators read logs in Inspect's viewer (``inspect view``), so PlayBench writes them through
inspect_ai's own API (``EvalLog``, ``EvalSample``, ``write_eval_log``) rather than by hand: the
files are whatever that version of Inspect writes and reads. inspect_ai is the optional
``inspect`` extra; this module imports it, so import this module only once it is known to be
installed (the CLI checks).

One log per (task set, participant, setting): a study's episodes form the study's task set, other
episodes their game's. People's and models' logs of one task set lie side by side in the same
directory, and their samples share ids (the task), so the viewer lines them up. A sample is one
episode: its messages (``playbench.app.exports.inspect_messages``), its scores (one Inspect score
per PlayBench score), the model's token usage summed over its steps, and its times
(``total_time`` from start to end, ``working_time`` the player's thinking time summed over the
steps). The sample's ``metadata["playbench"]`` keeps the episode and step objects of the JSONL
export (docs/export-format.md), and the log's ``eval.metadata["playbench"]`` says which
PlayBench wrote it and holds the study, so ``playbench import`` can rebuild the episodes exactly.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from inspect_ai.log import (
    EvalConfig,
    EvalDataset,
    EvalError,
    EvalLog,
    EvalMetric,
    EvalResults,
    EvalSample,
    EvalScore,
    EvalSpec,
    EvalStats,
    write_eval_log,
)
from inspect_ai.model import ModelUsage
from inspect_ai.scorer import Score

from playbench.app import __version__
from playbench.app.exports.inspect_messages import episode_messages, task_text
from playbench.app.exports.jsonl import episode_object, step_object, study_objects
from playbench.db.steps import StoredStep
from playbench.db.store import EpisodeRow, NotFound, Store
from playbench.db.studies import study_uids

FORMAT = "playbench-inspect"
"""``eval.metadata["playbench"]["format"]`` of every log PlayBench writes."""
SCHEMA_VERSION = 1
"""Version of what PlayBench keeps in the logs' metadata; readers refuse a newer one."""
PART_STEPS = 10_000
"""Steps a log holds at most, give or take one episode: a log is built whole in memory before
inspect_ai writes it, so a larger group (a long sweep) is written as several logs (``part2``,
``part3``, ...). Measured on 30,643 random-play Sokoban and maze steps: peak RSS 194 MB with
parts of 5,000 steps, 258 MB with 10,000, 376 MB with one log of 18,400 steps."""
HEADLINE = ("solved", "score", "completion")
"""Scores listed first, in this order: Inspect's viewer headlines a log's first score."""


@dataclass
class InspectReport:
    """What an Inspect export wrote."""

    logs: list[Path] = field(default_factory=list)
    episodes: int = 0
    steps: int = 0


@dataclass
class _Group:
    task_set: str
    participant: dict[str, str]
    setting: str
    study_id: int | None
    rows: list[EpisodeRow] = field(default_factory=list)


def _utc(value: datetime | None) -> datetime | None:
    """A stored time (naive means UTC) as an aware UTC time, which Inspect requires."""
    if value is None:
        return None
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def _stamp(value: datetime | None) -> str | None:
    aware = _utc(value)
    return None if aware is None else aware.isoformat()


def model_name(participant: dict[str, str]) -> str:
    """The name Inspect shows as the log's model (and keys usage by): ``kind/name``, so people
    and scripts read as players beside the models (``human/alice``, ``model/gpt-4o``)."""
    return f"{participant['kind']}/{participant['name']}"


def sample_id(row: EpisodeRow) -> str:
    """The task an episode played, as an Inspect sample id: the same in every log of the task
    set, so a person's and a model's attempts at one level share it."""
    t = row.task
    return f"{t.game}-{t.level_number}-{t.level_hash[:12]}"


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-")[:60] or "x"


def _groups(rows: Sequence[EpisodeRow], names: dict[int, str]) -> list[_Group]:
    """The episodes by (task set, participant, setting), in the order they come."""
    groups: dict[tuple, _Group] = {}
    for row in rows:
        e, p = row.episode, row.participant
        sid = e.study_id
        task_set = names[sid] if sid is not None else row.task.game
        key = (sid, task_set, p.kind, p.name, e.setting)
        if key not in groups:
            groups[key] = _Group(task_set, {"kind": p.kind, "name": p.name}, e.setting, sid)
        groups[key].rows.append(row)
    return list(groups.values())


def _usage(kind: str, model: str, steps: Sequence[StoredStep]) -> dict[str, ModelUsage]:
    if kind != "model":
        return {}
    prompt = sum(s.prompt_tokens for s in steps)
    completion = sum(s.completion_tokens for s in steps)
    return {model: ModelUsage(input_tokens=prompt, output_tokens=completion,
                              total_tokens=prompt + completion,
                              total_cost=sum(s.cost for s in steps))}


def _ordered(names: Iterable[str]) -> list[str]:
    return sorted(names, key=lambda n: (HEADLINE.index(n) if n in HEADLINE else len(HEADLINE),
                                        n))


def _scores(row: EpisodeRow) -> dict[str, Score]:
    """One Inspect score per PlayBench score that applies (a score that does not apply, null in
    the JSONL export, has no Inspect score; it stays in the metadata)."""
    end = row.episode.end_reason or row.episode.status
    return {name: Score(value=float(value), explanation=f"end: {end}")
            for name in _ordered(row.scores) if (value := row.scores[name]) is not None}


def _sample(row: EpisodeRow, epoch: int, study_uid: str | None, steps: list[StoredStep],
            frames: dict[str, bytes]) -> EvalSample:
    e = row.episode
    episode = episode_object(row, study_uid)
    participant = episode["participant"]
    model = model_name(participant)
    started, ended = _utc(e.started), _utc(e.ended)
    total = (ended - started).total_seconds() if started and ended else None
    error = None
    if e.status == "error":
        error = EvalError(message=e.end_reason or "error", traceback="", traceback_ansi="")
    return EvalSample(
        id=sample_id(row), epoch=epoch, uuid=e.uid, input=task_text(episode), target="",
        messages=episode_messages(episode, steps, model, e.start_frame, frames.get),
        scores=_scores(row) or None,
        model_usage=_usage(participant["kind"], model, steps),
        started_at=_stamp(e.started), completed_at=_stamp(e.ended), total_time=total,
        working_time=sum(s.think_ms for s in steps) / 1000.0, error=error,
        metadata={"game": row.task.game, "level": row.task.level_number,
                  "setting": e.setting, "participant": participant, "status": e.status,
                  "end_reason": e.end_reason, "practice": bool(e.practice),
                  "playbench": {"episode": episode,
                                "steps": [step_object(e.uid, s) for s in steps]}})


def _results(samples: Sequence[EvalSample]) -> EvalResults:
    names = _ordered({n for s in samples for n in (s.scores or {})})
    scores = []
    for name in names:
        values = [float(s.scores[name].as_float()) for s in samples
                  if s.scores and name in s.scores]
        scores.append(EvalScore(
            name=name, scorer=name, scored_samples=len(values),
            unscored_samples=len(samples) - len(values),
            metrics={"mean": EvalMetric(name="mean", value=sum(values) / len(values))}))
    done = sum(1 for s in samples if s.metadata.get("status") == "done")
    return EvalResults(total_samples=len(samples), completed_samples=done, scores=scores)


def _total_usage(samples: Sequence[EvalSample]) -> dict[str, ModelUsage]:
    out: dict[str, ModelUsage] = {}
    for s in samples:
        for model, usage in s.model_usage.items():
            out[model] = out[model] + usage if model in out else usage
    return out


def _log(group: _Group, samples: list[EvalSample], study: dict | None, part: int) -> EvalLog:
    starts = [s.started_at for s in samples if s.started_at]
    ends = [s.completed_at for s in samples if s.completed_at]
    created = min(starts) if starts else datetime.now(UTC).isoformat()
    key = f"{group.task_set}\0{group.participant['kind']}\0{group.participant['name']}\0" \
          f"{group.setting}\0{study['id'] if study else ''}\0{part}"
    digest = hashlib.sha256(key.encode()).hexdigest()[:22]
    model = model_name(group.participant)
    spec = EvalSpec(
        eval_id=digest, run_id=digest, created=created, task=group.task_set, task_id=digest,
        task_display_name=f"{group.task_set} ({group.setting})",
        task_args={"setting": group.setting},
        solver=f"playbench/{group.participant['kind']}",
        dataset=EvalDataset(name=group.task_set, samples=len(samples),
                            sample_ids=sorted({str(s.id) for s in samples})),
        model=model, config=EvalConfig(epochs=max(s.epoch for s in samples)),
        packages={"playbench": __version__},
        metadata={"playbench": {"format": FORMAT, "schema_version": SCHEMA_VERSION,
                                "version": __version__, "task_set": group.task_set,
                                "participant": group.participant, "setting": group.setting,
                                "part": part, "study": study}})
    return EvalLog(status="success", eval=spec, results=_results(samples),
                   stats=EvalStats(started_at=created, completed_at=max(ends) if ends else "",
                                   model_usage=_total_usage(samples)),
                   samples=samples)


def log_name(group_log: EvalLog) -> str:
    """The file name of a log: its start, task set, player and setting, as Inspect names its
    own logs (``<time>_<task>_<id>.eval``) so the viewer sorts them by time."""
    spec = group_log.eval
    meta = spec.metadata["playbench"] if spec.metadata else {}
    when = re.sub(r"[^0-9T]", "", spec.created[:19].replace("-", "").replace(":", ""))
    who = meta.get("participant", {})
    parts = [spec.task, f"{who.get('kind')}-{who.get('name')}", meta.get("setting", "")]
    if meta.get("part", 1) > 1:
        parts.append(f"part{meta['part']}")
    return f"{when}_{'_'.join(_slug(str(p)) for p in parts)}_{spec.eval_id[:8]}.eval"


def export_inspect(store: Store, out: Path, episode_ids: Sequence[int] | None = None
                   ) -> InspectReport:
    """Write one ``.eval`` log per (task set, participant, setting) of the episodes (all when
    ``episode_ids`` is None) into ``out``; returns the files written and the counts."""
    out.mkdir(parents=True, exist_ok=True)
    ids = list(episode_ids) if episode_ids is not None else store.all_episode_ids()
    rows = store.episodes(ids=ids, newest_first=False)
    missing = set(ids) - {r.episode.id for r in rows}
    if missing:
        raise NotFound(f"no episode with id {min(missing)}")
    uids = study_uids(store.db, {r.episode.study_id for r in rows if r.episode.study_id})
    studies = {s["id"]: s for s in study_objects(store, uids)}
    names = {sid: studies[uid]["name"] for sid, uid in uids.items()}
    report = InspectReport()
    for group in _groups(rows, names):
        study_uid = uids.get(group.study_id) if group.study_id is not None else None
        study = studies.get(study_uid) if study_uid else None
        samples: list[EvalSample] = []
        held = 0
        part = 1
        epochs: dict[str, int] = {}
        for row in group.rows:
            steps = store.steps(row.episode.id)
            wanted = {s.frame for s in steps if s.frame} | (
                {row.episode.start_frame} if row.episode.start_frame else set())
            sid = sample_id(row)
            epochs[sid] = epochs.get(sid, 0) + 1
            samples.append(_sample(row, epochs[sid], study_uid, steps, store.frames(wanted)))
            report.episodes += 1
            report.steps += len(steps)
            held += len(steps)
            if held >= PART_STEPS:
                report.logs.append(_write(out, _log(group, samples, study, part)))
                samples, held, part = [], 0, part + 1
        if samples:
            report.logs.append(_write(out, _log(group, samples, study, part)))
    return report


def _write(out: Path, log: EvalLog) -> Path:
    path = out / log_name(log)
    write_eval_log(log, str(path), format="eval")
    return path
