"""The JSON-lines level records of Hanoi, the 15-puzzle, 8-queens and Sudoku as pydantic models.

Each of the four games has two layouts (docs/levels.md, "Formats"): ING-VP's own
(``{"level", "position", ...}``, docs/reference/puzzles.md) and our pack's (``{"number",
"title", "board", "optimal", "solution", ...}``). A model per layout says which fields a line
may hold and the JSON type of each, strictly: ``"5"``, ``5.0`` and ``true`` are not the whole
number 5. What a board must look like inside (rods and disks, tiles, squares on the board,
81 digits) and whether it is legal stays with each game's rules, which say it in the game's
words ("off the board", "unsolvable"); so does every check that compares fields (an
``optimal`` that must equal the blanks, a ``disk_order`` the stacks must fit).

Our packs keep fields they do not know (``extra="allow"``): every field but the number, title
and board goes into the level's meta as written (the model's own fields first, in the order the
packs are written, then unknown ones in the order written), so a pack is written back byte for
byte. ING-VP's layouts ignore fields they do not know, as the readers always did.

:func:`lines` reads a file's lines through a model; :func:`read` holds one parsed line to it and
turns pydantic's first refusal into a :class:`LevelError` naming the file, the line, the level
and the field (``missing field 'board'``, ``field 'solution[2][0]' must be a whole number, got
'a'``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Any, ClassVar, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from playbench.games import jsonlines
from playbench.games.base import LevelError
from playbench.games.jsonlines import Record

MAX_WHOLE = 2_147_483_647
"""The largest whole number a record may hold: the database keeps level numbers in a 32-bit
column (docs/security.md, "Imports", holds exported counts to the same bound)."""

Whole = Annotated[int, Field(ge=0, le=MAX_WHOLE)]
"""A whole number from 0 (a move count)."""
Positive = Annotated[int, Field(ge=1, le=MAX_WHOLE)]
"""A whole number from 1 (a level number, a size)."""
Pair = Annotated[list[int], Field(min_length=2, max_length=2)]
"""``[row, col]``; whether the square is on the board is the rules' to say."""
DiskOrder = Literal["a-smallest", "a-largest"]
"""Which Hanoi disk is the smallest (the rule option of the same name)."""

POSITIVE = f"must be a positive whole number up to {MAX_WHOLE:,}"
WHOLE = f"must be a whole number from 0 to {MAX_WHOLE:,}"
_BY_TYPE = {"int_type": "must be a whole number", "string_type": "must be text",
            "list_type": "must be a list", "dict_type": "must be an object",
            "too_short": "must be a [row, col] pair", "too_long": "must be a [row, col] pair"}
"""What a value inside a field must be, by pydantic's error type (a field's own value is said
by its model's :attr:`LevelRecord.says`)."""
EXCERPT = 60


class LevelRecord(BaseModel):
    """What every layout shares: strict types, and the words that say what each field must be."""

    model_config = ConfigDict(strict=True, extra="ignore", defer_build=True)

    says: ClassVar[dict[str, str]] = {}
    number_key: ClassVar[str] = "number"

    def level_number(self, ordinal: int) -> int:
        """The level's number; ``ordinal`` (the line's position among the records) where the
        layout lets a line leave its number out."""
        raise NotImplementedError

    def has(self, name: str) -> bool:
        """Whether the line gave the field ``name`` (an absent field holds its default)."""
        return name in self.__pydantic_fields_set__


class _Pack(LevelRecord):
    """Our pack's shared fields; every other field is kept for the level's meta."""

    model_config = ConfigDict(extra="allow")

    _meta_fields: ClassVar[tuple[str, ...]] = ()
    says = {"number": POSITIVE, "title": "must be text", "optimal": WHOLE}

    number: Positive
    title: str = ""

    def level_number(self, ordinal: int) -> int:
        return self.number

    def meta(self) -> dict[str, Any]:
        """Every field the line gave but the number, title and board, for the level's meta:
        the model's own fields in its order (the order :func:`dump` writes them), then unknown
        ones as written, in the order written."""
        given, values = self.__pydantic_fields_set__, self.__dict__
        out = {name: values[name] for name in self._meta_fields if name in given}
        out.update(self.__pydantic_extra__ or {})
        return out

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        # once per model, not per line (reading model_fields costs microseconds)
        cls._meta_fields = tuple(name for name in cls.model_fields if name not in _NOT_META)


_NOT_META = frozenset({"number", "title", "board"})


class _NumberOptional(_Pack):
    """A pack whose lines may leave the number out: the level is then numbered by its position
    (0, the default, is never a valid number, so it marks the absence)."""

    number: Positive = 0

    def level_number(self, ordinal: int) -> int:
        return self.number or ordinal


class _IngVP(LevelRecord):
    """ING-VP's shared field: ``level``, always given."""

    number_key = "level"
    says = {"level": POSITIVE}

    level: Positive

    def level_number(self, ordinal: int) -> int:
        return self.level


class HanoiPack(_Pack):
    """``{"number", "title", "board": {rod: [disks]}, "optimal", "solution": "AC AD ...",
    "disk_order", "disks"}``."""

    says = {**_Pack.says, "board": "must be an object of rods (A-D) and their disks",
            "solution": 'must be text (moves such as "AD" separated by spaces)',
            "disk_order": "must be 'a-smallest' or 'a-largest'", "disks": POSITIVE}

    board: dict[str, Any]
    optimal: Whole = 0
    solution: str = ""
    disk_order: DiskOrder
    disks: Positive | None = None


class HanoiIngVP(_IngVP):
    """``{"level", "disks", "position": {rod: [disks]}}``, and ``disk_order`` where the stacks
    alone do not say it."""

    says = {**_IngVP.says, "position": "must be an object of rods (A-D) and their disks",
            "disks": POSITIVE, "disk_order": "must be 'a-smallest' or 'a-largest'"}

    disks: Positive | None = None
    position: dict[str, Any]
    disk_order: DiskOrder | None = None


class NPuzzlePack(_Pack):
    """``{"number", "title", "board": [[tiles]], "optimal", "solution": "12 8 4", "n"}``."""

    says = {**_Pack.says, "board": "must be a list of rows of tiles", "n": POSITIVE,
            "solution": "must be text (tile numbers separated by spaces)"}

    board: list[Any]
    optimal: Whole = 0
    solution: str = ""
    n: Positive | None = None


class NPuzzleIngVP(_IngVP):
    """``{"level", "n", "position": [[tiles]]}``."""

    says = {**_IngVP.says, "position": "must be a list of rows of tiles", "n": POSITIVE}

    n: Positive | None = None
    position: list[Any]


class QueensPack(_NumberOptional):
    """``{"number", "title", "board": [[row, col], ...], "optimal", "solution": [[row, col],
    ...]}``."""

    says = {**_Pack.says, "board": "must be a list of [row, col] pairs",
            "solution": "must be a list of [row, col] pairs"}

    board: list[Any]
    optimal: Whole = 0
    solution: list[Pair] = []


class QueensIngVP(_IngVP):
    """``{"level", "board_size", "position": [row, col]}``: one pre-placed queen."""

    says = {**_IngVP.says, "board_size": POSITIVE, "position": "must be a [row, col] pair"}

    board_size: Positive = 8
    position: list[Any]


class SudokuPack(_NumberOptional):
    """``{"number", "title", "board": "<81 digits>", "optimal", "solution": "<81 digits>"}``;
    a null solution is an absent one."""

    says = {**_Pack.says, "board": "must be text of 81 digits",
            "solution": "must be text of 81 digits"}

    board: str
    optimal: Whole = 0
    solution: str | None = None


class SudokuIngVP(_IngVP):
    """``{"level", "position": "<81 digits>", "solutions": "<81 digits>", "clue_numbers"}``;
    a null ``solutions`` is an absent one."""

    says = {**_IngVP.says, "position": "must be text of 81 digits",
            "solutions": "must be text of 81 digits", "clue_numbers": WHOLE}

    position: str
    solutions: str | None = None
    clue_numbers: Whole = 0


R = TypeVar("R", bound=LevelRecord)


def lines(text: str, source: str, model: type[R]) -> Iterator[tuple[R, int, dict[str, Any]]]:
    """(the line's record, its level number, where a :class:`LevelError` about it is placed)
    per non-blank line of ``text``, each line held to ``model``.

    A line is validated straight from its text (pydantic's JSON reader: 2.2 us for a Hanoi
    pack line, against 3.2 us for ``json.loads`` alone and 5.9 us for both, timeit on the
    shared machine). A line that reader refuses for any reason goes through Python's reader
    and :func:`read` instead, which say where the JSON breaks and read the few lines only Python
    accepts (a lone surrogate escape in a string), so both ways load and refuse the same lines.
    """
    validate = model.__pydantic_validator__.validate_json  # model_validate_json's own cost: 1 us
    for no, ordinal, raw in jsonlines.lines(text):
        try:
            rec: R = validate(raw)
        except ValidationError:
            rec = read(model, jsonlines.parse(raw, no, ordinal, source), source)
        number = rec.level_number(ordinal)
        yield rec, number, {"source": source, "line": no, "level": number}


def read(model: type[R], record: Record, source: str) -> R:
    """``record``'s line held to ``model``; the first problem raises :class:`LevelError` at
    the line, under the line's level number when that number is itself valid (else under the
    line's position, as for a line that is not JSON)."""
    try:
        return model.model_validate(record.obj)
    except ValidationError as err:
        number = record.obj.get(model.number_key)
        valid = type(number) is int and 1 <= number <= MAX_WHOLE
        raise LevelError(problem(err, model.says), source=source, line=record.line,
                         level=number if valid else record.ordinal) from None


def problem(err: ValidationError, says: dict[str, str]) -> str:
    """The first refusal of ``err`` in our words: ``missing field 'x'`` or ``field 'x' must be
    ..., got <excerpt>``, a place inside a field spelled ``solution[2][0]``."""
    e = err.errors(include_url=False, include_context=False)[0]
    loc = e["loc"]
    name = str(loc[0]) + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc[1:])
    if e["type"] == "missing":
        return f"missing field {name!r}"
    if len(loc) == 1 and str(loc[0]) in says:
        what = says[str(loc[0])]
    else:
        what = _BY_TYPE.get(e["type"], f"is not valid ({e['msg']})")
    return f"field {name!r} {what}, got {excerpt(e['input'])}"


def excerpt(value: Any, limit: int = EXCERPT) -> str:
    """``repr(value)`` cut to about ``limit`` characters, without building the repr of a big
    list or object. (``yamlfile.excerpt`` does the same, but importing it would load PyYAML
    into every process that reads a level file.)"""
    if isinstance(value, (list, dict)) and len(value) > limit // 2:
        return f"<{'list' if isinstance(value, list) else 'object'} of {len(value)} items>"
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


__all__ = ["MAX_WHOLE", "HanoiIngVP", "HanoiPack", "LevelRecord", "NPuzzleIngVP", "NPuzzlePack",
           "QueensIngVP", "QueensPack", "SudokuIngVP", "SudokuPack", "lines", "problem",
           "read"]
