"""Finding levels: bundled packs by name, or any file in a supported format, with ``:RANGE``.

``sokoban`` + ``demo`` names ``resources/levels/sokoban/demo.xsb``; ``path/to/file.txt:3-7``
names levels 3 to 7 of a file (by their level numbers). A file's format comes from the game and
its content unless one is forced.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import resources
from games.base import GameSpec, Level, LevelError

_RANGE = re.compile(r"^\d+(-\d+)?(,\d+(-\d+)?)*$")


class RangeError(ValueError):
    """A ``:RANGE`` that cannot be read or selects nothing."""


@dataclass(frozen=True)
class LevelSource:
    """Where levels came from: a pack name or a file, with the levels chosen from it."""

    game: str
    name: str
    path: Path
    levels: tuple[Level, ...]

    @property
    def is_pack(self) -> bool:
        return self.path.parent == pack_dir(self.game)


def pack_dir(game: str) -> Path:
    return resources.path("levels", game)


def list_packs(game: str) -> list[str]:
    d = pack_dir(game)
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
    if sep and head and tail and (tail[0].isdigit() or "-" in tail or "," in tail):
        if not (len(head) == 1 and head.isalpha()):
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
        raise LevelError(
            f"not a {spec.name} level file in any supported format ({', '.join(spec.formats)})",
            source=str(path))
    by_suffix = [n for n in candidates if path.suffix.lower() in spec.formats[n].suffixes]
    return (by_suffix or candidates)[0]


def load_file(spec: GameSpec, path: Path, fmt: str | None = None) -> list[Level]:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise LevelError(f"not a UTF-8 text file ({err.reason} at byte {err.start})",
                         source=str(path)) from None
    except OSError as err:
        raise LevelError(err.strerror or str(err), source=str(path)) from None
    name = detect_format(spec, path, text, fmt)
    return spec.formats[name].load(text, str(path))


def select(levels: list[Level], range_text: str | None, source: str) -> list[Level]:
    if range_text is None:
        return levels
    spans = parse_range(range_text)
    chosen = [lv for lv in levels if any(a <= lv.number <= b for a, b in spans)]
    if not chosen:
        numbers = [lv.number for lv in levels]
        raise RangeError(
            f"range {range_text!r} selects no level of {source} "
            f"(its levels are numbered {min(numbers)}..{max(numbers)})")
    return chosen


def resolve(spec: GameSpec, text: str, fmt: str | None = None) -> LevelSource:
    """Levels named by ``PACK[:RANGE]`` or ``FILE[:RANGE]``."""
    name, range_text = split_source(text)
    path = Path(name)
    if not path.exists():
        d = pack_dir(spec.name)
        matches = sorted(d.glob(f"{name}.*")) if d.is_dir() and "/" not in name else []
        if not matches:
            packs = ", ".join(list_packs(spec.name)) or "none bundled"
            raise LevelError(f"no level file or {spec.name} pack named {name!r} "
                             f"(packs: {packs})")
        path = matches[0]
    levels = load_file(spec, path, fmt)
    return LevelSource(spec.name, name, path, tuple(select(levels, range_text, str(path))))
