"""Frames as image data URLs for chat requests: a fast lossless PNG (or JPEG), optionally scaled
so the longer edge fits a size, with a small cache so a repeated frame is encoded once.

The PNG writer uses the "Up" row filter and zlib level 1: boards are large flat areas, so this is
several times faster than Pillow's adaptive filtering at a similar size (see
benchmarks/bench_model_overhead.py), and the harness overhead per step stays small.
"""

from __future__ import annotations

import base64
import hashlib
import io
import struct
import zlib
from collections import OrderedDict

import numpy as np
from PIL import Image


def png_bytes(frame: np.ndarray) -> bytes:
    """Lossless PNG of an RGB (H x W x 3, uint8) frame."""
    frame = np.ascontiguousarray(frame, dtype=np.uint8)
    h, w = frame.shape[:2]
    rows = frame.reshape(h, -1)
    raw = np.empty((h, rows.shape[1] + 1), np.uint8)
    raw[:, 0] = 2  # filter "Up": each row as its difference from the row above
    raw[0, 1:] = rows[0]
    np.subtract(rows[1:], rows[:-1], out=raw[1:, 1:])

    def chunk(tag: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + tag + data
                + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(raw.tobytes(), 1)) + chunk(b"IEND", b""))


def fit(frame: np.ndarray, max_side: int | None) -> np.ndarray:
    """The frame scaled down (never up) so its longer edge is at most ``max_side``."""
    if not max_side:
        return frame
    h, w = frame.shape[:2]
    longest = max(h, w)
    if longest <= max_side:
        return frame
    scale = max_side / longest
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    return np.asarray(Image.fromarray(frame).resize(size, Image.Resampling.LANCZOS))


class ImageEncoder:
    """Encodes frames to data URLs; ``fmt`` is ``png`` or ``jpeg``."""

    def __init__(self, max_side: int | None = None, fmt: str = "png", cache_size: int = 64
                 ) -> None:
        if fmt not in ("png", "jpeg"):
            raise ValueError(f"image format must be png or jpeg, got {fmt!r}")
        self.max_side = max_side
        self.fmt = fmt
        self._cache: OrderedDict[bytes, str] = OrderedDict()
        self._size = cache_size

    def __call__(self, frame: np.ndarray) -> str:
        key = hashlib.blake2b(np.ascontiguousarray(frame).data, digest_size=16).digest() \
            + str(frame.shape).encode()
        url = self._cache.get(key)
        if url is not None:
            self._cache.move_to_end(key)
            return url
        url = self._encode(fit(frame, self.max_side))
        self._cache[key] = url
        if len(self._cache) > self._size:
            self._cache.popitem(last=False)
        return url

    def _encode(self, frame: np.ndarray) -> str:
        if self.fmt == "png":
            data, mime = png_bytes(frame), "image/png"
        else:
            buf = io.BytesIO()
            Image.fromarray(frame).save(buf, format="JPEG", quality=90)
            data, mime = buf.getvalue(), "image/jpeg"
        return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"
