"""Rendered frames that carry a memo, so the work done on one picture is done once.

An environment wraps each new frame with :func:`as_frame`; ``playbench.app.core.png``
(``frame_digest``,
``frame_png``) keeps the frame's digest and PNG bytes in its memo, because one observation's
frame is hashed and encoded twice per model step (the prompt's image and the recorded step).
It lives here, below the app, so that environments in ``games`` can make frames without
importing the app.

A frame may also say which of its pixel rows can differ from the frame shown just before it
(:class:`RowsChanged`, from a renderer that knows which cells a move redrew): the recorder then
encodes only those rows' bands instead of comparing two whole pictures to find them (0.15-0.2 ms
on an 800 x 800 board, docs/recording.md).
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class RowsChanged:
    """Every pixel row of a frame outside ``rows`` (half-open ``(start, end)`` ranges) equals
    the same row of ``base``'s frame. ``base`` is weak: a frame never keeps the one before it
    (and so the whole episode's pictures) alive."""

    base: weakref.ref[Frame]
    rows: tuple[tuple[int, int], ...]


class Frame(np.ndarray):
    """A rendered frame that remembers what was worked out from it (``memo``).

    Frames are never changed in place after rendering (:func:`as_frame` makes them read-only,
    so the recorder may reuse the work done on the previous frame of an episode where the
    pixels are the same); an array derived from a frame (a slice, a resize) starts with an empty
    memo and no ``changed`` note.
    """

    memo: dict[str, Any]
    changed: RowsChanged | None
    """Which rows can differ from the frame before it, when the renderer said so."""

    def __array_finalize__(self, obj: object) -> None:
        self.memo = {}
        self.changed = None


def as_frame(pixels: np.ndarray, *, since: Frame | None = None,
             rows: Sequence[tuple[int, int]] | None = None) -> Frame:
    """``pixels`` (H x W x 3 uint8) as a read-only :class:`Frame`, without copying when
    contiguous. The caller hands the pixels over: it must not change them afterwards.

    ``since`` and ``rows``: the frame shown before this one (same size) and the pixel rows
    that may differ from it - every other row must be equal (a renderer's
    ``changed_rows``); without both, nothing is assumed."""
    frame = np.ascontiguousarray(pixels, dtype=np.uint8).view(Frame)
    frame.flags.writeable = False
    if since is not None and rows is not None and since.shape == frame.shape:
        frame.changed = RowsChanged(weakref.ref(since), tuple((int(a), int(b)) for a, b in rows))
    return frame


__all__ = ["Frame", "RowsChanged", "as_frame"]
