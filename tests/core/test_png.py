"""Our PNG writer: any frame comes back from a standard decoder pixel for pixel."""

import io

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from PIL import Image

from app.core.png import encode_png


@given(arrays(np.uint8, st.tuples(st.integers(1, 40), st.integers(1, 40), st.just(3))))
def test_round_trip_through_pillow(frame):
    back = np.array(Image.open(io.BytesIO(encode_png(frame))).convert("RGB"))
    assert back.shape == frame.shape and (back == frame).all()


def test_rejects_other_shapes():
    with pytest.raises(ValueError, match="H x W x 3"):
        encode_png(np.zeros((4, 4), np.uint8))
