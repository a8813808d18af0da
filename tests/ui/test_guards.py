"""Nothing a person is playing is ended or misfiled without asking: changing the annotator
mid-task and starting another level ask first (and going ahead stops the running task under
the annotator who played it); the start-up prompt offers only interrupted episodes with steps,
and "Discard" records one as abandoned without deleting anything."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from playbench.app.ui.annotator import AnnotatorDialog
from playbench.app.ui.resume import ResumeDialog
from playbench.db.interrupted import ABANDONED
from tests.ui.conftest import ANNOTATOR
from tests.ui.helpers import (
    ARROW_OF,
    close_window,
    key,
    start_level,
    wait_end,
    wait_ready,
    wait_steps,
)


def question(qtbot, window) -> QMessageBox:
    """The confirmation on screen."""
    def shown():
        return [b for b in window.findChildren(QMessageBox, "confirm") if b.isVisible()]
    qtbot.waitUntil(lambda: len(shown()) == 1, timeout=5000)
    return shown()[0]


def answer(qtbot, box: QMessageBox, yes: bool) -> None:
    button = (next(b for b in box.buttons() if b.objectName() == "confirm_yes") if yes
              else box.button(QMessageBox.StandardButton.Cancel))
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def choose_annotator(qtbot, window, name: str) -> None:
    window.ask_annotator()
    dialog = [d for d in window.findChildren(AnnotatorDialog) if d.isVisible()][0]
    dialog.name.setText(name)
    qtbot.mouseClick(dialog.ok, Qt.MouseButton.LeftButton)


def play_moves(qtbot, window, session, n: int) -> None:
    for move in session.task.level.meta["solution"][:n]:
        key(qtbot, window.play_place.view("board").board, ARROW_OF[move])
    wait_steps(qtbot, session, n)
    wait_ready(qtbot, session)


def test_changing_the_annotator_mid_task_asks_and_keeps_header_and_record_agreeing(
        make_window, qtbot):
    window = make_window()
    session = start_level(qtbot, window, "sokoban", "ingvp", 1)
    play_moves(qtbot, window, session, 2)

    choose_annotator(qtbot, window, "ann-new")
    box = question(qtbot, window)
    assert ANNOTATOR in box.text() and "ann-new" in box.text()
    answer(qtbot, box, yes=False)                     # changed their mind: nothing changes
    assert session.result is None and window.play_place.view("board").busy
    assert window.state.prefs.annotator == ANNOTATOR
    assert window.who_action.text() == f"Annotator: {ANNOTATOR}"

    choose_annotator(qtbot, window, "ann-new")
    answer(qtbot, question(qtbot, window), yes=True)
    wait_end(qtbot, session)
    qtbot.waitUntil(lambda: window.state.prefs.annotator == "ann-new", timeout=5000)
    assert session.result.status == "interrupted"
    row = window.state.store.episode(session.episode_id)
    assert row.participant.name == ANNOTATOR and row.episode.n_steps == 2
    assert window.who_action.text() == "Annotator: ann-new"
    fresh = start_level(qtbot, window, "maze", "ingvp", 1)   # nothing runs: no question
    assert fresh.player.name == "ann-new"
    assert window.state.store.episode(fresh.episode_id).participant.name == "ann-new"


def test_starting_another_level_while_one_runs_asks_first(make_window, qtbot):
    window = make_window()
    first = start_level(qtbot, window, "sokoban", "ingvp", 1)
    play_moves(qtbot, window, first, 1)
    lib = window.library
    lib.select("maze", "ingvp")
    lib.select_level(1)
    qtbot.mouseClick(lib.start.play, Qt.MouseButton.LeftButton)
    box = question(qtbot, window)
    assert "stops it" in box.text()
    answer(qtbot, box, yes=False)
    assert window.play_place.view("board").session is first and first.result is None

    qtbot.mouseClick(lib.start.play, Qt.MouseButton.LeftButton)
    answer(qtbot, question(qtbot, window), yes=True)
    qtbot.waitUntil(lambda: window.play_place.view("board").session is not first
                    and window.play_place.view("board").session.episode_id != 0, timeout=20000)
    assert first.result.status == "interrupted"
    assert window.play_place.view("board").session.task.game == "maze"


def test_resume_prompt_offers_only_episodes_with_steps_and_discard_keeps_the_record(
        make_window, qtbot):
    window = make_window()
    empty = start_level(qtbot, window, "maze", "ingvp", 1)        # stopped before a move
    window.play_place.view("board").host.stop_then(lambda: None)
    wait_end(qtbot, empty)
    failed = start_level(qtbot, window, "sokoban", "ingvp", 2)
    play_moves(qtbot, window, failed, 1)
    window.play_place.view("board").host.stop_then(lambda: None)
    wait_end(qtbot, failed)
    store = window.state.store
    store.finish_episode(failed.episode_id, status="error", end_reason="error: boom",
                         scores={})
    kept = start_level(qtbot, window, "sokoban", "ingvp", 1)
    play_moves(qtbot, window, kept, 2)
    close_window(qtbot, window)
    assert (empty.result.status, len(empty.steps)) == ("interrupted", 0)

    window = make_window(show_prompts=True)
    dialog = window.findChild(ResumeDialog)
    assert dialog is not None and dialog.isVisible()
    assert [s.id for s in dialog.episodes] == [kept.episode_id]
    qtbot.mouseClick(dialog.discard_button, Qt.MouseButton.LeftButton)
    assert not dialog.isVisible()
    row = window.state.store.episode(kept.episode_id).episode
    assert (row.status, row.end_reason, row.n_steps) == ("interrupted", ABANDONED, 2)
    assert len(window.state.store.steps(kept.episode_id)) == 2     # nothing deleted
    close_window(qtbot, window)

    window = make_window(show_prompts=True)                         # not offered again
    assert not any(d.isVisible() for d in window.findChildren(ResumeDialog))
