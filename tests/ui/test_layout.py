"""Every view fits a 1280x800 screen and a 1024x700 one: the real main window, resized to
each size and walked through every tab with content loaded (a level being played, recorded
episodes, three Compare lanes, a Results table), keeps its size, and the controls a person
needs (Export, Jump to divergence, the scrub buttons, Researcher view, the third Compare lane)
lie inside the window. The window also opens at a size that fits the screen and comes back at
the geometry (and splitter positions) it was closed with, brought inside the screen."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QApplication

from playbench.app.ui.models.geometry import Rect, fit
from playbench.app.ui.models.prefs import PrefsStore
from tests.ui.helpers import close_window, start_level
from tests.ui.test_compare_view import open_task, seeded_window
from tests.ui.test_results_view import computed

SIZES = ((1280, 800), (1366, 768), (1024, 700))


def inside(window, widget) -> bool:
    """``widget`` is shown and its whole rectangle lies within the window's."""
    if not widget.isVisible():
        return False
    top_left = widget.mapTo(window, QPoint(0, 0))
    return window.rect().contains(QRect(top_left, widget.size()))


def fits(qtbot, window, size: tuple[int, int], what: str) -> None:
    """After layouts have settled, the window still has the size it was given: no view grew
    it (Compare once took a 1024x700 window to 1134x729)."""
    QApplication.processEvents()
    qtbot.wait(0)  # posted layout requests run here
    assert (window.width(), window.height()) == size, (
        f"{what}: the window became {window.width()}x{window.height()}, not "
        f"{size[0]}x{size[1]}")


def test_every_view_fits_a_laptop_screen(make_window, qtbot, aloop, tmp_path):
    window = seeded_window(make_window, qtbot, aloop, tmp_path)
    start_level(qtbot, window, "sokoban", "ingvp", 7, setting="ingvp:image-multi-history")
    compare = open_task(qtbot, window)
    assert len(compare.lanes) == 3
    results = window.results
    window.show_page(results)
    computed(qtbot, results)
    assert results.table.rowCount() > 0
    viewer = window.episodes
    window.show_page(viewer)
    qtbot.waitUntil(lambda: len(viewer.shown) > 0, timeout=10000)
    viewer.table.selectRow(0)
    qtbot.waitUntil(lambda: viewer.record is not None, timeout=10000)

    for size in SIZES:
        window.resize(*size)
        fits(qtbot, window, size, "resized")
        for i in range(window.tabs.count()):
            window.tabs.setCurrentIndex(i)
            fits(qtbot, window, size, f"the {window.tabs.tabText(i)} tab")
            page = window.tabs.widget(i)
            hint = page.minimumSizeHint()
            assert hint.width() <= size[0] and hint.height() <= size[1], (
                window.tabs.tabText(i), hint)
        hint = window.minimumSizeHint()
        assert hint.width() <= size[0] and hint.height() <= size[1], hint

        window.show_page(compare)
        fits(qtbot, window, size, "Compare")
        controls = [compare.jump, compare.researcher, compare.lanes[2], compare.nav.first,
                    compare.nav.prev, compare.nav.next, compare.nav.last]
        assert [w for w in controls if not inside(window, w)] == []
        window.show_page(results)
        fits(qtbot, window, size, "Results")
        assert inside(window, results.export_button) and inside(window, results.researcher)
        window.show_page(viewer)
        fits(qtbot, window, size, "Episodes")
        controls = [viewer.researcher, viewer.nav.first, viewer.nav.prev, viewer.nav.next,
                    viewer.nav.last]
        assert [w for w in controls if not inside(window, w)] == []

        dialog = window.open_settings()
        for t in range(dialog.tabs.count()):
            dialog.tabs.setCurrentIndex(t)
            QApplication.processEvents()
            hint = dialog.minimumSizeHint()
            assert hint.width() <= size[0] and hint.height() <= size[1], hint
        dialog.reject()


def test_the_window_opens_within_the_screen_and_keeps_its_geometry(
        make_window, qtbot, aloop, config_dir, monkeypatch):
    # The offscreen platform's one screen is 800x800, smaller than any laptop: the window
    # is told it is on a 1280x800 laptop screen with a 24 px panel at the top.
    from playbench.app.ui.window import MainWindow
    monkeypatch.setattr(MainWindow, "available", lambda self: Rect(0, 24, 1280, 776))
    window = make_window()
    screen = window.available()
    assert window.width() <= screen.w and window.height() <= screen.h
    assert window.y() >= screen.y

    # Closed at a smaller size with a moved splitter: both come back at the next start.
    window.resize(min(1000, screen.w), min(700, screen.h))
    name, split = next(iter(window.splitters().items()))
    sizes = split.sizes()
    split.setSizes([sizes[0] + 40, *[max(1, s - 40 // max(1, len(sizes) - 1))
                                     for s in sizes[1:]]])
    wanted = split.sizes()
    close_window(qtbot, window)
    stored = PrefsStore(config_dir).load().window
    assert (stored["w"], stored["h"]) == (window.width(), window.height())
    assert name in stored["splitters"]
    again = make_window()
    assert (again.width(), again.height()) == (stored["w"], stored["h"])
    assert again.splitters()[name].sizes()[0] == wanted[0]


def test_a_stored_geometry_is_brought_inside_a_smaller_screen() -> None:
    laptop = Rect(0, 0, 1280, 800)
    assert fit(laptop) == Rect(0, 0, 1280, 800)  # the preferred size does not fit: shrunk
    big = Rect(0, 0, 2560, 1440)
    opened = fit(big)
    assert opened.w < big.w and opened.x > 0  # room to spare: preferred size, centred
    moved = fit(laptop, Rect(2000, 900, 1500, 900))  # from a large monitor to the laptop
    assert (moved.w, moved.h) == (1280, 800) and (moved.x, moved.y) == (0, 0)
    kept = fit(big, Rect(100, 50, 900, 600))
    assert kept == Rect(100, 50, 900, 600)
    edge = fit(Rect(1280, 24, 1366, 744), Rect(2500, 0, 800, 600))  # a second screen
    assert edge.x + edge.w <= 1280 + 1366 and edge.y >= 24
