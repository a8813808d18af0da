"""Reading an export's files one line at a time, each line held to its model
(:mod:`playbench.app.exports.schema`).

An export comes from another machine and is read as untrusted input (docs/security.md,
"Imports"): each line is parsed on its own (a file is never read whole), may be at most
:data:`MAX_LINE_BYTES` long, and holds only finite numbers: ``NaN``, ``Infinity`` and numbers too
big for a float (``1e999``) are refused - anywhere in the line, ``info`` included - where
Python's ``json`` would read them silently. Every field is held to its model (type, range,
length of its column), so that every refusal names the file, the line and the field before
anything is written - instead of an ``OverflowError``, a ``RecursionError`` or the database's
own error with its SQL.

A line is validated straight from its text by the model's compiled validator
(``model_validate_json``: 2.8 us per step line against 9.5 us for ``json.loads`` with finite
checks plus a hand-written check, measured with timeit on a bench_results step). That parser
reads ``NaN`` and ``Infinity`` and turns ``1e999`` into infinity, so a line holding either word
(a substring test; a regular expression for number literals cost more than the validation) or a
number that came out infinite, and a line it cannot parse, go through Python's parser instead,
which says exactly which literal, or nesting, is at fault.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from types import NoneType, UnionType
from typing import Annotated, Any, TextIO, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo

from playbench.app.exports.schema import FRAME_PATTERN, NOT_FINITE, PLAYBENCH, WHOLE
from playbench.games.yamlfile import excerpt

MAX_LINE_BYTES = 16 * 1024 * 1024
"""The longest line read. A step line holds at most a 256 KiB reply and its reasoning
(docs/security.md, "Replies") plus its info; 16 MiB leaves room for what a kind adds to info."""
_EXACT = frozenset({"json_invalid", "finite_number"})
"""Refusals of the fast path that the exact path says better: which literal was not finite,
how deep the nesting went, where the JSON broke."""
_AS_ONE = {"tokens": f"must hold whole numbers prompt and completion from 0 to {WHOLE:,}"}
"""Small objects whose refusal is said for the object as a whole."""

M = TypeVar("M", bound=BaseModel)


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


def validate_line(where: str, line: str, model: type[M]) -> M:
    """``line`` read as ``model``; :class:`ImportProblem` names ``where`` and the field."""
    if "NaN" not in line and "Infinity" not in line:  # literals the fast path would accept
        try:
            return model.model_validate_json(line)
        except ValidationError as err:
            first = err.errors(include_url=False)[0]
            if first["type"] not in _EXACT and (first.get("ctx") or {}).get("text") != NOT_FINITE:
                raise ImportProblem(f"{where}: {describe(model, err)}") from None
    obj = parse_line(where, line)  # says which literal or nesting is at fault, if one is
    try:
        return model.model_validate(obj)
    except ValidationError as err:
        raise ImportProblem(f"{where}: {describe(model, err)}") from None


def read_lines(path: Path, model: type[M], name: str | None = None
               ) -> Iterator[tuple[int, M]]:
    """``(line number, line as model)`` of each non-blank line of ``path`` (none when it is
    missing), one line in memory at a time."""
    name = name or path.name
    if not path.exists():
        return
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(bounded_lines(f, name), 1):
            if line.strip():
                yield n, validate_line(f"{name}:{n}", line, model)


def bounded_lines(f: TextIO, name: str) -> Iterator[str]:
    """The lines of an open text file, blank ones included (so their count is the line
    number), each at most :data:`MAX_LINE_BYTES` long; :class:`ImportProblem` names the line
    that is longer or not UTF-8."""
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
        yield line


# -- pydantic's first error as our sentence ------------------------------------------------------

def describe(model: type[BaseModel], err: ValidationError) -> str:
    """The first problem of ``err`` as PlayBench says it: the place in the line (``level:
    field 'number'``, ``members[2]: participant``) and the reason, quoting at most a short
    excerpt of the value."""
    e = err.errors(include_url=False)[0]
    kind, loc, value = e["type"], tuple(e["loc"]), e.get("input")
    ctx = e.get("ctx") or {}
    if kind == PLAYBENCH:  # our own words; they name what they concern
        return _at(_parts(loc)[:-1], str(ctx.get("text", e["msg"])))
    if not loc:
        return "expected a JSON object" if kind.endswith("_type") else e["msg"]
    if loc[0] in _AS_ONE and len(loc) > 1:
        return f"field {loc[0]!r} {_AS_ONE[str(loc[0])]}"
    subject_loc, key = (loc[:-1], True) if loc[-1] == "[key]" else (loc, False)
    parts = _parts(subject_loc)
    name = parts[-1]
    subject = f"name {excerpt(name)}" if key else f"field {name!r}"
    if kind == "missing":
        reason = f"{subject} is missing"
    elif kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than") or (
            kind in ("finite_number", "float_type") and type(value) is int):  # past a float
        whole, low, high = _range(model, subject_loc)
        reason = (f"{subject} must be a whole number from {low:,} to {high:,}" if whole
                  else f"{subject} must be a number from {low:g} to {high:g}")
    elif kind.endswith("_type"):
        reason = f"{subject} has the wrong type ({type(value).__name__})"
    elif kind == "finite_number":
        literal = "NaN" if value != value else ("Infinity" if value > 0 else "-Infinity")
        reason = (f"{subject} is {literal}, which is not a finite number (JSON numbers must be "
                  "finite)")
    elif kind == "string_too_long":
        reason = (f"{subject} is {len(value):,} characters long; at most "
                  f"{ctx['max_length']:,} are stored")
    elif kind == "string_too_short":
        reason = f"{subject} must not be empty"
    elif kind == "string_pattern_mismatch" and ctx.get("pattern") == FRAME_PATTERN:
        reason = f"{name} {excerpt(value)} is not a frame file name"
    elif kind == "literal_error":
        reason = f"unknown {name} {excerpt(value)} (known: {ctx.get('expected')})"
    else:
        reason = f"{subject}: {e['msg']}"
    return _at(parts[:-1], reason)


def _parts(loc: tuple) -> list[str]:
    """``('members', 0, 'participant')`` -> ``['members[0]', 'participant']``."""
    parts: list[str] = []
    for item in loc:
        if isinstance(item, int) and parts:
            parts[-1] += f"[{item}]"
        else:
            parts.append(str(item))
    return parts


def _at(head: list[str], reason: str) -> str:
    return ": ".join([*head, reason])


def _range(model: type[BaseModel], loc: tuple) -> tuple[bool, Any, Any]:
    """(whole number?, lowest, highest) the field at ``loc`` accepts, read from the model."""
    kind, meta = _field(model, loc)
    low = next((m.ge for m in meta if getattr(m, "ge", None) is not None), None)
    high = next((m.le for m in meta if getattr(m, "le", None) is not None), None)
    return kind is int, low, high


def _field(model: type[BaseModel], loc: tuple) -> tuple[Any, list]:
    """The plain type at ``loc`` in ``model`` and the constraints on it."""
    current: Any = model
    meta: list = []
    for part in loc:
        current, meta = _unwrap(current, meta)
        if isinstance(current, type) and issubclass(current, BaseModel):
            field = next(f for n, f in current.model_fields.items() if part in (n, f.alias))
            current, meta = field.annotation, list(field.metadata)
        elif get_origin(current) in (dict, list):
            current, meta = get_args(current)[-1], []
    return _unwrap(current, meta)


def _unwrap(tp: Any, meta: list) -> tuple[Any, list]:
    """``tp`` without ``Annotated`` (its constraints added to ``meta``) and without ``| None``."""
    while True:
        if get_origin(tp) is Annotated:
            tp, *extra = get_args(tp)
            for m in extra:
                meta = [*meta, *(m.metadata if isinstance(m, FieldInfo) else [m])]
        elif get_origin(tp) in (Union, UnionType):
            tp = next(a for a in get_args(tp) if a is not NoneType)
        else:
            return tp, meta
