"""Starting and stopping the desktop app: one ``QApplication``, one asyncio loop on the Qt
thread (qasync), the main window, and a clean end.

Closing the window (or Ctrl-C in the terminal) cancels running episodes - each records
``interrupted`` and can be resumed - closes model connections and the database, and only then
leaves the loop. Qt objects are deleted before the interpreter shuts down, in a fixed order.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
import time
from collections.abc import Callable

import qasync

from playbench.app.ui.collector import MainThreadCollector
from playbench.app.ui.models.app_state import AppState
from playbench.app.ui.qt import QApplication, QIcon, QTimer
from playbench.app.ui.style import apply_style
from playbench.app.ui.window import MainWindow


def _icon() -> QIcon:
    try:
        from playbench import resources
        path = resources.path("icons", "playbench.png")
        return QIcon(str(path)) if path.exists() else QIcon()
    except Exception:  # noqa: BLE001 - an icon is never worth failing for
        return QIcon()


def build(state: AppState | None = None, *, fill_library: bool = True
          ) -> tuple[MainWindow, AppState]:
    """The main window over an opened (or explained-as-unopenable) database. Needs a
    ``QApplication`` and a running qasync loop. ``fill_library`` False: the Library lists its
    games when ``window.library.fill()`` is called (``run_app`` does once it is up)."""
    state = state or AppState()
    state.try_open_database()
    asyncio.get_event_loop().set_default_executor(state.executor)
    window = MainWindow(state, fill_library=fill_library)
    return window, state


class NoDisplay(ImportError):
    """There is no screen to open a window on. An ``ImportError`` because that is what
    ``playbench.app.cli.desktop`` treats as "the desktop app is not available here" (it then
    explains and runs the headless demo) - Qt itself would abort the process instead."""


def _check_display() -> None:
    if not sys.platform.startswith("linux") or os.environ.get("QT_QPA_PLATFORM"):
        return
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        raise NoDisplay("no display (DISPLAY and WAYLAND_DISPLAY are unset); run it on a "
                        "desktop, or under xvfb-run")


def _application() -> QApplication:
    """The process's QApplication, made on first use."""
    existing = QApplication.instance()
    if existing is None:
        return QApplication(sys.argv[:1])
    assert isinstance(existing, QApplication), "a QCoreApplication cannot show windows"
    return existing


def run_app(args: argparse.Namespace | None = None,
            on_ready: Callable[[MainWindow], None] | None = None) -> int:
    """``playbench`` with no command. Returns the process exit code."""
    t0 = time.perf_counter()
    _check_display()
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    app = _application()
    app.setApplicationName("PlayBench")
    app.setOrganizationName("PlayBench")
    app.setWindowIcon(_icon())
    app.setQuitOnLastWindowClosed(False)
    apply_style(app)
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    collector = MainThreadCollector()
    collector.start()
    db = getattr(args, "db", None) if args is not None else None
    window, state = build(AppState(db_url=db), fill_library=False)
    done = loop.create_future()
    window.closed.connect(lambda: done.done() or done.set_result(None))

    # Python handles signals only between bytecodes; a light timer lets Ctrl-C through.
    previous = signal.signal(signal.SIGINT, lambda *_: window.close())
    wake = QTimer()
    wake.timeout.connect(lambda: None)
    wake.start(200)

    window.show()

    def ready() -> None:
        # The Library lists the games and the Play place makes its views next, once this turn
        # of the loop has let the window paint: listing the games loads every installed kind,
        # the views load the surfaces' plugins (issue 32: interactive <= 1 s).
        QTimer.singleShot(0, window.library.fill)
        QTimer.singleShot(0, window.play_place.make_views)
        window.after_show()
        if on_ready is not None:
            on_ready(window)
        if os.environ.get("PLAYBENCH_STARTUP_REPORT"):
            print(f"interactive after {time.perf_counter() - t0:.3f} s", file=sys.stderr)
    QTimer.singleShot(0, ready)
    try:
        with loop:
            loop.run_until_complete(done)
    finally:
        signal.signal(signal.SIGINT, previous)
        wake.stop()
        window.deleteLater()  # the closures above still name it; processEvents deletes it
        app.processEvents()
        collector.stop()
    return 0
