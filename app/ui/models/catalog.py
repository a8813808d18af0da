"""The level library: games, their level packs (bundled or added files), levels with facts,
filters and thumbnails.

Loading a pack is quick (milliseconds); thumbnails are rendered in a worker thread by
:func:`thumbnails` (pygame draws without a display, so that is safe off the UI thread).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

from games import registry
from games.base import BoardEnv, Level, LevelError
from games.packs import list_packs, resolve


@dataclass(frozen=True)
class GameRef:
    name: str
    title: str
    move_help: str


@dataclass(frozen=True)
class PackRef:
    """A level source as the library lists it; ``source`` is what ``games.packs.resolve``
    takes (a bundled pack's name or a file path)."""

    game: str
    label: str
    source: str
    bundled: bool


@dataclass(frozen=True)
class LevelRow:
    level: Level
    facts: Mapping[str, Any]
    optimal: int | None

    @property
    def title(self) -> str:
        return self.level.title or f"level {self.level.number}"


@dataclass(frozen=True)
class LevelFilter:
    """Which levels to list: a text that must appear in the title or facts, and bounds on
    the optimal solution length (levels of unknown length pass only without bounds)."""

    text: str = ""
    min_optimal: int | None = None
    max_optimal: int | None = None

    def accepts(self, row: LevelRow) -> bool:
        if self.text:
            hay = " ".join([row.title, str(row.level.number),
                            *(f"{k} {v}" for k, v in row.facts.items())]).lower()
            if self.text.lower() not in hay:
                return False
        if self.min_optimal is None and self.max_optimal is None:
            return True
        if row.optimal is None:
            return False
        if self.min_optimal is not None and row.optimal < self.min_optimal:
            return False
        return self.max_optimal is None or row.optimal <= self.max_optimal

    def apply(self, rows: Iterable[LevelRow]) -> list[LevelRow]:
        return [r for r in rows if self.accepts(r)]


def games() -> list[GameRef]:
    """Every installed board game, in the registry's order."""
    out = []
    for name in registry.available():
        spec = registry.get(name)
        out.append(GameRef(name, spec.title, spec.move_help))
    return out


def packs(game: str, added_files: Sequence[str] = ()) -> list[PackRef]:
    """Bundled packs first, then the files a person added (missing files included, so that
    opening one reports what happened instead of the entry vanishing)."""
    out = [PackRef(game, name, name, True) for name in sorted(list_packs(game), key=_natural)]
    for path in added_files:
        out.append(PackRef(game, f"{Path(path).name} (file)", path, False))
    return out


def _natural(name: str) -> list[Any]:
    """Sort key putting ``depth-4`` before ``depth-12``."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def game_picture(game: str, edge: int = 48) -> np.ndarray | None:
    """A small picture of the game: the first level of its first pack (for the game list)."""
    refs = packs(game)
    if not refs:
        return None
    try:
        level = load(refs[0])[0].level
    except (LevelError, IndexError, ValueError):
        return None
    pics = thumbnails(game, [level], {}, edge)
    return pics[0]


def load(pack: PackRef) -> list[LevelRow]:
    """The pack's levels with their listing facts; raises ``LevelError`` (bad or missing
    file) with a message naming the file."""
    spec = registry.get(pack.game)
    if not pack.bundled and not Path(pack.source).exists():
        raise LevelError("the file is no longer there (moved or deleted?)", source=pack.source)
    source = resolve(spec, pack.source)
    rows = []
    for lv in source.levels:
        try:
            facts = dict(spec.describe(lv)) if spec.describe else {}
        except Exception:  # a listing fact must not hide the level
            facts = {}
        optimal = lv.meta.get("optimal")
        rows.append(LevelRow(lv, facts, int(optimal) if isinstance(optimal, int) else None))
    return rows


def thumbnail(frame: np.ndarray, edge: int) -> np.ndarray:
    """``frame`` shrunk (area averaging) so that its longer side is at most ``edge``."""
    from PIL import Image
    img = Image.fromarray(frame)
    img.thumbnail((edge, edge), Image.Resampling.LANCZOS)
    return np.ascontiguousarray(np.asarray(img, dtype=np.uint8))


def thumbnails(game: str, levels: Sequence[Level], options: Mapping[str, str],
               edge: int = 72) -> list[np.ndarray | None]:
    """Start-position pictures of ``levels`` (None for a level these rules cannot start).
    Meant for a worker thread: it builds its own environment and renderer."""
    spec = registry.get(game)
    env = BoardEnv(spec, options)
    out: list[np.ndarray | None] = []
    for lv in levels:
        try:
            env.reset(lv)
            out.append(thumbnail(env.render(), edge))
        except (LevelError, ValueError):
            out.append(None)
    return out
