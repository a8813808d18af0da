"""Splitting a typed action list (a one-step plan) into move texts, one per step.

A person planning from the first frame types the whole list in one field; a model writes it in
its reply. Both end up as the same list of move texts, which the loop then reads one by one
(``PlayContext.parse``), so a bad entry is an invalid step and the rest still play - exactly as
for a model's one-step answer.

Accepted spellings, per game (canonical texts always work):

- Sokoban, Maze: ``DDRUL``, ``D D R U L``, ``down, down, right``
- Tower of Hanoi: ``AB AC BC``, ``A->B, A->C``
- 15-puzzle: ``12 8 4``
- 8-queens: ``[1, 4] [2, 7]`` or ``1,4; 2,7``
- Sudoku: ``{"03": 5} {"04": 6}``, ``{"03": 5, "04": 6}`` or ``03:5 04:6``
- any game: a JSON list as a model would send it, e.g. ``["AB", "AC"]``.
"""

from __future__ import annotations

import ast
import json
import re
from typing import Any

LETTER_GAMES = ("sokoban", "maze")
_TOKEN = re.compile(r"\{[^{}]*\}|\[[^\[\]]*\]|\([^()]*\)|[^\s,;]+")
_LETTERS = re.compile(r"^[UDLRudlr]+$")
_CHUNK = re.compile(r"[;\n]+")


def _literal(text: str) -> Any:
    """``text`` read as JSON, else as a Python literal; None when it is neither."""
    try:
        return json.loads(text)
    except ValueError:
        pass
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None


def _whole_list(game: str, text: str) -> list[str] | None:
    """The move texts of a plan written as one JSON list (a model's format), else None."""
    if not text.startswith("[") or not text.endswith("]"):
        return None
    value = _literal(text)
    if not isinstance(value, (list, tuple)):
        return None
    if game == "queens" and len(value) == 2 and all(isinstance(v, int) for v in value):
        return None  # a single square, read below
    from app.agents.protocols.games import plan_texts  # the models' own splitter
    texts = plan_texts(game, json.loads(json.dumps(value)))
    return texts if isinstance(texts, list) else None


def _sudoku_cells(token: str) -> list[str]:
    """A ``{...}`` naming several cells becomes one move text per cell."""
    if token.startswith("{"):
        value = _literal(token)
        if isinstance(value, dict) and len(value) > 1:
            return [json.dumps({str(k): v}) for k, v in value.items()]
    return [token]


def split_plan(game: str, text: str) -> list[str]:
    """The move texts of a typed plan, in order; empty for blank input."""
    text = text.strip()
    if not text:
        return []
    whole = _whole_list(game, text)
    if whole is not None:
        return whole
    if game == "queens" and not any(b in text for b in "[("):
        return [c.strip() for c in _CHUNK.split(text) if c.strip()]
    texts: list[str] = []
    for token in _TOKEN.findall(text):
        if game in LETTER_GAMES and len(token) > 1 and _LETTERS.match(token):
            texts.extend(token.upper())
        elif game == "sudoku":
            texts.extend(_sudoku_cells(token))
        else:
            texts.append(token)
    return texts


def join_plan(game: str, texts: list[str]) -> str:
    """A plan as people type it: letters run together for Sokoban and Maze, else spaced."""
    if game in LETTER_GAMES and all(len(t) == 1 for t in texts):
        return "".join(texts)
    return " ".join(texts)
