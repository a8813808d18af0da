"""Recorded frames for the Compare view, decoded off the UI thread and kept in a bounded cache.

Scrubbing asks for the frames around the scrubber (nearest first); PNGs are read from the
database and decoded into ``QImage`` in the thread pool, a batch at a time through an
:class:`~playbench.app.ui.operation.Operation` (``QImage`` - unlike ``QPixmap`` - may be made
outside the GUI thread), so moving the scrubber only ever draws images that are ready.
Web-task screenshots are large, so the cache is bounded by bytes, least recently used out.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Sequence

from shiboken6 import isValid

from playbench.app.ui.models.app_state import AppState
from playbench.app.ui.operation import Operation
from playbench.app.ui.qt import QImage, QObject, Signal
from playbench.db.store import Store

log = logging.getLogger(__name__)

BATCH = 16
LIMIT_BYTES = 192 * 1024 * 1024


def decode(store: Store, digests: Sequence[str]) -> dict[str, QImage]:
    """Read and decode frames (runs in a worker thread)."""
    out: dict[str, QImage] = {}
    for digest, png in store.frames(digests).items():
        image = QImage()
        if image.loadFromData(png, "PNG"):
            out[digest] = image.convertToFormat(QImage.Format.Format_RGB32)
    return out


class FrameCache(QObject):
    """Decoded frames by hash; ``ready`` fires when more have arrived."""

    ready = Signal()

    def __init__(self, state: AppState, limit_bytes: int = LIMIT_BYTES,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.limit_bytes = limit_bytes
        self._images: OrderedDict[str, QImage] = OrderedDict()
        self._bytes = 0
        self._wanted: list[str] = []
        self._missing: set[str] = set()
        self.batches: Operation[dict[str, QImage]] = Operation(
            self, state.jobs, state.executor, "compare frames")

    def image(self, digest: str | None) -> QImage | None:
        """The decoded frame, or None while it is not loaded yet."""
        if not digest:
            return None
        image = self._images.get(digest)
        if image is not None:
            self._images.move_to_end(digest)
        return image

    def want(self, digests: Sequence[str]) -> None:
        """Load these next, in this order (replacing any earlier wish not yet served)."""
        self._wanted = [d for d in digests if d and d not in self._images
                        and d not in self._missing]
        if not self.batches.running:
            self._next_batch()

    def clear(self) -> None:
        """Forget every frame (another task is shown); a batch under way is dropped."""
        self.batches.drop()
        self._images.clear()
        self._bytes = 0
        self._wanted = []

    def _next_batch(self) -> None:
        if not self._wanted or self.state.store is None or self.batches.running:
            return
        batch, self._wanted = self._wanted[:BATCH], self._wanted[BATCH:]

        def arrived(images: dict[str, QImage]) -> None:
            self._missing.update(d for d in batch if d not in images)
            for digest, image in images.items():
                self._put(digest, image)
            self.ready.emit()

        def failed(err: BaseException) -> None:
            log.warning("could not load compare frames: %s", err)

        task = self.batches.call(decode, self.state.store, batch, done=arrived, failed=failed)
        # The next batch starts when this one is over however it ended: answered, failed, or
        # dropped by clear() (a dropped batch answers nothing, and a wish made while it was
        # still winding down would otherwise wait for a later one).
        task.add_done_callback(lambda _t: self._next_batch() if isValid(self) else None)

    def _put(self, digest: str, image: QImage) -> None:
        if digest in self._images:
            return
        self._images[digest] = image
        self._bytes += image.sizeInBytes()
        while self._bytes > self.limit_bytes and len(self._images) > 1:
            _, old = self._images.popitem(last=False)
            self._bytes -= old.sizeInBytes()
