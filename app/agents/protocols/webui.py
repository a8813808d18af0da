"""The page-writing protocol (MageBench WebUI): a description and target screenshots in, fenced
code blocks out.

Facts (``docs/reference/web.md``, "MageBench WebUI"): the model writes ``index.html`` and
optionally ``style.css`` and ``script.js`` as fenced blocks tagged ``html``, ``css``,
``javascript``. Global: one request with the rules, the task description and the target
screenshots; the one answer is rendered and scored without a preview. Online: a conversation;
the first user turn holds the rules, the task and the targets, each assistant turn is an
earlier answer (its code), each later user turn shows the render of that answer; the last AM
answers are kept (5) and only the last OM renders are shown (1), as MageBench's online agent
kept them. Wording ours (``resources/prompts/webui``). Any kind whose ``protocol_family`` is
``webui`` plays with it; the kind's environment reads the answer (``Reader``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from playbench.app.agents.protocols.base import (
    Parsed,
    Prompt,
    Reader,
    Reply,
    Turn,
    image_part,
    read_entry,
    text_part,
)
from playbench.app.agents.protocols.magebench import past_decisions
from playbench.app.agents.templates import Templates
from playbench.app.core.settings import Setting
from playbench.app.core.types import Invalid


class WebUI:
    """``webui:global`` and ``webui:online`` (and ``default``, as Online)."""

    family = "webui"
    takes_study_instructions = True

    def __init__(self, templates: Templates, image_detail: str | None = None,
                 action_memory: int = 5, observation_memory: int = 1) -> None:
        self.templates = templates
        self.image_detail = image_detail
        self.am = max(1, action_memory)
        self.om = max(1, observation_memory)

    def _image(self, turn: Turn, frame: Any) -> dict[str, Any]:
        if frame is None:
            return text_part(self.templates.render("webui/placeholder.j2"))
        return image_part(turn.image_url(frame), self.image_detail)

    def _task_parts(self, turn: Turn) -> list[dict[str, Any]]:
        """The rules, the task text and the labelled target screenshots."""
        info = turn.observation.info
        targets = list(info.get("targets") or [])
        labels = list(info.get("target_labels") or [])
        text = turn.observation.text.split("\nCurrent implementation:", 1)[0]
        text = text.split("\nYour last submission was rendered", 1)[0]
        parts = [text_part(self.templates.render("webui/system.j2", kind=turn.game)),
                 text_part(text)]
        for i, frame in enumerate(targets):
            label = labels[i] if i < len(labels) else f"state {i + 1}"
            parts += [text_part(f"Target screenshot, {label}:"), self._image(turn, frame)]
        online = not turn.setting.one_step
        parts.append(text_part(self.templates.render(
            "webui/io.j2", kind=turn.game, online=online,
            rounds=turn.setting.budget.max_actions if online else None)))
        return parts

    def build(self, turn: Turn) -> Prompt:
        past = past_decisions(turn)
        params = dict(temperature=0.1, top_p=0.95, max_tokens=4096)
        first = self._task_parts(turn)
        if turn.setting.one_step or not past:
            if past and not past[-1].readable:
                first.append(text_part(self.templates.render(
                    "webui/reminder.j2", kind=turn.game, reason=past[-1].reason or "no code")))
            return Prompt([{"role": "user", "content": first}], params=params)
        window = past[-self.am:]
        messages: list[dict[str, Any]] = [{"role": "user", "content": first}]
        info = turn.observation.info
        for i, p in enumerate(window):
            messages.append({"role": "assistant", "content": p.raw or "(empty reply)"})
            last = i == len(window) - 1
            if not p.readable:
                ask = [text_part(self.templates.render("webui/reminder.j2", kind=turn.game,
                                                       reason=p.reason or "no code"))]
            else:
                shown = i >= len(window) - self.om
                frame = (turn.observation.frame if last
                         else turn.frames.get(window[i + 1].decision))
                ask = [text_part(self.templates.render(
                    "webui/render.j2", kind=turn.game,
                    failure=info.get("failure") if last else None,
                    notes=[], labels="as loaded")), self._image(turn, frame if shown else None)]
            messages.append({"role": "user", "content": ask})
        return Prompt(messages, params=params)

    def parse(self, reply: Reply, game: str, setting: Setting, read: Reader) -> Parsed:
        text = reply.content or ""
        if not text.strip():
            what = "a tool call instead of a text answer" if reply.tool_calls else "an empty reply"
            return Parsed.invalid("no_action", what, reply.raw)
        entry = read_entry(read, text)
        if isinstance(entry, Invalid):  # no usable html block: nothing that is a page
            return Parsed.invalid("no_action", entry.reason, text)
        return Parsed((entry,))

    def format_answer(self, moves: Sequence[str], game: str, setting: Setting,
                      note: str = "") -> Reply:
        """The submission's files as the answer (a canonical submission text already is
        fenced code)."""
        body = "\n\n".join(moves)
        return Reply(f"{note}\n\n{body}" if note else body)


__all__ = ["WebUI"]
