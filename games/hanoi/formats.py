"""Tower of Hanoi level files, both JSON lines (one level per line).

``ingvp`` is ING-VP's own layout (../shared/reference/puzzles.md)::

    {"level": 1, "disks": 5, "position": {"A": [], "B": ["a", "b"], "C": ["c", "d", "e"], "D": []}}

Their files carry no disk order; a position is accepted when every rod is stacked consistently
under one of the two orders (with 5 disks on 4 rods that order is always decided by the board).

``pack`` is ours and keeps metadata::

    {"number": 1, "title": "...", "board": {...}, "optimal": 8, "solution": "AC AD CD",
     "disk_order": "a-smallest", "disks": 5}

``number``, ``board`` and ``disk_order`` are required and the board must be legal under that
order; every other field is kept in the level's meta. What :func:`dump` writes loads back to equal
levels and is written back byte for byte.
"""

from __future__ import annotations

import json
from typing import Any, Iterator, Sequence

from games.base import Level, LevelError, LevelFormat
from games.hanoi.rules import ORDERS, encode, fitting_orders, misplaced, position_from_json

_META_ORDER = ("optimal", "solution", "disk_order", "disks")


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
        number = _positive(_field(obj, "level" if ingvp else "number", where), "number", where)
        where["level"] = number
        if number in numbers:
            raise LevelError(f"level number {number} appears twice", **where)
        numbers.add(number)
        board = _field(obj, "position" if ingvp else "board", where)
        disks = obj.get("disks")
        if disks is not None:
            disks = _positive(disks, "disks", where)
        try:
            state = position_from_json(board, disks)
        except LevelError as err:
            raise LevelError(err.reason, **where) from None
        if ingvp:
            if not fitting_orders(state):
                raise LevelError(f"stacks fit neither disk order: {misplaced(state, 'a-smallest')}"
                                 f"; {misplaced(state, 'a-largest')}", **where)
            levels.append(Level("hanoi", encode(state), number))
            continue
        order = _field(obj, "disk_order", where)
        if order not in ORDERS:
            raise LevelError(f"disk_order must be one of {', '.join(ORDERS)}, got {order!r}",
                             **where)
        why = misplaced(state, order)
        if why is not None:
            raise LevelError(why, **where)
        title = obj.get("title", "")
        if not isinstance(title, str):
            raise LevelError(f"title must be text, got {title!r}", **where)
        meta = {k: v for k, v in obj.items() if k not in ("number", "title", "board")}
        levels.append(Level("hanoi", encode(state), number, title, meta))
    if not levels:
        raise LevelError("no Hanoi levels found (one JSON object per line)", source=source)
    return levels


def load(text: str, source: str = "<text>") -> list[Level]:
    """Levels of our pack format."""
    return _read(text, source, ingvp=False)


def load_ingvp(text: str, source: str = "<text>") -> list[Level]:
    """Levels of an ING-VP Hanoi file."""
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
        disks = sum(len(stack) for stack in board.values())
        lines.append(json.dumps({"level": lv.number, "disks": disks, "position": board}) + "\n")
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
    return obj is not None and "board" in obj and isinstance(obj["board"], dict)


def sniff_ingvp(text: str) -> bool:
    obj = _first_record(text)
    return obj is not None and "position" in obj and isinstance(obj["position"], dict)


PACK = LevelFormat("pack", (".jsonl", ".json"), load, dump, sniff)
INGVP = LevelFormat("ingvp", (".jsonl", ".json", ".txt"), load_ingvp, dump_ingvp, sniff_ingvp)
