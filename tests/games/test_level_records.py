"""The JSON-lines level records (Hanoi, 15-puzzle, 8-queens, Sudoku; our pack and ING-VP's
layout each) are held to their models in games/level_records.py.

A valid line of each layout is taken from the shipped ``ingvp`` packs and broken one field at a
time: a required field dropped, a value of another JSON type, ``true`` or ``1.0`` for a number, a
number out of range. Each broken line must be refused with a LevelError naming the file, the line,
the level and the field - never another exception, never accepted. Valid records built from the
same boards, with titles and unknown fields of any JSON value, load and dump back to the same
objects.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import playbench
from playbench.games import jsonlines
from playbench.games import level_records as lr
from playbench.games.base import Level, LevelError
from playbench.games.hanoi import formats as hanoi
from playbench.games.npuzzle import formats as npuzzle
from playbench.games.queens import formats as queens
from playbench.games.sudoku import formats as sudoku

MAX_WHOLE = 2_147_483_647
"""The bound of a level number (the database's 32-bit column) and of the other counts."""
LEVELS = Path(playbench.__file__).resolve().parent / "resources" / "levels"


def shipped(game: str, load: Callable[[str, str], list[Level]]) -> list[Level]:
    path = LEVELS / game / "ingvp.jsonl"
    return load(path.read_text(encoding="utf-8"), str(path))


@dataclass(frozen=True)
class Layout:
    """One record layout: its reader and writer, valid records, and what each field is."""

    load: Callable[[str, str], list[Level]]
    dump: Callable[[list[Level]], str]
    records: list[dict[str, Any]]
    number: str
    kinds: dict[str, str]
    """field -> positive | whole | text | object | list | order | pairs"""
    required: frozenset[str]
    nullable: frozenset[str] = field(default_factory=frozenset)
    """Fields where null stands for an absent value (as the readers always had it)."""


def _records(dump: Callable[[list[Level]], str], levels: list[Level]) -> list[dict[str, Any]]:
    return [json.loads(line) for line in dump(levels).split("\n")[:-1]]


_H = shipped("hanoi", hanoi.load)
_P = shipped("npuzzle", npuzzle.load)
_Q = shipped("queens", queens.load_pack)
_S = shipped("sudoku", sudoku.load_pack)

LAYOUTS = {
    "hanoi.pack": Layout(hanoi.load, hanoi.dump, _records(hanoi.dump, _H), "number",
                         {"number": "positive", "title": "text", "board": "object",
                          "optimal": "whole", "solution": "text", "disk_order": "order",
                          "disks": "positive"},
                         frozenset({"number", "board", "disk_order"}), frozenset({"disks"})),
    "hanoi.ingvp": Layout(hanoi.load_ingvp, hanoi.dump_ingvp, _records(hanoi.dump_ingvp, _H),
                          "level", {"level": "positive", "disks": "positive",
                                    "position": "object", "disk_order": "order"},
                          frozenset({"level", "position"}), frozenset({"disks", "disk_order"})),
    "npuzzle.pack": Layout(npuzzle.load, npuzzle.dump, _records(npuzzle.dump, _P), "number",
                           {"number": "positive", "title": "text", "board": "list",
                            "n": "positive", "optimal": "whole", "solution": "text"},
                           frozenset({"number", "board"}), frozenset({"n"})),
    "npuzzle.ingvp": Layout(npuzzle.load_ingvp, npuzzle.dump_ingvp,
                            _records(npuzzle.dump_ingvp, _P), "level",
                            {"level": "positive", "n": "positive", "position": "list"},
                            frozenset({"level", "position"}), frozenset({"n"})),
    "queens.pack": Layout(queens.load_pack, queens.dump_pack, _records(queens.dump_pack, _Q),
                          "number", {"number": "positive", "title": "text", "board": "list",
                                     "optimal": "whole", "solution": "pairs"},
                          frozenset({"board"})),
    "queens.ingvp": Layout(queens.load_ingvp, queens.dump_ingvp,
                           _records(queens.dump_ingvp, _Q), "level",
                           {"level": "positive", "board_size": "positive", "position": "list"},
                           frozenset({"level", "position"})),
    "sudoku.pack": Layout(sudoku.load_pack, sudoku.dump_pack, _records(sudoku.dump_pack, _S),
                          "number", {"number": "positive", "title": "text", "board": "text",
                                     "optimal": "whole", "solution": "text"},
                          frozenset({"board"}), frozenset({"solution"})),
    "sudoku.ingvp": Layout(sudoku.load_ingvp, sudoku.dump_ingvp,
                           _records(sudoku.dump_ingvp, _S), "level",
                           {"level": "positive", "position": "text", "solutions": "text",
                            "clue_numbers": "whole"},
                           frozenset({"level", "position"}), frozenset({"solutions"})),
}

MODELS = {"hanoi.pack": lr.HanoiPack, "hanoi.ingvp": lr.HanoiIngVP,
          "npuzzle.pack": lr.NPuzzlePack, "npuzzle.ingvp": lr.NPuzzleIngVP,
          "queens.pack": lr.QueensPack, "queens.ingvp": lr.QueensIngVP,
          "sudoku.pack": lr.SudokuPack, "sudoku.ingvp": lr.SudokuIngVP}

_json_scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**40, 10**40),
                          st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=6))
json_values = st.recursive(_json_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=4), inner, max_size=3)),
    max_leaves=6)

_TYPE_OF = {"positive": int, "whole": int, "text": str, "object": dict, "list": list,
            "order": str, "pairs": list}


def wrong_values(kind: str, nullable: bool) -> st.SearchStrategy[Any]:
    """Values a field of ``kind`` must refuse."""
    right = _TYPE_OF[kind]
    other_type = json_values.filter(
        lambda v: not (type(v) is right or (v is None and nullable)))
    if kind in ("positive", "whole"):
        low = 0 if kind == "positive" else -1
        return st.one_of(other_type, st.booleans(), st.integers(max_value=low),
                         st.integers(min_value=MAX_WHOLE + 1, max_value=10**60),
                         st.integers(0, 99).map(float))
    if kind == "order":
        return st.one_of(other_type, st.text(max_size=12).filter(
            lambda v: v not in ("a-smallest", "a-largest")))
    if kind == "pairs":
        pair_of_wrong = st.tuples(st.integers(0, 7), json_values.filter(
            lambda v: type(v) is not int)).map(list)
        return st.one_of(other_type, st.lists(pair_of_wrong, min_size=1, max_size=2),
                         st.lists(st.integers(0, 7), min_size=1).filter(lambda v: len(v) != 2)
                         .map(lambda v: [v]))
    return other_type


@st.composite
def broken_lines(draw: st.DrawFn, name: str) -> tuple[dict[str, Any], str]:
    """(record, field it breaks): a shipped record with one field dropped or given a wrong
    value."""
    layout = LAYOUTS[name]
    record = dict(draw(st.sampled_from(layout.records[1:])))
    record[layout.number] = 2
    key = draw(st.sampled_from(sorted(layout.kinds)))
    if key in layout.required and draw(st.booleans()):
        del record[key]
    else:
        record[key] = draw(wrong_values(layout.kinds[key], key in layout.nullable))
    return record, key


def _check_refused(name: str, record: dict[str, Any], key: str) -> None:
    layout = LAYOUTS[name]
    text = json.dumps(layout.records[0]) + "\n\n" + json.dumps(record) + "\n"
    with pytest.raises(LevelError) as err:
        layout.load(text, "levels.jsonl")
    message = str(err.value)
    assert message.startswith("levels.jsonl:3: level 2: "), message
    assert (f"missing field {key!r}" in message if key not in record
            else f"field '{key}" in message), message


@pytest.mark.parametrize("name", sorted(LAYOUTS))
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_a_broken_field_is_refused_naming_file_line_level_and_field(name, data):
    record, key = data.draw(broken_lines(name))
    _check_refused(name, record, key)


# What main accepted (or crashed on later, in the run's scoring or the database) - each one a
# line the model now refuses naming its field.
@pytest.mark.parametrize("name,key,value", [
    ("hanoi.pack", "number", 10**30),           # OverflowError storing the task
    ("npuzzle.ingvp", "level", MAX_WHOLE + 1),
    ("hanoi.pack", "optimal", "eight"),         # TypeError when the episode was scored
    ("npuzzle.pack", "optimal", -3),
    ("hanoi.pack", "optimal", True),
    ("npuzzle.pack", "solution", 5),
    ("hanoi.pack", "solution", {"moves": "AD"}),
    ("queens.pack", "optimal", 7.0),
    ("sudoku.pack", "optimal", 10.0),
    ("queens.ingvp", "board_size", 8.0),
    ("sudoku.ingvp", "clue_numbers", 71.0),
])
def test_values_main_accepted_are_refused(name, key, value):
    record = dict(LAYOUTS[name].records[1])
    record[LAYOUTS[name].number] = 2
    record[key] = value
    _check_refused(name, record, key)


def test_a_place_inside_a_field_is_spelled_out():
    record = dict(LAYOUTS["queens.pack"].records[1], solution=[[1, 4], [2, 7], [3, "x"]])
    with pytest.raises(LevelError) as err:
        queens.load_pack(json.dumps(record), "q.jsonl")
    assert str(err.value) == ("q.jsonl:1: level 2: field 'solution[2][1]' must be a whole "
                              "number, got 'x'")


_extra_keys = st.text(min_size=1, max_size=8)


@st.composite
def valid_records(draw: st.DrawFn, name: str) -> list[dict[str, Any]]:
    """Records of shipped boards, numbered 1.., with (in our packs) any title and unknown
    fields holding any JSON value."""
    layout = LAYOUTS[name]
    chosen = draw(st.lists(st.sampled_from(layout.records), min_size=1, max_size=4))
    out = []
    for i, base in enumerate(chosen, start=1):
        record = dict(base)
        record[layout.number] = i
        if name.endswith(".pack"):
            record["title"] = draw(st.text(max_size=12))
            extra = draw(st.dictionaries(_extra_keys.filter(lambda k: k not in layout.kinds),
                                         json_values, max_size=3))
            record.update(extra)
        out.append(record)
    return out


@pytest.mark.parametrize("name", sorted(LAYOUTS))
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_valid_records_load_and_dump_back_equal(name, data):
    layout = LAYOUTS[name]
    records = data.draw(valid_records(name))
    text = "".join(json.dumps(r) + "\n" for r in records)
    levels = layout.load(text, "ok.jsonl")
    assert [lv.number for lv in levels] == list(range(1, len(records) + 1))
    written = layout.dump(levels)
    # only "\n" ends a line: titles may hold U+0085 and U+2028, which splitlines() splits at
    assert [json.loads(line) for line in written.split("\n")[:-1]] == records
    assert layout.dump(layout.load(written, "again.jsonl")) == written


def _outcome(run: Callable[[], list[Any]]) -> Any:
    try:
        return [(rec.model_dump(), rec.model_extra) for rec in run()]
    except LevelError as err:
        return str(err)


@pytest.mark.parametrize("name", sorted(LAYOUTS))
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_the_fast_reader_and_pythons_reader_agree(name, data):
    """Lines are validated from their text by pydantic's JSON reader, falling back to Python's
    reader; on any line - valid, broken, not a record, not JSON - both give the same."""
    model = MODELS[name]
    record = data.draw(st.one_of(valid_records(name).map(lambda r: r[0]),
                                 broken_lines(name).map(lambda r: r[0]), json_values))
    line = json.dumps(record, ensure_ascii=data.draw(st.booleans()))
    line = data.draw(st.sampled_from([line, line[:-1], line + " ", "\ufeff" + line]))
    text = "\n" + line + "\n"
    fast = _outcome(lambda: [rec for rec, _, _ in lr.lines(text, "f", model)])
    exact = _outcome(lambda: [lr.read(model, r, "f") for r in jsonlines.records(text, "f")])
    assert fast == exact


@pytest.mark.parametrize("escaped", [True, False])
def test_a_line_only_pythons_reader_accepts_still_loads(escaped):
    """A lone surrogate in a string is JSON Python reads and pydantic's reader refuses."""
    record = dict(LAYOUTS["hanoi.pack"].records[0], title="half \ud800 a pair")
    line = json.dumps(record, ensure_ascii=escaped)
    (level,) = hanoi.load(line + "\n", "s.jsonl")
    assert level.title == "half \ud800 a pair"
