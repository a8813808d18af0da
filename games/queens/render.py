"""8-queens frames drawn with pygame, no display needed.

ING-VP's image conventions (docs/reference/puzzles.md): an 800x800 checkerboard, the
first (pre-placed) queen red and the others light blue. Queens are drawn as crowns, rendered once
at four times the size and scaled down smoothly so their edges are antialiased.

Render options: ``size`` (board edge, default 800) and ``labels`` (default on): small row
numbers in the left column's squares and column numbers in the bottom row's squares, 0-7, the
way chess boards print coordinates, so a player can read ``[row, col]`` off the image without
changing its size. The board is drawn once with and without queens; a frame copies squares
between them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pygame

from playbench.games.queens.rules import N, QueensState
from playbench.games.render import font, surface, to_array

LIGHT = (240, 218, 182)
DARK = (176, 132, 96)
FIRST = ((214, 38, 38), (122, 14, 14))
OTHER = ((132, 196, 246), (28, 86, 150))
SHADOW = (0, 0, 0, 60)

# Crown outline in unit-square coordinates: five points with valleys, then the band.
_CROWN = ((0.27, 0.74), (0.15, 0.36), (0.31, 0.55), (0.33, 0.27), (0.43, 0.52), (0.50, 0.21),
          (0.57, 0.52), (0.67, 0.27), (0.69, 0.55), (0.85, 0.36), (0.73, 0.74))
_TIPS = ((0.15, 0.36), (0.33, 0.27), (0.50, 0.21), (0.67, 0.27), (0.85, 0.36))


def queen_sprite(size: int, fill: tuple[int, int, int], edge: tuple[int, int, int]
                 ) -> pygame.Surface:
    """A crown of ``size`` x ``size`` pixels with a transparent background."""
    k = 4
    s = size * k
    big = pygame.Surface((s, s), pygame.SRCALPHA)
    line = max(2, s // 40)

    def pt(x: float, y: float) -> tuple[int, int]:
        return round(x * s), round(y * s)

    pygame.draw.ellipse(big, SHADOW, (*pt(0.2, 0.83), round(0.6 * s), round(0.08 * s)))
    body = [pt(x, y) for x, y in _CROWN]
    pygame.draw.polygon(big, fill, body)
    pygame.draw.polygon(big, edge, body, line)
    for rect in ((0.25, 0.72, 0.50, 0.07), (0.21, 0.78, 0.58, 0.07)):
        box = pygame.Rect(*pt(rect[0], rect[1]), round(rect[2] * s), round(rect[3] * s))
        pygame.draw.rect(big, fill, box, border_radius=line * 2)
        pygame.draw.rect(big, edge, box, line, border_radius=line * 2)
    for x, y in _TIPS:
        pygame.draw.circle(big, fill, pt(x, y), round(0.045 * s))
        pygame.draw.circle(big, edge, pt(x, y), round(0.045 * s), line)
    pygame.draw.circle(big, edge, pt(0.5, 0.62), round(0.03 * s))
    return pygame.transform.smoothscale(big, (size, size))


class QueensRenderer:
    """Draws any queens state on a fixed board.

    Three whole-board pictures are made once: the empty board, the board with a red queen on
    every square and the board with a blue queen on every square. A frame is the empty board
    with each queen's square copied from the matching picture, which keeps labels and square
    colours right under the queens and costs well under a millisecond.
    """

    def __init__(self, size: int = 800, labels: bool = True) -> None:
        self.cell = max(8, size // N)
        board = self._draw_board(labels)
        self._empty = to_array(board)
        self._first = self._filled(board, queen_sprite(self.cell, *FIRST))
        self._other = self._filled(board, queen_sprite(self.cell, *OTHER))
        # Per row of squares, the pixel rows a queen's picture covers (its shadow and crown,
        # not the whole square): the rows that placing, removing or recolouring one changes.
        drawn = ((self._first != self._empty) | (self._other != self._empty)).any(axis=(1, 2))
        self._queen_rows: list[tuple[int, int]] = []
        for r in range(N):
            top = r * self.cell
            rows = np.nonzero(drawn[top:top + self.cell])[0]
            self._queen_rows.append(
                (top + int(rows[0]), top + int(rows[-1]) + 1) if rows.size else (top, top))

    def _filled(self, board: pygame.Surface, sprite: pygame.Surface) -> np.ndarray:
        full = board.copy()
        for r in range(N):
            for c in range(N):
                full.blit(sprite, (c * self.cell, r * self.cell))
        return to_array(full)

    def _draw_board(self, labels: bool) -> pygame.Surface:
        t = self.cell
        board = surface(N * t, N * t, LIGHT)
        for r in range(N):
            for c in range(N):
                if (r + c) % 2:
                    pygame.draw.rect(board, DARK, (c * t, r * t, t, t))
        if labels:
            glyph = font(max(10, t * 2 // 9), bold=True)
            pad = max(2, t // 20)
            for k in range(N):
                on_dark = k % 2 == 1  # square (k, 0) and (7, k) share a colour
                row_img = glyph.render(str(k), True, LIGHT if on_dark else DARK)
                board.blit(row_img, (pad, k * t + pad))
                col_dark = (N - 1 + k) % 2 == 1
                col_img = glyph.render(str(k), True, LIGHT if col_dark else DARK)
                board.blit(col_img, col_img.get_rect(
                    bottomright=((k + 1) * t - pad, N * t - pad // 2)))
        return board

    def render(self, state: QueensState) -> np.ndarray:
        frame = self._empty.copy()
        t = self.cell
        for k, q in enumerate(state.queens):
            source = self._first if k == 0 else self._other
            rows, cols = slice(q.row * t, (q.row + 1) * t), slice(q.col * t, (q.col + 1) * t)
            frame[rows, cols] = source[rows, cols]
        return frame

    def changed_rows(self, before: QueensState, after: QueensState
                     ) -> list[tuple[int, int]]:
        """The rows a queen covers in each row of squares where a queen came, went or changed
        colour: a frame is the empty board with squares copied in from boards full of queens,
        which differ from it only where a queen is drawn."""
        def squares(state: QueensState) -> set[tuple[int, int, bool]]:
            return {(q.row, q.col, k == 0) for k, q in enumerate(state.queens)}

        return [self._queen_rows[row]
                for row in sorted({s[0] for s in squares(before) ^ squares(after)})]

    # -- hit testing (board clicks in the desktop app) ---------------------------------------

    def locate(self, state: QueensState, x: float, y: float) -> tuple[int, int] | None:
        """The (row, col) square under frame pixel (x, y), or None off the board."""
        t = self.cell
        if not (0 <= x < N * t and 0 <= y < N * t):
            return None
        return int(y // t), int(x // t)

    def area(self, state: QueensState, square: tuple[int, int]) -> tuple[int, int, int, int]:
        """Frame rectangle (x, y, w, h) of a square."""
        return square[1] * self.cell, square[0] * self.cell, self.cell, self.cell


def make_renderer(rules: Any, options: Mapping[str, Any]) -> QueensRenderer:
    """Render options: ``size`` (default 800) and ``labels`` (default True)."""
    return QueensRenderer(size=int(options.get("size", 800)),
                          labels=bool(options.get("labels", True)))
