"""Tower of Hanoi frames drawn with pygame, no display needed.

ING-VP's images (docs/reference/puzzles.md) are 800x600 with the rods labelled A-D and the
disks coloured from a (red) to e (blue), each with its letter on it; their prompts rely on those
labels and letters, so we keep them. Widths follow the rules' disk order, so the picture always
agrees with which disk may go on which. Rod D, the goal, carries a small "goal" tag.

The background (rods, base, labels) and one sprite per disk are drawn once and cached; a frame is
a copy of the background plus a few blits. Shapes are drawn four times larger and scaled down so
their edges are smooth.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pygame

from playbench.games.hanoi.rules import DEFAULT_ORDER, LETTERS, HanoiState, size
from playbench.games.render import Color, draw_text_centered, font, surface, to_array

WIDTH, HEIGHT = 800, 600
BASE_TOP = 470
ROD_TOP = 170
SKY_TOP = (250, 248, 244)
SKY_BOTTOM = (232, 228, 218)
WOOD = (134, 98, 66)
WOOD_LIGHT = (166, 128, 92)
LABEL = (52, 58, 70)
GOAL = (34, 140, 72)
FIVE_COLOURS = ((222, 64, 58), (242, 144, 44), (238, 200, 56), (70, 170, 92), (56, 108, 212))
_SS = 4  # supersampling factor for smooth edges


def disk_colour(index: int, disks: int) -> tuple[int, int, int]:
    """Disk ``index`` (a = 0) of ``disks``: ING-VP's red .. blue, spread evenly for other counts."""
    if disks == len(FIVE_COLOURS):
        return FIVE_COLOURS[index]
    hue = 0 if disks == 1 else 222 * index / (disks - 1)
    c = pygame.Color(0)
    c.hsva = (hue, 72, 90, 100)
    return (c.r, c.g, c.b)


def _smooth_rounded(w: int, h: int, fill: Color, edge: Color, radius: int,
                    edge_w: int) -> pygame.Surface:
    big = pygame.Surface((w * _SS, h * _SS), pygame.SRCALPHA)
    pygame.draw.rect(big, edge, (0, 0, w * _SS, h * _SS), border_radius=radius * _SS)
    e = edge_w * _SS
    pygame.draw.rect(big, fill, (e, e, w * _SS - 2 * e, h * _SS - 2 * e),
                     border_radius=max(1, (radius - edge_w) * _SS))
    return pygame.transform.smoothscale(big, (w, h))


def _darker(c: Color, f: float = 0.68) -> Color:
    return (int(c[0] * f), int(c[1] * f), int(c[2] * f))


class HanoiRenderer:
    """Draws positions with any number of disks under one disk order."""

    def __init__(self, order: str = DEFAULT_ORDER) -> None:
        self.order = order
        self._background = self._make_background()
        self._disks = -1
        self._sprites: dict[str, pygame.Surface] = {}
        self._disk_h = 0

    @staticmethod
    def rod_x(index: int) -> int:
        return WIDTH * (2 * index + 1) // 8

    def _make_background(self) -> pygame.Surface:
        bg = surface(WIDTH, HEIGHT)
        for y in range(HEIGHT):
            t = y / (HEIGHT - 1)
            bg.fill(tuple(int(a + (b - a) * t) for a, b in zip(SKY_TOP, SKY_BOTTOM, strict=True)),
                    (0, y, WIDTH, 1))
        for i, name in enumerate("ABCD"):
            x = self.rod_x(i)
            rod = _smooth_rounded(14, BASE_TOP - ROD_TOP + 8, WOOD_LIGHT, WOOD, 7, 2)
            bg.blit(rod, (x - 7, ROD_TOP))
            draw_text_centered(bg, name, (x, BASE_TOP + 66), 64, LABEL)
        base = _smooth_rounded(WIDTH - 20, 28, WOOD_LIGHT, WOOD, 8, 3)
        bg.blit(base, (10, BASE_TOP))
        draw_text_centered(bg, "goal", (self.rod_x(3), BASE_TOP + 108), 28, GOAL)
        return bg

    def _make_sprites(self, disks: int) -> None:
        if disks == self._disks:
            return
        self._disks = disks
        self._disk_h = h = min(50, (BASE_TOP - ROD_TOP - 20) // max(1, disks))
        ranks = sorted(LETTERS[:disks], key=lambda d: size(d, self.order))
        spacing = WIDTH // 4
        widest, narrowest = spacing - 36, min(60, spacing - 36)
        self._sprites = {}
        for rank, disk in enumerate(ranks):
            w = narrowest + round((widest - narrowest) * rank / max(1, disks - 1))
            colour = disk_colour(ord(disk) - ord("a"), disks)
            sprite = _smooth_rounded(w, h - 2, colour, _darker(colour), (h - 2) // 2 - 2, 2)
            lum = 0.299 * colour[0] + 0.587 * colour[1] + 0.114 * colour[2]
            ink = (35, 35, 40) if lum > 150 else (255, 255, 255)
            label = font(max(14, h - 10)).render(disk, True, ink)
            sprite.blit(label, label.get_rect(center=(w // 2, (h - 2) // 2)))
            self._sprites[disk] = sprite

    def render(self, state: HanoiState) -> np.ndarray:
        self._make_sprites(state.disks)
        frame = self._background.copy()
        h = self._disk_h
        for i, stack in enumerate(state.rods):
            x = self.rod_x(i)
            for level, disk in enumerate(stack):
                sprite = self._sprites[disk]
                frame.blit(sprite, (x - sprite.get_width() // 2, BASE_TOP - (level + 1) * h))
        return to_array(frame)

    def changed_rows(self, before: HanoiState, after: HanoiState
                     ) -> list[tuple[int, int]] | None:
        """The rows of each stack height at which some rod shows another disk (or none
        instead of one): every disk is drawn inside its height's rows on the background."""
        if before.disks != after.disks:
            return None
        self._make_sprites(after.disks)
        h = self._disk_h
        levels = {level for old, new in zip(before.rods, after.rods, strict=True)
                  for level in range(max(len(old), len(new)))
                  if old[level:level + 1] != new[level:level + 1]}
        # a disk is h - 2 rows high, drawn at the top of its height's h rows
        return [(BASE_TOP - (level + 1) * h, BASE_TOP - level * h - 2) for level in sorted(levels)]

    # -- hit testing (board clicks in the desktop app) ---------------------------------------

    def locate(self, state: HanoiState, x: float, y: float) -> str | None:
        """The rod letter whose column (a quarter of the frame) holds pixel (x, y), or None
        outside the frame: a click anywhere above a rod picks that rod."""
        if not (0 <= x < WIDTH and 0 <= y < HEIGHT):
            return None
        return "ABCD"[int(x // (WIDTH // 4))]

    def area(self, state: HanoiState, rod: str) -> tuple[int, int, int, int]:
        """Frame rectangle (x, y, w, h) around a rod and its disks."""
        span = WIDTH // 4
        return "ABCD".index(rod) * span + 6, ROD_TOP - 24, span - 12, BASE_TOP - ROD_TOP + 56


def make_renderer(rules: Any, options: Mapping[str, Any]) -> HanoiRenderer:
    """Frames are 800x600 (ING-VP's size); disk widths follow ``rules.order``."""
    return HanoiRenderer(getattr(rules, "order", DEFAULT_ORDER))
