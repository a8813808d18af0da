"""Python's cyclic garbage collector, run on the Qt thread only.

Left to itself the collector runs in whichever thread happens to allocate when a generation's
threshold is crossed: a thread-pool worker making a Library thumbnail, the browser fence's
loop, a static file server. If the garbage it finds holds Qt objects (a closed window and its
widgets are often in a reference cycle through their signal connections), their C++ halves
are then destroyed on that thread while the Qt thread may be delivering events to them; Qt
requires an object to be destroyed on its own thread, and the process can die in the next
``processEvents``. So while the app runs, automatic collection is switched off and this
collector checks the same thresholds from a Qt timer (and whenever :meth:`check` is called),
collecting on the Qt thread, the generation the thresholds ask for. Acyclic garbage is freed
by reference counting as before, on whatever thread drops the last reference.
"""

from __future__ import annotations

import gc
import threading

from playbench.app.ui.qt import QObject, QTimer

INTERVAL_MS = 250
"""How often the thresholds are checked: often enough that garbage cycles do not pile up
between two checks, rare enough to cost nothing measurable (a check without a collection is a
few attribute reads)."""


class MainThreadCollector(QObject):
    """Switches automatic collection off on :meth:`start` and back on on :meth:`stop`; in
    between, collects on the thread that made it whenever a generation is over its threshold."""

    def __init__(self, interval_ms: int = INTERVAL_MS) -> None:
        super().__init__()
        self._thread = threading.get_ident()
        self._was_enabled = False
        self._timer = QTimer(self)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self.check)

    def start(self) -> None:
        self._was_enabled = gc.isenabled()
        gc.disable()
        self._timer.start()

    def stop(self) -> None:
        """Stops checking; a last check runs, and automatic collection is switched back on if
        it was on at :meth:`start`."""
        self._timer.stop()
        self.check()
        if self._was_enabled:
            gc.enable()

    def check(self) -> int | None:
        """Collects the oldest generation over its threshold (the rule CPython's own collector
        follows); returns the generation collected, or None. Only on the collector's thread."""
        if threading.get_ident() != self._thread:
            return None
        counts = gc.get_count()
        limits = gc.get_threshold()
        if counts[0] <= limits[0]:
            return None
        generation = 2 if counts[2] > limits[2] else 1 if counts[1] > limits[1] else 0
        gc.collect(generation)
        return generation
