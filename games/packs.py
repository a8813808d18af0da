"""Finding levels: bundled packs by name, or any file in a supported format, with ``:RANGE``.

``sokoban`` + ``demo`` names ``resources/levels/sokoban/demo.xsb``; ``path/to/file.txt:3-7``
names levels 3 to 7 of a file (by their level numbers). A file's format comes from the game and
its content unless one is forced.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from pathlib import Path

from playbench import resources
from playbench.games.base import FileReader, GameSpec, Level, LevelError

_RANGE = re.compile(r"^\d+(-\d+)?(,\d+(-\d+)?)*$")

MAX_FILE_BYTES = 8 * 1024 * 1024
"""The largest level file read whole (docs/security.md, Limits). A bigger file can still be
used with a ``:RANGE`` whose levels lie within its first ``MAX_FILE_BYTES``: a range reads the
file only as far as it needs."""
MAX_BOARD_SIDE = 100
"""The most rows, and characters per row, of one level (docs/security.md, Limits): every
step renders and hashes the whole board, so a 400-wide board costs seconds per step."""
_FIRST_READ = 64 * 1024


class RangeError(ValueError):
    """A ``:RANGE`` that cannot be read or selects nothing."""


@dataclass(frozen=True)
class LevelSource:
    """Where levels came from: a pack name or a file, with the levels chosen from it."""

    game: str
    name: str
    path: Path
    levels: tuple[Level, ...]
    bundled_dir: Path | None = None
    """The directory bundled packs were looked up in (None: ``resources/levels/<game>``)."""

    @property
    def is_pack(self) -> bool:
        return self.path.parent == (self.bundled_dir or pack_dir(self.game))


def pack_dir(game: str) -> Path:
    """PlayBench's own directory of bundled packs for ``game``."""
    return resources.path("levels", game)


def list_packs(game: str, directory: Path | None = None) -> list[str]:
    """Names of the bundled packs in ``directory`` (default: :func:`pack_dir` of ``game``);
    a kind from another package passes its own directory."""
    d = directory if directory is not None else pack_dir(game)
    if not d.is_dir():
        return []
    return sorted(p.stem for p in d.iterdir() if p.is_file() and not p.name.startswith("."))


def parse_range(text: str) -> list[tuple[int, int]]:
    """``"3"``, ``"2-5"``, ``"1,4,6-9"`` as inclusive (low, high) pairs."""
    if not _RANGE.match(text):
        raise RangeError(f"bad range {text!r}: use N, A-B or a comma list such as 1,3,5-7")
    spans = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        a, b = int(lo), int(hi or lo)
        if a < 1 or b < a:
            raise RangeError(f"bad range {text!r}: {part!r} must be ascending and start at 1")
        spans.append((a, b))
    return spans


def split_source(text: str) -> tuple[str, str | None]:
    """Separate a trailing ``:RANGE`` (a Windows drive letter is not a range)."""
    head, sep, tail = text.rpartition(":")
    if (sep and head and tail and (tail[0].isdigit() or "-" in tail or "," in tail)
            and not (len(head) == 1 and head.isalpha())):
        return head, tail
    return text, None


def detect_format(spec: GameSpec, path: Path, text: str, forced: str | None = None) -> str:
    """The level format of a file: forced, else the one whose sniff accepts the content
    (preferring the one matching the suffix)."""
    if forced:
        if forced not in spec.formats:
            raise LevelError(
                f"unknown level format {forced!r} for {spec.name} "
                f"(valid: {', '.join(spec.formats)})", source=str(path))
        return forced
    if not text.strip():
        raise LevelError("the file is empty", source=str(path))
    candidates = [name for name, fmt in spec.formats.items() if fmt.sniff(text)]
    if not candidates:
        return _closest_format(spec, path, text)
    by_suffix = [n for n in candidates if path.suffix.lower() in spec.formats[n].suffixes]
    return (by_suffix or candidates)[0]


def _read(path: Path, limit: int | None) -> tuple[str, bool]:
    """The file's text, whole, or (with ``limit``) its first ``limit`` bytes cut after the
    last blank line in them; the flag says whether that is the whole file."""
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1 if limit is not None else -1)
    except OSError as err:
        raise LevelError(err.strerror or str(err), source=str(path)) from None
    whole = limit is None or len(data) <= limit
    if not whole:
        cut = data.rfind(b"\n\n", 0, limit)
        data = data[:cut + 1] if cut >= 0 else b""
    try:
        return data.decode("utf-8"), whole
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise LevelError(f"not a UTF-8 text file ({err.reason} at byte {err.start})",
                         source=str(path), line=line) from None


def _too_big(path: Path, size: int) -> LevelError:
    return LevelError(
        f"the file is {size / 1e6:.1f} MB; PlayBench reads level files of up to "
        f"{MAX_FILE_BYTES // (1024 * 1024)} MiB whole - choose levels with FILE:RANGE "
        "(a range reads only as far as it needs) or split the file", source=str(path))


def check_board_size(level: Level, source: str) -> None:
    """Refuse a level whose board is larger than :data:`MAX_BOARD_SIDE` either way."""
    rows = level.text.split("\n")
    width = max((len(r) for r in rows), default=0)
    if len(rows) > MAX_BOARD_SIDE or width > MAX_BOARD_SIDE:
        raise LevelError(
            f"the board is {width} wide and {len(rows)} high; PlayBench plays boards of up "
            f"to {MAX_BOARD_SIDE}x{MAX_BOARD_SIDE}", source=source, level=level.number)


def _checked(levels: list[Level], source: str) -> list[Level]:
    for level in levels:
        check_board_size(level, source)
    return levels


def _closest_format(spec: GameSpec, path: Path, text: str) -> str:
    """For a file no format recognises at a glance: the format whose loader accepts it after
    all, else an error naming the line where the format that read furthest stopped, and what
    it expected there."""
    refusals: list[tuple[int, str, LevelError]] = []
    for name, fmt in spec.formats.items():
        try:
            fmt.load(text, str(path))
        except LevelError as err:
            refusals.append((err.line or 0, name, err))
        except Exception:  # a loader's own bug must not hide the other formats' answers
            continue
        else:
            return name
    names = ", ".join(spec.formats)
    if not refusals:
        raise LevelError(f"not a {spec.name} level file in any supported format ({names})",
                         source=str(path))
    line, furthest, refusal = max(refusals, key=lambda r: r[0])
    raise LevelError(f"not a {spec.name} level file in any supported format ({names}); read "
                     f"as {furthest}: {refusal.reason}", source=str(path), line=line or None,
                     level=refusal.level)


def reader_for(spec: GameSpec, path: Path, fmt: str | None = None) -> FileReader | None:
    """The game's :class:`FileReader` that claims ``path`` (None when a text format is forced,
    or no reader claims it)."""
    if fmt is not None and fmt in spec.formats:
        return None
    return next((r for r in spec.readers if (fmt is None or fmt == r.name) and r.claims(path)),
                None)


def load_file(spec: GameSpec, path: Path, fmt: str | None = None) -> list[Level]:
    """Every level of a file (at most :data:`MAX_FILE_BYTES`), each board within
    :data:`MAX_BOARD_SIDE`. A file one of the game's readers claims is read by that reader."""
    reader = reader_for(spec, path, fmt)
    if reader is not None:
        return _checked(reader.read(path), str(path))
    try:
        size = path.stat().st_size
    except OSError as err:
        raise LevelError(err.strerror or str(err), source=str(path)) from None
    if size > MAX_FILE_BYTES:
        raise _too_big(path, size)
    text, _ = _read(path, None)
    name = detect_format(spec, path, text, fmt)
    return _checked(spec.formats[name].load(text, str(path)), str(path))


def _wanted(spans: list[tuple[int, int]]) -> set[int]:
    return {n for a, b in spans for n in range(a, b + 1)}


def load_range(spec: GameSpec, path: Path, range_text: str,
               fmt: str | None = None) -> list[Level]:
    """The levels of ``path`` that ``range_text`` chooses, reading the file only as far as
    needed: a growing head of it (cut after a blank line) is loaded until every chosen
    number has been seen before its last level (which a cut may have split). A file that
    ends first, or a range not found within :data:`MAX_FILE_BYTES`, is read as
    :func:`load_file` reads it."""
    spans = parse_range(range_text)
    if reader_for(spec, path, fmt) is not None:
        return select(load_file(spec, path, fmt), range_text, str(path))
    wanted = _wanted(spans) if sum(b - a + 1 for a, b in spans) <= 100_000 else None
    limit = _FIRST_READ
    while wanted is not None and limit < MAX_FILE_BYTES:
        text, whole = _read(path, limit)
        if whole:
            break
        if text.strip():
            name = detect_format(spec, path, text, fmt)
            try:
                levels = spec.formats[name].load(text, str(path))
            except LevelError:
                levels = []  # the head may end inside something: read further
            complete = levels[:-1]
            if wanted <= {lv.number for lv in complete}:
                return _checked(select(complete, range_text, str(path)), str(path))
        limit *= 4
    return select(load_file(spec, path, fmt), range_text, str(path))


def select(levels: list[Level], range_text: str | None, source: str,
           spans: list[tuple[int, int]] | None = None, noun: str = "level") -> list[Level]:
    """The levels ``range_text`` numbers, in file order. Every number it names must exist: a
    range that names a missing level is refused, naming the missing numbers (a study built from
    it would otherwise hold fewer tasks than its file says). ``spans``: the range already
    parsed (web task ids start at 0, so they have their own parser); ``noun``: what the
    numbers count in messages."""
    if range_text is None:
        return levels
    spans = parse_range(range_text) if spans is None else spans
    present = {lv.number for lv in levels}
    chosen = [lv for lv in levels if any(a <= lv.number <= b for a, b in spans)]
    named = sum(b - a + 1 for a, b in spans)
    if len({lv.number for lv in chosen}) < named:
        known = f"numbered {min(present)}..{max(present)}" if present else "none"
        missing = list(itertools.islice((n for a, b in spans for n in range(a, b + 1)
                                         if n not in present), 200))
        what = f"selects no {noun}" if not chosen else \
            f"names {noun}s that do not exist ({number_list(missing)})"
        raise RangeError(f"range {range_text!r} {what} of {source} (its {noun}s are {known})")
    return chosen


def number_list(numbers: list[int], limit: int = 12) -> str:
    """``[3, 4, 5, 9]`` as ``"3-5, 9"``; long lists are cut after ``limit`` runs."""
    runs: list[list[int]] = []
    for n in sorted(set(numbers)):
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    text = [f"{a}" if a == b else f"{a}-{b}" for a, b in runs[:limit]]
    return ", ".join(text) + (f" and {len(runs) - limit} more" if len(runs) > limit else "")


def resolve(spec: GameSpec, text: str, fmt: str | None = None, *,
            directory: Path | None = None) -> LevelSource:
    """Levels named by ``PACK[:RANGE]`` or ``FILE[:RANGE]``; packs are looked up in
    ``directory`` (default: :func:`pack_dir` of the game)."""
    name, range_text = split_source(text)
    path = Path(name)
    if not path.exists():
        d = directory if directory is not None else pack_dir(spec.name)
        matches = sorted(d.glob(f"{name}.*")) if d.is_dir() and "/" not in name else []
        if not matches:
            packs = ", ".join(list_packs(spec.name, d)) or "none bundled"
            raise LevelError(f"no level file or {spec.name} pack named {name!r} "
                             f"(packs: {packs})")
        path = matches[0]
    chosen = load_file(spec, path, fmt) if range_text is None else \
        load_range(spec, path, range_text, fmt)
    return LevelSource(spec.name, name, path, tuple(chosen), directory)
