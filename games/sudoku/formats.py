"""Sudoku level files: ING-VP's JSON lines and our own pack, also JSON lines.

ING-VP (docs/reference/puzzles.md) writes one puzzle per line:
``{"level": 2, "position": "<81 digits>", "solutions": "<81 digits>", "clue_numbers": 71}``.
Our pack keeps titles and metadata:
``{"number": 1, "title": "...", "board": "<81 digits>", "optimal": 10, "solution": "<81 digits>"}``
followed by any other metadata keys in alphabetical order.

Every puzzle read is checked in full (81 digits, no clashing givens, exactly one solution, a
stored solution that is that solution); problems raise :class:`LevelError` naming the file,
the line and the level. Blank lines are skipped. What we write reads back to equal levels, and
a file we wrote is written back byte for byte.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from playbench.games import jsonlines as jl
from playbench.games.base import Level, LevelError, LevelFormat
from playbench.games.level_records import SudokuIngVP, SudokuPack, lines
from playbench.games.sudoku import grid as G
from playbench.games.sudoku.rules import check_puzzle

_FIRST_KEYS = ("optimal", "solution")


def _checked(puzzle: str, solution: str | None, where: dict[str, Any]) -> tuple[str, str]:
    try:
        found = check_puzzle(puzzle, solution)
    except LevelError as err:
        raise LevelError(err.reason, **where) from None
    return G.normalise(puzzle), found


def load_pack(text: str, source: str = "<text>") -> list[Level]:
    """Levels of our pack format (see the module docstring)."""
    levels = []
    for rec, number, where in lines(text, source, SudokuPack):
        puzzle, solution = _checked(rec.board, rec.solution, where)
        blanks = puzzle.count("0")
        if rec.has("optimal") and rec.optimal != blanks:
            raise LevelError(f"optimal is {rec.optimal!r} but the puzzle has {blanks} blanks",
                             **where)
        meta: dict[str, Any] = {"optimal": blanks, "solution": solution}
        meta.update(rec.model_extra or {})
        levels.append(Level("sudoku", puzzle, number, rec.title, meta))
    jl.check_numbers(levels, source)
    return levels


def dump_pack(levels: Sequence[Level]) -> str:
    return jl.dump_lines((jl.pack_record(lv, lv.text, _FIRST_KEYS) for lv in levels),
                         ensure_ascii=False)


def load_ingvp(text: str, source: str = "<text>") -> list[Level]:
    """Levels of an ING-VP Sudoku file; ``solutions`` and ``clue_numbers`` are checked when
    present (the solution is computed when absent, since it is unique)."""
    levels = []
    for rec, number, where in lines(text, source, SudokuIngVP):
        puzzle, solution = _checked(rec.position, rec.solutions, where)
        clues = G.CELLS - puzzle.count("0")
        if rec.has("clue_numbers") and rec.clue_numbers != clues:
            raise LevelError(f"clue_numbers is {rec.clue_numbers!r} but the position has "
                             f"{clues} clues", **where)
        levels.append(Level("sudoku", puzzle, number, "",
                            {"optimal": G.CELLS - clues, "solution": solution, "clues": clues}))
    jl.check_numbers(levels, source)
    return levels


def dump_ingvp(levels: Sequence[Level]) -> str:
    """ING-VP's lines; the solution comes from the meta or, failing that, from the solver."""
    out = []
    for lv in levels:
        solution = lv.meta.get("solution") or check_puzzle(lv.text)
        out.append({"level": lv.number, "position": lv.text, "solutions": solution,
                    "clue_numbers": G.CELLS - lv.text.count("0")})
    return jl.dump_lines(out)


def sniff_pack(text: str) -> bool:
    obj = jl.first_record(text)
    return obj is not None and isinstance(obj.get("board"), str) and len(obj["board"]) >= 81


def sniff_ingvp(text: str) -> bool:
    obj = jl.first_record(text)
    return (obj is not None and "board" not in obj and isinstance(obj.get("position"), str)
            and len(obj["position"]) >= 81)


PACK = LevelFormat("pack", (".jsonl",), load_pack, dump_pack, sniff_pack)
INGVP = LevelFormat("ingvp", (".jsonl", ".json", ".txt"), load_ingvp, dump_ingvp, sniff_ingvp)
