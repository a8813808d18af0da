"""Click-driven games played to the goal in the real window, every step in the database."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt

from tests.ui.helpers import (
    centre,
    click_frame,
    drag_frame,
    key,
    start_level,
    wait_end,
    wait_ready,
    wait_steps,
)


def _rod_point(session, rod: str) -> tuple[float, float]:
    return centre(session.geometry.area(session.state, rod))


def test_hanoi_by_clicks_and_drags_to_the_goal(make_window, qtbot):
    window = make_window()
    session = start_level(qtbot, window, "hanoi", "ingvp", 1)
    moves = session.task.level.meta["solution"].split()
    board = window.play_place.view("board").board
    for i, move in enumerate(moves):
        src, dst = _rod_point(session, move[0]), _rod_point(session, move[1])
        if i % 2 == 0:
            click_frame(qtbot, board, *src)
            assert window.play_place.view("board").input.selected == move[0]
            assert board._highlight is not None  # the chosen rod is outlined
            click_frame(qtbot, board, *dst)
        else:
            drag_frame(qtbot, board, src, dst)
        wait_steps(qtbot, session, i + 1)
        wait_ready(qtbot, session)
    wait_end(qtbot, session)
    assert session.result.end_reason == "solved"
    steps = window.state.store.steps(session.episode_id)
    assert [s.action for s in steps] == moves
    assert steps[0].raw == f"click:rod {moves[0][0]}->rod {moves[0][1]}"
    assert steps[1].raw == f"drag:rod {moves[1][0]}->rod {moves[1][1]}"
    assert all(s.valid for s in steps)


def test_queens_by_clicks_to_the_goal_with_an_illegal_click(make_window, qtbot):
    window = make_window()
    session = start_level(qtbot, window, "queens", "ingvp", 3)
    solution = session.task.level.meta["solution"]
    board = window.play_place.view("board").board
    first = json.loads(session.task.level.text)[0]
    attacked = (first[0], (first[1] + 1) % 8)  # same row as the first queen
    click_frame(qtbot, board, *centre(session.geometry.area(session.state, attacked)))
    wait_steps(qtbot, session, 1)
    for r, c in solution:
        wait_ready(qtbot, session)
        click_frame(qtbot, board, *centre(session.geometry.area(session.state, (r, c))))
    wait_end(qtbot, session)
    steps = window.state.store.steps(session.episode_id)
    assert session.result.end_reason == "solved"
    assert (steps[0].valid, steps[0].invalid_kind) == (False, "illegal")
    assert steps[0].raw == f"click:square {attacked[0]},{attacked[1]}"
    assert [s.action for s in steps[1:]] == [f"[{r}, {c}]" for r, c in solution]


def test_sudoku_cell_then_digit_key_or_pad(make_window, qtbot):
    window = make_window()
    session = start_level(qtbot, window, "sudoku", "ingvp", 1)
    puzzle, answer = session.task.level.text, session.task.level.meta["solution"]
    blanks = [i for i, ch in enumerate(puzzle) if ch == "0"]
    board = window.play_place.view("board").board
    assert window.play_place.view("board").digits.isVisible()
    for n, i in enumerate(blanks):
        r, c = divmod(i, 9)
        click_frame(qtbot, board, *centre(session.geometry.area(session.state, (r, c))))
        if n % 2:
            qtbot.mouseClick(window.play_place.view("board").digit_buttons[int(answer[i]) - 1],
                             Qt.MouseButton.LeftButton)
        else:
            key(qtbot, board, answer[i])
        wait_steps(qtbot, session, n + 1)
        wait_ready(qtbot, session)
    wait_end(qtbot, session)
    steps = window.state.store.steps(session.episode_id)
    assert session.result.end_reason == "solved"
    assert len(steps) == len(blanks) and all(s.valid for s in steps)
    r, c = divmod(blanks[0], 9)
    assert json.loads(steps[0].action) == {f"{r}{c}": int(answer[blanks[0]])}
    assert steps[0].raw == f"click:cell {r},{c}+key:{answer[blanks[0]]}"
    assert steps[1].raw.endswith(f"+click:digit {answer[blanks[1]]}")


def test_fifteen_puzzle_by_clicks_and_arrows(make_window, qtbot):
    window = make_window()
    session = start_level(qtbot, window, "npuzzle", "ingvp", 1)
    tiles = session.task.level.meta["solution"].split()
    board = window.play_place.view("board").board
    for n, tile in enumerate(tiles):
        state = session.state
        pos = state.tiles.index(int(tile))
        if n % 2:
            br, bc = divmod(state.tiles.index(0), state.n)
            tr, tc = divmod(pos, state.n)
            arrow = {(1, 0): "Up", (-1, 0): "Down", (0, 1): "Left", (0, -1): "Right"}[
                (tr - br, tc - bc)]
            key(qtbot, board, arrow)
        else:
            click_frame(qtbot, board, *centre(session.geometry.area(state, divmod(pos, state.n))))
        wait_steps(qtbot, session, n + 1)
        wait_ready(qtbot, session)
    wait_end(qtbot, session)
    steps = window.state.store.steps(session.episode_id)
    assert session.result.end_reason == "solved"
    assert [s.action for s in steps] == tiles
    assert steps[0].raw == f"click:tile {tiles[0]}" and steps[1].raw.startswith("key:")
