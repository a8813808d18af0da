"""Shared pieces of the JSON-lines level formats (Hanoi, 15-puzzle, 8-queens, Sudoku).

ING-VP stores those four games as one JSON object per line (see
docs/reference/puzzles.md), and our own packs for them use the same layout with more
fields. Reading such a file always means the same chores: split at ``"\\n"`` only, skip blank
lines, parse each line, insist on an object, report problems with the file, line and level,
refuse a level number used twice, write records back. This module does those chores once; which
fields a record has, and their types, :mod:`playbench.games.level_records` says, and what a
position must satisfy each game's rules.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from playbench.games.base import Level, LevelError


class Record(NamedTuple):
    """One non-blank line: its 1-based line number, its position among the records, the object."""

    line: int
    ordinal: int
    obj: dict[str, Any]


def records(text: str, source: str) -> Iterator[Record]:
    """Every non-blank line of ``text`` parsed as a JSON object (see :func:`lines` and
    :func:`parse`)."""
    for no, ordinal, raw in lines(text):
        yield parse(raw, no, ordinal, source)


def lines(text: str) -> Iterator[tuple[int, int, str]]:
    """(1-based line number, position among the non-blank lines, the line) per non-blank line.

    Only ``"\\n"`` ends a line (``str.splitlines`` would also split at characters such as U+0085
    that JSON strings, e.g. titles, may hold unescaped); a ``"\\r"`` before it is dropped."""
    ordinal = 0
    for no, raw in enumerate(text.replace("\r\n", "\n").split("\n"), start=1):
        if raw.strip():
            ordinal += 1
            yield no, ordinal, raw


def parse(raw: str, line: int, ordinal: int, source: str) -> Record:
    """One line parsed as a JSON object; a line that is not JSON, or not an object, raises
    :class:`LevelError` naming ``source``, the line and the record's position."""
    try:
        obj = json.loads(raw)
    except (ValueError, RecursionError) as err:
        detail = (f"{err.msg} at column {err.colno}" if isinstance(err, json.JSONDecodeError)
                  else str(err))
        raise LevelError(f"bad JSON: the line is not valid JSON ({detail})", source=source,
                         line=line, level=ordinal) from None
    if not isinstance(obj, dict):
        raise LevelError("each line must be one JSON object", source=source, line=line,
                         level=ordinal)
    return Record(line, ordinal, obj)


def claim_number(number: int, seen: set[int], at: Mapping[str, Any]) -> None:
    """Record ``number`` as used, refusing one used before (the error points at this line)."""
    if number in seen:
        raise LevelError(f"level number {number} appears twice", **at)
    seen.add(number)


def check_numbers(levels: Sequence[Level], source: str) -> None:
    """Refuse an empty file or a level number used twice (the error names the file only)."""
    if not levels:
        raise LevelError("no levels found", source=source)
    seen: set[int] = set()
    for lv in levels:
        if lv.number in seen:
            raise LevelError(f"level number {lv.number} appears twice", source=source,
                             level=lv.number)
        seen.add(lv.number)


def first_record(text: str, lines: int = 50) -> dict[str, Any] | None:
    """The first non-blank line as a JSON object (None if it is not one); for sniffing."""
    for raw in text.split("\n")[:lines]:
        if raw.strip():
            try:
                obj = json.loads(raw)
            except (ValueError, RecursionError):
                return None
            return obj if isinstance(obj, dict) else None
    return None


def pack_record(level: Level, board: Any, first: Sequence[str]) -> dict[str, Any]:
    """Our pack's record of a level: number, title, board, then the ``first`` meta keys in that
    order, then every other meta key alphabetically (a stable order makes files reproducible)."""
    rec: dict[str, Any] = {"number": level.number, "title": level.title, "board": board}
    rec.update((k, level.meta[k]) for k in first if k in level.meta)
    rec.update((k, level.meta[k]) for k in sorted(level.meta) if k not in first)
    return rec


def json_list(levels: Sequence[Level], kind: str, fmt: str | None) -> str:
    """A JSON list of the objects the levels' texts hold, one per level in order: the task
    file of kinds whose level text is one JSON object (web tasks, CSS repair, WebUI), which
    their loaders read back as the same levels. ``fmt`` must be None or ``json``."""
    if fmt not in (None, "json"):
        raise LevelError(f"{kind} levels are written as json only, not {fmt!r}")
    objects = [json.loads(lv.text) for lv in levels]
    return json.dumps(objects, indent=1, ensure_ascii=False, sort_keys=True) + "\n"


def dump_lines(objects: Iterable[Mapping[str, Any]], *, ensure_ascii: bool = True) -> str:
    """One JSON object per line, each line ending in ``"\\n"``. ASCII output (the default) keeps
    stray line-separator characters out of the file."""
    return "".join(json.dumps(obj, ensure_ascii=ensure_ascii) + "\n" for obj in objects)
