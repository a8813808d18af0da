"""8-queens rules, moves, encoding, level files, solver, generator, completion and renderer."""

from __future__ import annotations

import json
from collections import deque
from itertools import pairwise, permutations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from playbench.games.base import BoardEnv, Level, LevelError, MoveError, moves_left
from playbench.games.queens import formats
from playbench.games.queens.generator import generate
from playbench.games.queens.rules import QueensRules, QueensState, Square, encode, parse_board
from playbench.games.queens.solver import solve
from playbench.games.registry import get

SPEC = get("queens")
RULES = QueensRules()

# Every solution of 8-queens by brute force over column permutations: independent of the solver.
ALL_SOLUTIONS = [
    frozenset(Square(r, c) for r, c in enumerate(p))
    for p in permutations(range(8))
    if len({r + c for r, c in enumerate(p)}) == 8 and len({r - c for r, c in enumerate(p)}) == 8
]


def completable(state: QueensState) -> bool:
    return any(set(state.queens) <= sol for sol in ALL_SOLUTIONS)


def bfs_length(state: QueensState) -> int | None:
    """Breadth-first search over placements (used on boards with few empty rows)."""
    if RULES.is_solved(state):
        return 0
    seen = {frozenset(state.queens)}
    todo = deque([(state, 0)])
    while todo:
        s, n = todo.popleft()
        for m in RULES.legal_moves(s):
            nxt = RULES.apply(s, m).state
            key = frozenset(nxt.queens)
            if key in seen:
                continue
            if RULES.is_solved(nxt):
                return n + 1
            seen.add(key)
            todo.append((nxt, n + 1))
    return None


@st.composite
def reachable(draw, min_moves: int = 0, max_moves: int = 7):
    """A walk level and a state reached by random legal placements."""
    index = draw(st.integers(0, 63))
    state = QueensState((Square(index % 8, index // 8),))
    for _ in range(draw(st.integers(min_moves, max_moves))):
        moves = RULES.legal_moves(state)
        if not moves:
            break
        state = RULES.apply(state, draw(st.sampled_from(moves))).state
    return state


# --- moves ---------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "[3, 5]", "[3,5]", "(3, 5)", "3,5", "3 5", '{"output": [3, 5]}', "[[3, 5]]",
    '{"row": 3, "col": 5}', "{'output': [3, 5]}", '"[3, 5]"', '["3", "5"]', "```\n[3, 5]\n```",
])
def test_accepted_spellings(text):
    assert RULES.parse_move(text) == Square(3, 5)


@pytest.mark.parametrize("text,kind", [
    ("", "malformed"), ("queen", "malformed"), ("[1, 2, 3]", "malformed"),
    ("[[1, 2], [3, 4]]", "malformed"), ("[1.5, 2]", "malformed"), ("[true, 2]", "malformed"),
    ("[8, 0]", "not_in_vocabulary"), ("[0, -1]", "not_in_vocabulary"),
    ('{"output": [10, 10]}', "not_in_vocabulary"),
])
def test_rejected_spellings(text, kind):
    with pytest.raises(MoveError) as err:
        RULES.parse_move(text)
    assert err.value.kind == kind


@given(st.integers(0, 7), st.integers(0, 7))
def test_format_then_parse_is_identity(r, c):
    text = RULES.format_move(Square(r, c))
    assert RULES.parse_move(text) == Square(r, c)
    assert json.loads(text) == [r, c]


@given(st.text(max_size=30))
def test_any_text_is_a_move_or_a_move_error(text):
    try:
        move = RULES.parse_move(text)
    except MoveError as err:
        assert err.kind in ("malformed", "not_in_vocabulary")
    else:
        assert RULES.parse_move(RULES.format_move(move)) == move


# --- rules ---------------------------------------------------------------------------------

def test_attacked_and_occupied_squares_are_ignored():
    s = RULES.start(Level("queens", "[[3, 2]]"))
    for square, word in ((Square(3, 7), "row"), (Square(0, 2), "column"),
                         (Square(5, 4), "diagonal"), (Square(1, 4), "diagonal"),
                         (Square(3, 2), "already")):
        out = RULES.apply(s, square)
        assert (out.valid, out.changed, out.state) == (False, False, s)
        assert word in out.reason
    out = RULES.apply(s, Square(0, 0))
    assert out.valid and out.changed and out.state.queens == (Square(3, 2), Square(0, 0))
    again = RULES.apply(out.state, Square(0, 0))
    assert not again.valid and again.state == out.state  # placing twice does not remove


@given(reachable(), st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7)), max_size=20))
@settings(max_examples=60)
def test_random_play_stays_valid_and_restore_is_exact(start, squares):
    env = BoardEnv(SPEC)
    env.reset(Level("queens", encode(QueensState(start.queens[:1]))))
    first = env.state.queens[0]
    snaps = []
    for sq in list(start.queens[1:]) + [Square(*p) for p in squares]:
        before = env.state
        snaps.append((env.snapshot(), env.text()))
        legal = sq in RULES.legal_moves(before)
        out = env.step(sq)
        assert out.valid is legal and out.changed is legal
        if not legal:
            assert out.state == before and out.reason
        qs = env.state.queens
        assert qs[0] == first and qs[:len(before.queens)] == before.queens
        assert all(not (a.row == b.row or a.col == b.col
                        or abs(a.row - b.row) == abs(a.col - b.col))
                   for k, a in enumerate(qs) for b in qs[k + 1:])
        assert env.solved() is (len(qs) == 8)
    for snap, text in reversed(snaps):
        env.restore(snap)
        assert env.text() == text and env.state == snap


def test_legal_moves_are_the_unattacked_squares_in_reading_order():
    s = RULES.start(Level("queens", "[[0, 0]]"))
    moves = RULES.legal_moves(s)
    assert moves == sorted(moves)
    assert len(moves) == 64 - 1 - 7 - 7 - 7  # row, column and one diagonal from a corner
    vocab = RULES.vocabulary(s)
    assert len(set(vocab)) == 64 and set(moves) <= set(vocab)
    assert SPEC.describe(generate(10, seed=0)[9]) == {"first": "[1, 1]", "queens": 1}


# --- encoding ------------------------------------------------------------------------------

def test_encoding_is_ing_vps_list():
    s = QueensState((Square(0, 0), Square(4, 1)))
    assert RULES.encode(s) == "[[0, 0], [4, 1]]"
    assert json.loads(RULES.encode(s)) == [[0, 0], [4, 1]]


@given(reachable())
def test_encode_and_parse_are_inverse(state):
    text = RULES.encode(state)
    assert parse_board(text) == state
    assert [list(q) for q in state.queens] == json.loads(text)


# --- solver --------------------------------------------------------------------------------

@given(reachable())
@settings(max_examples=80)
def test_solver_agrees_with_all_92_solutions(state):
    plan = solve(RULES, state)
    assert (plan is not None) is completable(state)
    if plan is not None:
        assert len(plan) == 8 - len(state.queens)
        for m in plan:
            out = RULES.apply(state, m)
            assert out.valid
            state = out.state
        assert RULES.is_solved(state)


@given(reachable(min_moves=3))
@settings(max_examples=40)
def test_solver_is_optimal_against_breadth_first_search(state):
    plan = solve(RULES, state)
    assert (None if plan is None else len(plan)) == bfs_length(state)


@given(reachable())
def test_solver_respects_its_bound(state):
    plan = solve(RULES, state)
    if plan is None:
        assert solve(RULES, state, 8) is None
        return
    assert solve(RULES, state, len(plan)) == plan
    if plan:
        assert solve(RULES, state, len(plan) - 1) is None


def test_ing_vp_level_8_and_its_published_answer():
    """ING-VP's Figure 9: level 8 has the first queen at (7, 0) and a correct answer listed."""
    level = generate(8, seed=0)[7]
    env = BoardEnv(SPEC)
    env.reset(level)
    assert env.text() == "[[7, 0]]"
    for pair in [[0, 4], [1, 1], [2, 3], [3, 6], [4, 2], [5, 7], [6, 5]]:
        assert env.step(RULES.parse_move(json.dumps(pair))).valid
    assert env.solved()


# --- generator -----------------------------------------------------------------------------

def test_pack_walks_the_board_column_major():
    levels = generate(50, seed=3)
    assert levels == generate(50, seed=3)
    assert [lv.number for lv in levels] == list(range(1, 51))
    firsts = [json.loads(lv.text) for lv in levels]
    assert all(len(f) == 1 for f in firsts)
    squares = [tuple(f[0]) for f in firsts]
    assert squares[:9] == [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 0), (7, 0), (0, 1)]
    assert len(set(squares)) == 50
    assert all(b == ((a[0] + 1) % 8, a[1] + (a[0] == 7)) for a, b in pairwise(squares))
    for lv in levels:
        assert lv.meta["optimal"] == 7
        s = RULES.start(lv)
        for pair in lv.meta["solution"]:
            s = RULES.apply(s, Square(*pair)).state
        assert RULES.is_solved(s)


def test_walk_start_and_its_end():
    assert json.loads(generate(1, seed=0, start=9)[0].text) == [[1, 1]]
    with pytest.raises(ValueError):
        generate(10, seed=0, start=60)


def test_random_levels_are_reproducible_distinct_and_exact():
    a = generate(12, seed=4, optimal=4, order="random")
    assert a == generate(12, seed=4, optimal=4, order="random")
    assert a != generate(12, seed=5, optimal=4, order="random")
    assert len({lv.text for lv in a}) == 12
    for lv in a:
        s = RULES.start(lv)
        assert len(s.queens) == 4 and completable(s) and lv.meta["optimal"] == 4


# --- level files ---------------------------------------------------------------------------

@given(st.lists(reachable(max_moves=3), min_size=1, max_size=4), st.text(max_size=10))
@settings(max_examples=30)
def test_pack_round_trip(states, title):
    states = [s for s in states if completable(s)]
    if not states:
        return
    levels = []
    for i, s in enumerate(states):
        plan = solve(RULES, s)
        levels.append(Level("queens", encode(s), i + 3, title,
                            {"optimal": len(plan), "solution": [list(m) for m in plan],
                             "tier": "t"}))
    text = formats.dump_pack(levels)
    back = formats.load_pack(text, "q.jsonl")
    assert back == levels and formats.dump_pack(back) == text
    assert formats.sniff_pack(text) and not formats.sniff_ingvp(text)


def test_ingvp_round_trip():
    levels = generate(50, seed=0)
    text = formats.dump_ingvp(levels)
    assert json.loads(text.splitlines()[9]) == {"level": 10, "board_size": 8, "position": [1, 1]}
    back = formats.load_ingvp(text, "i.jsonl")
    assert [lv.text for lv in back] == [lv.text for lv in levels]
    assert formats.load_ingvp(formats.dump_ingvp(back), "x") == back
    assert formats.dump_ingvp(back) == text
    assert formats.sniff_ingvp(text) and not formats.sniff_pack(text)
    with pytest.raises(LevelError):
        formats.dump_ingvp(generate(1, seed=0, optimal=5, order="random"))


GOOD = json.dumps({"number": 1, "title": "", "board": [[0, 0]]})


@pytest.mark.parametrize("line,needle", [
    ('{"number": 2, "board": [[0, 0]', "not valid JSON"),
    ("[[0, 0]]", "JSON object"),
    ('{"number": 2}', "missing field 'board'"),
    ('{"number": 2, "board": []}', "non-empty list"),
    ('{"number": 2, "board": [[8, 0]]}', "off the board"),
    ('{"number": 2, "board": [[0, 0], [2, 2]]}', "attacked"),
    ('{"number": 2, "board": [[0, 0], [0, 0]]}', "attacked"),
    ('{"number": 2, "board": [[0, "a"]]}', "not a [row, col] pair"),
    ('{"number": 2, "board": [[0, 0], [1, 2]]}', "cannot be completed"),
    ('{"number": 2, "board": [[0, 0]], "optimal": 6}', "optimal is 6"),
    ('{"number": 2, "board": [[0, 0]], "solution": [[1, 1]]}', "cannot be placed"),
    ('{"number": 2, "board": [[0, 0]], "solution": [[1, 4]]}', "does not reach eight"),
    ('{"number": "two", "board": [[0, 0]]}', "positive whole number"),
])
def test_pack_errors_name_file_line_and_level(line, needle):
    with pytest.raises(LevelError) as err:
        formats.load_pack(GOOD + "\n\n" + line + "\n", "bad.jsonl")
    assert str(err.value).startswith("bad.jsonl:3: level 2: ") and needle in str(err.value)


def test_duplicate_numbers_are_rejected():
    with pytest.raises(LevelError) as err:
        formats.load_pack(GOOD + "\n" + GOOD + "\n", "dup.jsonl")
    assert str(err.value).startswith("dup.jsonl: level 1: ") and "twice" in str(err.value)


@pytest.mark.parametrize("line,needle", [
    ('{"level": 4, "board_size": 6, "position": [0, 0]}', "board_size 6"),
    ('{"level": 4, "board_size": 8}', "missing field 'position'"),
    ('{"level": 4, "board_size": 8, "position": [0, 9]}', "off the board"),
    ('{"level": 4, "board_size": 8, "position": "a1"}',
     "field 'position' must be a [row, col] pair, got 'a1'"),
    ('{"level": 4, "board_size": 8, "position": [0, 0, 1]}', "not a [row, col] pair"),
    ('{"level": 4, "board_size": 8, "position": [0, 0]', "not valid JSON"),
])
def test_ingvp_errors_name_file_line_and_level(line, needle):
    text = '{"level": 1, "board_size": 8, "position": [0, 0]}\n' + line + "\n"
    with pytest.raises(LevelError) as err:
        formats.load_ingvp(text, "their.jsonl")
    level = 4 if "not valid JSON" not in needle else 2
    assert str(err.value).startswith(f"their.jsonl:2: level {level}: ")
    assert needle in str(err.value)


# --- completion ----------------------------------------------------------------------------

def test_queens_still_needed_and_dead_ends():
    fresh = RULES.start(Level("queens", "[[0, 0]]"))
    assert moves_left(SPEC, RULES, fresh) == 7
    assert moves_left(SPEC, RULES, fresh, 6) is None
    dead = RULES.apply(fresh, Square(1, 2)).state  # legal, but no solution contains both
    assert not completable(dead)
    assert moves_left(SPEC, RULES, dead) is None  # an unsolvable final state scores 0
    env = BoardEnv(SPEC)
    env.reset(Level("queens", "[[7, 0]]"))
    for pair in ([0, 4], [1, 1], [2, 3], [3, 6], [4, 2]):
        env.step(Square(*pair))
    assert env.moves_left() == 2
    assert 100 - SPEC.completion_unit * env.moves_left() == pytest.approx(71.4)
    env.step(Square(5, 7))
    env.step(Square(6, 5))
    assert env.solved() and env.moves_left() == 0


# --- renderer ------------------------------------------------------------------------------

def _square(frame: np.ndarray, sq: Square) -> np.ndarray:
    return frame[sq.row * 100 + 20:sq.row * 100 + 80, sq.col * 100 + 20:sq.col * 100 + 80]


def _count(block: np.ndarray, red: bool) -> int:
    r, g, b = (block[..., k].astype(int) for k in range(3))
    mask = (r > 180) & (g < 80) & (b < 80) if red else (b > 200) & (r < 170) & (b - r > 60)
    return int(mask.sum())


def test_renderer_draws_first_queen_red_and_others_blue():
    env = BoardEnv(SPEC)
    env.reset(Level("queens", "[[7, 0]]"))
    empty_frame = env.render()
    assert empty_frame.shape == (800, 800, 3) and empty_frame.dtype == np.uint8
    env.step(Square(0, 4))
    frame = env.render()
    assert _count(_square(frame, Square(7, 0)), red=True) > 200
    assert _count(_square(frame, Square(7, 0)), red=False) == 0
    assert _count(_square(frame, Square(0, 4)), red=False) > 200
    assert _count(_square(frame, Square(0, 4)), red=True) == 0
    assert _count(_square(frame, Square(3, 3)), red=True) == 0
    assert (frame[:, :, :] != empty_frame).any()
    assert (frame[700:, :100] == empty_frame[700:, :100]).all()  # first queen unchanged
    small = BoardEnv(SPEC, render_options={"size": 400})
    small.reset(Level("queens", "[[0, 0]]"))
    assert small.render().shape == (400, 400, 3)
