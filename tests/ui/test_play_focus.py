"""Keys go to the board while a board is shown: no Play-tab button keeps the keyboard after
a click (Right used to move focus to "Give up" and Space to press it again), and ending the
task by giving up is confirmed first."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton

from tests.ui.helpers import (
    ARROW_OF,
    confirm_box,
    give_up,
    key,
    start_level,
    wait_end,
    wait_ready,
    wait_steps,
)


def _answer(qtbot, box: QMessageBox, yes: bool) -> None:
    button = (box.findChild(QPushButton, "confirm_yes") if yes
              else box.button(QMessageBox.StandardButton.Cancel))
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not box.isVisible(), timeout=5000)


def _legal_move(session) -> str:
    legal = set(session.env.legal_actions())
    return next(m for m in "UDLR" if m in legal)


def _board_has_keys(qtbot, play, session) -> None:
    """The board has the focus, and an arrow key is a move (not a focus change)."""
    qtbot.waitUntil(lambda: QApplication.focusWidget() is play.board, timeout=5000)
    n = len(session.steps)
    move = _legal_move(session)
    key(qtbot, QApplication.focusWidget(), ARROW_OF[move])
    wait_steps(qtbot, session, n + 1)
    wait_ready(qtbot, session)
    assert session.steps[-1].action == move and session.result is None


def test_focus_returns_to_the_board_after_every_play_button(make_window, qtbot):
    window = make_window()
    window.activateWindow()
    play = window.play_place.view("board")
    session = start_level(qtbot, window, "sokoban", "ingvp", 1,
                          setting="ingvp:image-multi-history", max_actions=40)
    _board_has_keys(qtbot, play, session)
    buttons = [b for b in play.findChildren(QPushButton) if b.isVisible() and b.isEnabled()]
    names = {b.text() for b in buttons}
    assert {"Undo last move", "Give up"} <= names
    for b in buttons:
        n = len(session.steps)
        qtbot.mouseClick(b, Qt.MouseButton.LeftButton)
        if b is play.give_up:
            _answer(qtbot, confirm_box(qtbot), yes=False)     # Cancel: the task goes on
            assert session.result is None
        elif b is play.undo:
            wait_steps(qtbot, session, n + 1)
            wait_ready(qtbot, session)
            assert session.steps[-1].action.startswith("undo")
        assert b.focusPolicy() == Qt.FocusPolicy.NoFocus, b.text()
        _board_has_keys(qtbot, play, session)
        # Space on the board is never a second press of the button just clicked.
        n = len(session.steps)
        key(qtbot, QApplication.focusWidget(), "Space")
        wait_ready(qtbot, session)
        assert len(session.steps) <= n + 1 and session.result is None
        assert not any(s.action.startswith("undo") for s in session.steps[n:])


def test_give_up_asks_first_and_is_disabled_once_the_level_is_solved(make_window, qtbot):
    window = make_window()
    window.activateWindow()
    play = window.play_place.view("board")
    session = start_level(qtbot, window, "sokoban", "ingvp", 1)
    qtbot.mouseClick(play.give_up, Qt.MouseButton.LeftButton)
    box = confirm_box(qtbot)
    assert "Give up" in box.windowTitle() and session.result is None
    _answer(qtbot, box, yes=False)
    assert session.result is None
    for move in session.task.level.meta["solution"]:
        key(qtbot, play.board, ARROW_OF[move])
    wait_end(qtbot, session)
    assert session.result.end_reason == "solved"
    assert not play.give_up.isEnabled() and not play.undo.isEnabled()

    session = start_level(qtbot, window, "sokoban", "ingvp", 1)
    qtbot.mouseClick(play.give_up, Qt.MouseButton.LeftButton)
    _answer(qtbot, confirm_box(qtbot), yes=True)
    wait_end(qtbot, session)
    assert session.result.end_reason == "gave_up"
    assert not play.give_up.isEnabled()


def test_digit_buttons_and_submit_plan_give_the_keys_back_to_the_board(make_window, qtbot):
    window = make_window()
    window.activateWindow()
    play = window.play_place.view("board")
    start_level(qtbot, window, "sudoku", "ingvp", 1)
    assert play.digits.isVisible()
    for b in play.digit_buttons[:3]:
        qtbot.mouseClick(play.typed, Qt.MouseButton.LeftButton)   # the keyboard elsewhere
        qtbot.waitUntil(lambda: QApplication.focusWidget() is play.typed)
        qtbot.mouseClick(b, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: QApplication.focusWidget() is play.board)
    give_up(qtbot, play)

    session = start_level(qtbot, window, "maze", "ingvp", 1, setting="ingvp:image-one")
    assert play.submit.isVisible() and play.submit.focusPolicy() == Qt.FocusPolicy.NoFocus
    play.plan.setPlainText(" ".join(session.task.level.meta["solution"]))
    window.activateWindow()   # back from the Give up question
    play.plan.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is play.plan)
    qtbot.mouseClick(play.submit, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is play.board)
    wait_end(qtbot, session)
