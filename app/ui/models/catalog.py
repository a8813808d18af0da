"""The level library: games, their level packs (bundled or added files), levels with facts,
filters and thumbnails.

Loading a pack is quick (milliseconds); thumbnails are rendered in a worker thread by
:func:`thumbnails` (pygame draws without a display, so that is safe off the UI thread).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from playbench.games import registry
from playbench.games.base import BoardEnv, Level, LevelError, level_rule_options
from playbench.games.kind import Registry, TaskKind, default_registry, move_help, preview


@dataclass(frozen=True)
class GameRef:
    name: str
    title: str
    move_help: str


@dataclass(frozen=True)
class PackRef:
    """A level source as the library lists it; ``source`` is what the kind's ``load`` takes
    (a bundled source's name or a file path)."""

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


def _kind(game: str, kinds: Registry | None) -> TaskKind:
    return (kinds if kinds is not None else default_registry()).get(game)


def games(kinds: Registry | None = None) -> list[GameRef]:
    """Every installed board game, in the registry's order."""
    out = []
    for name in registry.available(kinds):
        kind = _kind(name, kinds)
        out.append(GameRef(name, kind.title, move_help(kind)))
    return out


def packs(game: str, added_files: Sequence[str] = (),
          kinds: Registry | None = None) -> list[PackRef]:
    """The kind's bundled sources first (``TaskKind.sources``), then the files a person added
    (missing files included, so that opening one reports what happened instead of the entry
    vanishing)."""
    names = [s.name for s in _kind(game, kinds).sources()]
    out = [PackRef(game, name, name, True) for name in sorted(names, key=_natural)]
    for path in added_files:
        out.append(PackRef(game, f"{Path(path).name} (file)", path, False))
    return out


def _natural(name: str) -> list[Any]:
    """Sort key putting ``depth-4`` before ``depth-12``."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def game_picture(game: str, edge: int = 48,
                 kinds: Registry | None = None) -> np.ndarray | None:
    """A small picture of the game: the first level of its first pack (for the game list),
    drawn by the kind (``TaskKind.thumbnail``)."""
    kind = _kind(game, kinds)
    refs = packs(game, kinds=kinds)
    if not refs:
        return None
    try:
        level = kind.load(refs[0].source)[0]
    except (LevelError, IndexError, ValueError):
        return None
    return kind.thumbnail(level, edge)


def load(pack: PackRef, kinds: Registry | None = None) -> list[LevelRow]:
    """The pack's levels with their listing facts (``TaskKind.load`` and ``describe``); raises
    ``LevelError`` (bad or missing file) with a message naming the file."""
    kind = _kind(pack.game, kinds)
    if not pack.bundled and not Path(pack.source).exists():
        raise LevelError("the file is no longer there (moved or deleted?)", source=pack.source)
    rows = []
    for lv in kind.load(pack.source):
        try:
            facts = dict(kind.describe(lv))
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
    """Start-position pictures of ``levels`` under the chosen rule ``options`` (options left
    unchosen take each level's stored choice, :func:`playbench.games.base.level_rule_options`; None
    for a level these rules cannot start), so they need the game's rules rather than
    ``TaskKind.thumbnail``. Meant for a worker thread: it builds its own environments."""
    spec = registry.get(game)
    kind = _kind(game, None)
    envs: dict[tuple[tuple[str, str], ...], BoardEnv[Any, Any]] = {}  # one per set of rules
    out: list[np.ndarray | None] = []
    for lv in levels:
        own = preview(kind, lv)  # a kind whose environment is costly to start draws its own
        if own is not None:
            out.append(thumbnail(own, edge))
            continue
        try:
            rules = level_rule_options(spec.options, lv, options)
            key = tuple(sorted(rules.items()))
            env = envs.get(key) or envs.setdefault(key, BoardEnv(spec, rules))
            env.reset(lv)
            out.append(thumbnail(env.render(), edge))
        except (LevelError, ValueError):
            out.append(None)
    return out
