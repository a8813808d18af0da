"""Sudoku frames drawn with pygame, no display needed.

ING-VP's image conventions (docs/reference/puzzles.md): a 450x450 grid with thick lines
every three cells, givens in black, written digits in another colour (blue). ING-VP also paints
wrong entries red; here that happens only when the rules say ``reveal_correctness=yes``.

Render options: ``size`` (grid edge in pixels, default 450) and ``labels`` (default off, so the
image is exactly ING-VP's 450x450): when on, a margin above and left of the grid shows the column
and row indices 0-8 that the move ``{"rc": d}`` uses. The grid with its givens is drawn once per
puzzle and cached; a frame only adds the written digits.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pygame

from playbench.games.render import draw_text_centered, font, surface, to_array
from playbench.games.sudoku.rules import SudokuRules, SudokuState

PAPER = (252, 251, 246)
BOX_SHADE = (241, 239, 230)
THIN = (170, 170, 178)
THICK = (28, 28, 36)
GIVEN = (20, 20, 24)
ENTRY = (30, 94, 214)
WRONG = (214, 36, 36)
LABEL = (110, 110, 120)
MARGIN_BG = (232, 234, 240)


class SudokuRenderer:
    """Draws states of any puzzle; the background of the last puzzle is cached."""

    def __init__(self, rules: SudokuRules, size: int = 450, labels: bool = False) -> None:
        self.reveal = rules.reveal_correctness == "yes"
        self.cell = max(12, size // 9)
        self.margin = max(14, self.cell // 2) if labels else 0
        self.labels = labels
        self._puzzle: str | None = None
        self._background: pygame.Surface | None = None
        glyph = font(int(self.cell * 0.78))
        self._digits = {
            (d, colour): glyph.render(str(d), True, colour)
            for d in range(1, 10) for colour in (ENTRY, WRONG)
        }

    def _origin(self, i: int) -> tuple[int, int]:
        r, c = divmod(i, 9)
        return self.margin + c * self.cell, self.margin + r * self.cell

    def _background_for(self, puzzle: str) -> pygame.Surface:
        if self._puzzle == puzzle and self._background is not None:
            return self._background
        t, m = self.cell, self.margin
        edge = 9 * t
        bg = surface(edge + m, edge + m, MARGIN_BG if m else PAPER)
        for br in range(3):
            for bc in range(3):
                shade = BOX_SHADE if (br + bc) % 2 else PAPER
                pygame.draw.rect(bg, shade, (m + bc * 3 * t, m + br * 3 * t, 3 * t, 3 * t))
        for k in range(1, 9):
            if k % 3:
                pygame.draw.line(bg, THIN, (m + k * t, m), (m + k * t, m + edge - 1))
                pygame.draw.line(bg, THIN, (m, m + k * t), (m + edge - 1, m + k * t))
        heavy = max(3, t // 14)
        for k in range(0, 10, 3):
            pos = m + min(k * t, edge - 1)
            off = -(heavy // 2) if 0 < k < 9 else (0 if k == 0 else -(heavy - 1))
            pygame.draw.rect(bg, THICK, (pos + off, m, heavy, edge))
            pygame.draw.rect(bg, THICK, (m, pos + off, edge, heavy))
        size = int(t * 0.78)
        for i, ch in enumerate(puzzle):
            if ch != "0":
                x, y = self._origin(i)
                draw_text_centered(bg, ch, (x + t // 2, y + t // 2 + 1), size, GIVEN, bold=True)
        if m:
            for k in range(9):
                mid = m + k * t + t // 2
                draw_text_centered(bg, str(k), (mid, m // 2 + 1), int(m * 0.9), LABEL)
                draw_text_centered(bg, str(k), (m // 2, mid + 1), int(m * 0.9), LABEL)
        self._puzzle, self._background = puzzle, bg
        return bg

    def render(self, state: SudokuState) -> np.ndarray:
        frame = self._background_for(state.puzzle).copy()
        t = self.cell
        for i in range(81):
            img = self._digit(state, i)
            if img is None:
                continue
            x, y = self._origin(i)
            frame.blit(img, img.get_rect(center=(x + t // 2, y + t // 2 + 1)))
        return to_array(frame)

    def _digit(self, state: SudokuState, i: int) -> pygame.Surface | None:
        """The digit sprite drawn in cell ``i`` (None for an empty cell or a given, which is
        part of the background)."""
        ch = state.grid[i]
        if ch == "0" or state.puzzle[i] != "0":
            return None
        wrong = self.reveal and ch != state.solution[i]
        return self._digits[(int(ch), WRONG if wrong else ENTRY)]

    def changed_rows(self, before: SudokuState, after: SudokuState
                     ) -> list[tuple[int, int]] | None:
        """The rows of the digits drawn in ``before`` or ``after`` in each cell whose digit
        (or its colour) differs; None for another puzzle (another background)."""
        if before.puzzle != after.puzzle:
            return None
        t = self.cell
        rows = []
        for i in range(81):
            old, new = self._digit(before, i), self._digit(after, i)
            if old is new:
                continue
            x, y = self._origin(i)
            for img in (old, new):
                if img is not None:  # the glyph's inked rows, where it is placed
                    top = img.get_rect(center=(x + t // 2, y + t // 2 + 1)).top
                    ink = img.get_bounding_rect()
                    rows.append((top + ink.top, top + ink.bottom))
        return rows

    # -- hit testing (board clicks in the desktop app) ---------------------------------------

    def locate(self, state: SudokuState, x: float, y: float) -> tuple[int, int] | None:
        """The (row, col) cell under frame pixel (x, y), or None outside the grid (labels
        included)."""
        gx, gy = x - self.margin, y - self.margin
        if not (0 <= gx < 9 * self.cell and 0 <= gy < 9 * self.cell):
            return None
        return int(gy // self.cell), int(gx // self.cell)

    def area(self, state: SudokuState, cell: tuple[int, int]) -> tuple[int, int, int, int]:
        """Frame rectangle (x, y, w, h) of a cell."""
        x, y = self._origin(cell[0] * 9 + cell[1])
        return x, y, self.cell, self.cell


def make_renderer(rules: Any, options: Mapping[str, Any]) -> SudokuRenderer:
    """Render options: ``size`` (default 450), ``labels`` (default False) and
    ``reveal_correctness`` ("yes"/"no", overriding the rules' choice)."""
    if not isinstance(rules, SudokuRules):
        rules = SudokuRules()
    reveal = options.get("reveal_correctness")
    if reveal is not None:
        rules = SudokuRules(rules.wrong_digits, str(reveal))
    return SudokuRenderer(rules, size=int(options.get("size", 450)),
                          labels=bool(options.get("labels", False)))
