"""Sudoku on the Play view: the finality of a written digit is explained in the view's own
help, and a full but wrong board says so at once (and what the rule option makes of it)."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt

from playbench.app.ui.models.board_notes import full_board_note, rules_note
from playbench.games.kind import default_registry
from playbench.games.sudoku.rules import SudokuRules, SudokuState
from tests.ui.helpers import start_level, wait_ready, wait_steps


def _type(qtbot, play, text: str) -> None:
    play.typed.setText(text)
    qtbot.keyClick(play.typed, Qt.Key.Key_Return)


def test_a_full_but_wrong_board_is_explained_on_the_play_view(make_window, qtbot):
    window = make_window()
    play = window.play_place.view("board")
    session = start_level(qtbot, window, "sudoku", "ingvp", 1, max_actions=200)
    help_text = play.hud.help.text()
    assert "final" in help_text and "no undo" in help_text
    state = session.state
    blanks = [i for i, ch in enumerate(state.grid) if ch == "0"]
    wrong = blanks[0]
    for n, i in enumerate(blanks):
        r, c = divmod(i, 9)
        digit = int(state.solution[i])
        if i == wrong:
            digit = digit % 9 + 1
        _type(qtbot, play, json.dumps({f"{r}{c}": digit}))
        wait_steps(qtbot, session, n + 1)
        wait_ready(qtbot, session)
        if n < len(blanks) - 1:
            assert "full" not in play.hud.feedback.text()
    assert "0" not in session.state.grid and session.result is None
    shown = play.hud.feedback.text()
    assert "full but not solved" in shown and "1 cell is wrong" in shown
    assert "no longer be solved" in shown and "goes on" in shown
    # ... and it does go on, as for a model: the next action is invalid and costs one.
    _type(qtbot, play, json.dumps({f"{wrong // 9}{wrong % 9}": int(state.solution[wrong])}))
    wait_steps(qtbot, session, len(blanks) + 1)
    wait_ready(qtbot, session)
    assert not session.steps[-1].valid and session.result is None
    assert "full but not solved" in play.hud.feedback.text()


def test_the_notes_follow_the_rule_option_and_the_undo_setting():
    sudoku = default_registry().get("sudoku")  # the kind, as the view looks it up
    solution = "123456789456789123789123456214365897365897214897214365531642978642978531978531642"
    grid = "9" + solution[1:]
    state = SudokuState(grid, "0" + solution[1:], solution)
    final, over = SudokuRules("final"), SudokuRules("overwritable")
    assert "write the right digit over" in full_board_note(sudoku, over, state, False)
    assert "Undo last move" in full_board_note(sudoku, final, state, True)
    assert "no longer be solved" in full_board_note(sudoku, final, state, False)
    assert full_board_note(sudoku, final, state._replace(grid=solution), False) is None
    assert full_board_note(sudoku, final, state._replace(grid="0" + grid[1:]), False) is None
    assert full_board_note(default_registry().get("maze"), final, state, False) is None
    assert "replaced" in rules_note(sudoku, over, False)
    assert "Undo last move" in rules_note(sudoku, final, True)
    assert rules_note(default_registry().get("maze"), final, True) == ""
