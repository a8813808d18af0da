"""15-puzzle frames drawn with pygame, no display needed.

ING-VP's images (docs/reference/puzzles.md) are 400x400 with numbered tiles and the blank
cell left empty; we keep that: raised cream tiles with large numbers on a dark tray, the blank an
empty recessed slot. The tray and one sprite per tile are drawn once; a frame is a copy of the
tray plus one blit per tile. Shapes are drawn four times larger and scaled down for smooth edges.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pygame

from playbench.games.npuzzle.rules import PuzzleState
from playbench.games.render import Color, font, surface, to_array

TRAY = (44, 50, 62)
SLOT = (34, 39, 49)
TILE = (242, 232, 208)
TILE_SHADE = (196, 178, 140)
INK = (46, 52, 64)
_SS = 4


def _rounded(w: int, h: int, colour: Color, radius: int) -> pygame.Surface:
    big = pygame.Surface((w * _SS, h * _SS), pygame.SRCALPHA)
    pygame.draw.rect(big, colour, (0, 0, w * _SS, h * _SS), border_radius=radius * _SS)
    return pygame.transform.smoothscale(big, (w, h))


class NPuzzleRenderer:
    """Draws boards of one pixel size; sprites are rebuilt only when the board width changes."""

    def __init__(self, size: int = 400) -> None:
        if size < 40:
            raise ValueError(f"frame size must be at least 40 px, got {size}")
        self.size = size
        self._n = 0
        self._tray: pygame.Surface | None = None
        self._tiles: dict[int, pygame.Surface] = {}
        self._origin: list[tuple[int, int]] = []
        self._cell = 0

    def _layout(self, n: int) -> None:
        if n == self._n:
            return
        self._n = n
        pad = max(4, self.size // 32)
        gap = max(2, self.size // 50)
        cell = (self.size - 2 * pad - (n - 1) * gap) // n
        self._cell = cell
        pad = (self.size - n * cell - (n - 1) * gap) // 2
        self._origin = [(pad + (p % n) * (cell + gap), pad + (p // n) * (cell + gap))
                        for p in range(n * n)]
        radius = max(2, cell // 9)
        tray = surface(self.size, self.size, TRAY)
        slot = _rounded(cell, cell, SLOT, radius)
        for x, y in self._origin:
            tray.blit(slot, (x, y))
        self._tray = tray
        lift = max(2, cell // 22)
        text_size = int(cell * (0.58 if n * n - 1 < 100 else 0.45))
        # Every cell sits on the same patch of tray, so tiles are pre-blended onto it and
        # blitted as opaque squares (plain copies, no per-pixel alpha at frame time).
        patch = tray.subsurface((*self._origin[0], cell, cell)).copy()
        self._tiles = {}
        for t in range(1, n * n):
            sprite = patch.copy()
            sprite.blit(_rounded(cell, cell, TILE_SHADE, radius), (0, 0))
            sprite.blit(_rounded(cell, cell - lift, TILE, radius), (0, 0))
            label = font(text_size).render(str(t), True, INK)
            sprite.blit(label, label.get_rect(center=(cell // 2, (cell - lift) // 2 + 1)))
            self._tiles[t] = sprite

    def render(self, state: PuzzleState) -> np.ndarray:
        self._layout(state.n)
        assert self._tray is not None
        frame = self._tray.copy()
        for p, t in enumerate(state.tiles):
            if t:
                frame.blit(self._tiles[t], self._origin[p])
        return to_array(frame)

    def changed_rows(self, before: PuzzleState, after: PuzzleState
                     ) -> list[tuple[int, int]] | None:
        """The rows of the slots holding another tile (or the blank); a tile's sprite covers
        its slot exactly. None for another board width (another layout)."""
        if before.n != after.n:
            return None
        self._layout(after.n)
        return [(self._origin[p][1], self._origin[p][1] + self._cell)
                for p, (old, new) in enumerate(zip(before.tiles, after.tiles, strict=True))
                if old != new]

    # -- hit testing (board clicks in the desktop app) ---------------------------------------

    def locate(self, state: PuzzleState, x: float, y: float) -> tuple[int, int] | None:
        """The (row, col) slot under frame pixel (x, y), or None in the tray's margins and
        gaps."""
        self._layout(state.n)
        for p, (ox, oy) in enumerate(self._origin):
            if ox <= x < ox + self._cell and oy <= y < oy + self._cell:
                return divmod(p, state.n)
        return None

    def area(self, state: PuzzleState, slot: tuple[int, int]) -> tuple[int, int, int, int]:
        """Frame rectangle (x, y, w, h) of a slot."""
        self._layout(state.n)
        x, y = self._origin[slot[0] * state.n + slot[1]]
        return x, y, self._cell, self._cell


def make_renderer(rules: Any, options: Mapping[str, Any]) -> NPuzzleRenderer:
    """Options: ``size`` (frame edge in pixels, default 400 as in ING-VP)."""
    return NPuzzleRenderer(int(options.get("size", 400)))
