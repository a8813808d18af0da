"""15-puzzle level files, both JSON lines (one level per line).

``ingvp`` is ING-VP's own layout (../shared/reference/puzzles.md)::

    {"level": 1, "n": 4, "position": [[5, 1, 3, 4], [9, 2, 7, 8], [0, 6, 10, 11], [13, 14, 15, 12]]}

``pack`` is ours and keeps metadata::

    {"number": 1, "title": "...", "board": [[...], ...], "optimal": 8, "solution": "12 8 4"}

``number``/``level`` and ``board``/``position`` are required; ``n``, when given, must match the
board. Boards must hold each tile once and be solvable. Every other pack field is kept in the
level's meta. What :func:`dump` writes loads back to equal levels and is written back byte for
byte.
"""

from __future__ import annotations

import json
from typing import Any, Iterator, Sequence

from games.base import Level, LevelError, LevelFormat
from games.npuzzle.rules import encode, grid_from_json

_META_ORDER = ("optimal", "solution")


def _records(text: str, source: str) -> Iterator[tuple[int, int, dict[str, Any]]]:
    """(line, ordinal, object) for every non-blank line; bad JSON names the file and line."""
    ordinal = 0
    for i, raw in enumerate(text.replace("\r\n", "\n").split("\n"), start=1):
        if not raw.strip():
            continue
        ordinal += 1
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as err:
            raise LevelError(f"bad JSON: {err.msg} (column {err.colno})", source=source,
                             line=i, level=ordinal) from None
        if not isinstance(obj, dict):
            raise LevelError("each line must be one JSON object", source=source, line=i,
                             level=ordinal)
        yield i, ordinal, obj


def _field(obj: dict[str, Any], key: str, where: dict[str, Any]) -> Any:
    if key not in obj:
        raise LevelError(f"missing field {key!r}", **where)
    return obj[key]


def _positive(value: Any, key: str, where: dict[str, Any]) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise LevelError(f"{key!r} must be a positive whole number, got {value!r}", **where)
    return value


def _read(text: str, source: str, *, ingvp: bool) -> list[Level]:
    levels: list[Level] = []
    numbers: set[int] = set()
    for line, ordinal, obj in _records(text, source):
        where: dict[str, Any] = {"source": source, "line": line, "level": ordinal}
        key = "level" if ingvp else "number"
        number = _positive(_field(obj, key, where), key, where)
        where["level"] = number
        if number in numbers:
            raise LevelError(f"level number {number} appears twice", **where)
        numbers.add(number)
        board = _field(obj, "position" if ingvp else "board", where)
        n = obj.get("n")
        if n is not None:
            n = _positive(n, "n", where)
        try:
            state = grid_from_json(board, n)
        except LevelError as err:
            raise LevelError(err.reason, **where) from None
        if ingvp:
            levels.append(Level("npuzzle", encode(state), number))
            continue
        title = obj.get("title", "")
        if not isinstance(title, str):
            raise LevelError(f"title must be text, got {title!r}", **where)
        meta = {k: v for k, v in obj.items() if k not in ("number", "title", "board")}
        levels.append(Level("npuzzle", encode(state), number, title, meta))
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
    lines = []
    for lv in levels:
        record: dict[str, Any] = {"number": lv.number, "title": lv.title,
                                  "board": json.loads(lv.text)}
        keys = [k for k in _META_ORDER if k in lv.meta]
        keys += sorted(k for k in lv.meta if k not in _META_ORDER)
        record.update((k, lv.meta[k]) for k in keys)
        lines.append(json.dumps(record) + "\n")  # ASCII: no stray line separators
    return "".join(lines)


def dump_ingvp(levels: Sequence[Level]) -> str:
    lines = []
    for lv in levels:
        board = json.loads(lv.text)
        lines.append(json.dumps({"level": lv.number, "n": len(board), "position": board}) + "\n")
    return "".join(lines)


def _first_record(text: str) -> dict[str, Any] | None:
    for raw in text.split("\n")[:50]:
        if raw.strip():
            try:
                obj = json.loads(raw)
            except json.JSONDecodeError:
                return None
            return obj if isinstance(obj, dict) else None
    return None


def sniff(text: str) -> bool:
    obj = _first_record(text)
    return obj is not None and isinstance(obj.get("board"), list)


def sniff_ingvp(text: str) -> bool:
    obj = _first_record(text)
    return obj is not None and isinstance(obj.get("position"), list)


PACK = LevelFormat("pack", (".jsonl", ".json"), load, dump, sniff)
INGVP = LevelFormat("ingvp", (".jsonl", ".json", ".txt"), load_ingvp, dump_ingvp, sniff_ingvp)
