"""Which games exist, loaded on first use so that listing games imports no game code."""

from __future__ import annotations

import importlib
import importlib.util

from games.base import GameSpec

BOARD_GAMES: tuple[str, ...] = ("sokoban", "maze", "sudoku", "queens", "hanoi", "npuzzle")


class UnknownGame(KeyError):
    def __str__(self) -> str:
        return self.args[0]


def available() -> list[str]:
    """Board games whose package is present in this installation."""
    return [name for name in BOARD_GAMES if importlib.util.find_spec(f"games.{name}") is not None]


def get(name: str) -> GameSpec:
    """The spec of a board game; an unknown name lists the valid ones."""
    if name not in available():
        raise UnknownGame(f"unknown game {name!r} (valid: {', '.join(available())})")
    return importlib.import_module(f"games.{name}").SPEC
