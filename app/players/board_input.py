"""Turning a person's key presses and board clicks into the games' own action texts.

Each game has a small input map. It receives key names (``"Left"``, ``"W"``, ``"5"``,
``"Escape"``) and board targets (what a renderer's ``locate`` returns for a click: a cell, a
square, a rod letter) and answers with a :class:`Gesture` - the canonical action text a model
would send plus a description of what the person did (the step's raw input) - or None. None
means "not an action": unmapped keys, a first click that only selects, a click on nothing. Those
are never recorded; everything that names an action is, legal or not, so an illegal move counts
exactly like a model's invalid one.

Two-click games keep a selection: Sudoku (cell, then digit), Tower of Hanoi (source rod, then
target rod; or drag: press on the source, release on the target). No Qt here: the desktop view
translates its events into these names and calls in.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable

DIRECTION_KEYS = {"Left": "L", "Right": "R", "Up": "U", "Down": "D",
                  "A": "L", "D": "R", "W": "U", "S": "D"}
"""Arrows and WASD as the four move letters."""

DIGITS = tuple(str(d) for d in range(1, 10))


@dataclass(frozen=True)
class Gesture:
    """One action a person asked for: the text the game parses and what they did."""

    text: str
    raw: str


class BoardInput:
    """Input map of a game without pointer input; subclasses override what they support."""

    game = ""
    uses_digits = False
    """True where an on-screen digit pad makes sense (Sudoku)."""

    def __init__(self) -> None:
        self.selected: Any = None
        """The current selection (a cell or a rod), for the view to highlight."""

    def key(self, name: str, state: Any) -> Gesture | None:
        return None

    def press(self, target: Any, state: Any) -> Gesture | None:
        return None

    def release(self, target: Any, state: Any) -> Gesture | None:
        return None

    def digit(self, d: int, state: Any) -> Gesture | None:
        return None

    def clear(self) -> None:
        """Forget any half-made gesture (after an undo, a new level, Escape)."""
        self.selected = None


class DirectionInput(BoardInput):
    """Sokoban and Maze: arrows or WASD move one step."""

    def __init__(self, game: str) -> None:
        super().__init__()
        self.game = game

    def key(self, name: str, state: Any) -> Gesture | None:
        move = DIRECTION_KEYS.get(name)
        return Gesture(move, f"key:{name}") if move else None


class SudokuInput(BoardInput):
    """Click (or arrow to) a cell, then type or click a digit. The selection is not an action;
    the digit that completes it is, written ``{"RC": D}``."""

    game = "sudoku"
    uses_digits = True

    def __init__(self) -> None:
        super().__init__()
        self._how = "click"

    def press(self, target: Any, state: Any) -> Gesture | None:
        if target is not None:
            self.selected, self._how = tuple(target), "click"
        return None

    def key(self, name: str, state: Any) -> Gesture | None:
        if name == "Escape":
            self.clear()
            return None
        if name in ("Left", "Right", "Up", "Down"):
            r, c = self.selected if self.selected is not None else (0, 0)
            if self.selected is not None:
                dr, dc = {"Left": (0, -1), "Right": (0, 1), "Up": (-1, 0), "Down": (1, 0)}[name]
                r, c = min(8, max(0, r + dr)), min(8, max(0, c + dc))
            self.selected, self._how = (r, c), "key"
            return None
        if name in DIGITS and self.selected is not None:
            return self._write(int(name), f"key:{name}")
        return None

    def digit(self, d: int, state: Any) -> Gesture | None:
        if self.selected is None or not 1 <= d <= 9:
            return None
        return self._write(d, f"click:digit {d}")

    def _write(self, d: int, how: str) -> Gesture:
        r, c = self.selected
        return Gesture(json.dumps({f"{r}{c}": d}), f"{self._how}:cell {r},{c}+{how}")


class QueensInput(BoardInput):
    """A click on a square places a queen there."""

    game = "queens"

    def press(self, target: Any, state: Any) -> Gesture | None:
        if target is None:
            return None
        r, c = target
        return Gesture(f"[{r}, {c}]", f"click:square {r},{c}")


class HanoiInput(BoardInput):
    """Source rod then target rod, by clicks, by rod keys (A-D or 1-4), or by dragging from
    one rod to another. Clicking the selected rod again drops the selection."""

    game = "hanoi"
    RODS = "ABCD"

    def __init__(self) -> None:
        super().__init__()
        self._pressed: str | None = None

    def press(self, target: Any, state: Any) -> Gesture | None:
        self._pressed = target
        return None

    def release(self, target: Any, state: Any) -> Gesture | None:
        pressed, self._pressed = self._pressed, None
        if pressed is None or target is None:
            return None
        if target != pressed:
            self.selected = None
            return Gesture(pressed + target, f"drag:rod {pressed}->rod {target}")
        return self._pick(target, "click")

    def key(self, name: str, state: Any) -> Gesture | None:
        if name == "Escape":
            self.clear()
            return None
        rod = {"1": "A", "2": "B", "3": "C", "4": "D"}.get(name, name)
        if rod in self.RODS and len(rod) == 1:
            return self._pick(rod, "key")
        return None

    def _pick(self, rod: str, how: str) -> Gesture | None:
        if self.selected is None:
            self.selected = rod
            return None
        source, self.selected = self.selected, None
        if source == rod:
            return None
        raw = f"click:rod {source}->rod {rod}" if how == "click" else f"key:{source}+key:{rod}"
        return Gesture(source + rod, raw)

    def clear(self) -> None:
        super().clear()
        self._pressed = None


class PuzzleInput(BoardInput):
    """15-puzzle: click a tile to slide it, or use an arrow (WASD) to slide the tile that
    sits on that side of the blank in the arrow's direction."""

    game = "npuzzle"
    _FROM = {"U": (1, 0), "D": (-1, 0), "L": (0, 1), "R": (0, -1)}

    def press(self, target: Any, state: Any) -> Gesture | None:
        if target is None:
            return None
        r, c = target
        tile = state.tiles[r * state.n + c]
        return Gesture(str(tile), f"click:tile {tile}") if tile else None

    def key(self, name: str, state: Any) -> Gesture | None:
        move = DIRECTION_KEYS.get(name)
        if move is None:
            return None
        br, bc = divmod(state.tiles.index(0), state.n)
        dr, dc = self._FROM[move]
        r, c = br + dr, bc + dc
        if not (0 <= r < state.n and 0 <= c < state.n):
            return None  # nothing on that side of the blank: no action names this
        return Gesture(str(state.tiles[r * state.n + c]), f"key:{name}")


_MAPS: dict[str, Callable[[], BoardInput]] = {
    "sokoban": lambda: DirectionInput("sokoban"),
    "maze": lambda: DirectionInput("maze"),
    "sudoku": SudokuInput,
    "queens": QueensInput,
    "hanoi": HanoiInput,
    "npuzzle": PuzzleInput,
}


def input_for(game: str) -> BoardInput:
    """A fresh input map for ``game`` (one that maps nothing for games without one)."""
    make = _MAPS.get(game)
    return make() if make is not None else BoardInput()


HELP = {
    "sokoban": "Arrow keys or WASD move the worker.",
    "maze": "Arrow keys or WASD move the agent.",
    "sudoku": "Click a cell (or move with the arrows), then type a digit 1-9 or click one.",
    "queens": "Click a square to place a queen.",
    "hanoi": "Click a source rod, then a target rod - or drag between them. Keys A-D work too.",
    "npuzzle": "Click a tile next to the blank, or use the arrows to slide one into it.",
}
"""One line per game telling a person how to give actions."""
