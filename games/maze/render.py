"""Maze frames drawn with pygame, no display needed.

ING-VP's image prompts (docs/reference/puzzles.md) tell the player that black is wall, white
is floor, the red area is the agent and the green area is the exit, with 30 px cells. We keep all
four meanings and the cell size; floor cells get a faint outline so cells can be counted, and the
agent is an inset rounded red square so it stays visible when it stands on the green exit.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pygame

from playbench.games.maze.rules import MazeBoard, MazeState
from playbench.games.render import surface, to_array

WALL = (20, 22, 28)
FLOOR = (255, 255, 255)
FLOOR_LINE = (226, 229, 235)
EXIT = (38, 176, 84)
EXIT_EDGE = (22, 120, 56)
AGENT = (222, 44, 44)
AGENT_EDGE = (150, 20, 20)


class MazeRenderer:
    """Draws states of any maze; the walls, floor and exit of the last board are cached."""

    def __init__(self, cell: int = 30) -> None:
        if cell < 4:
            raise ValueError(f"cell size must be at least 4 px, got {cell}")
        self.cell = cell
        self._board: MazeBoard | None = None
        self._background: pygame.Surface | None = None
        self._agent = self._agent_sprite(cell)

    @staticmethod
    def _agent_sprite(c: int) -> pygame.Surface:
        """A rounded red square, drawn four times larger and scaled down for smooth edges."""
        k = 4
        big = pygame.Surface((c * k, c * k), pygame.SRCALPHA)
        m = max(2, c // 8) * k
        rect = (m, m, c * k - 2 * m, c * k - 2 * m)
        radius = max(2, c // 5) * k
        pygame.draw.rect(big, AGENT_EDGE, rect, border_radius=radius)
        edge = max(1, c // 15) * k
        inner = (m + edge, m + edge, c * k - 2 * (m + edge), c * k - 2 * (m + edge))
        pygame.draw.rect(big, AGENT, inner, border_radius=max(1, radius - edge))
        return pygame.transform.smoothscale(big, (c, c))

    def _background_for(self, board: MazeBoard) -> pygame.Surface:
        if self._background is not None and self._board == board:
            return self._background
        c = self.cell
        bg = surface(board.width * c, board.height * c, WALL)
        for pos in range(board.width * board.height):
            if pos in board.walls:
                continue
            y, x = divmod(pos, board.width)
            pygame.draw.rect(bg, FLOOR, (x * c, y * c, c, c))
            pygame.draw.rect(bg, FLOOR_LINE, (x * c, y * c, c, c), 1)
        ey, ex = divmod(board.exit, board.width)
        pygame.draw.rect(bg, EXIT, (ex * c, ey * c, c, c))
        pygame.draw.rect(bg, EXIT_EDGE, (ex * c, ey * c, c, c), max(1, c // 15))
        self._board, self._background = board, bg
        return bg

    def render(self, state: MazeState) -> np.ndarray:
        frame = self._background_for(state.board).copy()
        y, x = divmod(state.pos, state.board.width)
        frame.blit(self._agent, (x * self.cell, y * self.cell))
        return to_array(frame)

    def changed_rows(self, before: MazeState, after: MazeState
                     ) -> list[tuple[int, int]] | None:
        """The rows of the cells the agent left and entered (it is drawn inside its cell);
        None for another maze."""
        if before.board != after.board:
            return None
        c, w = self.cell, after.board.width
        ink = self._agent.get_bounding_rect()  # the agent's drawn rows inside its cell
        return [(row * c + ink.top, row * c + ink.bottom)
                for row in sorted({before.pos // w, after.pos // w})]

    # -- hit testing (board clicks in the desktop app) ---------------------------------------

    def locate(self, state: MazeState, x: float, y: float) -> tuple[int, int] | None:
        """The (row, col) cell under frame pixel (x, y), or None outside the maze."""
        row, col = int(y // self.cell), int(x // self.cell)
        if x >= 0 and y >= 0 and row < state.board.height and col < state.board.width:
            return row, col
        return None

    def area(self, state: MazeState, cell: tuple[int, int]) -> tuple[int, int, int, int]:
        """Frame rectangle (x, y, w, h) of a cell."""
        return cell[1] * self.cell, cell[0] * self.cell, self.cell, self.cell


def make_renderer(rules: Any, options: Mapping[str, Any]) -> MazeRenderer:
    """Options: ``cell`` (pixels per cell, default 30 as in ING-VP)."""
    return MazeRenderer(cell=int(options.get("cell", 30)))
