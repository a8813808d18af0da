"""Reading an export's files one line at a time, and the checks every field of a line passes.

An export comes from another machine and is read as untrusted input (docs/security.md,
"Imports"): each line is parsed on its own (a file is never read whole), may be at most
:data:`MAX_LINE_BYTES` long, and holds only finite numbers: ``NaN``, ``Infinity`` and numbers too
big for a float (``1e999``) are refused where Python's ``json`` would read them silently. A
field is checked for its type, its range and, for text stored in a sized column, its length, so
that every refusal names the file, the line and the field before anything is written - instead
of an ``OverflowError``, a ``RecursionError`` or the database's own error with its SQL.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

MAX_LINE_BYTES = 16 * 1024 * 1024
"""The longest line read. A step line holds at most a 256 KiB reply and its reasoning
(docs/security.md, "Replies") plus its info; 16 MiB leaves room for what a kind adds to info."""
WHOLE = 2 ** 31 - 1
"""The largest whole number a counted field (index, tokens, steps, level number) may hold: the
columns are 32-bit integers on PostgreSQL."""
MAX_NUMBER = 1e15
"""The largest magnitude of a measured number (reward, milliseconds, cost, score)."""


class ImportProblem(ValueError):
    """An export that cannot be imported; the message names the file, and the line and field
    where there is one (``steps.jsonl:7: field 'reward' ...``)."""


class _NotFinite(ValueError):
    def __init__(self, literal: str) -> None:
        super().__init__(literal)
        self.literal = literal


def _constant(name: str) -> float:
    raise _NotFinite(name)


def _float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise _NotFinite(text)
    return value


def parse_line(where: str, line: str) -> dict[str, Any]:
    """One line's JSON object; :class:`ImportProblem` names ``where`` (``file:line``) and, for a
    number that is not finite, the field holding it."""
    try:
        obj = json.loads(line, parse_constant=_constant, parse_float=_float)
    except _NotFinite as err:
        key = re.search(r'"([^"\\]{1,80})"\s*:\s*' + re.escape(err.literal), line)
        field = f"field {key.group(1)!r} is " if key else ""
        raise ImportProblem(f"{where}: {field}{err.literal[:40]}, which is not a finite number "
                          "(JSON numbers must be finite)") from None
    except RecursionError:
        raise ImportProblem(f"{where}: JSON nested deeper than PlayBench reads") from None
    except ValueError as err:
        raise ImportProblem(f"{where}: not valid JSON ({str(err)[:200]})") from None
    if not isinstance(obj, dict):
        raise ImportProblem(f"{where}: expected a JSON object")
    return obj


def read_lines(path: Path, name: str | None = None) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line number, object)`` of each non-blank line of ``path`` (none when it is missing),
    one line in memory at a time."""
    name = name or path.name
    if not path.exists():
        return
    with open(path, encoding="utf-8") as f:
        n = 0
        while True:
            n += 1
            try:
                line = f.readline(MAX_LINE_BYTES + 1)
            except UnicodeDecodeError as err:
                raise ImportProblem(f"{name}:{n}: not UTF-8 text ({err.reason})") from None
            if not line:
                return
            if len(line) > MAX_LINE_BYTES:
                raise ImportProblem(f"{name}:{n}: line longer than "
                                  f"{MAX_LINE_BYTES // 1024 ** 2} MiB")
            if line.strip():
                yield n, parse_line(f"{name}:{n}", line)


# -- field checks (``where`` is ``file:line``) ---------------------------------------------------

def need(where: str, obj: dict, name: str, kinds: tuple, optional: bool = False) -> Any:
    """``obj[name]`` when it is one of ``kinds`` (a bool is never a number); None for an
    optional field that is absent or null."""
    if name not in obj:
        if optional:
            return None
        raise ImportProblem(f"{where}: field {name!r} is missing")
    value = obj[name]
    if optional and value is None:
        return None
    if isinstance(value, bool) and bool not in kinds:
        raise ImportProblem(f"{where}: field {name!r} has the wrong type (bool)")
    if not isinstance(value, kinds):
        raise ImportProblem(f"{where}: field {name!r} has the wrong type "
                          f"({type(value).__name__})")
    return value


def whole(where: str, obj: dict, name: str, low: int = 0, high: int = WHOLE,
          optional: bool = False) -> int | None:
    """A whole number field within ``low..high``."""
    value = need(where, obj, name, (int,), optional)
    if value is not None and not low <= value <= high:
        raise ImportProblem(f"{where}: field {name!r} must be a whole number from {low:,} to "
                          f"{high:,}")
    return value


def number(where: str, obj: dict, name: str, low: float = -MAX_NUMBER,
           optional: bool = False) -> float | None:
    """A finite number field within ``low..MAX_NUMBER`` (whole numbers count)."""
    value = need(where, obj, name, (int, float), optional)
    if value is not None and not low <= value <= MAX_NUMBER:
        raise ImportProblem(f"{where}: field {name!r} must be a number from {low:g} to "
                          f"{MAX_NUMBER:g}")
    return value


def text(where: str, obj: dict, name: str, longest: int | None = None,
         optional: bool = False) -> str | None:
    """A text field of at most ``longest`` characters (its column's size)."""
    value = need(where, obj, name, (str,), optional)
    if value is not None and longest is not None and len(value) > longest:
        raise ImportProblem(f"{where}: field {name!r} is {len(value):,} characters long; at most "
                          f"{longest:,} are stored")
    return value


_NUMBER = (int, float)
STEP_FIELDS: tuple[tuple[str, tuple, bool], ...] = (
    ("decision", (int,), False), ("action", (str,), True), ("raw", (str,), False),
    ("valid", (bool,), False), ("changed", (bool,), False), ("reward", _NUMBER, False),
    ("state_hash", (str,), False), ("think_ms", _NUMBER, False), ("tokens", (dict,), False),
    ("cost", _NUMBER, False), ("latency_ms", _NUMBER, True), ("info", (dict,), False),
    ("invalid_kind", (str,), True), ("invalid_reason", (str,), True))
"""(field, accepted types, may be null or absent) of a step line."""
_STEP_TEXT = (("action", 2000), ("state_hash", 64), ("invalid_kind", 40))
_STEP_MEASURES = ("think_ms", "cost", "latency_ms")


def check_step(where: str, s: dict) -> None:
    """A step line's fields: types, ranges and lengths (``episode``, ``index`` and ``frame`` are
    the caller's). Written as one tight pass, as it runs once per step of an export; the
    helpers above explain a failure."""
    for name, kinds, optional in STEP_FIELDS:
        v = s.get(name)
        if v is None:
            if not optional:
                need(where, s, name, kinds)
        elif type(v) not in kinds and not (kinds is _NUMBER and type(v) in (int, float)):
            need(where, s, name, kinds, optional)
    if not 0 <= s["decision"] <= WHOLE:
        whole(where, s, "decision")
    if not -MAX_NUMBER <= s["reward"] <= MAX_NUMBER:
        number(where, s, "reward")
    for name in _STEP_MEASURES:
        v = s.get(name)
        if v is not None and not 0 <= v <= MAX_NUMBER:
            number(where, s, name, low=0)
    for name, longest in _STEP_TEXT:
        v = s.get(name)
        if v is not None and len(v) > longest:
            text(where, s, name, longest)
    tokens = s["tokens"]
    for name in ("prompt", "completion"):
        v = tokens.get(name)
        if type(v) is not int or not 0 <= v <= WHOLE:
            raise ImportProblem(f"{where}: field 'tokens' must hold whole numbers prompt and "
                              f"completion from 0 to {WHOLE:,}")
