"""Tool-calling protocol: the game's actions offered as function tools, one call per step.

Facts (docs/reference/players.md; the GameWorld paper, sections 2.4.4, D.3 and E.1): each
action is a registered tool; the model must make exactly one tool call per step, with a short
``reasoning`` argument; a reply with no tool call (GameWorld's "no tool call") or a call outside
the registered actions ("out of space") is an invalid, no-op step. Models that write the call as
text, ``<tool_call>{"name": ..., "arguments": {...}}</tool_call>``, are understood too. The prompt
keeps GameWorld's section order (Game Rules, Role and Controls, Task Instruction, Output Format).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from playbench.app.agents.parsing import Unreadable, balanced_end, read_literal
from playbench.app.agents.protocols.base import (
    Parsed,
    Prompt,
    Reader,
    Reply,
    ToolCall,
    Turn,
    image_part,
    read_entry,
    text_part,
)
from playbench.app.agents.protocols.games import answers_for
from playbench.app.agents.templates import Templates
from playbench.app.core.settings import Setting
from playbench.app.core.types import Invalid

_TEXT_CALL = re.compile(r"<tool_call>\s*", re.IGNORECASE)


def tool_schemas(game: str) -> list[dict[str, Any]]:
    """The OpenAI ``tools`` list for a game."""
    return [{"type": "function", "function": {"name": n, "description": d, "parameters": p}}
            for n, d, p in answers_for(game).tool_specs()]


class Tools:
    """``tools:image`` and ``tools:text``."""

    family = "tools"
    takes_study_instructions = True

    def __init__(self, templates: Templates, image_detail: str | None = None,
                 tool_choice: str | None = "auto") -> None:
        self.templates = templates
        self.image_detail = image_detail
        self.tool_choice = tool_choice
        self._schemas: dict[str, list[dict[str, Any]]] = {}

    def build(self, turn: Turn) -> Prompt:
        obs = turn.setting.observation
        info = dict(turn.observation.info or {})
        # A kind whose tools depend on the task (browser games: each game's own controls)
        # puts them in the observation; otherwise they are the kind's fixed ones.
        own = info.get("tool_specs")
        full = own if own is not None else answers_for(turn.game).tool_specs()
        specs = [(n, d) for n, d, _ in full]
        values = dict(game=turn.game, obs=obs, options=dict(turn.options), tools=specs,
                      board=turn.observation.text, feedback=turn.feedback, info=info,
                      history=list(turn.history))
        system = self.templates.render("tools/system.j2", kind=turn.game, **values)
        user = self.templates.render("tools/user.j2", kind=turn.game, **values)
        frame = turn.observation.frame
        content: Any = user
        if obs != "text" and frame is not None:
            content = [text_part(user), *self._memory(turn, int(info.get("memory") or 0)),
                       image_part(turn.image_url(frame), self.image_detail)]
        if own is not None:
            schemas = [{"type": "function", "function": {"name": n, "description": d,
                                                         "parameters": p}} for n, d, p in own]
        else:
            schemas = self._schemas.get(turn.game) or self._schemas.setdefault(
                turn.game, tool_schemas(turn.game))
        params: dict[str, Any] = {"temperature": 0.0}
        if self.tool_choice:
            params["tool_choice"] = self.tool_choice
        return Prompt([{"role": "system", "content": system},
                       {"role": "user", "content": content}], tools=schemas, params=params)

    def _memory(self, turn: Turn, k: int) -> list[dict[str, Any]]:
        """The screenshots of the last ``k`` earlier decisions, oldest first, when the
        observation asks for that much memory (browser games: GameWorld's last k rounds)."""
        if k <= 0:
            return []
        earlier = sorted(d for d in turn.frames if d < turn.decision)[-k:]
        parts: list[dict[str, Any]] = []
        for d in earlier:
            parts += [text_part(f"Screenshot before your decision {d + 1}:"),
                      image_part(turn.image_url(turn.frames[d]), self.image_detail)]
        if parts:
            parts.append(text_part("Screenshot now:"))
        return parts

    def parse(self, reply: Reply, game: str, setting: Setting, read: Reader) -> Parsed:
        calls = list(reply.tool_calls)
        if not calls:
            found = text_calls(reply.content or "")
            if isinstance(found, Invalid):
                return Parsed((found,))
            calls = found
        if not calls:
            return Parsed.invalid("no_action", "no tool call in the reply", reply.raw)
        if len(calls) > 1:
            names = ", ".join(c.name for c in calls[:4])
            return Parsed.invalid("malformed", f"{len(calls)} tool calls ({names}); one per step",
                                  reply.raw)
        call = calls[0]
        args = _arguments(call.arguments)
        if isinstance(args, Invalid):
            return Parsed((Invalid(args.kind, f"{call.name}: {args.reason}", reply.raw[:200]),))
        reasoning = args.get("reasoning")
        reasoning = reasoning.strip()[:2000] if isinstance(reasoning, str) else None
        move = answers_for(game).tool_to_text(call.name, args)
        if isinstance(move, Invalid):
            return Parsed((Invalid(move.kind, move.reason, reply.raw[:200]),), reasoning)
        return Parsed((read_entry(read, move),), reasoning)

    def format_answer(self, moves: Sequence[str], game: str, setting: Setting,
                      note: str = "") -> Reply:
        name, args = answers_for(game).text_to_tool(moves[0])
        args = {**args, "reasoning": note or "This follows the shortest solution from here."}
        return Reply("", (ToolCall("call_0", name, json.dumps(args)),))


def _arguments(text: str) -> dict[str, Any] | Invalid:
    if not text or not text.strip():
        return {}
    value = read_literal(text.strip()) if text.strip()[0] in "{[" else Unreadable("not JSON")
    if isinstance(value, Unreadable):
        return Invalid("malformed", f"the arguments are not JSON ({value})")
    if not isinstance(value, dict):
        return Invalid("malformed", "the arguments are not a JSON object")
    return value


def text_calls(text: str) -> list[ToolCall] | Invalid:
    """Tool calls written as ``<tool_call>{...}</tool_call>`` in the reply text."""
    calls: list[ToolCall] = []
    for m in _TEXT_CALL.finditer(text):
        start = m.end()
        if start >= len(text) or text[start] != "{":
            return Invalid("malformed", "a <tool_call> tag without a JSON object", text[:200])
        end = balanced_end(text, start)
        if end is None:
            return Invalid("malformed", "the <tool_call> object is never closed", text[:200])
        value = read_literal(text[start:end])
        if not isinstance(value, dict) or not isinstance(value.get("name"), str):
            return Invalid("malformed", "a <tool_call> object needs a \"name\"", text[:200])
        args = value.get("arguments", value.get("parameters", {}))
        if isinstance(args, str):
            arg_text = args
        else:
            try:
                arg_text = json.dumps(args)
            except (TypeError, ValueError):
                return Invalid("malformed", "the <tool_call> arguments are not JSON", text[:200])
        calls.append(ToolCall(f"text_{len(calls)}", value["name"], arg_text))
    return calls
