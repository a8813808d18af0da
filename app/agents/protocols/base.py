"""What every prompt protocol shares: the reply and prompt values, the turn a prompt is built
for, and reading one move text into an action without ever raising.

A protocol has three jobs: ``build`` the chat messages for a turn, ``parse`` a reply into
decision entries (each an :class:`~playbench.app.core.types.Action` or an
:class:`~playbench.app.core.types.Invalid`
with its reason), and ``format_answer`` - the inverse of ``parse`` - which the offline endpoint
uses to reply in the protocol's own format.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from playbench.app.core.player import PastStep
from playbench.app.core.settings import Setting
from playbench.app.core.types import Action, Invalid, Observation
from playbench.games.base import MoveError

Reader = Callable[[str], Action]
"""Turns one move text into the game's canonical action (``PlayContext.parse``); raises
``MoveError`` for text that is not a move."""

MAX_PLAN = 1000
"""Entries kept from one reply; a longer plan is cut (and the cut is noted in the decision)."""


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    arguments: str
    """The arguments exactly as the model sent them (a JSON text, possibly broken)."""


@dataclass(frozen=True)
class Reply:
    """What came back from the model: its text and any tool calls."""

    content: str = ""
    tool_calls: tuple[ToolCall, ...] = ()

    @property
    def raw(self) -> str:
        """The whole reply as one text, for the record (tool calls as JSON after the text)."""
        if not self.tool_calls:
            return self.content
        calls = [{"name": c.name, "arguments": c.arguments} for c in self.tool_calls]
        text = json.dumps({"tool_calls": calls}, ensure_ascii=False)
        return f"{self.content}\n{text}" if self.content else text


@dataclass(frozen=True)
class Prompt:
    """A chat request in OpenAI form, with the protocol's default generation settings."""

    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]] | None = None
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Turn:
    """Everything a protocol needs to build one request."""

    game: str
    setting: Setting
    options: Mapping[str, str]
    observation: Observation
    history: Sequence[PastStep]
    feedback: str | None
    step: int
    decision: int
    undo: bool
    image_url: Callable[[np.ndarray], str]
    frames: Mapping[int, np.ndarray] = field(default_factory=dict)
    """Frames the player saw before earlier decisions, by decision number (MageBench memory)."""
    first_frame: np.ndarray | None = None


@dataclass(frozen=True)
class Parsed:
    """A reply read into decision entries, with the model's stated reasoning if it gave one."""

    entries: tuple[Action | Invalid, ...]
    reasoning: str | None = None
    note: Mapping[str, Any] = field(default_factory=dict)

    @staticmethod
    def invalid(kind: str, reason: str, text: str = "") -> Parsed:
        return Parsed((Invalid(kind, reason, text[:200]),))


class PromptProtocol(Protocol):
    family: str
    takes_study_instructions: bool
    """Whether a study's instructions go before this family's prompt (app/agents/preamble.py):
    True only where the wording is ours, so the paper-exact prompts stay comparable."""

    def build(self, turn: Turn) -> Prompt: ...

    def parse(self, reply: Reply, game: str, setting: Setting, read: Reader) -> Parsed: ...

    def format_answer(self, moves: Sequence[str], game: str, setting: Setting,
                      note: str = "") -> Reply: ...


def read_entry(read: Reader, text: str) -> Action | Invalid:
    """One move text as an action, or an :class:`Invalid` saying why not. Never raises: a game
    parser that fails in an unexpected way is reported as a malformed entry."""
    try:
        return read(text)
    except MoveError as err:
        kind = err.kind if err.kind in ("malformed", "not_in_vocabulary") else "malformed"
        return Invalid(kind, err.reason, text[:200])
    except Exception as err:  # a game parser must not take the run down with it
        return Invalid("malformed", f"cannot read {text[:40]!r}: {type(err).__name__}",
                       text[:200])


def plan_entries(read: Reader, texts: Sequence[str]) -> Parsed:
    """Entries of a many-move answer, cut at :data:`MAX_PLAN`."""
    note: dict[str, Any] = {}
    if len(texts) > MAX_PLAN:
        note["plan_cut"] = len(texts)
        texts = texts[:MAX_PLAN]
    return Parsed(tuple(read_entry(read, t) for t in texts), note=note)


def image_part(url: str, detail: str | None) -> dict[str, Any]:
    """An OpenAI image content part."""
    image: dict[str, Any] = {"url": url}
    if detail:
        image["detail"] = detail
    return {"type": "image_url", "image_url": image}


def text_part(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}
