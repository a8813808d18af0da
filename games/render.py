"""Shared pygame drawing helpers for headless rendering.

pygame's drawing and font modules work without a window; only ``pygame.font`` needs an explicit
init. Everything here runs with ``SDL_VIDEODRIVER=dummy`` or no video driver at all.
"""

from __future__ import annotations

import os
from functools import lru_cache

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import numpy as np  # noqa: E402
import pygame  # noqa: E402

Color = tuple[int, int, int]


def surface(width: int, height: int, fill: Color | None = None) -> pygame.Surface:
    """A plain 24-bit surface (no display needed)."""
    surf = pygame.Surface((width, height), depth=24)
    if fill is not None:
        surf.fill(fill)
    return surf


def to_array(surf: pygame.Surface) -> np.ndarray:
    """The surface as an H x W x 3 uint8 array (row-major, ready for PNG or a QImage)."""
    data = pygame.image.tobytes(surf, "RGB")
    return np.frombuffer(data, dtype=np.uint8).reshape(surf.get_height(), surf.get_width(), 3)


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> pygame.font.Font:
    """pygame's bundled default font at a pixel size, initialising the font module once."""
    if not pygame.font.get_init():
        pygame.font.init()
    f = pygame.font.Font(None, size)
    f.set_bold(bold)
    return f


def draw_text_centered(surf: pygame.Surface, text: str, center: tuple[int, int], size: int,
                       color: Color, bold: bool = False) -> None:
    """Draw ``text`` centred on ``center``."""
    img = font(size, bold).render(text, True, color)
    surf.blit(img, img.get_rect(center=center))
