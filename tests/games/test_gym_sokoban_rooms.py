"""The benchmark that puts gym-sokoban's rooms next to ours reads gym-sokoban's room arrays
(benchmarks/gym_sokoban_rooms.py): every wall, target, box and the worker land where the
arrays put them, so the rooms solved are gym-sokoban's own."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from playbench.games.sokoban.rules import parse_board

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "gym_sokoban_rooms.py"
_spec = importlib.util.spec_from_file_location("gym_sokoban_rooms", SCRIPT)
rooms = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rooms)


@st.composite
def gym_room(draw):
    """A walled room in gym-sokoban's arrays: ``fixed`` (0 wall, 1 floor, 2 target) and
    ``state`` (0 wall, 1 floor, 2 empty target, 3/4 box, 5 worker)."""
    h, w = draw(st.integers(5, 9)), draw(st.integers(5, 9))
    inner = [(y, x) for y in range(1, h - 1) for x in range(1, w - 1)]
    cells = draw(st.lists(st.sampled_from(inner), min_size=4, unique=True))
    boxes = draw(st.integers(1, (len(cells) - 1) // 2))
    player, targets, spots = cells[0], cells[1:1 + boxes], cells[1:]
    box_at = draw(st.permutations(spots))[:boxes]
    fixed = [[0] * w for _ in range(h)]
    for y, x in cells:
        fixed[y][x] = 1
    for y, x in targets:
        fixed[y][x] = 2
    state = [row[:] for row in fixed]
    for y, x in box_at:
        state[y][x] = draw(st.sampled_from((3, 4)))
    state[player[0]][player[1]] = 5
    return fixed, state, player, set(targets), set(box_at)


@given(gym_room())
@settings(max_examples=200, deadline=None)
def test_a_gym_room_reads_as_the_same_room(room):
    fixed, state, (py, px), targets, boxes = room
    parsed = parse_board(rooms.gym_xsb(fixed, state))
    w = parsed.board.width
    assert parsed.player == py * w + px
    assert parsed.board.targets == frozenset(y * w + x for y, x in targets)
    assert parsed.boxes == frozenset(y * w + x for y, x in boxes)
    floor = {(y, x) for y, row in enumerate(fixed) for x, v in enumerate(row) if v}
    assert parsed.board.floor >= frozenset(y * w + x for y, x in floor)
