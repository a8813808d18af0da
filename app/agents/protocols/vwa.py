"""VisualWebArena's protocol for web tasks: a system text, three worked examples, one user turn;
the reply reasons, then names one action in triple backticks after the summary sentence.

Facts (docs/reference/web.md, VWA): the request is a system prompt, three in-context
examples and one user turn holding the page (Set-of-Marks ``[id] [tag] [text]`` list, and in
the Set-of-Marks setting the screenshot with the marks drawn), the URL, the open tabs, the
objective and only the previous action; the text observation is cut at 3840 tokens. The reply
ends with "In summary, the next action I will perform is" and the action in triple backticks;
VWA's reader takes the first fenced span anywhere in the reply, whatever precedes it
(``playbench.games.browser.actions.extract_action``). An unreadable reply is a no-op step. Sampling:
temperature 1.0, top_p 0.9.

Ours, not VWA's: the examples are ordinary user/assistant turns (VWA sends them as named system
messages) and carry no screenshots; the text and the examples are written for PlayBench's own
site; a failed action's reason is shown under the previous action; ``click_at`` (a person's
coordinate click) is refused as outside the model's vocabulary.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
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
from playbench.app.agents.templates import TemplateProblem, Templates
from playbench.app.core.settings import Setting
from playbench.app.core.types import Invalid
from playbench.games.base import MoveError
from playbench.games.browser.actions import (
    COORDINATE_ACTION,
    SUMMARY_PHRASE,
    action_name,
    extract_action,
)

OBSERVATION_TOKENS = 3840
"""VWA cuts the text observation at 3840 tokens (web.md)."""
CHARS_PER_TOKEN = 4
OBSERVATION_CHARS = OBSERVATION_TOKENS * CHARS_PER_TOKEN
"""Longest Set-of-Marks list shown (characters; 4 per token, the estimate used for budgets)."""
REASONING_CHARS = 2000
SAMPLING = {"temperature": 1.0, "top_p": 0.9}
"""VWA's sampling for GPT models (web.md); a profile's own values win."""

_FENCE = "```"


def cut_page(text: str, limit: int = OBSERVATION_CHARS) -> str:
    """The page list cut to ``limit`` characters at a line end, with a last line saying how
    many lines were left out."""
    if len(text) <= limit:
        return text
    lines = text.split("\n")
    kept: list[str] = []
    used = 0
    for line in lines:
        if used + len(line) + 1 > limit:
            break
        kept.append(line)
        used += len(line) + 1
    if not kept:  # one enormous line: cut inside it
        kept, rest = [lines[0][:limit]], len(lines) - 1
    else:
        rest = len(lines) - len(kept)
    return "\n".join(kept) + f"\n(... {rest} more line{'' if rest == 1 else 's'} not shown)"


def previous_action(turn: Turn) -> str:
    """The last step's action as the user turn names it (VWA keeps only that one)."""
    if not turn.history:
        return "None"
    last = turn.history[-1]
    return last.action if last.action is not None else "(the last reply held no readable action)"


class Vwa:
    """``vwa:som``, ``vwa:text`` (and ``default`` for web tasks, shown as ``vwa:som``)."""

    family = "vwa"
    takes_study_instructions = False

    def __init__(self, templates: Templates, image_detail: str | None = None,
                 observation_chars: int = OBSERVATION_CHARS) -> None:
        self.templates = templates
        self.image_detail = image_detail
        self.observation_chars = observation_chars
        self._examples: list[dict[str, Any]] | None = None

    # -- requests -------------------------------------------------------------------------

    def examples(self) -> list[dict[str, Any]]:
        """The worked examples (``vwa/examples.json``, overridable like any template)."""
        if self._examples is None:
            text = self.templates.render("vwa/examples.json")
            try:
                items = json.loads(text)
            except ValueError as err:
                raise TemplateProblem(
                    f"prompt template vwa/examples.json: not JSON ({err})") from err
            if not isinstance(items, list) or not all(
                    isinstance(i, dict) and isinstance(i.get("reply"), str) for i in items):
                raise TemplateProblem("prompt template vwa/examples.json: expected a list of "
                                      "objects, each with a \"reply\"")
            self._examples = items
        return self._examples

    def _user(self, values: Mapping[str, Any]) -> str:
        base: dict[str, Any] = dict(images=[], unseen_images=0, tabs=[], page="", url="",
                                    objective="", previous="None", feedback=None)
        base.update(values)
        return self.templates.render("vwa/user.j2", **base)

    def build(self, turn: Turn) -> Prompt:
        show_image = turn.setting.observation != "text"
        info = turn.observation.info or {}
        frame = turn.observation.frame
        pictures = [p for p in (info.get("input_images") or []) if p is not None]
        images: list[Any] = []
        labels: list[str] = []
        if show_image and frame is not None:
            images.append(frame)
            labels.append("the current page, numbered items outlined")
            images += pictures
            labels += [f"picture {i + 1} given with the task" for i in range(len(pictures))]
        values = dict(
            images=labels, unseen_images=0 if show_image else len(pictures),
            tabs=list(info.get("tabs") or []),
            page=cut_page(turn.observation.text or "", self.observation_chars),
            url=info.get("url", ""), objective=info.get("intent", ""),
            previous=previous_action(turn), feedback=turn.feedback)
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": self.templates.render("vwa/system.j2",
                                                                image=show_image)}]
        for ex in self.examples():
            shown = {k: v for k, v in ex.items() if k not in ("reply", "note")}
            messages.append({"role": "user", "content": self._user(shown)})
            messages.append({"role": "assistant", "content": ex["reply"]})
        user = self._user(values)
        content: Any = user
        if images:
            content = [text_part(user)] + [image_part(turn.image_url(i), self.image_detail)
                                           for i in images]
        messages.append({"role": "user", "content": content})
        return Prompt(messages, params=dict(SAMPLING))

    # -- replies --------------------------------------------------------------------------

    def parse(self, reply: Reply, game: str, setting: Setting, read: Reader) -> Parsed:
        text = reply.content or ""
        if not text.strip():
            what = "a tool call instead of a text answer" if reply.tool_calls else "an empty reply"
            return Parsed.invalid("no_action", what, reply.raw)
        reasoning = reasoning_of(text)
        found = action_text(text)
        if isinstance(found, Invalid):
            return Parsed((found,), reasoning)
        if action_name(found) == COORDINATE_ACTION:
            return Parsed((Invalid("not_in_vocabulary", f"{COORDINATE_ACTION} is not one of "
                                   "the actions offered; click an element by its id",
                                   text[:200]),), reasoning)
        entry = read_entry(read, found)
        if isinstance(entry, Invalid):
            entry = Invalid(entry.kind, entry.reason, text[:200])
        return Parsed((entry,), reasoning)

    def format_answer(self, moves: Sequence[str], game: str, setting: Setting,
                      note: str = "") -> Reply:
        """A reply in VWA's format naming ``moves[0]``, with ``note`` as its reasoning."""
        note = note or "Let's think step by step. This action follows the reference path."
        return Reply(f"{note} {SUMMARY_PHRASE} {_FENCE}{moves[0]}{_FENCE}")


def action_text(text: str) -> str | Invalid:
    """The fenced action a reply names (VWA's rule), or why there is none."""
    try:
        found = extract_action(text)
    except MoveError:
        at = text.rfind(SUMMARY_PHRASE)
        tail = text[at + len(SUMMARY_PHRASE):] if at >= 0 else text
        if _FENCE in text:
            return Invalid("malformed", "a triple-backtick fence is opened but never closed",
                           text[:200])
        if at >= 0 and tail.strip(" \t\n.:"):
            return Invalid("malformed", "the action after the summary sentence is not inside "
                                        "triple backticks", text[:200])
        return Invalid("no_action", "no action in triple backticks (end with \"In summary, the "
                                    "next action I will perform is ```...```\")", text[:200])
    if not found.strip():
        return Invalid("no_action", "the triple backticks hold no action", text[:200])
    return found


def reasoning_of(text: str) -> str | None:
    """What the model wrote before the summary sentence (or before the first fence)."""
    at = text.rfind(SUMMARY_PHRASE)
    if at < 0:
        at = text.find(_FENCE)
    body = (text[:at] if at >= 0 else text).strip()
    return body[:REASONING_CHARS] or None
