"""Pausing Python's cyclic garbage collector while results build large lists of tuples.

Each hundred thousand or so new tuples start a collection that walks every tracked object,
the freshly made ones included, though none of them can be part of a cycle. Loading and
ranking 100,000 episodes spent 0.23 s of its 1.75 s of CPU in those collections (issue 32;
``gc.disable`` around the same calls, bench_results' database). Reference counting still
frees everything as usual while the collector is paused; it resumes afterwards.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused_gc() -> Iterator[None]:
    """Run the block with the cyclic collector off, and turn it back on after (only if it
    was on: nested pauses leave it as the outermost found it). In the desktop app automatic
    collection is already off (app/ui/collector.py collects on the Qt thread), so a pause in a
    worker thread changes nothing there; overlapping pauses in two threads are not expected
    (the command line computes results on one thread)."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
