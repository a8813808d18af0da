"""The setting decides what a person sees and may do, exactly as it does for a model:
one-step planning, hidden history, undo only where allowed, text-only observation."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.ui.helpers import ARROW_OF, give_up, key, start_level, wait_end, wait_ready, wait_steps


def test_one_step_plan_is_typed_then_submitted_once(make_window, qtbot):
    window = make_window()
    session = start_level(qtbot, window, "sokoban", "ingvp", 2, setting="ingvp:image-one")
    play = window.play_place.view("board")
    assert play.plan.isVisible() and play.submit.isVisible() and not play.typed.isVisible()
    first_frame = play.board._image
    solution = session.task.level.meta["solution"]
    for move in solution[:3]:
        key(qtbot, play.board, ARROW_OF[move])     # keys only add to the plan
    qtbot.waitUntil(lambda: play.plan.toPlainText() == solution[:3])
    play.plan.setPlainText(play.plan.toPlainText() + " " + solution[3:])  # and typing
    assert session.steps == [] and play.board._image is first_frame  # nothing played yet
    qtbot.mouseClick(play.submit, Qt.MouseButton.LeftButton)
    wait_end(qtbot, session)
    assert not play.submit.isEnabled() and play.plan.isReadOnly()
    steps = window.state.store.steps(session.episode_id)
    assert [s.action for s in steps] == list(solution)
    assert {s.decision for s in steps} == {0}            # one submission
    assert steps[0].raw.startswith("plan:") and all(s.raw == "" for s in steps[1:])
    assert session.result.end_reason == "solved"
    qtbot.mouseClick(play.submit, Qt.MouseButton.LeftButton)  # a second submit does nothing
    assert len(window.state.store.steps(session.episode_id)) == len(solution)


def test_history_is_hidden_without_history_and_listed_with_it(make_window, qtbot):
    window = make_window()
    session = start_level(qtbot, window, "maze", "ingvp", 1, setting="ingvp:image-multi")
    hud = window.play_place.view("board").hud
    assert not hud.history.isVisible() and not hud.history_title.isVisible()
    key(qtbot, window.play_place.view("board").board,
        ARROW_OF[session.task.level.meta["solution"][0]])
    wait_steps(qtbot, session, 1)
    assert hud.history.count() == 0

    session = start_level(qtbot, window, "maze", "ingvp", 1,
                          setting="ingvp:image-multi-history")
    assert hud.history.isVisible()
    move = session.task.level.meta["solution"][0]
    key(qtbot, window.play_place.view("board").board, ARROW_OF[move])
    wait_steps(qtbot, session, 1)
    assert hud.history.count() == 1 and hud.history.item(0).text().startswith(f"1. {move}")


def test_undo_only_where_the_setting_and_game_allow_it(make_window, qtbot):
    window = make_window()
    play = window.play_place.view("board")
    # Sokoban with history: undo allowed (ING-VP).
    session = start_level(qtbot, window, "sokoban", "ingvp", 1,
                          setting="ingvp:image-multi-history")
    assert play.undo.isVisible()
    start_hash = session.env.state_hash()
    key(qtbot, play.board, ARROW_OF[session.task.level.meta["solution"][0]])
    wait_steps(qtbot, session, 1)
    wait_ready(qtbot, session)
    assert session.env.state_hash() != start_hash
    qtbot.mouseClick(play.undo, Qt.MouseButton.LeftButton)
    wait_steps(qtbot, session, 2)
    steps = window.state.store.steps(session.episode_id)
    assert (steps[1].action, steps[1].valid, steps[1].raw) == ("undo 0", True, "button:undo")
    assert session.env.state_hash() == start_hash

    # Sokoban without history, and Hanoi with history: no undo, and Ctrl+Z does nothing.
    for game, setting in (("sokoban", "ingvp:image-multi"),
                          ("hanoi", "ingvp:image-multi-history")):
        session = start_level(qtbot, window, game, "ingvp", 1, setting=setting)
        assert not play.undo.isVisible()
        key(qtbot, play.board, "Z", Qt.KeyboardModifier.ControlModifier)
        give_up(qtbot, play)
        wait_end(qtbot, session)
        assert session.steps == [] and session.result.end_reason == "gave_up"


def test_text_setting_shows_the_text_encoding_not_the_picture(make_window, qtbot):
    window = make_window()
    session = start_level(qtbot, window, "sokoban", "ingvp", 1, setting="ingvp:text-multi")
    board = window.play_place.view("board").board
    assert board._image is None and board._text == session.observation.text
    assert "no picture" in window.play_place.view("board").hud.help.text()
    # shown once, in the board's place
    assert not window.play_place.view("board").hud.text.isVisible()
    move = session.task.level.meta["solution"][0]
    key(qtbot, board, ARROW_OF[move])
    wait_steps(qtbot, session, 1)
    wait_ready(qtbot, session)
    assert board._image is None and board._text == session.observation.text
    assert session.steps[0].action == move


def test_both_setting_shows_picture_and_text(make_window, qtbot):
    window = make_window()
    session = start_level(qtbot, window, "hanoi", "ingvp", 1, setting="default")
    hud = window.play_place.view("board").hud
    assert window.play_place.view("board").board._image is not None
    assert hud.text.isVisible() and hud.text.toPlainText() == session.observation.text
