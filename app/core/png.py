"""A small, fast PNG writer for recorded frames.

Pillow chooses a filter per row adaptively, which costs about 2.5 ms for a 320 x 320 board - more
than the whole per-step budget. Board frames are large flat areas, so the fixed "Up" filter
(each row minus the row above) with light zlib compression gives files as small as Pillow's in a
fifth of the time. Any PNG reader (Pillow included) decodes the result; tests check that the
pixels come back exactly.
"""

from __future__ import annotations

import struct
import zlib

import numpy as np

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_FILTER_UP = 2


def _chunk(tag: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))


def encode_png(frame: np.ndarray, level: int = 3) -> bytes:
    """Lossless PNG of an H x W x 3 uint8 RGB array."""
    if frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
        raise ValueError(f"expected an H x W x 3 uint8 frame, got {frame.shape} {frame.dtype}")
    h, w, _ = frame.shape
    flat = np.ascontiguousarray(frame).reshape(h, w * 3)
    rows = np.empty((h, w * 3 + 1), dtype=np.uint8)
    rows[:, 0] = _FILTER_UP
    rows[0, 1:] = flat[0]  # the row above the first one counts as zeros
    np.subtract(flat[1:], flat[:-1], out=rows[1:, 1:])  # uint8 arithmetic wraps mod 256
    header = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)  # 8-bit RGB, no interlace
    return (_SIGNATURE + _chunk(b"IHDR", header)
            + _chunk(b"IDAT", zlib.compress(rows.tobytes(), level)) + _chunk(b"IEND", b""))
