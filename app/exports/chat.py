"""Training data in chat form for behaviour cloning (VisualAgentBench style): each recorded
decision becomes a user turn - the prompt a model would have been sent at that moment, built
by the same prompt protocol (``playbench.app.agents.protocols``) - and an assistant turn that
answers it in the protocol's own format with the actions the player actually took.

The episode is re-played through the loop (same level, seed and actions, checked against the
recorded states), so observations, history lines and feedback are exactly what the player was
shown. Images go to ``images/<hash>.png`` and the messages refer to them by relative path.

Two layouts (docs/studies.md):
- ``per="step"``: one JSON line per decision: the full prompt of that decision plus the answer;
- ``per="episode"``: one line per episode: the first system message, then each decision's last
  user message and the answer; images are kept in the newest user turn only unless
  ``images="all"`` (VAB keeps only the latest image).
``success_only`` keeps solved episodes only. Episodes of kinds that cannot be rebuilt step by
step (``TaskKind.replay``: web tasks on live sites, browser games in real time) are skipped
and counted.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from playbench.app.core.budget import Budget
from playbench.app.core.episode import ReplayMismatch
from playbench.app.core.play import play
from playbench.app.core.png import frame_digest, frame_png
from playbench.app.core.recorder import MemoryRecorder
from playbench.app.core.replay_player import ReplayPlayer
from playbench.app.core.runs import records_of, task_of
from playbench.app.core.settings import get_setting
from playbench.app.core.types import Action, Decision
from playbench.app.results.data import Scope, load_episodes
from playbench.db.store import Store
from playbench.games.kind import KindError, UnknownKind, default_registry

PER = ("episode", "step")
IMAGES = ("latest", "all")


@dataclass
class ChatReport:
    episodes: int = 0
    lines: int = 0
    images: int = 0
    skipped: dict[str, int] = field(default_factory=dict)

    def skip(self, why: str) -> None:
        self.skipped[why] = self.skipped.get(why, 0) + 1


class _ImageFiles:
    """``image_url`` for the protocols: writes each frame once, returns its relative path."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.written: set[str] = set()

    def __call__(self, frame: np.ndarray) -> str:
        digest = frame_digest(frame)
        if digest not in self.written:
            (self.directory / f"{digest}.png").write_bytes(frame_png(frame))
            self.written.add(digest)
        return f"images/{digest}.png"


class _NoCalls:
    """The completer of a player that only builds prompts: calling the model is a bug."""

    async def complete(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a chat export builds prompts; it never calls the model")


class _PromptingReplay:
    """A player that re-sends a recorded episode's decisions and notes, for each one, the
    prompt a model player would have built from the same observation and context."""

    def __init__(self, steps: Sequence[Any], kind: str, name: str, protocols, images) -> None:
        from playbench.app.agents.player import ModelPlayer
        from playbench.app.agents.profiles import ModelProfile
        self.kind, self.name, self.spec = kind, name, "chat-export"
        self.replay = ReplayPlayer(steps, "export")
        profile = ModelProfile(name="chat-export", base_url="http://localhost", model="export")
        self.prompter = ModelPlayer(profile, _NoCalls(), protocols, images)
        self.protocols = protocols
        self.turns: list[tuple[Any, Any, Decision, str, int]] = []

    def details(self) -> dict[str, Any]:
        return {}

    async def act(self, observation, context) -> Decision:
        from playbench.app.agents.protocols import family_of
        family = family_of(context.setting, context.task.game)
        protocol = self.protocols[family]
        prompt = protocol.build(self.prompter.turn(observation, context))
        decision = await self.replay.act(observation, context)
        if not decision.give_up:
            self.turns.append((protocol, prompt, decision, family, context.decision))
        return decision


def _answer(protocol, decision: Decision, game: str, setting) -> dict[str, Any]:
    """The assistant turn: the actions in the protocol's format, or the raw text when the
    decision held nothing readable."""
    moves = [e.text for e in decision.entries if isinstance(e, Action)]
    if not moves or len(moves) != len(decision.entries):
        return {"role": "assistant", "content": decision.raw}
    reply = protocol.format_answer(moves, game, setting)
    message: dict[str, Any] = {"role": "assistant", "content": reply.content or None}
    if reply.tool_calls:
        message["tool_calls"] = [{"id": c.id, "type": "function",
                                  "function": {"name": c.name, "arguments": c.arguments}}
                                 for c in reply.tool_calls]
    return message


def _strip_images(message: dict[str, Any]) -> dict[str, Any]:
    content = message.get("content")
    if not isinstance(content, list):
        return message
    kept = [p for p in content if p.get("type") != "image_url"]
    return {**message, "content": kept if len(kept) != 1 or kept[0].get("type") != "text"
            else kept[0]["text"]}


def _images_of(messages: Sequence[dict[str, Any]]) -> list[str]:
    out = []
    for m in messages:
        if isinstance(m.get("content"), list):
            out += [p["image_url"]["url"] for p in m["content"] if p.get("type") == "image_url"]
    return out


async def _replay(store: Store, episode_id: int, protocols, images: _ImageFiles):
    row = store.episode(episode_id)
    ep = row.episode
    task = task_of(row)
    steps = records_of(store.steps(episode_id))
    player = _PromptingReplay(steps, row.participant.kind, row.participant.name, protocols,
                              images)
    result = await play(task, player, setting=get_setting(ep.setting or "default", task.game),
                        budget=Budget.from_dict(ep.budget), recorder=MemoryRecorder(),
                        seed=ep.seed)
    if [s.state_hash for s in result.steps] != [s.state_hash for s in steps]:
        raise ReplayMismatch(f"episode {episode_id} does not replay to its recorded states")
    return row, player.turns


def _replayable(game: str, setting: str) -> bool:
    """Whether the kind rebuilds an episode of ``setting`` step by step (False for an unknown
    kind)."""
    try:
        return default_registry().get(game).replay.resumes(setting)
    except (UnknownKind, KindError):
        return False


def export_chat(store: Store, out: Path, scope: Scope = Scope(), *, per: str = "episode",
                success_only: bool = False, images: str = "latest") -> ChatReport:
    """Write ``chat.jsonl`` and ``images/`` to ``out``; returns what was written and why
    episodes were skipped. Runs its own event loop: call it from a worker thread (the UI's
    executor), or await :func:`export_chat_async` inside a running loop."""
    return asyncio.run(export_chat_async(store, out, scope, per=per,
                                         success_only=success_only, images=images))


async def export_chat_async(store: Store, out: Path, scope: Scope = Scope(), *,
                            per: str = "episode", success_only: bool = False,
                            images: str = "latest") -> ChatReport:
    """:func:`export_chat` for callers that already run an event loop."""
    if per not in PER or images not in IMAGES:
        raise ValueError(f"per must be one of {PER} and images one of {IMAGES}")
    from playbench.app.agents.protocols import make_protocols
    protocols = make_protocols()
    out.mkdir(parents=True, exist_ok=True)
    (out / "images").mkdir(exist_ok=True)
    files = _ImageFiles(out / "images")
    report = ChatReport()
    with open(out / "chat.jsonl", "w", encoding="utf-8") as f:
        for facts in load_episodes(store, scope).episodes:
            if not _replayable(facts.game, facts.setting):
                report.skip(f"{facts.game} task")  # a live site cannot be replayed
                continue
            if success_only and not facts.is_solved:
                report.skip("not solved")
                continue
            try:
                row, turns = await _replay(store, facts.id, protocols, files)
            except ReplayMismatch:
                report.skip("does not replay")
                continue
            except Exception:  # a bad row (its level cannot start...): skip it, go on
                report.skip("cannot be replayed")
                continue
            if not turns:
                report.skip("no decisions")
                continue
            head = {"episode": row.episode.uid, "game": facts.game,
                    "level_hash": facts.level_hash, "setting": facts.setting,
                    "participant": {"kind": facts.kind, "name": facts.participant},
                    "solved": facts.solved, "scores": row.scores, "protocol": turns[0][3]}
            for line in _lines(turns, head, facts, per, images):
                f.write(json.dumps(line, ensure_ascii=False) + "\n")
                report.lines += 1
            report.episodes += 1
    report.images = len(files.written)
    return report


def _lines(turns, head: dict[str, Any], facts, per: str, images: str):
    setting = get_setting(facts.setting, facts.game)
    tools = turns[0][1].tools
    if per == "step":
        for protocol, prompt, decision, _, number in turns:
            messages = [*prompt.messages, _answer(protocol, decision, facts.game, setting)]
            line = {**head, "id": f"{head['episode']}:{number}", "decision": number,
                    "messages": messages, "images": _images_of(messages)}
            if prompt.tools:
                line["tools"] = prompt.tools
            yield line
        return
    messages = [m for m in turns[0][1].messages if m["role"] == "system"]
    for i, (protocol, prompt, decision, _, _number) in enumerate(turns):
        user = next(m for m in reversed(prompt.messages) if m["role"] == "user")
        if images == "latest" and i < len(turns) - 1:
            user = _strip_images(user)
        messages += [user, _answer(protocol, decision, facts.game, setting)]
    line = {**head, "id": head["episode"], "messages": messages,
            "images": _images_of(messages)}
    if tools:
        line["tools"] = tools
    yield line
