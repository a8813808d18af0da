"""ING-VP's protocol: one fresh request per call, JSON answers ``{"output": ...}``.

Facts (docs/reference/puzzles.md, ING-VP): each call is a system message plus one user
message holding the instruction and either the current image or the text encoding; the history
settings paste the earlier outputs as ``step n: <output>`` lines and allow undo with
``{"output": N}`` in Sokoban, 8-queens and Sudoku; the one-step settings show only the first
observation and take the whole action list in one answer; temperature 0.

The prompts ask for valid JSON. The parser also reads the shapes the paper's own prompts
produce (``{"output": "03": 5}``, ``"output": "L"`` without braces, list-wrapped Sudoku moves),
single quotes, fences and prose around the answer; it never chooses between two different
answers.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from playbench.app.agents.parsing import bare_answer, find_keyed, same_value, short, strip_fences
from playbench.app.agents.protocols.base import (
    Parsed,
    Prompt,
    Reader,
    Reply,
    Turn,
    image_part,
    plan_entries,
    text_part,
)
from playbench.app.agents.protocols.games import answers_for
from playbench.app.agents.templates import Templates
from playbench.app.core.settings import Setting
from playbench.app.core.types import Invalid

HISTORY_CHARS = 300
"""Longest earlier output pasted into a history line (longer ones are cut, marked with ...)."""


def history_lines(turn: Turn) -> list[tuple[int, str]]:
    """(step number, earlier output) for each earlier decision, numbered so that ``undo N``
    returns to the state right after step N."""
    lines: list[tuple[int, str]] = []
    seen: set[int] = set()
    for past in turn.history:
        if past.decision in seen:
            continue
        seen.add(past.decision)
        text = " ".join(past.raw.split())
        if len(text) > HISTORY_CHARS:
            text = text[:HISTORY_CHARS] + "..."
        lines.append((past.index + 1, text or "(empty reply)"))
    return lines


class IngVP:
    """ING-VP's six settings (and ``default``, which shows both the image and the text)."""

    family = "ingvp"
    takes_study_instructions = False

    def __init__(self, templates: Templates, image_detail: str | None = None) -> None:
        self.templates = templates
        self.image_detail = image_detail

    def build(self, turn: Turn) -> Prompt:
        setting = turn.setting
        obs = setting.observation
        values = dict(game=turn.game, obs=obs, one_step=setting.one_step,
                      history=setting.history, undo=turn.undo, options=dict(turn.options),
                      board=turn.observation.text,
                      history_lines=history_lines(turn) if setting.history else [])
        system = self.templates.render("ingvp/system.j2", kind=turn.game, **values)
        user = self.templates.render("ingvp/user.j2", kind=turn.game, **values)
        frame = turn.observation.frame
        if obs != "text" and frame is not None:
            content: Any = [text_part(user), image_part(turn.image_url(frame), self.image_detail)]
        else:
            content = user
        return Prompt([{"role": "system", "content": system},
                       {"role": "user", "content": content}],
                      params={"temperature": 0.0})

    def parse(self, reply: Reply, game: str, setting: Setting, read: Reader) -> Parsed:
        text = reply.content or ""
        if not text.strip():
            what = "a tool call instead of a JSON answer" if reply.tool_calls else "an empty reply"
            return Parsed.invalid("no_action", what, reply.raw)
        value = answer_value(text)
        if isinstance(value, Invalid):
            return Parsed((value,))
        answers = answers_for(game)
        texts = answers.plan_texts(value) if setting.one_step else answers.single_texts(value)
        if isinstance(texts, Invalid):
            return Parsed((Invalid(texts.kind, texts.reason, text[:200]),))
        return plan_entries(read, texts)

    def format_answer(self, moves: Sequence[str], game: str, setting: Setting,
                      note: str = "") -> Reply:
        if setting.one_step:
            value = answers_for(game).plan_value(moves)
        else:
            value = answers_for(game).move_value(moves[0])
        answer = json.dumps({"output": value})
        return Reply(f"{note}\n{answer}" if note else answer)


def answer_value(text: str) -> Any:
    """The value of the reply's ``"output"`` key, or an :class:`Invalid` saying why there is
    none. Occurrences that cannot be read are ignored when a readable one exists (models often
    restate the format with a placeholder before answering); two different readable answers
    make the reply malformed."""
    body = strip_fences(text)
    found = find_keyed(body, "output")
    if not found:
        value = bare_answer(text)
        if value is None:
            return Invalid("no_action", 'no {"output": ...} answer in the reply', text[:200])
        return value
    readable = [f.value for f in found if f.readable]
    if not readable:
        return Invalid("malformed", f'the "output" value cannot be read ({found[0].value})',
                       text[:200])
    distinct: list[Any] = []
    for v in readable:
        if not any(same_value(v, d) for d in distinct):
            distinct.append(v)
    if len(distinct) > 1:
        shown = ", ".join(short(json.dumps(v), 20) for v in distinct[:3])
        return Invalid("malformed", f"{len(distinct)} different answers in one reply ({shown})",
                       text[:200])
    return distinct[0]
