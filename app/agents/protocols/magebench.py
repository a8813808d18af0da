"""MageBench's Sokoban protocol: analyse first, then act under a heading.

Facts (docs/reference/puzzles.md; the MageBench paper, A.2.2 and E.2.1): actions are
``Up Down Left Right``. Global: one request holding the rules, the first frame and the format;
the reply has an "Analyze" part and an "Actions" part listing every action, comma-separated.
Online: a multi-turn chat; the first user turn holds the rules and the format, each assistant
turn is one earlier reply, each later user turn asks to go on; the last AM replies are kept
(standard 5) and only the last OM user turns carry their frame (standard 1), older frames are
replaced by a placeholder text. A reply that cannot be read is re-asked with a format reminder,
and the re-ask counts as a step. Generation [code]: temperature 0.1, top_p 0.95,
frequency_penalty 1.0, max_tokens 300 (online) / 1000 (global).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from playbench.app.agents.protocols.base import (
    Parsed,
    Prompt,
    Reader,
    Reply,
    Turn,
    image_part,
    plan_entries,
    read_entry,
    text_part,
)
from playbench.app.agents.templates import Templates
from playbench.app.core.settings import Setting
from playbench.app.core.types import Action, Invalid

WORDS = {"U": "Up", "D": "Down", "L": "Left", "R": "Right"}

_HEADING = re.compile(
    r"^[ \t#>*_]*(?P<word>analy[sz]e|analysis|actions?)[ \t*_]*(?::(?P<rest>[^\n]*))?[ \t]*$",
    re.IGNORECASE | re.MULTILINE)
_ITEM_SPLIT = re.compile(r"\s*(?:,|;|\n|->|→|\|)\s*")
_STRIP = " \t*_`'\".[](){}<>:!-"
_NUMBERED = re.compile(r"^\d{1,3}[.)]\s*")


@dataclass(frozen=True)
class _Past:
    decision: int
    index: int
    raw: str
    readable: bool
    reason: str | None


def past_decisions(turn: Turn) -> list[_Past]:
    """Earlier decisions in order, each with its reply and whether it could be read."""
    out: list[_Past] = []
    seen: set[int] = set()
    for s in turn.history:
        if s.decision in seen:
            continue
        seen.add(s.decision)
        out.append(_Past(s.decision, s.index, s.raw, s.action is not None, s.reason))
    return out


class MageBench:
    """``magebench:global`` and ``magebench:online`` for Sokoban, and ``magebench:online`` for
    football (whose kind ships its own ``magebench/system.j2`` and ``online.j2``)."""

    family = "magebench"
    takes_study_instructions = False

    def __init__(self, templates: Templates, image_detail: str | None = None,
                 action_memory: int = 5, observation_memory: int = 1) -> None:
        if action_memory < 1 or not 1 <= observation_memory <= action_memory + 1:
            raise ValueError("MageBench memory needs AM >= 1 and 1 <= OM <= AM + 1, got "
                             f"AM={action_memory}, OM={observation_memory}")
        self.templates = templates
        self.image_detail = image_detail
        self.am = action_memory
        self.om = observation_memory

    # -- requests -------------------------------------------------------------------------

    def build(self, turn: Turn) -> Prompt:
        # A kind may ship its own rules and IO part (football: its prompt_dir's magebench/).
        system = self.templates.render("magebench/system.j2", kind=turn.game)
        past = past_decisions(turn)
        if turn.setting.one_step:
            return self._build_global(turn, system, past)
        return self._build_online(turn, system, past)

    def _frame_part(self, turn: Turn, frame: Any) -> dict[str, Any]:
        if frame is None:
            return text_part(self.templates.render("magebench/placeholder.j2"))
        return image_part(turn.image_url(frame), self.image_detail)

    def _reminder(self, past: _Past, one_step: bool) -> str:
        return self.templates.render("magebench/reminder.j2", reason=past.reason or "no action",
                                     one_step=one_step)

    def _build_global(self, turn: Turn, system: str, past: list[_Past]) -> Prompt:
        first = turn.first_frame if turn.first_frame is not None else turn.observation.frame
        parts = [text_part(system), self._frame_part(turn, first),
                 text_part(self.templates.render("magebench/global.j2"))]
        if past and not past[-1].readable:
            parts.append(text_part(self._reminder(past[-1], True)))
        return Prompt([{"role": "user", "content": parts}], params=dict(
            temperature=0.1, top_p=0.95, frequency_penalty=1.0, max_tokens=1000))

    def _build_online(self, turn: Turn, system: str, past: list[_Past]) -> Prompt:
        window = past[-self.am:]
        # Frames seen before each decision in the window, then the current one.
        frames = [turn.frames.get(p.decision) for p in window] + [turn.observation.frame]
        show = set(range(len(frames) - self.om, len(frames)))
        io = self.templates.render("magebench/online.j2", kind=turn.game)

        def frame(i: int) -> dict[str, Any]:
            return self._frame_part(turn, frames[i] if i in show else None)

        messages: list[dict[str, Any]] = [
            {"role": "user", "content": [text_part(system), frame(0), text_part(io)]}]
        for i, p in enumerate(window):
            messages.append({"role": "assistant", "content": p.raw or "(empty reply)"})
            ask = (self._reminder(p, False) if not p.readable
                   else self.templates.render("magebench/next.j2"))
            messages.append({"role": "user", "content": [text_part(ask), frame(i + 1)]})
        return Prompt(messages, params=dict(
            temperature=0.1, top_p=0.95, frequency_penalty=1.0, max_tokens=300))

    # -- replies --------------------------------------------------------------------------

    def parse(self, reply: Reply, game: str, setting: Setting, read: Reader) -> Parsed:
        text = reply.content or ""
        if not text.strip():
            what = "a tool call instead of a text answer" if reply.tool_calls else "an empty reply"
            return Parsed.invalid("no_action", what, reply.raw)
        reasoning = _analysis(text)
        if setting.one_step:
            parsed = _parse_global(text, read)
        else:
            parsed = _parse_online(text, read)
        return Parsed(parsed.entries, reasoning, parsed.note)

    def format_answer(self, moves: Sequence[str], game: str, setting: Setting,
                      note: str = "") -> Reply:
        note = note or "Following the plan worked out for this position."
        if setting.one_step:
            return Reply(f"Analyze\n{note}\nActions\n" + ", ".join(WORDS[m] for m in moves))
        return Reply(f"analyze\n{note}\naction\n{WORDS.get(moves[0], moves[0])}")


def _headings(text: str, words: tuple[str, ...]) -> list[re.Match[str]]:
    return [m for m in _HEADING.finditer(text) if m.group("word").lower() in words]


def _analysis(text: str) -> str | None:
    heads = list(_HEADING.finditer(text))
    for i, m in enumerate(heads):
        if m.group("word").lower().startswith("analy"):
            end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
            body = ((m.group("rest") or "") + text[m.end():end]).strip()
            return body[:2000] or None
    return None


def _clean(item: str) -> str:
    return _NUMBERED.sub("", item.strip(_STRIP)).strip(_STRIP)


def _tokens(read: Reader, item: str) -> list[Action] | None:
    """The item's words as actions when every word is one (``Up Up Left``), else None."""
    words = [w.strip(_STRIP) for w in item.split()]
    words = [w for w in words if w]
    if not words:
        return None
    acts = [read_entry(read, w) for w in words]
    return [a for a in acts if isinstance(a, Action)] if all(
        isinstance(a, Action) for a in acts) else None


def _parse_global(text: str, read: Reader) -> Parsed:
    heads = _headings(text, ("actions", "action"))
    if not heads:
        acts = _tokens(read, " ".join(_ITEM_SPLIT.split(text.strip())))
        if acts:
            return plan_entries(read, [a.text for a in acts])
        return Parsed.invalid("no_action", "no 'Actions' heading with a list of actions", text)
    m = heads[-1]
    lines = ((m.group("rest") or "") + "\n" + text[m.end():]).split("\n")
    items: list[str] = []
    for line in lines:
        if _HEADING.match(line):
            break
        if not line.strip(_STRIP):
            if items:
                break
            continue
        items.extend(p for p in (_clean(x) for x in _ITEM_SPLIT.split(line)) if p)
    if not items:
        return Parsed.invalid("no_action", "the 'Actions' part lists no action", text)
    texts: list[str] = []
    for item in items:
        acts = _tokens(read, item)
        # An item that is not all actions stays one entry, read (and refused) as a whole.
        texts.extend([a.text for a in acts] if acts is not None else [item])
    return plan_entries(read, texts)


def _parse_online(text: str, read: Reader) -> Parsed:
    heads = _headings(text, ("action", "actions"))
    if not heads:
        acts = _tokens(read, text.strip())
        if acts and len(acts) == 1:
            return Parsed((acts[0],))
        return Parsed.invalid("no_action", "no 'action' heading followed by an action", text)
    m = heads[-1]
    answer = (m.group("rest") or "").strip(_STRIP)
    if not answer:
        for line in text[m.end():].split("\n"):
            if line.strip(_STRIP):
                answer = line
                break
    if not answer.strip(_STRIP):
        return Parsed.invalid("no_action", "nothing follows the 'action' heading", text)
    items = [p for p in (_clean(x) for x in _ITEM_SPLIT.split(answer)) if p]
    words = [w for item in items for w in item.split()]
    if len(words) > 1:
        acts = _tokens(read, " ".join(words))
        if acts is not None:
            return Parsed.invalid("malformed", f"one action per reply, got {len(acts)}", text)
        return Parsed.invalid("not_in_vocabulary" if len(words) < 4 else "malformed",
                              f"{answer.strip()[:40]!r} is not one action",
                              text)
    if not words:
        return Parsed.invalid("no_action", "nothing follows the 'action' heading", text)
    entry = read_entry(read, words[0])
    if isinstance(entry, Invalid):
        return Parsed((Invalid(entry.kind, entry.reason, text[:200]),))
    return Parsed((entry,))
