"""15-puzzle level files, both JSON lines (one level per line).

``ingvp`` is ING-VP's own layout (docs/reference/puzzles.md)::

    {"level": 1, "n": 4, "position": [[5, 1, 3, 4], [9, 2, 7, 8], [0, 6, 10, 11], [13, 14, 15, 12]]}

``pack`` is ours and keeps metadata::

    {"number": 1, "title": "...", "board": [[...], ...], "optimal": 8, "solution": "12 8 4"}

``number``/``level`` and ``board``/``position`` are required; ``n``, when given, must match the
board. Boards must hold each tile once and be solvable. Every other pack field is kept in the
level's meta. The fields' types are held to
:class:`~playbench.games.level_records.NPuzzlePack` and ``NPuzzleIngVP`` first. What
:func:`dump` writes loads back to equal levels and is written back byte for byte.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from playbench.games import jsonlines as jl
from playbench.games.base import Level, LevelError, LevelFormat
from playbench.games.level_records import NPuzzleIngVP, NPuzzlePack, lines
from playbench.games.npuzzle.rules import encode, grid_from_json

_META_ORDER = ("optimal", "solution")


def _read(text: str, source: str, *, ingvp: bool) -> list[Level]:
    levels: list[Level] = []
    seen: set[int] = set()
    model: type[NPuzzleIngVP | NPuzzlePack] = NPuzzleIngVP if ingvp else NPuzzlePack
    for rec, number, where in lines(text, source, model):
        jl.claim_number(number, seen, where)
        board = rec.position if isinstance(rec, NPuzzleIngVP) else rec.board
        try:
            state = grid_from_json(board, rec.n)
        except LevelError as err:
            raise LevelError(err.reason, **where) from None
        if isinstance(rec, NPuzzleIngVP):
            levels.append(Level("npuzzle", encode(state), number))
            continue
        levels.append(Level("npuzzle", encode(state), number, rec.title, rec.meta()))
    if not levels:
        raise LevelError("no 15-puzzle levels found (one JSON object per line)", source=source)
    return levels


def load(text: str, source: str = "<text>") -> list[Level]:
    """Levels of our pack format."""
    return _read(text, source, ingvp=False)


def load_ingvp(text: str, source: str = "<text>") -> list[Level]:
    """Levels of an ING-VP 15-puzzle file."""
    return _read(text, source, ingvp=True)


def dump(levels: Sequence[Level]) -> str:
    return jl.dump_lines(jl.pack_record(lv, json.loads(lv.text), _META_ORDER) for lv in levels)


def dump_ingvp(levels: Sequence[Level]) -> str:
    def record(lv: Level) -> dict[str, Any]:
        board = json.loads(lv.text)
        return {"level": lv.number, "n": len(board), "position": board}
    return jl.dump_lines(record(lv) for lv in levels)


def sniff(text: str) -> bool:
    obj = jl.first_record(text)
    return obj is not None and isinstance(obj.get("board"), list)


def sniff_ingvp(text: str) -> bool:
    obj = jl.first_record(text)
    return obj is not None and isinstance(obj.get("position"), list)


PACK = LevelFormat("pack", (".jsonl", ".json"), load, dump, sniff)
INGVP = LevelFormat("ingvp", (".jsonl", ".json", ".txt"), load_ingvp, dump_ingvp, sniff_ingvp)
