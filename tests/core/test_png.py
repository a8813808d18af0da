"""Our PNG writer: any frame comes back from a standard decoder pixel for pixel."""

import io
import zlib

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from PIL import Image

from playbench.app.core.png import (
    BAND_ROWS,
    FrameCodec,
    adler32_combine,
    as_frame,
    encode_png,
    frame_digest,
    frame_png,
    pixel_digest,
)


@given(arrays(np.uint8, st.tuples(st.integers(1, 40), st.integers(1, 40), st.just(3))))
def test_round_trip_through_pillow(frame):
    back = np.array(Image.open(io.BytesIO(encode_png(frame))).convert("RGB"))
    assert back.shape == frame.shape and (back == frame).all()


def test_rejects_other_shapes():
    with pytest.raises(ValueError, match="H x W x 3"):
        encode_png(np.zeros((4, 4), np.uint8))


@given(arrays(np.uint8, st.tuples(st.integers(1, 30), st.integers(1, 30), st.just(3))))
def test_a_frame_gives_the_digest_and_png_of_its_pixels(pixels):
    """The memo changes nothing: the same digest (the frames table's key) and the same
    decodable PNG as a plain array."""
    frame = as_frame(pixels)
    assert frame_digest(frame) == frame_digest(pixels) == pixel_digest(pixels)
    assert frame_png(frame) == frame_png(pixels) == encode_png(pixels)
    back = np.array(Image.open(io.BytesIO(frame_png(frame))).convert("RGB"))
    assert (back == pixels).all()


def test_a_frame_is_encoded_once_and_derived_arrays_start_afresh():
    frame = as_frame(np.zeros((8, 8, 3), np.uint8))
    first = frame_png(frame)
    assert frame_png(frame) is first  # the memo, not a second encoding
    digest = frame_digest(frame)
    part = frame[:4]  # a different picture must not inherit the memo
    assert part.memo == {}
    assert frame_digest(part) != digest and frame_png(part) != first
    assert frame_png(frame, level=3) is not first  # a level of its own


@st.composite
def boards(draw):
    """Frames made of runs of repeated rows, as boards are: the encoder writes long runs from
    ready-made segments, so every run length (short ones stay inline) must decode exactly."""
    width = draw(st.integers(1, 24))
    rows = []
    for _ in range(draw(st.integers(1, 6))):
        row = draw(arrays(np.uint8, (width, 3)))
        rows += [row] * draw(st.integers(1, 30))
    return np.stack(rows)


@given(boards())
def test_repeated_rows_round_trip_and_check_sums(frame):
    data = encode_png(frame)
    back = np.array(Image.open(io.BytesIO(data)).convert("RGB"))
    assert back.shape == frame.shape and (back == frame).all()
    # zlib checks the stream's Adler-32 (worked out in closed form over the repeated rows).
    idat = b"".join(body for tag, body in _chunks(data) if tag == b"IDAT")
    h, w, _ = frame.shape
    assert len(zlib.decompress(idat)) == h * (w * 3 + 1)


def _chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """The PNG's chunks as (tag, data), each chunk's CRC checked."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    out, at = [], 8
    while at < len(data):
        size = int.from_bytes(data[at:at + 4], "big")
        tag, body = data[at + 4:at + 8], data[at + 8:at + 8 + size]
        assert int.from_bytes(data[at + 8 + size:at + 12 + size], "big") == zlib.crc32(tag + body)
        out.append((tag, body))
        at += 12 + size
    return out


@st.composite
def episodes(draw):
    """A board and the frames of a few steps after it, each step repainting a rectangle (a
    cell, a piece) - heights that are no multiple of a band included, and 1-pixel widths."""
    height, width = draw(st.integers(1, 3 * BAND_ROWS + 5)), draw(st.integers(1, 24))
    frame = np.zeros((height, width, 3), np.uint8)
    frame[:] = draw(arrays(np.uint8, (3,)))
    frames = [frame]
    for _ in range(draw(st.integers(1, 5))):
        frame = frame.copy()
        top, left = draw(st.integers(0, height - 1)), draw(st.integers(0, width - 1))
        bottom, right = draw(st.integers(top + 1, height)), draw(st.integers(left + 1, width))
        frame[top:bottom, left:right] = draw(arrays(np.uint8, (bottom - top, right - left, 3)))
        frames.append(frame)
    return frames


def _decoded(data: bytes) -> np.ndarray:
    return np.array(Image.open(io.BytesIO(data)).convert("RGB"))


@given(episodes())
def test_an_episodes_frames_encoded_from_the_previous_one_are_the_fresh_encodings(frames):
    """The codec reuses the bands a step did not change; what it writes is byte for byte
    what encoding each frame on its own gives, and decodes to the frame's pixels."""
    codec = FrameCodec()
    for pixels in frames:
        digest, data = codec.encode(as_frame(pixels))
        assert data == encode_png(pixels) and digest == pixel_digest(pixels)
        assert (_decoded(data) == pixels).all()


def test_a_step_that_repaints_one_cell_encodes_only_its_bands():
    board = np.full((8 * BAND_ROWS, 64, 3), 200, np.uint8)
    board[::4] = 30  # grid lines: no band is only repeated rows
    moved = board.copy()
    moved[BAND_ROWS + 2:BAND_ROWS + 9, 10:20] = (250, 0, 0)  # inside the second band
    codec = FrameCodec()
    codec.encode(as_frame(board))
    assert codec.reused == 0
    digest, data = codec.encode(as_frame(moved))
    assert codec.reused == 7  # every band but the repainted one
    assert data == encode_png(moved) and digest == pixel_digest(moved)


def test_an_array_that_can_still_change_is_never_reused():
    """Only a read-only Frame is kept as the previous frame: an array changed in place after
    it was encoded is encoded afresh, not taken for the picture it was."""
    pixels = np.zeros((2 * BAND_ROWS, 8, 3), np.uint8)
    codec = FrameCodec()
    codec.encode(pixels)
    pixels[3, 3] = 255
    assert codec.encode(pixels) == (pixel_digest(pixels), encode_png(pixels))
    assert codec.reused == 0


def test_a_rendered_frame_cannot_be_changed_in_place():
    frame = as_frame(np.zeros((4, 4, 3), np.uint8))
    with pytest.raises(ValueError, match="read-only"):
        frame[0, 0] = 1


def test_a_frame_that_names_its_changed_rows_is_encoded_from_that_note():
    """A renderer's note (games/frame.py) stands in for comparing the two pictures: the bands
    holding the named rows are encoded again - even one whose pixels happen to be the same -
    and every other band is taken from the frame before. A note about another frame than the
    one encoded last is not used."""
    board = np.full((6 * BAND_ROWS, 40, 3), 90, np.uint8)
    board[::5] = 10
    first = as_frame(board)
    moved = board.copy()
    moved[2 * BAND_ROWS + 3:2 * BAND_ROWS + 7, 4:9] = (0, 200, 0)
    codec = FrameCodec()
    codec.encode(first)
    named = [(2 * BAND_ROWS + 1, 2 * BAND_ROWS + 9), (4 * BAND_ROWS, 4 * BAND_ROWS + 2)]
    second = as_frame(moved, since=first, rows=named)
    assert second.changed is not None and second.changed.base() is first
    digest, data = codec.encode(second)
    assert codec.reused == 4  # bands 2 and 4 were encoded again, as named
    assert data == encode_png(moved) and digest == pixel_digest(moved)
    stranger = as_frame(board, since=first, rows=[])  # told from `first`, encoded after `second`
    assert codec.encode(stranger) == (pixel_digest(board), encode_png(board))
    assert codec.reused == 4 + 5  # compared with `second`: only band 2 differs


def test_a_frame_does_not_keep_the_frame_before_it_alive():
    first = as_frame(np.zeros((4, 4, 3), np.uint8))
    second = as_frame(np.ones((4, 4, 3), np.uint8), since=first, rows=[(0, 4)])
    del first
    assert second.changed is not None and second.changed.base() is None


@given(episodes())
def test_a_frame_is_one_idat_chunk_per_band_between_the_streams_head_and_end(frames):
    """Each band's chunk is made with the band and reused with it; the chunks are in order,
    framed by the zlib stream's head and its end, and every CRC is right."""
    data = encode_png(frames[-1])
    tags = [tag for tag, _ in _chunks(data)]
    bands = -(-frames[-1].shape[0] // BAND_ROWS)
    assert tags == [b"IHDR", *[b"IDAT"] * (bands + 2), b"IEND"]


def test_the_digest_is_a_function_of_the_pixels_and_the_size():
    frame = np.zeros((40, 20, 3), np.uint8)
    other = frame.copy()
    other[39, 19, 2] = 1  # the last byte of the last band
    assert len({pixel_digest(frame), pixel_digest(other), pixel_digest(frame.reshape(20, 40, 3)),
                pixel_digest(np.zeros((40, 20, 3), np.uint8))}) == 3


@given(st.binary(max_size=300), st.binary(max_size=300))
def test_adler32_combine_is_zlibs_check_sum_of_the_joined_bytes(first, second):
    assert adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second)) == \
        zlib.adler32(first + second)
