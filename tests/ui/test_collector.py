"""Garbage cycles are collected on the Qt thread while the app runs (app/ui/collector.py)."""

from __future__ import annotations

import gc
import threading

from playbench.app.ui.collector import MainThreadCollector


class _Cycle:
    """A garbage cycle that notes the thread its collection ran on."""

    def __init__(self, seen: list[str]) -> None:
        self.me = self
        self.seen = seen

    def __del__(self) -> None:
        self.seen.append(threading.current_thread().name)


def _allocate_in_a_thread() -> list[list[int]]:
    """Allocate as a helper thread does: more live container objects than the automatic
    collector's first threshold, which makes it collect on that thread when it is on."""
    kept: list[list[int]] = []

    def work() -> None:
        kept.extend([i] for i in range(gc.get_threshold()[0] * 4))
    worker = threading.Thread(target=work, name="helper")
    worker.start()
    worker.join()
    return kept


def test_without_the_collector_a_helper_thread_collects_the_cycle(qapp):
    assert gc.isenabled()
    seen: list[str] = []
    _Cycle(seen)
    kept = _allocate_in_a_thread()
    assert seen == ["helper"] and kept  # what the collector exists to prevent


def test_with_the_collector_only_the_qt_thread_collects(qtbot):
    seen: list[str] = []
    was_on = gc.isenabled()  # off: tests/qt_collect.py runs qtbot tests under the rule too
    collector = MainThreadCollector(interval_ms=10)
    collector.start()
    try:
        assert not gc.isenabled()
        _Cycle(seen)
        kept = _allocate_in_a_thread()
        assert seen == [] and kept  # the helper thread's allocations collected nothing
        qtbot.waitUntil(lambda: seen != [], timeout=5000)  # the timer's check, on this thread
        assert seen == [threading.current_thread().name]
    finally:
        collector.stop()
    assert gc.isenabled() == was_on


def test_a_check_off_the_qt_thread_does_nothing(qapp):
    collector = MainThreadCollector()
    collector.start()
    try:
        results: list[int | None] = []
        kept = [[] for _ in range(gc.get_threshold()[0] * 2)]  # counted in generation 0
        t = threading.Thread(target=lambda: results.append(collector.check()))
        t.start()
        t.join()
        assert results == [None]
        assert collector.check() is not None and kept
    finally:
        collector.stop()
