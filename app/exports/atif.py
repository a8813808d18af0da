"""``playbench export --format atif``: one ATIF v1.6 trajectory per episode.

ATIF (the Agent Trajectory Interchange Format of the Harbor project, RFC 0001, v1.6 being the
version that adds images) logs an agent run as a root object (``schema_version``,
``session_id``, ``agent``, ``steps``) whose steps come from ``system``, ``user`` or ``agent``.
The folder (docs/export-format.md, "ATIF trajectories"):

```
DIR/
  manifest.json        format, schema version, counts
  <episode uuid>.json  one trajectory per episode
  images/<hash>.png    every frame a trajectory shows, once, referred to by relative path
```

An episode maps onto ATIF so that its actions and what they did read back exactly:

- step 1, ``system``: the task (game, level, setting, budget);
- step 2, ``user``: the start position, as text and the start frame;
- one ``agent`` step per decision: ``message`` is what the player sent (the model's whole reply,
  a person's key or click), ``reasoning_content`` a model's separate reasoning, one tool call
  ``act`` per action (``arguments.action`` is the canonical action text), and one observation
  result per recorded step (what it did, and the frame after it); ``metrics`` hold the
  decision's tokens (``cost`` goes to ``metrics.extra``: a profile's currency is not always USD);
- a last ``system`` step saying how the episode ended.

Everything ATIF has no field for (state hashes, validity, rewards, think time, scores) is kept
in the ``extra`` objects the RFC provides.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import groupby
from pathlib import Path
from typing import Any

from playbench.app import __version__
from playbench.app.exports.walk import EpisodeData, episode_groups, frames_shown
from playbench.db.steps import StoredStep
from playbench.db.store import Store

SCHEMA_VERSION = "ATIF-v1.6"
TOOL = "act"
"""The one tool every agent step calls: play an action."""


@dataclass
class AtifReport:
    trajectories: int = 0
    steps: int = 0
    images: int = 0


def _utc(moment: datetime) -> str:
    """ISO 8601 with its zone; the database keeps UTC times without one."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.isoformat().replace("+00:00", "Z")


def _image(digest: str | None) -> list[dict[str, Any]]:
    if not digest:
        return []
    return [{"type": "image", "source": {"media_type": "image/png",
                                         "path": f"images/{digest}.png"}}]


def _text(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def _outcome(s: StoredStep) -> str:
    if not s.valid:
        kind = f" ({s.invalid_kind})" if s.invalid_kind else ""
        return f"not applied{kind}: {s.invalid_reason or 'no reason given'}"
    moved = "the state changed" if s.changed else "the state did not change"
    return f"applied; {moved}; reward {s.reward:g}"


def _agent_step(step_id: int, decision: list[StoredStep], model: str | None
                ) -> dict[str, Any]:
    first = decision[0]
    calls, results = [], []
    for s in decision:
        call_id = f"step-{s.index}"
        result: dict[str, Any] = {"content": [_text(_outcome(s)), *_image(s.frame)]}
        if s.action is not None:
            calls.append({"tool_call_id": call_id, "function_name": TOOL,
                          "arguments": {"action": s.action}})
            result = {"source_call_id": call_id, **result}
        results.append(result)
    out: dict[str, Any] = {"step_id": step_id, "source": "agent", "message": first.raw}
    if model:
        out["model_name"] = model
    reasoning = first.info.get("reasoning")
    if isinstance(reasoning, str) and reasoning:
        out["reasoning_content"] = reasoning
    if calls:
        out["tool_calls"] = calls
    out["observation"] = {"results": results}
    prompt = sum(s.prompt_tokens for s in decision)
    completion = sum(s.completion_tokens for s in decision)
    cost = sum(s.cost for s in decision)
    if prompt or completion or cost:
        out["metrics"] = {"prompt_tokens": prompt, "completion_tokens": completion,
                          "extra": {"cost": cost,
                                    "latency_ms": max(s.latency_ms or 0.0 for s in decision)}}
    out["extra"] = {
        "decision": first.decision, "think_ms": first.think_ms,
        "steps": [{"index": s.index, "action": s.action, "valid": s.valid,
                   "invalid_kind": s.invalid_kind, "invalid_reason": s.invalid_reason,
                   "changed": s.changed, "reward": s.reward, "state_hash": s.state_hash,
                   "frame": s.frame,
                   "info": {k: v for k, v in s.info.items() if k != "reasoning"}}
                  for s in decision]}
    return out


def trajectory(ep: EpisodeData) -> dict[str, Any]:
    """The ATIF trajectory (a JSON object) of one episode."""
    e, t, p = ep.row.episode, ep.row.task, ep.row.participant
    model = p.details.get("model") if p.kind == "model" else None
    model = model if isinstance(model, str) and model else None
    title = f" ({t.title})" if t.title else ""
    steps: list[dict[str, Any]] = [
        {"step_id": 1, "source": "system",
         "message": (f"Task: {t.game} level {t.level_number}{title}, setting "
                     f"{e.setting or 'default'}. Budget: "
                     f"{json.dumps(e.budget, sort_keys=True)}."),
         "extra": {"level": {"hash": t.level_hash, "text": t.level_text,
                             "number": t.level_number, "title": t.title,
                             "source": t.source},
                   "rules": e.rules, "budget": e.budget, "seed": e.seed}},
        {"step_id": 2, "source": "user",
         "message": [_text("The start position."), *_image(e.start_frame)],
         "extra": {"start_state": e.start_state}},
    ]
    if e.started is not None:
        steps[1]["timestamp"] = _utc(e.started)
    for _, group in groupby(ep.steps, key=lambda s: s.decision):
        steps.append(_agent_step(len(steps) + 1, list(group), model))
    ending = f"The episode ended: {e.end_reason}." if e.end_reason else \
        f"The episode is {e.status}."
    closing: dict[str, Any] = {"step_id": len(steps) + 1, "source": "system",
                               "message": ending,
                               "extra": {"status": e.status, "end_reason": e.end_reason,
                                         "scores": ep.row.scores}}
    if e.ended is not None:
        closing["timestamp"] = _utc(e.ended)
    steps.append(closing)
    agent: dict[str, Any] = {"name": p.name, "version": __version__,
                             "extra": {"kind": p.kind, "player": e.player,
                                       "details": p.details}}
    if model:
        agent["model_name"] = model
    return {
        "schema_version": SCHEMA_VERSION,
        "session_id": e.uid,
        "agent": agent,
        "steps": steps,
        "notes": "Recorded by PlayBench; one agent step per decision, one tool call per action "
                 "(docs/export-format.md, 'ATIF trajectories').",
        "final_metrics": {
            "total_prompt_tokens": sum(s.prompt_tokens for s in ep.steps),
            "total_completion_tokens": sum(s.completion_tokens for s in ep.steps),
            "total_steps": len(steps),
            "extra": {"actions": len(ep.steps), "cost": sum(s.cost for s in ep.steps),
                      "scores": ep.row.scores}},
        "extra": {"playbench": {
            "episode": e.uid, "local_id": e.id,
            "participant": {"kind": p.kind, "name": p.name},
            "game": t.game, "level_hash": t.level_hash, "setting": e.setting,
            "study": ep.study_uid, "practice": bool(e.practice), "seed": e.seed,
            "status": e.status, "end_reason": e.end_reason,
            "started": e.started and _utc(e.started), "ended": e.ended and _utc(e.ended),
            "meta": e.meta}},
    }


def _episodes(store: Store, ids: Sequence[int], images: Path, written: set[str]
              ) -> Iterator[EpisodeData]:
    for group in episode_groups(store, ids, skip_frames=written):
        for digest, png in group.frames.items():
            (images / f"{digest}.png").write_bytes(png)
            written.add(digest)
        for ep in group.episodes:
            missing = frames_shown(ep) - written
            if missing:
                raise FileNotFoundError(f"episode {ep.row.episode.id} shows frame "
                                        f"{sorted(missing)[0]}, which is not in the database")
            yield ep


def export_atif(store: Store, out: Path, episode_ids: Sequence[int],
                progress: Callable[[int], None] | None = None) -> AtifReport:
    """Write one trajectory per episode of ``episode_ids``, their images and a manifest to
    ``out``; ``progress`` is told how many trajectories are written so far."""
    images = out / "images"
    images.mkdir(parents=True, exist_ok=True)
    report = AtifReport()
    written: set[str] = set()
    for ep in _episodes(store, episode_ids, images, written):
        doc = trajectory(ep)
        (out / f"{ep.row.episode.uid}.json").write_text(
            json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        report.trajectories += 1
        report.steps += len(ep.steps)
        if progress is not None:
            progress(report.trajectories)
    report.images = len(written)
    manifest = {"format": "atif", "schema_version": SCHEMA_VERSION, "playbench": __version__,
                "trajectories": report.trajectories, "actions": report.steps,
                "images": report.images}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return report
