"""Our PNG writer: any frame comes back from a standard decoder pixel for pixel."""

import io
import zlib

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from PIL import Image

from playbench.app.core.png import as_frame, encode_png, frame_digest, frame_png


@given(arrays(np.uint8, st.tuples(st.integers(1, 40), st.integers(1, 40), st.just(3))))
def test_round_trip_through_pillow(frame):
    back = np.array(Image.open(io.BytesIO(encode_png(frame))).convert("RGB"))
    assert back.shape == frame.shape and (back == frame).all()


def test_rejects_other_shapes():
    with pytest.raises(ValueError, match="H x W x 3"):
        encode_png(np.zeros((4, 4), np.uint8))


def _sha(frame) -> str:
    import hashlib
    h = hashlib.sha256(f"{frame.shape}".encode())
    h.update(np.ascontiguousarray(frame).tobytes())
    return h.hexdigest()


@given(arrays(np.uint8, st.tuples(st.integers(1, 30), st.integers(1, 30), st.just(3))))
def test_a_frame_gives_the_digest_and_png_of_its_pixels(pixels):
    """The memo changes nothing: the same digest (the frames table's key, so databases written
    before it still deduplicate) and the same decodable PNG as a plain array."""
    frame = as_frame(pixels)
    assert frame_digest(frame) == frame_digest(pixels) == _sha(pixels)
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
    assert frame_png(frame, level=9) is not first  # a level of its own


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
    idat = data[33 + 8:-12 - 4]
    h, w, _ = frame.shape
    assert len(zlib.decompress(idat)) == h * (w * 3 + 1)
