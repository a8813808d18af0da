"""The app's rule for Python's garbage collector, kept in Qt tests too.

``playbench`` collects garbage cycles on the Qt thread only
(:class:`playbench.app.ui.collector.MainThreadCollector`). A test that uses ``qtbot`` runs
under the same collector, and at its end - after its fixtures have closed its windows - a full
collection runs here, on the Qt thread, before automatic collection is switched back on for
the next test. Without this, a window's garbage left by one test could be collected during a
later one by whichever thread allocated at that moment (a static file server, the browser
fence), destroying Qt objects off the Qt thread: the worker then died in pytest-qt's next
``processEvents`` (a segmentation fault seen in two full runs).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

COLLECTOR = pytest.StashKey[object]()


def _uses_qt(item: pytest.Item) -> bool:
    return "qtbot" in getattr(item, "fixturenames", ())


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_call(item: pytest.Item) -> None:
    """Started once the fixtures (the ``QApplication`` among them) are set up."""
    if not _uses_qt(item):
        return
    from playbench.app.ui.collector import MainThreadCollector

    collector = MainThreadCollector()
    collector.start()
    item.stash[COLLECTOR] = collector


@pytest.hookimpl(wrapper=True, trylast=True)
def pytest_runtest_teardown(item: pytest.Item) -> Iterator[None]:
    try:
        return (yield)  # the fixtures' own teardown: windows closed, loop tasks cancelled
    finally:
        collector = item.stash.get(COLLECTOR, None)
        if collector is not None:
            del item.stash[COLLECTOR]
            gc.collect()
            collector.stop()  # type: ignore[attr-defined]
