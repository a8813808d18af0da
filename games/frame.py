"""Rendered frames that carry a memo, so the work done on one picture is done once.

An environment wraps each new frame with :func:`as_frame`; ``playbench.app.core.png``
(``frame_digest``,
``frame_png``) keeps the frame's digest and PNG bytes in its memo, because one observation's
frame is hashed and encoded twice per model step (the prompt's image and the recorded step).
It lives here, below the app, so that environments in ``games`` can make frames without
importing the app.
"""

from __future__ import annotations

from typing import Any

import numpy as np


class Frame(np.ndarray):
    """A rendered frame that remembers what was worked out from it (``memo``).

    Frames are never changed in place after rendering (:func:`as_frame` makes them read-only,
    so the recorder may reuse the work done on the previous frame of an episode where the
    pixels are the same); an array derived from a frame (a slice, a resize) starts with an empty
    memo.
    """

    memo: dict[str, Any]

    def __array_finalize__(self, obj: object) -> None:
        self.memo = {}


def as_frame(pixels: np.ndarray) -> Frame:
    """``pixels`` (H x W x 3 uint8) as a read-only :class:`Frame`, without copying when
    contiguous. The caller hands the pixels over: it must not change them afterwards."""
    frame = np.ascontiguousarray(pixels, dtype=np.uint8).view(Frame)
    frame.flags.writeable = False
    return frame


__all__ = ["Frame", "as_frame"]
