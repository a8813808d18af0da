"""Driving the real widgets the way a person does: keys, clicks, drags, and waiting on the
app's own state (never on time)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication

KEYS = {"Left": Qt.Key.Key_Left, "Right": Qt.Key.Key_Right, "Up": Qt.Key.Key_Up,
        "Down": Qt.Key.Key_Down, "Escape": Qt.Key.Key_Escape, "F1": Qt.Key.Key_F1,
        "Space": Qt.Key.Key_Space, "Tab": Qt.Key.Key_Tab}
ARROW_OF = {"U": "Up", "D": "Down", "L": "Left", "R": "Right"}
WASD_OF = {"U": "W", "D": "S", "L": "A", "R": "D"}


def close_window(qtbot, window) -> None:
    """Close a main window the way a person does and wait until its shutdown finished."""
    if getattr(window, "_closed", True):
        return
    with qtbot.waitSignal(window.closed, timeout=20000):
        window.close()


def key(qtbot, widget, name: str, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    code = KEYS.get(name)
    if code is None:
        code = getattr(Qt.Key, f"Key_{name}")
    qtbot.keyClick(widget, code, modifier)


def frame_point(board, x: float, y: float) -> QPoint:
    p = board.from_frame(x, y)
    return QPoint(round(p.x()), round(p.y()))


def click_frame(qtbot, board, x: float, y: float) -> None:
    qtbot.mouseClick(board, Qt.MouseButton.LeftButton, pos=frame_point(board, x, y))


def drag_frame(qtbot, board, start: tuple[float, float], end: tuple[float, float]) -> None:
    """Press at ``start``, move, release at ``end`` (frame pixels)."""
    a, b = frame_point(board, *start), frame_point(board, *end)
    qtbot.mousePress(board, Qt.MouseButton.LeftButton, pos=a)
    move = QMouseEvent(QMouseEvent.Type.MouseMove, QPointF(b), QPointF(board.mapToGlobal(b)),
                       Qt.MouseButton.NoButton, Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(board, move)
    qtbot.mouseRelease(board, Qt.MouseButton.LeftButton, pos=b)


def centre(rect: tuple[int, int, int, int]) -> tuple[float, float]:
    x, y, w, h = rect
    return x + w / 2, y + h / 2


def start_level(qtbot, window, game: str, pack: str, number: int, setting: str = "default",
                player: str = "human", max_actions: int | None = None,
                timeout: int = 20000) -> Any:
    """Choose a level in the Library, a player and a setting, press Play; returns the
    session once its episode has started (within ``timeout`` ms)."""
    lib = window.library
    lib.select(game, pack)
    lib.select_level(number)
    start = lib.start
    start.player.setCurrentIndex(start.player.findData(player))
    start.setting.setCurrentIndex(start.setting.findData(setting))
    if max_actions is not None:
        start.max_actions.setValue(max_actions)
    view = window.play_place.view_for(game) if player == "human" else window.demo
    before = view.session
    qtbot.mouseClick(start.play, Qt.MouseButton.LeftButton)
    _go_ahead_if_asked(qtbot)  # a level still running: "Stop it and start"
    qtbot.waitUntil(lambda: view.session is not None and view.session is not before
                    and view.session.episode_id != 0, timeout=timeout)
    if player == "human":
        qtbot.waitUntil(lambda: view.session.player.waiting, timeout=10000)
    return view.session


def wait_steps(qtbot, session, n: int, timeout: int = 10000) -> None:
    qtbot.waitUntil(lambda: len(session.steps) >= n, timeout=timeout)


def wait_ready(qtbot, session) -> None:
    """Until the episode waits for the person again (or has ended)."""
    qtbot.waitUntil(lambda: session.result is not None or session.player.waiting,
                    timeout=10000)


def wait_end(qtbot, session, timeout: int = 20000) -> None:
    qtbot.waitUntil(lambda: session.result is not None, timeout=timeout)


def confirm_box(qtbot) -> Any:
    """The confirmation box being shown (``playbench.app.ui.confirm``), once it is up."""
    from PySide6.QtWidgets import QMessageBox
    found: list[Any] = []

    def shown() -> bool:
        found[:] = [w for w in QApplication.topLevelWidgets()
                    if isinstance(w, QMessageBox) and w.objectName() == "confirm"
                    and w.isVisible()]
        return bool(found)
    qtbot.waitUntil(shown, timeout=5000)
    return found[0]


def _go_ahead_if_asked(qtbot) -> None:
    """Confirm the question a click raised, if it raised one (it is shown synchronously)."""
    from PySide6.QtWidgets import QMessageBox, QPushButton
    for w in QApplication.topLevelWidgets():
        if isinstance(w, QMessageBox) and w.objectName() == "confirm" and w.isVisible():
            qtbot.mouseClick(w.findChild(QPushButton, "confirm_yes"),
                             Qt.MouseButton.LeftButton)


def give_up(qtbot, view) -> None:
    """Press the view's Give up and confirm it, as a person does."""
    from PySide6.QtWidgets import QPushButton
    qtbot.mouseClick(view.give_up, Qt.MouseButton.LeftButton)
    box = confirm_box(qtbot)
    qtbot.mouseClick(box.findChild(QPushButton, "confirm_yes"), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not box.isVisible(), timeout=5000)
