"""Tower of Hanoi level files, both JSON lines (one level per line).

``ingvp`` is ING-VP's own layout (docs/reference/puzzles.md)::

    {"level": 1, "disks": 5, "position": {"A": [], "B": ["a", "b"], "C": ["c", "d", "e"], "D": []}}

Their files carry no disk order (their code treats ``a`` as the largest disk). The importer
detects it: a legal position fits only one order as soon as some rod holds two disks (always the
case with 5 disks on 4 rods), and that order is stored with the level as ``disk_order`` (the rule
option's name, so a run plays it under that order unless ``--rule disk_order=...`` says
otherwise). A position that fits neither order is refused; one that fits both (no rod holds two
disks) is refused too unless its line says ``"disk_order": ...`` itself, naming the level and the
fix.

``pack`` is ours and keeps metadata::

    {"number": 1, "title": "...", "board": {...}, "optimal": 8, "solution": "AC AD CD",
     "disk_order": "a-smallest", "disks": 5}

``number``, ``board`` and ``disk_order`` are required and the board must be legal under that
order; every other field is kept in the level's meta. The fields' types are held to
:class:`~playbench.games.level_records.HanoiPack` and ``HanoiIngVP`` before the rules see the
board. What :func:`dump` writes loads back to equal levels and is written back byte for byte.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from playbench.games import jsonlines as jl
from playbench.games.base import Level, LevelError, LevelFormat
from playbench.games.hanoi.rules import (
    ORDERS,
    HanoiState,
    encode,
    fitting_orders,
    misplaced,
    position_from_json,
)
from playbench.games.level_records import HanoiIngVP, HanoiPack, lines

_META_ORDER = ("optimal", "solution", "disk_order", "disks")


def _read(text: str, source: str, *, ingvp: bool) -> list[Level]:
    levels: list[Level] = []
    seen: set[int] = set()
    model: type[HanoiIngVP | HanoiPack] = HanoiIngVP if ingvp else HanoiPack
    for rec, number, where in lines(text, source, model):
        jl.claim_number(number, seen, where)
        board = rec.position if isinstance(rec, HanoiIngVP) else rec.board
        try:
            state = position_from_json(board, rec.disks)
        except LevelError as err:
            raise LevelError(err.reason, **where) from None
        if isinstance(rec, HanoiIngVP):
            levels.append(Level("hanoi", encode(state), number, "",
                                {"disk_order": _detected_order(state, rec.disk_order, where)}))
            continue
        why = misplaced(state, rec.disk_order)
        if why is not None:
            raise LevelError(why, **where)
        levels.append(Level("hanoi", encode(state), number, rec.title, rec.meta()))
    if not levels:
        raise LevelError("no Hanoi levels found (one JSON object per line)", source=source)
    return levels


def _detected_order(state: HanoiState, stated: str | None, where: dict[str, Any]) -> str:
    """The one disk order an ING-VP position is stacked for (see the module docstring)."""
    fits = fitting_orders(state)
    if not fits:
        raise LevelError(f"stacks fit neither disk order: {misplaced(state, 'a-smallest')}; "
                         f"{misplaced(state, 'a-largest')}", **where)
    if stated is not None:
        why = misplaced(state, stated)
        if why is not None:
            raise LevelError(why, **where)
        return stated
    if len(fits) > 1:
        raise LevelError("the stacks fit both disk orders (no rod holds two disks), so the "
                         "file does not say which disk is the largest; add "
                         '"disk_order": "a-smallest" or "a-largest" to this line', **where)
    return fits[0]


def load(text: str, source: str = "<text>") -> list[Level]:
    """Levels of our pack format."""
    return _read(text, source, ingvp=False)


def load_ingvp(text: str, source: str = "<text>") -> list[Level]:
    """Levels of an ING-VP Hanoi file."""
    return _read(text, source, ingvp=True)


def dump(levels: Sequence[Level]) -> str:
    return jl.dump_lines(jl.pack_record(lv, json.loads(lv.text), _META_ORDER) for lv in levels)


def dump_ingvp(levels: Sequence[Level]) -> str:
    def record(lv: Level) -> dict[str, Any]:
        board = json.loads(lv.text)
        disks = sum(len(stack) for stack in board.values())
        out: dict[str, Any] = {"level": lv.number, "disks": disks, "position": board}
        order = lv.meta.get("disk_order")
        if order in ORDERS and len(fitting_orders(position_from_json(board))) > 1:
            out["disk_order"] = order  # the stacks alone would not say it (see _detected_order)
        return out
    return jl.dump_lines(record(lv) for lv in levels)


def sniff(text: str) -> bool:
    obj = jl.first_record(text)
    return obj is not None and "board" in obj and isinstance(obj["board"], dict)


def sniff_ingvp(text: str) -> bool:
    obj = jl.first_record(text)
    return obj is not None and "position" in obj and isinstance(obj["position"], dict)


PACK = LevelFormat("pack", (".jsonl", ".json"), load, dump, sniff)
INGVP = LevelFormat("ingvp", (".jsonl", ".json", ".txt"), load_ingvp, dump_ingvp, sniff_ingvp)
