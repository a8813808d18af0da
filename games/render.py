"""Shared pygame drawing helpers for headless rendering.

pygame's drawing and font modules work without a window; only ``pygame.font`` needs an explicit
init. Everything here runs with ``SDL_VIDEODRIVER=dummy`` or no video driver at all.
"""

from __future__ import annotations

import os
import threading

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


_FONT_INIT = threading.Lock()
_FONTS = threading.local()


def font(size: int, bold: bool = False) -> pygame.font.Font:
    """pygame's bundled default font at a pixel size, initialising the font module once.

    One Font per thread and size: the Library draws thumbnails in worker threads while the UI
    thread draws a preview, and a FreeType face is not safe to render from two threads at once
    (the suite once lost a worker to a segmentation fault with both drawing)."""
    cache: dict[tuple[int, bool], pygame.font.Font] | None = getattr(_FONTS, "cache", None)
    if cache is None:
        cache = _FONTS.cache = {}
    made = cache.get((size, bold))
    if made is None:
        with _FONT_INIT:
            if not pygame.font.get_init():
                pygame.font.init()
            made = pygame.font.Font(None, size)
        made.set_bold(bold)
        if len(cache) >= 64:
            cache.pop(next(iter(cache)))
        cache[(size, bold)] = made
    return made


def draw_text_centered(surf: pygame.Surface, text: str, center: tuple[int, int], size: int,
                       color: Color, bold: bool = False) -> None:
    """Draw ``text`` centred on ``center``."""
    img = font(size, bold).render(text, True, color)
    surf.blit(img, img.get_rect(center=center))
