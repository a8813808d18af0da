"""A small, fast PNG writer for recorded frames, and the frames' content key.

Pillow chooses a filter per row adaptively, which costs about 2.5 ms for a 320 x 320 board - more
than the whole per-step budget. Board frames are large flat areas, so the fixed "Up" filter
(each row minus the row above) with light zlib compression gives files as small as Pillow's in a
fifth of the time. Any PNG reader (Pillow included) decodes the result; tests check that the
pixels come back exactly.

The picture is cut into bands of :data:`BAND_ROWS` rows, each filtered on its own (its first
row with the "Sub" filter, each byte minus the one a pixel to its left, the others with "Up"),
deflated on its own (segments cut with full flushes, so no match reaches across them) and hashed
on its own: a band's bytes depend on its own pixels only. That makes two savings possible:

* a band whose rows all repeat the one above after its first (inside a cell nothing changes from
  one pixel row to the next) takes a ready-made segment of zeros, made once per (width, rows);
* a :class:`FrameCodec` keeps the bands of the previous frame of the same sequence (an
  episode's), and a model step changes one or two cells: only the bands that differ from the
  previous frame are filtered, deflated and hashed again, the rest are reused. The output is
  byte for byte what a fresh encoding gives (tests check it). Which bands differ comes from the
  frame itself when its renderer named the rows a move changed (``Frame.changed``,
  ``playbench.games.frame``) and the frame it was told from is the one encoded last; otherwise
  the two pictures are compared (0.15-0.3 ms on an 800 x 800 board).

Deflating is ISA-L's (python-isal's zlib-compatible ``isal_zlib``, level 1 of its 0-3), as are
the Adler-32 and CRC-32 check sums: on a model step's changed bands (7-12 per step on the Hanoi,
15-puzzle and queens boards) it deflates 2-3x and sums 4x faster than zlib, with output as
small or smaller; any zlib inflater reads it (tests decode with zlib and Pillow).

Each band's deflated rows go into an IDAT chunk of their own, made (CRC included) with the band
and reused with it: PNG lets the zlib stream run on across consecutive IDAT chunks, so a frame
is the header chunk, the stream's head, one chunk per band and the stream's end - no pass over
the whole picture's bytes (12 bytes more per band).

Measured per step on the boards' frames (warm, one thread, key and PNG together): 800 x 800
queens 4.4 ms before (whole-picture SHA-256 1.7 ms + PNG 2.8 ms) -> 0.9 ms from the previous
frame, 330 x 330 maze 0.47 -> 0.20 ms; a fresh frame (an episode's first) costs about what it
did. Files are 7-30 % larger (bands do not refer to each other). docs/recording.md has the table.

The key of a frame (:func:`frame_digest`, the ``frames`` table's hash) is the SHA-256 of its
size and its bands' SHA-256s (a hash list over the pixels): a pure function of the pixels that
the codec updates band by band, where a SHA-256 over the whole picture cost 1 ms per 800 x 800
board on every step. Frames recorded before it (keyed by that whole-picture hash) stay readable
under their keys; a picture stored under both keys is stored twice.
"""

from __future__ import annotations

import hashlib
import struct
import threading
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
from isal import isal_zlib

# Frames are made by environments (below the app); their memo is filled here.
from playbench.games.frame import Frame as Frame
from playbench.games.frame import as_frame as as_frame

BAND_ROWS = 16
"""Rows per band: a board cell is 40-100 pixel rows, so a step redoes a few bands; smaller
bands cost more per-band overhead on a fresh frame (measured in docs/recording.md)."""

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_FILTER_SUB = 1
_FILTER_UP = 2
_ADLER_MOD = 65521
_ZLIB_HEADER = b"\x78\x01"  # deflate, 32 kB window, fastest-compression hint
_FINAL_BLOCK = b"\x03\x00"  # an empty final fixed-Huffman block (zlib's Z_FINISH after a flush)
_DIGEST_TAG = b"playbench-frame-bands-v1"


def _chunk(tag: bytes, data: bytes) -> bytes:
    crc = isal_zlib.crc32(tag + data)
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", crc)


_IDAT_CRC = isal_zlib.crc32(b"IDAT")
_ZLIB_HEADER_CHUNK = _chunk(b"IDAT", _ZLIB_HEADER)
_END_CHUNK = _chunk(b"IEND", b"")


def _check(frame: np.ndarray) -> None:
    if frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
        raise ValueError(f"expected an H x W x 3 uint8 frame, got {frame.shape} {frame.dtype}")


@lru_cache(maxsize=512)
def _repeated_rows(count: int, row_bytes: int, level: int) -> tuple[bytes, int]:
    """Deflate segment (no final block, ends byte-aligned) of ``count`` "Up" rows of zeros, and
    the Adler-32 of those raw rows."""
    squeeze = isal_zlib.compressobj(level, isal_zlib.DEFLATED, -15)
    raw = (bytes([_FILTER_UP]) + bytes(row_bytes)) * count
    return squeeze.compress(raw) + squeeze.flush(isal_zlib.Z_FULL_FLUSH), isal_zlib.adler32(raw)


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """Adler-32 of ``A + B`` from those of ``A`` and ``B`` and ``len(B)`` (what zlib's
    ``adler32_combine`` does; Python's zlib module does not offer it)."""
    a1, b1 = first & 0xFFFF, first >> 16
    a2, b2 = second & 0xFFFF, second >> 16
    n = second_length % _ADLER_MOD
    a = (a1 + a2 - 1) % _ADLER_MOD
    b = (b1 + b2 + n * a1 - n) % _ADLER_MOD
    return (b << 16) | a


@dataclass(frozen=True)
class _Band:
    chunk: bytes
    """An IDAT chunk holding the band's filtered rows, deflated and cut with a full flush:
    length, tag, data and CRC, ready to be joined to the others."""
    adler: int
    """Adler-32 of those filtered rows on their own."""
    raw_length: int
    sha: bytes
    """SHA-256 of the band's pixels (not filtered: independent of the row above)."""


def _band_sha(flat: np.ndarray, start: int, end: int) -> bytes:
    return hashlib.sha256(flat[start:end].data).digest()


def _encode_band(flat: np.ndarray, start: int, end: int, level: int,
                 squeeze: Any, sha: bytes | None = None) -> _Band:
    """Rows ``start:end`` of ``flat`` (H x 3W, C-contiguous) filtered and deflated on their own:
    the first row with the "Sub" filter (each byte minus the one a pixel to its left), so that
    the band does not depend on the row above it, the others with "Up"."""
    width = flat.shape[1]
    n = end - start
    rows = np.empty((n, width + 1), dtype=np.uint8)
    rows[0, 0] = _FILTER_SUB
    rows[0, 1:4] = flat[start, :3]  # the pixel left of the first one counts as zeros
    np.subtract(flat[start, 3:], flat[start, :-3], out=rows[0, 4:])  # uint8 wraps mod 256
    rows[1:, 0] = _FILTER_UP
    np.subtract(flat[start + 1:end], flat[start:end - 1], out=rows[1:, 1:])
    if sha is None:
        sha = _band_sha(flat, start, end)
    # Every row after the first repeats the one above? (The last row alone first: a band a
    # move changed seldom is, and that check reads one row rather than the band.)
    if n > 1 and not rows[n - 1, 1:].any() and not rows[1:, 1:].any():
        head = rows[0].data
        rest, rest_adler = _repeated_rows(n - 1, width, level)
        segment = squeeze.compress(head) + squeeze.flush(isal_zlib.Z_FULL_FLUSH) + rest
        adler = adler32_combine(isal_zlib.adler32(head), rest_adler, (n - 1) * (width + 1))
    else:
        adler = isal_zlib.adler32(rows.data)
        segment = squeeze.compress(rows.data) + squeeze.flush(isal_zlib.Z_FULL_FLUSH)
    return _Band(_idat(segment), adler, n * (width + 1), sha)


def _idat(data: bytes) -> bytes:
    """An IDAT chunk of ``data`` (its CRC from the tag's, so the data is not copied first)."""
    return b"".join((struct.pack(">I", len(data)), b"IDAT", data,
                     struct.pack(">I", isal_zlib.crc32(data, _IDAT_CRC))))


def _band_changes(flat: np.ndarray, before: np.ndarray) -> np.ndarray:
    """Whether each band of ``flat`` differs from the same band of ``before`` (same shape)."""
    h, width = flat.shape
    full = h // BAND_ROWS
    changed = np.empty(-(-h // BAND_ROWS), dtype=bool)
    if full:
        span = full * BAND_ROWS
        # A band is BAND_ROWS * 3W bytes, a multiple of 8: compared as 64-bit words.
        cur = flat[:span].reshape(full, -1).view(np.uint64)
        old = before[:span].reshape(full, -1).view(np.uint64)
        changed[:full] = (cur != old).any(axis=1)
    if full < len(changed):
        changed[full] = not np.array_equal(flat[full * BAND_ROWS:], before[full * BAND_ROWS:])
    return changed


def _hinted_changes(rows: tuple[tuple[int, int], ...], height: int) -> list[bool]:
    """Which bands hold any of ``rows`` (half-open pixel-row ranges, clipped to the frame)."""
    changed = [False] * -(-height // BAND_ROWS)
    for start, end in rows:
        start, end = max(0, start), min(height, end)
        for k in range(start // BAND_ROWS, -(-end // BAND_ROWS)):
            changed[k] = True
    return changed


def _digest(shape: tuple[int, ...], shas: list[bytes]) -> str:
    h = hashlib.sha256(_DIGEST_TAG + f"{shape[0]}x{shape[1]}".encode())
    h.update(b"".join(shas))
    return h.hexdigest()


def _assemble(width: int, height: int, bands: list[_Band]) -> bytes:
    # adler32_combine over the bands, inlined (a call per band cost more than the arithmetic)
    a, b = 1, 0
    for band in bands:
        n = band.raw_length % _ADLER_MOD
        b = (b + (band.adler >> 16) + n * a - n) % _ADLER_MOD
        a = (a + (band.adler & 0xFFFF) - 1) % _ADLER_MOD
    adler = (b << 16) | a
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB, no interlace
    # The zlib stream runs on through consecutive IDAT chunks (PNG's rule): its header, one
    # chunk per band made with the band, and its end - so no CRC over the whole picture.
    return b"".join([_SIGNATURE, _chunk(b"IHDR", header), _ZLIB_HEADER_CHUNK,
                     *(band.chunk for band in bands),
                     _chunk(b"IDAT", _FINAL_BLOCK + struct.pack(">I", adler)), _END_CHUNK])


class FrameCodec:
    """Digest and PNG of the frames of one sequence (an episode's), each frame's bands reused
    from the previous frame where its pixels are the same.

    Only a read-only :class:`Frame` is kept as the previous frame (frames are never changed in
    place after rendering; a board's frame is read-only), so reusing its bands is safe; any
    other array is encoded afresh. Not thread-safe: one codec per writer thread."""

    def __init__(self, level: int = 1) -> None:
        self.level = level
        """ISA-L's deflate level, 0 (fastest) to 3."""
        self._squeeze = isal_zlib.compressobj(level, isal_zlib.DEFLATED, -15)
        self._before: np.ndarray | None = None
        self._before_frame: Frame | None = None
        self._bands: list[_Band] = []
        self.reused = 0
        """Bands taken from the previous frame so far (benchmarks and tests read it)."""

    def encode(self, frame: np.ndarray) -> tuple[str, bytes]:
        """``(digest, png)`` of ``frame``: the same as :func:`frame_digest` and
        :func:`encode_png` give, byte for byte."""
        _check(frame)
        h, w, _ = frame.shape
        flat = np.ascontiguousarray(frame).reshape(h, w * 3)
        before = self._before
        n_bands = -(-h // BAND_ROWS)
        hint = frame.changed if isinstance(frame, Frame) else None
        changed: list[bool]
        if before is None or before.shape != flat.shape:
            changed = [True] * n_bands
        elif hint is not None and hint.base() is self._before_frame:
            # The renderer said which rows can differ from the frame encoded last: no need
            # to read both pictures whole to find them.
            changed = _hinted_changes(hint.rows, h)
        else:
            changed = _band_changes(flat, before).tolist()
        old = self._bands  # the previous frame's, when ``changed`` was worked out from it
        bands = [_encode_band(flat, k * BAND_ROWS, min(h, (k + 1) * BAND_ROWS), self.level,
                              self._squeeze) if redo else old[k]
                 for k, redo in enumerate(changed)]
        self.reused += n_bands - sum(changed)
        keep = isinstance(frame, Frame) and not frame.flags.writeable
        self._before, self._bands = (flat, bands) if keep else (None, [])
        self._before_frame = frame if keep and isinstance(frame, Frame) else None
        return _digest(frame.shape, [b.sha for b in bands]), _assemble(w, h, bands)


def encode_png(frame: np.ndarray, level: int = 1) -> bytes:
    """Lossless PNG of an H x W x 3 uint8 RGB array."""
    return FrameCodec(level).encode(np.asarray(frame))[1]


def pixel_digest(frame: np.ndarray) -> str:
    """The frame's key (module docstring) worked out from its pixels, without encoding."""
    _check(frame)
    h, w, _ = frame.shape
    flat = np.ascontiguousarray(frame).reshape(h, w * 3)
    return _digest(frame.shape, [_band_sha(flat, s, min(h, s + BAND_ROWS))
                                 for s in range(0, h, BAND_ROWS)])


def _memo(frame: np.ndarray) -> dict[Any, Any] | None:
    return getattr(frame, "memo", None)


def frame_digest(frame: np.ndarray) -> str:
    """Hash of a frame's pixels and shape: same picture, same key, without encoding it."""
    memo = _memo(frame)
    if memo is not None and "digest" in memo:
        return str(memo["digest"])
    digest = pixel_digest(frame)
    if memo is not None:
        memo["digest"] = digest
    return digest


def frame_png(frame: np.ndarray, level: int = 1, codec: FrameCodec | None = None) -> bytes:
    """:func:`encode_png` of ``frame``, encoded once per :class:`Frame` and level.

    The prompt (on the event loop's thread) and the recorder (on its worker thread) may ask for
    the same frame at once; the second waits for the first's bytes rather than encoding the
    picture again (``dict.setdefault`` is atomic, so both get one lock). ``codec`` (the
    recorder's, of this frame's episode) encodes it from the episode's previous frame and
    leaves the digest in the memo too.
    """
    memo = _memo(frame)
    if memo is None:
        if codec is not None and codec.level == level:
            return codec.encode(frame)[1]
        return encode_png(frame, level)
    key = ("png", level)
    with memo.setdefault(("lock", level), threading.Lock()):
        if key not in memo:
            use = codec if codec is not None and codec.level == level else FrameCodec(level)
            memo["digest"], memo[key] = use.encode(frame)  # the key comes with the bands
    return bytes(memo[key])


def frame_data(frame: np.ndarray, codec: FrameCodec, level: int = 1) -> tuple[str, bytes]:
    """``(digest, png)`` of a frame through ``codec`` (see :func:`frame_png`)."""
    png = frame_png(frame, level, codec)
    return frame_digest(frame), png
