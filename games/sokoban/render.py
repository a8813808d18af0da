"""Sokoban frames drawn with pygame, no display needed.

Colours keep the information both papers' prompts rely on (puzzles.md): walls as red-brown
bricks, targets as a red dot inside a dashed square, a box off target brown and a box on target
yellow (ING-VP), the worker green (MageBench). Tiles are 32 px by default (ING-VP); the
``max_edge`` option sizes the longer edge instead (MageBench renders at 640 px).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from typing import Any

import numpy as np
import pygame

from playbench.games.render import Color, surface, to_array
from playbench.games.sokoban.rules import Board, SokobanState

OUTSIDE = (46, 48, 56)
FLOOR = (236, 228, 210)
FLOOR_LINE = (222, 212, 192)
BRICK = (168, 64, 48)
MORTAR = (214, 196, 176)
TARGET = (214, 32, 32)
BOX = (150, 96, 42)
BOX_EDGE = (96, 58, 22)
BOX_ON_TARGET = (240, 196, 40)
BOX_ON_TARGET_EDGE = (168, 126, 12)
WORKER = (46, 168, 72)
WORKER_DARK = (24, 104, 44)


def _inside(board: Board, start: int) -> frozenset[int]:
    """Squares the worker's room covers (flood fill through non-walls from the worker)."""
    seen = {start}
    todo = deque([start])
    w = board.width
    while todo:
        cell = todo.popleft()
        for nxt in (cell - w, cell + w, cell - 1, cell + 1):
            if 0 <= nxt < w * board.height and nxt not in board.walls and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return frozenset(seen)


class SokobanRenderer:
    """Draws states of any board; the static background of the last board is cached."""

    def __init__(self, tile: int = 32, max_edge: int | None = None) -> None:
        self.tile = tile
        self.max_edge = max_edge
        self._board: Board | None = None
        self._background: pygame.Surface | None = None
        self._sprites: dict[str, pygame.Surface] = {}
        self._sprite_tile = 0

    def _tile_for(self, board: Board) -> int:
        if self.max_edge:
            return max(8, self.max_edge // max(board.width, board.height))
        return self.tile

    def _make_sprites(self, t: int) -> None:
        if self._sprite_tile == t:
            return
        self._sprite_tile = t
        s = self._sprites
        floor = surface(t, t, FLOOR)
        pygame.draw.rect(floor, FLOOR_LINE, (0, 0, t, t), 1)
        s["floor"] = floor
        wall = surface(t, t, MORTAR)
        bh = max(2, t // 4)
        for row in range(4):
            y = row * bh
            offset = 0 if row % 2 == 0 else t // 2
            for x in range(-t, t, t // 2):
                pygame.draw.rect(wall, BRICK, (x + offset + 1, y + 1, t // 2 - 2, bh - 2))
        s["wall"] = wall
        s["outside"] = surface(t, t, OUTSIDE)
        target = floor.copy()
        dash = max(2, t // 8)
        inset = max(2, t // 6)
        for a in range(inset, t - inset, dash * 2):
            b = min(a + dash, t - inset)
            for edge in ((a, inset, b, inset), (a, t - inset, b, t - inset),
                         (inset, a, inset, b), (t - inset, a, t - inset, b)):
                pygame.draw.line(target, TARGET, edge[:2], edge[2:], max(1, t // 16))
        pygame.draw.circle(target, TARGET, (t // 2, t // 2), max(2, t // 7))
        s["target"] = target
        s["box"] = self._crate(t, BOX, BOX_EDGE, dot=False)
        s["box_on_target"] = self._crate(t, BOX_ON_TARGET, BOX_ON_TARGET_EDGE, dot=True)
        worker = surface(t, t)
        worker.set_colorkey((255, 0, 255))
        worker.fill((255, 0, 255))
        pygame.draw.circle(worker, WORKER, (t // 2, t * 5 // 8), t * 5 // 16)
        pygame.draw.circle(worker, WORKER_DARK, (t // 2, t * 5 // 8), t * 5 // 16, max(1, t // 16))
        pygame.draw.circle(worker, WORKER_DARK, (t // 2, t * 5 // 16), t * 3 // 16)
        s["worker"] = worker

    @staticmethod
    def _crate(t: int, fill: Color, edge: Color, dot: bool) -> pygame.Surface:
        crate = surface(t, t)
        crate.set_colorkey((255, 0, 255))
        crate.fill((255, 0, 255))
        m = max(1, t // 10)
        pygame.draw.rect(crate, fill, (m, m, t - 2 * m, t - 2 * m), border_radius=max(1, t // 10))
        pygame.draw.rect(crate, edge, (m, m, t - 2 * m, t - 2 * m), max(1, t // 12),
                         border_radius=max(1, t // 10))
        pygame.draw.line(crate, edge, (m + 2, m + 2), (t - m - 3, t - m - 3), max(1, t // 14))
        pygame.draw.line(crate, edge, (t - m - 3, m + 2), (m + 2, t - m - 3), max(1, t // 14))
        if dot:
            pygame.draw.circle(crate, TARGET, (t // 2, t // 2), max(2, t // 8))
        return crate

    def _background_for(self, state: SokobanState) -> pygame.Surface:
        board = state.board
        if self._board is board and self._background is not None:
            return self._background
        t = self._tile_for(board)
        self._make_sprites(t)
        inside = _inside(board, state.player)
        bg = surface(board.width * t, board.height * t, OUTSIDE)
        for pos in range(board.width * board.height):
            y, x = divmod(pos, board.width)
            if pos in board.walls:
                name = "wall"
            elif pos not in inside:
                name = "outside"
            elif pos in board.targets:
                name = "target"
            else:
                name = "floor"
            bg.blit(self._sprites[name], (x * t, y * t))
        self._board, self._background = board, bg
        return bg

    def render(self, state: SokobanState) -> np.ndarray:
        frame = self._background_for(state).copy()
        t = self._sprite_tile
        board = state.board
        w = board.width
        sprites = self._sprites
        for b in state.boxes:
            y, x = divmod(b, w)
            frame.blit(sprites["box_on_target" if b in board.targets else "box"], (x * t, y * t))
        y, x = divmod(state.player, w)
        frame.blit(sprites["worker"], (x * t, y * t))
        return to_array(frame)

    def changed_rows(self, before: SokobanState, after: SokobanState
                     ) -> list[tuple[int, int]] | None:
        """The rows of the squares the worker or a box left or entered: every piece is drawn
        inside its square on the board's background. None for another board."""
        if before.board is not after.board:
            return None
        t, w = self._tile_for(after.board), after.board.width
        moved = (before.boxes ^ after.boxes) | {before.player, after.player}
        return [(row * t, (row + 1) * t) for row in sorted({pos // w for pos in moved})]

    # -- hit testing (board clicks in the desktop app) ---------------------------------------

    def locate(self, state: SokobanState, x: float, y: float) -> tuple[int, int] | None:
        """The (row, col) square under frame pixel (x, y), or None outside the board."""
        t = self._tile_for(state.board)
        row, col = int(y // t), int(x // t)
        if x >= 0 and y >= 0 and row < state.board.height and col < state.board.width:
            return row, col
        return None

    def area(self, state: SokobanState, square: tuple[int, int]) -> tuple[int, int, int, int]:
        """Frame rectangle (x, y, w, h) of a square."""
        t = self._tile_for(state.board)
        return square[1] * t, square[0] * t, t, t


def make_renderer(rules: Any, options: Mapping[str, Any]) -> SokobanRenderer:
    return SokobanRenderer(tile=int(options.get("tile", 32)), max_edge=options.get("max_edge"))
