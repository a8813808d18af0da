"""8-queens level files: ING-VP's JSON lines and our own pack, also JSON lines.

ING-VP (/work/shared/reference/puzzles.md) writes ``{"level": 1, "board_size": 8,
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
from typing import Any, Iterator, Sequence

from games.base import Level, LevelError, LevelFormat
from games.queens.rules import N, QueensRules, QueensState, board_from_pairs, encode
from games.queens.solver import solve

_FIRST_KEYS = ("optimal", "solution")


def records(text: str, source: str, number_key: str) -> Iterator[tuple[int, int, dict]]:
    """(line number, level number, object) for each non-blank line; the level number is the
    record's ``number_key`` or else its position among the records."""
    count = 0
    # Only "\n" ends a line: str.splitlines would also split at characters such as U+0085
    # that JSON strings (titles) may hold unescaped.
    for no, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        count += 1
        try:
            obj = json.loads(line)
        except (ValueError, RecursionError) as err:
            msg = f"{err.msg} at column {err.colno}" if isinstance(err, json.JSONDecodeError) \
                else str(err)
            raise LevelError(f"not valid JSON ({msg})", source=source, line=no,
                             level=count) from None
        if not isinstance(obj, dict):
            raise LevelError("each line must be a JSON object", source=source, line=no,
                             level=count)
        number = obj.get(number_key, count)
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            raise LevelError(f"{number_key!r} must be a positive whole number, got {number!r}",
                             source=source, line=no, level=count)
        yield no, number, obj


def _check_numbers(levels: Sequence[Level], source: str) -> None:
    if not levels:
        raise LevelError("no levels found", source=source)
    seen: set[int] = set()
    for lv in levels:
        if lv.number in seen:
            raise LevelError(f"level number {lv.number} appears twice", source=source,
                             level=lv.number)
        seen.add(lv.number)


def _position(pairs: Any, where: dict) -> tuple[QueensState, list[list[int]]]:
    """The checked state of a list of pairs and a plan completing it."""
    try:
        state = board_from_pairs(pairs)
    except LevelError as err:
        raise LevelError(err.reason, **where) from None
    plan = solve(None, state, None)
    if plan is None:
        raise LevelError(f"the queens {encode(state)} cannot be completed to eight", **where)
    return state, [[m.row, m.col] for m in plan]


def _check_solution(state: QueensState, solution: Any, where: dict) -> None:
    rules = QueensRules()
    if not isinstance(solution, list):
        raise LevelError("field 'solution' must be a list of [row, col] pairs", **where)
    for pair in solution:
        ok = isinstance(pair, list) and len(pair) == 2 and all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v < N for v in pair)
        out = rules.apply(state, tuple(pair)) if ok else None
        if out is None or not out.valid:
            why = out.reason if out is not None else "not a [row, col] pair on the board"
            raise LevelError(f"the solution's queen {pair!r} cannot be placed: {why}", **where)
        state = out.state
    if not rules.is_solved(state):
        raise LevelError("the solution does not reach eight queens", **where)


def load_pack(text: str, source: str = "<text>") -> list[Level]:
    levels = []
    for no, number, obj in records(text, source, "number"):
        where = {"source": source, "line": no, "level": number}
        if "board" not in obj:
            raise LevelError("missing field 'board'", **where)
        state, plan = _position(obj["board"], where)
        needed = N - len(state.queens)
        optimal = obj.get("optimal", needed)
        if optimal != needed or isinstance(optimal, bool):
            raise LevelError(f"optimal is {optimal!r} but {needed} queens are still needed",
                             **where)
        solution = obj.get("solution", plan)
        _check_solution(state, solution, where)
        title = obj.get("title", "")
        if not isinstance(title, str):
            raise LevelError("field 'title' must be a string", **where)
        meta = {"optimal": needed, "solution": solution}
        meta.update((k, v) for k, v in obj.items()
                    if k not in ("number", "title", "board", "optimal", "solution"))
        levels.append(Level("queens", encode(state), number, title, meta))
    _check_numbers(levels, source)
    return levels


def _pairs(text: str) -> list[list[int]]:
    return [list(p) for p in json.loads(text)]


def dump_pack(levels: Sequence[Level]) -> str:
    out = []
    for lv in levels:
        rec: dict[str, Any] = {"number": lv.number, "title": lv.title, "board": _pairs(lv.text)}
        rec.update((k, lv.meta[k]) for k in _FIRST_KEYS if k in lv.meta)
        rec.update((k, lv.meta[k]) for k in sorted(lv.meta) if k not in _FIRST_KEYS)
        out.append(json.dumps(rec, ensure_ascii=False))
    return "".join(line + "\n" for line in out)


def load_ingvp(text: str, source: str = "<text>") -> list[Level]:
    levels = []
    for no, number, obj in records(text, source, "level"):
        where = {"source": source, "line": no, "level": number}
        for key in ("level", "position"):
            if key not in obj:
                raise LevelError(f"missing field {key!r}", **where)
        size = obj.get("board_size", N)
        if size != N or isinstance(size, bool):
            raise LevelError(f"board_size {size!r} is not supported (8-queens only)", **where)
        state, plan = _position([obj["position"]], where)
        levels.append(Level("queens", encode(state), number, "",
                            {"optimal": N - 1, "solution": plan}))
    _check_numbers(levels, source)
    return levels


def dump_ingvp(levels: Sequence[Level]) -> str:
    """ING-VP's lines; their format holds exactly one pre-placed queen per level."""
    out = []
    for lv in levels:
        pairs = _pairs(lv.text)
        if len(pairs) != 1:
            raise LevelError(f"ING-VP's format holds one queen per level, this one has "
                             f"{len(pairs)}", level=lv.number)
        out.append(json.dumps({"level": lv.number, "board_size": N, "position": pairs[0]}))
    return "".join(line + "\n" for line in out)


def _first_record(text: str) -> dict | None:
    for line in text.split("\n")[:50]:
        if line.strip():
            try:
                obj = json.loads(line)
            except (ValueError, RecursionError):
                return None
            return obj if isinstance(obj, dict) else None
    return None


def sniff_pack(text: str) -> bool:
    obj = _first_record(text)
    return obj is not None and isinstance(obj.get("board"), list)


def sniff_ingvp(text: str) -> bool:
    obj = _first_record(text)
    return obj is not None and "board" not in obj and isinstance(obj.get("position"), list)


PACK = LevelFormat("pack", (".jsonl",), load_pack, dump_pack, sniff_pack)
INGVP = LevelFormat("ingvp", (".jsonl", ".json", ".txt"), load_ingvp, dump_ingvp, sniff_ingvp)
