"""The Compare view's frame cache always serves the latest wish: a wish made while a dropped
batch is still winding down (the view cleared the cache for another task) is loaded once that
batch is over. It used to wait for a later wish, and under load a lane's frame never came."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image

from playbench.app.ui.compare_frames import FrameCache


def put_frame(store, shade: int) -> str:
    pixels = np.full((8, 8, 3), shade, dtype=np.uint8)
    buf = io.BytesIO()
    Image.fromarray(pixels).save(buf, format="PNG")
    digest = f"test-frame-{shade}"
    with store.db.engine.begin() as conn:
        store._put_frame(conn, (digest, 8, 8, buf.getvalue()))
    return digest


def test_a_wish_made_while_a_dropped_batch_winds_down_is_served(make_window, qtbot):
    window = make_window()
    store = window.state.store
    first, second = put_frame(store, 40), put_frame(store, 200)
    cache = FrameCache(window.state)
    cache.want([first])
    assert cache.batches.running
    cache.clear()  # another task is shown: the batch under way is dropped ...
    assert cache.batches.running  # ... and has not finished yet when the next wish comes
    cache.want([second])
    qtbot.waitUntil(lambda: cache.image(second) is not None, timeout=10000)
    assert cache.image(second).pixelColor(0, 0).red() == 200
    assert cache.image(first) is None  # the dropped batch's answer was not delivered
