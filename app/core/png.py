"""A small, fast PNG writer for recorded frames.

Pillow chooses a filter per row adaptively, which costs about 2.5 ms for a 320 x 320 board - more
than the whole per-step budget. Board frames are large flat areas, so the fixed "Up" filter
(each row minus the row above) with light zlib compression gives files as small as Pillow's in a
fifth of the time. Any PNG reader (Pillow included) decodes the result; tests check that the
pixels come back exactly.

Most rows of a board repeat the row above (inside a cell nothing changes from one pixel row to
the next): 57-77 % of the rows of the six boards, whose "Up" rows are then all zeros. Deflating
those zeros was most of the time, so each run of repeated rows is written as a deflate segment
made once per (run length, width) and reused, and zlib only sees the rows that change (the
segments are cut with full flushes, so no match reaches across them). Measured on the boards'
frames (benchmarks/bench_model_overhead.py's machine): 800 x 800 queens 2.8 -> 1.1 ms, 600 x 800
hanoi 2.3 -> 1.5 ms, 330 x 330 maze 0.39 -> 0.16 ms, within 5 % of the size (sokoban's small
frame grows 30 %, to 7 kB).
"""

from __future__ import annotations

import hashlib
import struct
import threading
import zlib
from functools import lru_cache
from typing import Any

import numpy as np

# Frames are made by environments (below the app); their memo is filled here.
from playbench.games.frame import Frame as Frame
from playbench.games.frame import as_frame as as_frame

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_FILTER_UP = 2
_ADLER_MOD = 65521
_ZLIB_HEADER = b"\x78\x01"  # deflate, 32 kB window, fastest-compression hint
_MIN_REPEATED = 8


def _chunk(tag: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))


@lru_cache(maxsize=512)
def _repeated_rows(count: int, row_bytes: int, level: int) -> bytes:
    """Deflate segment (no final block, ends byte-aligned) of ``count`` "Up" rows of zeros."""
    squeeze = zlib.compressobj(level, zlib.DEFLATED, -15)
    row = bytes([_FILTER_UP]) + bytes(row_bytes)
    return squeeze.compress(row * count) + squeeze.flush(zlib.Z_FULL_FLUSH)


def _adler_repeated_rows(adler: int, count: int, row_bytes: int) -> int:
    """zlib's Adler-32 of ``adler`` continued over ``count`` zero "Up" rows, in closed form
    (each row is the filter byte 2 then ``row_bytes`` zeros)."""
    n = row_bytes + 1
    a, b = adler & 0xFFFF, adler >> 16
    # Over one row a grows by 2 and b by n * a_before + 2 * n; summed over the rows:
    b = (b + n * count * a + n * count * (count - 1) + 2 * n * count) % _ADLER_MOD
    a = (a + 2 * count) % _ADLER_MOD
    return (b << 16) | a


def _runs(changed: np.ndarray) -> list[tuple[int, int, bool]]:
    """``(start, end, repeated)`` row ranges covering the frame: runs of at least
    ``_MIN_REPEATED`` repeated rows, and the rows between them. A flush costs about as much as
    deflating a few rows, so shorter runs of repeats stay with their neighbours."""
    cuts = [0, *(np.flatnonzero(changed[1:] != changed[:-1]) + 1).tolist(), len(changed)]
    runs: list[tuple[int, int, bool]] = []
    for start, end in zip(cuts, cuts[1:], strict=False):
        repeated = not changed[start] and end - start >= _MIN_REPEATED
        if runs and not repeated and not runs[-1][2]:
            runs[-1] = (runs[-1][0], end, False)
        else:
            runs.append((start, end, repeated))
    return runs


def encode_png(frame: np.ndarray, level: int = 1) -> bytes:
    """Lossless PNG of an H x W x 3 uint8 RGB array."""
    if frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
        raise ValueError(f"expected an H x W x 3 uint8 frame, got {frame.shape} {frame.dtype}")
    h, w, _ = frame.shape
    width = w * 3
    flat = np.ascontiguousarray(frame).reshape(h, width)
    rows = np.empty((h, width + 1), dtype=np.uint8)
    rows[:, 0] = _FILTER_UP
    rows[0, 1:] = flat[0]  # the row above the first one counts as zeros
    np.subtract(flat[1:], flat[:-1], out=rows[1:, 1:])  # uint8 arithmetic wraps mod 256
    changed = np.ones(h, dtype=bool)
    changed[1:] = (flat[1:] != flat[:-1]).any(axis=1)
    squeeze = zlib.compressobj(level, zlib.DEFLATED, -15)
    parts = [_ZLIB_HEADER]
    adler = 1
    for start, end, repeated in _runs(changed):
        if repeated:
            parts.append(_repeated_rows(end - start, width, level))
            adler = _adler_repeated_rows(adler, end - start, width)
        else:
            data = rows[start:end].tobytes()
            adler = zlib.adler32(data, adler)
            parts += (squeeze.compress(data), squeeze.flush(zlib.Z_FULL_FLUSH))
    parts += (squeeze.flush(zlib.Z_FINISH), struct.pack(">I", adler))
    header = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)  # 8-bit RGB, no interlace
    return (_SIGNATURE + _chunk(b"IHDR", header) + _chunk(b"IDAT", b"".join(parts))
            + _chunk(b"IEND", b""))


def _memo(frame: np.ndarray) -> dict[Any, Any] | None:
    return getattr(frame, "memo", None)


def frame_digest(frame: np.ndarray) -> str:
    """Hash of a frame's pixels and shape: same picture, same key, without encoding it."""
    memo = _memo(frame)
    if memo is not None and "digest" in memo:
        return str(memo["digest"])
    h = hashlib.sha256(f"{frame.shape}".encode())
    h.update(np.ascontiguousarray(frame).data)
    digest = h.hexdigest()
    if memo is not None:
        memo["digest"] = digest
    return digest


def frame_png(frame: np.ndarray, level: int = 1) -> bytes:
    """:func:`encode_png` of ``frame``, encoded once per :class:`Frame` and level.

    The prompt (on the event loop's thread) and the recorder (on its worker thread, after the
    step's commit) may ask for the same frame at once; the second waits for the first's bytes
    rather than encoding the picture again (``dict.setdefault`` is atomic, so both get one lock).
    """
    memo = _memo(frame)
    if memo is None:
        return encode_png(np.ascontiguousarray(frame), level)
    key = ("png", level)
    with memo.setdefault(("lock", level), threading.Lock()):
        if key not in memo:
            memo[key] = encode_png(np.ascontiguousarray(frame), level)
    return bytes(memo[key])
