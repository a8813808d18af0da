"""What the offline endpoint answers: the solver's plan (oracle), random moves, or recorded
replies. Policies give canonical moves (formatted by the protocol) or a verbatim reply.

Web tasks (hints with a ``web`` part) need no position: the oracle replays the reference
trajectory's next action the client put in the hint, random play picks an action on the hinted
page (``playbench.app.agents.serve.web``), and recorded replies are found as for board games.
"""

from __future__ import annotations

import json
import random
import threading
from pathlib import Path
from typing import Any, Protocol

from playbench.app.agents.hints import Hint
from playbench.app.agents.protocols.base import Reply, ToolCall
from playbench.app.agents.serve.position import PlanCache, Position, random_moves
from playbench.app.agents.serve.web import oracle_moves, random_web_action
from playbench.games.kind import Registry, default_registry, demo_policies

Answer = list[str] | Reply
RANDOM_PLAN = 8
"""Length of a random one-step plan (ING-VP's levels are 8 moves from the goal)."""


class Policy(Protocol):
    name: str
    needs_position: bool

    def answer(self, pos: Position | None, hint: Hint, rng: random.Random) -> Answer: ...


class OraclePolicy:
    """The solver's optimal move (one-step settings: the whole plan). From a position with no
    solution it goes back with undo where the setting allows it, else plays a random move."""

    name = "oracle"
    needs_position = True

    def __init__(self, cache: PlanCache | None = None) -> None:
        self.cache = cache or PlanCache()

    def answer(self, pos: Position | None, hint: Hint, rng: random.Random) -> Answer:
        if hint.web is not None:
            return oracle_moves(hint.web)
        assert pos is not None
        one_step = pos.setting.one_step
        plan = self.cache.plan(pos)
        if plan:
            return plan if one_step else plan[:1]
        if plan is None and pos.undo:
            for k in range(len(pos.snapshots) - 2, -1, -1):
                if self.cache.plan(pos, pos.snapshots[k]):
                    return [f"undo {k}"]
        return random_moves(pos, rng, RANDOM_PLAN if one_step else 1)


class RandomPolicy:
    """A uniformly random move from the game's vocabulary (legal or not)."""

    name = "random"
    needs_position = True

    def answer(self, pos: Position | None, hint: Hint, rng: random.Random) -> Answer:
        if hint.web is not None:
            return [random_web_action(hint.web, rng)]
        assert pos is not None
        return random_moves(pos, rng, RANDOM_PLAN if pos.setting.one_step else 1)


class ReplayError(ValueError):
    """A replay file that cannot be read; the message names the file and line."""


def _reply(obj: Any, where: str) -> Reply:
    if isinstance(obj, str):
        return Reply(obj)
    if not isinstance(obj, dict):
        raise ReplayError(f"{where}: expected a string or an object with \"content\"")
    calls = []
    for i, c in enumerate(obj.get("tool_calls") or []):
        if not isinstance(c, dict) or not isinstance(c.get("name"), str):
            raise ReplayError(f"{where}: tool call {i} needs a \"name\"")
        args = c.get("arguments", "")
        calls.append(ToolCall(f"call_{i}", c["name"],
                              args if isinstance(args, str) else json.dumps(args)))
    content = obj.get("content", obj.get("reply", obj.get("raw", "")))
    if not isinstance(content, str):
        raise ReplayError(f"{where}: \"content\" must be a string")
    return Reply(content, tuple(calls))


class ReplayPolicy:
    """Recorded replies. A JSONL file of replies (strings, or objects with ``content`` and
    optional ``tool_calls``, ``level_hash`` and ``decision``), or a ``playbench export``
    directory (each model episode's replies, by level and decision). Keyed replies answer the
    matching request; the others are handed out in order."""

    name = "replay"
    needs_position = False

    def __init__(self, keyed: dict[tuple[str, int], Reply], ordered: list[Reply]) -> None:
        self.keyed = keyed
        self.ordered = ordered
        self._next = 0
        self._lock = threading.Lock()

    @classmethod
    def load(cls, path: Path) -> ReplayPolicy:
        path = Path(path)
        if path.is_dir():
            return cls._from_export(path)
        keyed: dict[tuple[str, int], Reply] = {}
        ordered: list[Reply] = []
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as err:
            raise ReplayError(f"{path}: cannot read ({err})") from None
        for n, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except ValueError as err:
                raise ReplayError(f"{path}:{n}: not JSON ({err})") from None
            reply = _reply(obj, f"{path}:{n}")
            if isinstance(obj, dict) and "level_hash" in obj and "decision" in obj:
                keyed[(str(obj["level_hash"]), int(obj["decision"]))] = reply
            else:
                ordered.append(reply)
        if not keyed and not ordered:
            raise ReplayError(f"{path}: no replies in the file")
        return cls(keyed, ordered)

    @classmethod
    def _from_export(cls, path: Path) -> ReplayPolicy:
        try:
            episodes = [json.loads(x) for x in
                        (path / "episodes.jsonl").read_text(encoding="utf-8").splitlines() if x]
            steps = [json.loads(x) for x in
                     (path / "steps.jsonl").read_text(encoding="utf-8").splitlines() if x]
        except (OSError, ValueError) as err:
            raise ReplayError(f"{path}: not a playbench export ({err})") from None
        level_of = {e["id"]: e["level"]["hash"] for e in episodes
                    if e.get("participant", {}).get("kind") == "model"}
        keyed: dict[tuple[str, int], Reply] = {}
        for s in steps:
            level = level_of.get(s.get("episode"))
            key = (level, int(s.get("decision", 0))) if level else None
            if key and key not in keyed and s.get("raw"):
                keyed[key] = Reply(s["raw"])
        if not keyed:
            raise ReplayError(f"{path}: the export holds no model replies")
        return cls(keyed, [])

    def answer(self, pos: Position | None, hint: Hint, rng: random.Random) -> Answer:
        reply = self.keyed.get((hint.level_hash, hint.decision))
        if reply is not None:
            return reply
        with self._lock:
            if self._next >= len(self.ordered):
                return Reply("(no recorded reply left)")
            reply = self.ordered[self._next]
            self._next += 1
        return reply


class ScriptedPolicy:
    """A kind's own scripted demo play (its ``demo_moves``; browser games cycle the game
    YAML's ``demo_policy``). The server asks the kind before this answers: a kind without
    a script gets a reply saying so."""

    name = "scripted"
    needs_position = False

    def answer(self, pos: Position | None, hint: Hint, rng: random.Random) -> Answer:
        return Reply(f"serve-model (scripted) has no script for {hint.game or 'this'} tasks; "
                     "use --policy oracle or random")


def make_policy(spec: str) -> Policy:
    """``oracle``, ``random``, ``scripted`` or ``replay:FILE``."""
    if spec == "oracle":
        return OraclePolicy()
    if spec == "random":
        return RandomPolicy()
    if spec == "scripted":
        return ScriptedPolicy()
    if spec.startswith("replay:") and spec[7:]:
        return ReplayPolicy.load(Path(spec[7:]))
    offered = kind_policy(spec)
    if offered is not None:
        return offered
    raise ValueError(f"unknown policy {spec!r} (oracle, random, scripted, replay:FILE or "
                     f"KIND:NAME)")


def kind_policy(spec: str, kinds: Registry | None = None) -> Policy | None:
    """``KIND:NAME``: an offline player the task kind offers (e.g. ``football:scripted``; a
    kind implementing ``games.capabilities.DemoPolicies``); None when ``spec`` names no
    kind."""
    kind_name, _, name = spec.partition(":")
    registry = kinds if kinds is not None else default_registry()
    if not name or kind_name not in registry:
        return None
    policies: dict[str, Policy] = dict(demo_policies(registry.get(kind_name)))
    if name not in policies:
        raise ValueError(f"{kind_name} offers no policy {name!r} (it offers: "
                         f"{', '.join(policies) or 'none'})")
    return policies[name]
