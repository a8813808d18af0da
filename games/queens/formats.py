"""8-queens level files: ING-VP's JSON lines and our own pack, also JSON lines.

ING-VP (docs/reference/puzzles.md) writes ``{"level": 1, "board_size": 8,
"position": [0, 0]}``: one pre-placed queen per level. Our pack keeps titles, metadata and
positions with several queens:
``{"number": 1, "title": "...", "board": [[0, 0]], "optimal": 7, "solution": [[1, 2], ...]}``
followed by any other metadata keys in alphabetical order.

A position read is checked: squares on the 8x8 board, no queen attacking another, and the queens
extendable to a full solution; a stored ``optimal`` and ``solution`` must be right. Problems
raise :class:`LevelError` naming the file, the line and the level. What we write reads back to
equal levels, and a file we wrote is written back byte for byte.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from playbench.games import jsonlines as jl
from playbench.games.base import Level, LevelError, LevelFormat
from playbench.games.level_records import QueensIngVP, QueensPack, lines
from playbench.games.queens.rules import (
    N,
    QueensRules,
    QueensState,
    Square,
    board_from_pairs,
    encode,
)
from playbench.games.queens.solver import solve

_FIRST_KEYS = ("optimal", "solution")


def _position(pairs: Any, where: dict[str, Any]) -> tuple[QueensState, list[list[int]]]:
    """The checked state of a list of pairs and a plan completing it."""
    try:
        state = board_from_pairs(pairs)
    except LevelError as err:
        raise LevelError(err.reason, **where) from None
    plan = solve(None, state, None)
    if plan is None:
        raise LevelError(f"the queens {encode(state)} cannot be completed to eight", **where)
    return state, [[m.row, m.col] for m in plan]


def _check_solution(state: QueensState, solution: list[list[int]],
                    where: dict[str, Any]) -> None:
    """Play ``solution`` (pairs of whole numbers, as the record's model holds them) from
    ``state``: each queen must be placeable and the last must complete the eight."""
    rules = QueensRules()
    for pair in solution:
        on_board = all(0 <= v < N for v in pair)
        out = rules.apply(state, Square(*pair)) if on_board else None
        if out is None or not out.valid:
            why = out.reason if out is not None else "not a [row, col] pair on the board"
            raise LevelError(f"the solution's queen {pair!r} cannot be placed: {why}", **where)
        state = out.state
    if not rules.is_solved(state):
        raise LevelError("the solution does not reach eight queens", **where)


def load_pack(text: str, source: str = "<text>") -> list[Level]:
    levels = []
    for rec, number, where in lines(text, source, QueensPack):
        state, plan = _position(rec.board, where)
        needed = N - len(state.queens)
        if rec.has("optimal") and rec.optimal != needed:
            raise LevelError(f"optimal is {rec.optimal!r} but {needed} queens are still needed",
                             **where)
        solution = rec.solution if rec.has("solution") else plan
        _check_solution(state, solution, where)
        meta: dict[str, Any] = {"optimal": needed, "solution": solution}
        meta.update(rec.model_extra or {})
        levels.append(Level("queens", encode(state), number, rec.title, meta))
    jl.check_numbers(levels, source)
    return levels


def _pairs(text: str) -> list[list[int]]:
    return [list(p) for p in json.loads(text)]


def dump_pack(levels: Sequence[Level]) -> str:
    return jl.dump_lines((jl.pack_record(lv, _pairs(lv.text), _FIRST_KEYS) for lv in levels),
                         ensure_ascii=False)


def load_ingvp(text: str, source: str = "<text>") -> list[Level]:
    levels = []
    for rec, number, where in lines(text, source, QueensIngVP):
        if rec.board_size != N:
            raise LevelError(f"board_size {rec.board_size!r} is not supported (8-queens only)",
                             **where)
        state, plan = _position([rec.position], where)
        levels.append(Level("queens", encode(state), number, "",
                            {"optimal": N - 1, "solution": plan}))
    jl.check_numbers(levels, source)
    return levels


def dump_ingvp(levels: Sequence[Level]) -> str:
    """ING-VP's lines; their format holds exactly one pre-placed queen per level."""
    out = []
    for lv in levels:
        pairs = _pairs(lv.text)
        if len(pairs) != 1:
            raise LevelError(f"ING-VP's format holds one queen per level, this one has "
                             f"{len(pairs)}", level=lv.number)
        out.append({"level": lv.number, "board_size": N, "position": pairs[0]})
    return jl.dump_lines(out)


def sniff_pack(text: str) -> bool:
    obj = jl.first_record(text)
    return obj is not None and isinstance(obj.get("board"), list)


def sniff_ingvp(text: str) -> bool:
    obj = jl.first_record(text)
    return obj is not None and "board" not in obj and isinstance(obj.get("position"), list)


PACK = LevelFormat("pack", (".jsonl",), load_pack, dump_pack, sniff_pack)
INGVP = LevelFormat("ingvp", (".jsonl", ".json", ".txt"), load_ingvp, dump_ingvp, sniff_ingvp)
