"""What the "Answer a harness" view shows and sends, without Qt.

An outside harness's chat request (``playbench.app.harness.queue.PendingRequest``) is shown to
the person as the model would get it: the system prompt, then each message of the conversation
with its images in place, then the tools offered. :func:`conversation` lays the messages out
as :class:`Turn` values (role, text, which of the request's images belong to it, the tool
calls an assistant message made); :func:`queue_line` is one row of the waiting queue.

The answer is either text or a tool call built with the form of
``playbench.app.ui.models.tool_form``;
:func:`compose` turns what the person entered into a ``Reply``, or into the messages that say
why nothing can be sent yet - an empty answer is never sent.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from playbench.app.harness.queue import PendingRequest, Reply, ToolCall, ToolSpec, message_text
from playbench.app.harness.shown import safe_text
from playbench.app.ui.models.tool_form import Raw, ToolForm, tool_form

TEXT, TOOL = "text", "tool"
"""The two ways to answer."""


@dataclass(frozen=True)
class Turn:
    """One message of the conversation as the view shows it."""

    role: str
    text: str
    images: tuple[int, ...] = ()
    """Indexes into the request's ``images`` that this message carries, in order."""
    calls: tuple[str, ...] = ()
    """The tool calls an assistant message made, as ``name {arguments}``."""
    note: str = ""
    """Extra context: which call a tool message answers, a name."""


def conversation(request: PendingRequest) -> list[Turn]:
    """Every message except the system ones (shown apart, as the system prompt), in order."""
    turns: list[Turn] = []
    for i, message in enumerate(request.messages):
        role = str(message.get("role") or "?")
        if role in ("system", "developer"):
            continue
        images = tuple(n for n, img in enumerate(request.images) if img.message == i)
        calls = tuple(_call_text(c) for c in message.get("tool_calls") or ()
                      if isinstance(c, Mapping))
        note = ""
        if role == "tool" and message.get("tool_call_id"):
            note = f"for call {message['tool_call_id']}"
        elif message.get("name"):
            note = str(message["name"])
        turns.append(Turn(safe_text(role), safe_text(message_text(message)), images,
                          tuple(safe_text(c) for c in calls), safe_text(note)))
    return turns


def _call_text(call: Mapping[str, Any]) -> str:
    fn = call.get("function")
    fn = fn if isinstance(fn, Mapping) else {}
    return f"{fn.get('name', '?')} {fn.get('arguments', '')}".strip()


def waited(seconds: float) -> str:
    """A waiting time the way a person reads it: ``8 s``, ``2 min 05 s``, ``1 h 03 min``."""
    s = max(0, int(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"


def queue_line(request: PendingRequest, now: float) -> str:
    """One row of the queue, two lines: harness and task, then how long the request has
    waited (``now`` on the same monotonic clock as the request's arrival)."""
    return (f"{safe_text(request.harness)} · task {safe_text(request.task_id)}\n"
            f"waiting {waited(now - request.arrived_monotonic)}")


def tool_summary(tool: ToolSpec) -> str:
    """A tool as the offered-tools list shows it: name, description, argument names."""
    props = tool.parameters.get("properties") if isinstance(tool.parameters, Mapping) else None
    names = ", ".join(props) if isinstance(props, Mapping) else ""
    head = f"{tool.name}({names})"
    return safe_text(f"{head} - {tool.description}" if tool.description else head)


def tool_schema_text(tool: ToolSpec) -> str:
    """The tool's parameter schema as indented JSON, exactly what the model would read."""
    return safe_text(json.dumps(dict(tool.parameters), indent=2, ensure_ascii=False))


def form_for(tool: ToolSpec) -> ToolForm:
    """The tool-call form of one offered tool."""
    return tool_form({"name": tool.name, "description": tool.description,
                      "parameters": dict(tool.parameters)})


def compose(mode: str, text: str, form: ToolForm | None,
            raw: Mapping[str, Raw]) -> tuple[Reply | None, list[str]]:
    """The reply the person built, or ``None`` and what is missing.

    In text mode the text is the answer (an empty or blank text is refused, so a stray click
    never sends an empty reply). In tool mode the form's values must pass its checks; the text,
    if any, is sent beside the call, as a model's content may accompany its tool call.
    """
    if mode == TEXT:
        if not text.strip():
            return None, ["Write an answer first (or switch to a tool call)."]
        return Reply(text=text), []
    if form is None:
        return None, ["Choose the tool to call."]
    arguments, problems = form.check(raw)
    if arguments is None:
        return None, problems
    return Reply(text=text.strip() and text, tool_call=ToolCall(form.name, arguments)), []


def choose_next(pending: Sequence[PendingRequest], current: int | None) -> int | None:
    """Which request to show: the one shown so far while it still waits, else the oldest."""
    ids = [r.id for r in pending]
    if current in ids:
        return current
    return ids[0] if ids else None
