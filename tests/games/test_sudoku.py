"""Sudoku rules, moves, encoding, level files, solver, generator, completion and renderer."""

from __future__ import annotations

import json
from collections import deque

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from playbench.games.base import BoardEnv, Level, LevelError, MoveError
from playbench.games.registry import get
from playbench.games.sudoku import formats
from playbench.games.sudoku.generator import generate
from playbench.games.sudoku.moves import Move
from playbench.games.sudoku.rules import SudokuRules, SudokuState, distance
from playbench.games.sudoku.solver import solve

SPEC = get("sudoku")
FINAL = SudokuRules("final")
OVER = SudokuRules("overwritable")
PACK = generate(6, seed=2024)


def naive_count(grid: str, limit: int = 2) -> int:
    """Independent solution counter: plain backtracking over the first blank, no propagation."""
    cells = list(grid)

    def ok(i: int, d: str) -> bool:
        r, c = divmod(i, 9)
        br, bc = r // 3 * 3, c // 3 * 3
        return all(d not in (cells[r * 9 + k], cells[k * 9 + c],
                             cells[(br + k // 3) * 9 + bc + k % 3]) for k in range(9))

    def rec() -> int:
        try:
            i = cells.index("0")
        except ValueError:
            return 1
        n = 0
        for d in "123456789":
            if ok(i, d):
                cells[i] = d
                n += rec()
                cells[i] = "0"
                if n >= limit:
                    break
        return n

    return rec()


def valid_full(grid: str) -> bool:
    rows = [grid[r * 9:(r + 1) * 9] for r in range(9)]
    cols = ["".join(row[c] for row in rows) for c in range(9)]
    boxes = ["".join(rows[br + i][bc + j] for i in range(3) for j in range(3))
             for br in (0, 3, 6) for bc in (0, 3, 6)]
    return all(sorted(u) == list("123456789") for u in rows + cols + boxes)


def bfs_length(rules: SudokuRules, state: SudokuState) -> int | None:
    """Breadth-first search over every move: the true fewest moves (few blanks only)."""
    if rules.is_solved(state):
        return 0
    seen = {state.grid}
    todo = deque([(state, 0)])
    while todo:
        s, n = todo.popleft()
        for m in rules.legal_moves(s):
            out = rules.apply(s, m)
            if out.state.grid in seen:
                continue
            if rules.is_solved(out.state):
                return n + 1
            seen.add(out.state.grid)
            todo.append((out.state, n + 1))
    return None


@st.composite
def small_levels(draw):
    """Puzzles with one to three blanks, small enough for breadth-first search."""
    return generate(1, draw(st.integers(0, 5000)), blanks=draw(st.integers(1, 3)))[0]


@st.composite
def reachable(draw, rules: SudokuRules, level_strategy=None):
    """A level and a state reached from it by random moves, valid or not."""
    level = draw(level_strategy if level_strategy is not None else st.sampled_from(PACK))
    state = rules.start(level)
    blanks = [i for i, ch in enumerate(level.text) if ch == "0"]
    for _ in range(draw(st.integers(0, 6))):
        i = draw(st.sampled_from(blanks))
        state = rules.apply(state, Move(i // 9, i % 9, draw(st.integers(1, 9)))).state
    return level, state


# --- moves ---------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    '{"03": 5}', "{'03': 5}", '{"03": "5"}', '{"output": {"03": 5}}', '[{"03": 5}]',
    '{"output": [{"03": 5}]}', '"03": 5', "{03: 5}", '{"0,3": 5}', '{"(0, 3)": 5}',
    ' { "03" : 5 } ', '```json\n{"03": 5}\n```', "[0, 3, 5]",
])
def test_accepted_spellings_name_one_move(text):
    assert FINAL.parse_move(text) == Move(0, 3, 5)


@pytest.mark.parametrize("text,kind", [
    ("", "malformed"), ("hello", "malformed"), ('{"03": 5, "04": 6}', "malformed"),
    ('{"03": "five"}', "malformed"), ('{"ab": 5}', "malformed"), ("{}", "malformed"),
    ('{"03": 0}', "not_in_vocabulary"), ('{"03": 10}', "not_in_vocabulary"),
    ('{"09": 5}', "not_in_vocabulary"), ('{"3": 5}', "not_in_vocabulary"),
    ('{"123": 5}', "not_in_vocabulary"), ('{"93": 1}', "not_in_vocabulary"),
])
def test_rejected_spellings(text, kind):
    with pytest.raises(MoveError) as err:
        FINAL.parse_move(text)
    assert err.value.kind == kind


@given(st.integers(0, 8), st.integers(0, 8), st.integers(1, 9))
def test_format_then_parse_is_identity(r, c, d):
    move = Move(r, c, d)
    text = FINAL.format_move(move)
    assert FINAL.parse_move(text) == move
    assert json.loads(text) == {f"{r}{c}": d}  # ING-VP's own spelling


@given(st.text(max_size=30))
def test_any_text_is_a_move_or_a_move_error(text):
    try:
        move = FINAL.parse_move(text)
    except MoveError as err:
        assert err.kind in ("malformed", "not_in_vocabulary")
    else:
        assert FINAL.parse_move(FINAL.format_move(move)) == move


# --- rules ---------------------------------------------------------------------------------

def _blank_and_given(level: Level) -> tuple[int, int]:
    return level.text.index("0"), next(i for i, ch in enumerate(level.text) if ch != "0")


@pytest.mark.parametrize("rules", [FINAL, OVER])
def test_givens_never_change_and_wrong_digits_are_accepted(rules):
    level = PACK[0]
    s = rules.start(level)
    blank, given_cell = _blank_and_given(level)
    out = rules.apply(s, Move(given_cell // 9, given_cell % 9, int(s.solution[given_cell]) % 9 + 1))
    assert (out.valid, out.changed, out.state) == (False, False, s) and "given" in out.reason
    wrong = int(s.solution[blank]) % 9 + 1
    out = rules.apply(s, Move(blank // 9, blank % 9, wrong))
    assert out.valid and out.changed and out.state.grid[blank] == str(wrong)
    assert not rules.is_solved(out.state)


def test_wrong_digits_final_versus_overwritable():
    level = PACK[1]
    blank, _ = _blank_and_given(level)
    r, c = divmod(blank, 9)
    right = int(FINAL.start(level).solution[blank])
    wrong = right % 9 + 1
    for rules, can_fix in ((FINAL, False), (OVER, True)):
        s = rules.apply(rules.start(level), Move(r, c, wrong)).state
        fix = rules.apply(s, Move(r, c, right))
        assert fix.valid is can_fix and fix.changed is can_fix
        if not can_fix:
            assert fix.state == s and "filled" in fix.reason
        same = rules.apply(s, Move(r, c, wrong))
        assert not same.valid and same.state == s
        plan = solve(rules, s)
        assert (plan is not None) is can_fix
        if can_fix:
            assert len(plan) == level.text.count("0")  # one fix plus the other blanks


def test_default_options_are_final_and_hidden_correctness():
    env = BoardEnv(SPEC)
    level = PACK[2]
    env.reset(level)
    blank, _ = _blank_and_given(level)
    r, c = divmod(blank, 9)
    right = int(env.state.solution[blank])
    assert env.step(Move(r, c, right % 9 + 1)).valid
    assert not env.step(Move(r, c, right)).valid  # final by default
    assert env.rules.reveal_correctness == "no"
    with pytest.raises(ValueError):
        SPEC.rule_options({"wrong_digits": "erasable"})


@given(st.sampled_from([FINAL, OVER]), st.sampled_from(PACK),
       st.lists(st.tuples(st.integers(0, 10_000), st.booleans()), max_size=25))
@settings(max_examples=40)
def test_random_play_stays_valid_and_restore_is_exact(rules, level, picks):
    env = BoardEnv(SPEC, {"wrong_digits": rules.wrong_digits})
    env.reset(level)
    snaps = []
    for pick, legal in picks:
        before = env.state
        snaps.append((env.snapshot(), env.text()))
        if legal:
            moves = env.rules.legal_moves(before)
            if not moves:
                break
            move = moves[pick % len(moves)]
        else:
            move = Move(pick % 9, pick // 9 % 9, pick % 7 + 1)
        out = env.step(move)
        if legal:
            assert out.valid and out.changed
        if not out.valid:
            assert out.state == before and not out.changed and out.reason
        s = env.state
        assert len(s.grid) == 81 and s.grid.isdigit()
        assert all(s.grid[i] == ch for i, ch in enumerate(s.puzzle) if ch != "0")
        if rules.wrong_digits == "final":
            assert all(b == "0" or a == b for a, b in zip(s.grid, before.grid, strict=True))
    for snap, text in reversed(snaps):
        env.restore(snap)
        assert env.text() == text and env.state == snap


def test_legal_moves_order_and_counts():
    level = PACK[3]
    blanks = level.text.count("0")
    s = FINAL.start(level)
    moves = FINAL.legal_moves(s)
    assert len(moves) == 9 * blanks and moves == sorted(moves)
    s2 = OVER.apply(s, moves[0]).state
    assert len(FINAL.legal_moves(s2)) == 9 * (blanks - 1)
    assert len(OVER.legal_moves(s2)) == 9 * (blanks - 1) + 8
    vocab = FINAL.vocabulary(s2)
    assert len(set(vocab)) == 729 and set(OVER.legal_moves(s2)) <= set(vocab)
    assert SPEC.describe(level) == {"blanks": blanks}


# --- encoding ------------------------------------------------------------------------------

@given(reachable(OVER))
@settings(max_examples=40)
def test_encode_is_the_81_digit_grid_and_parses_back(pair):
    level, state = pair
    text = OVER.encode(state)
    assert len(text) == 81 and text.isdigit()
    assert text == state.grid
    start = OVER.start(level)
    assert OVER.start(Level("sudoku", OVER.encode(start))) == start
    # within one level the text determines the state: restoring from it loses nothing
    assert SudokuState(text, level.text, start.solution) == state


# --- solver --------------------------------------------------------------------------------

@given(st.sampled_from([FINAL, OVER]), reachable(FINAL, small_levels()))
@settings(max_examples=40)
def test_solver_is_optimal_against_breadth_first_search(rules, pair):
    _, state = pair
    plan = solve(rules, state)
    assert (None if plan is None else len(plan)) == bfs_length(rules, state)
    if plan is not None:
        for m in plan:
            out = rules.apply(state, m)
            assert out.valid
            state = out.state
        assert rules.is_solved(state)


@given(small_levels())
@settings(max_examples=20)
def test_solver_respects_its_bound(level):
    s = FINAL.start(level)
    n = level.text.count("0")
    assert len(solve(FINAL, s, n)) == n
    assert solve(FINAL, s, n - 1) is None
    assert solve(FINAL, s, None) is not None


# --- generator -----------------------------------------------------------------------------

def test_generator_reproducible_distinct_and_exact():
    a = generate(20, seed=5)
    assert a == generate(20, seed=5)
    assert a != generate(20, seed=6)
    assert [lv.number for lv in a] == list(range(1, 21))
    assert len({lv.text for lv in a}) == 20
    for lv in a:
        assert sum(ch != "0" for ch in lv.text) == 71
        assert naive_count(lv.text, limit=3) == 1
        sol = lv.meta["solution"]
        assert valid_full(sol)
        assert all(p in ("0", q) for p, q in zip(lv.text, sol, strict=True))
        assert lv.meta["optimal"] == lv.text.count("0")


def test_generator_optimal_sets_the_blanks():
    for lv in generate(3, seed=9, optimal=30):
        assert lv.text.count("0") == 30 == lv.meta["optimal"]
        assert naive_count(lv.text) == 1


# --- level files ---------------------------------------------------------------------------

@given(st.lists(st.sampled_from(PACK), min_size=1, max_size=4, unique_by=lambda lv: lv.text),
       st.text(max_size=12))
@settings(max_examples=30)
def test_pack_round_trip(levels, title):
    levels = [Level("sudoku", lv.text, i + 7, title, {**lv.meta, "tier": "easy"})
              for i, lv in enumerate(levels)]
    text = formats.dump_pack(levels)
    back = formats.load_pack(text, "p.jsonl")
    assert back == levels and formats.dump_pack(back) == text
    assert formats.sniff_pack(text) and not formats.sniff_ingvp(text)


def test_ingvp_round_trip_and_fields():
    text = formats.dump_ingvp(PACK)
    first = json.loads(text.splitlines()[0])
    assert first == {"level": 1, "position": PACK[0].text, "solutions": PACK[0].meta["solution"],
                     "clue_numbers": 71}
    back = formats.load_ingvp(text, "i.jsonl")
    assert [lv.text for lv in back] == [lv.text for lv in PACK]
    assert formats.load_ingvp(formats.dump_ingvp(back), "again") == back
    assert formats.dump_ingvp(back) == text
    assert formats.sniff_ingvp(text) and not formats.sniff_pack(text)
    # the solution is optional in ING-VP lines: it is unique, so it is computed
    bare = json.dumps({"level": 4, "position": PACK[0].text})
    assert formats.load_ingvp(bare, "b")[0].meta["solution"] == PACK[0].meta["solution"]


def _with(grid: str, i: int, ch: str) -> str:
    return grid[:i] + ch + grid[i + 1:]


# Row 0 holds 1-8 and column 8 already has its 9 lower down: cell 08 has no candidate left,
# yet no two givens clash.
NO_SOLUTION = "12345678" + "0" + "0" * 8 + "9" + "0" * 63
CLASHING = "11" + "0" * 79


GOOD = PACK[0]
SOL = GOOD.meta["solution"]
GIVEN0 = next(i for i, ch in enumerate(GOOD.text) if ch != "0")


def _pack_line(**fields) -> str:
    rec = {"number": 2, "board": GOOD.text, "solution": SOL}
    rec.update(fields)
    return json.dumps({k: v for k, v in rec.items() if v is not None})


@pytest.mark.parametrize("line,level,needle", [
    ('{"number": 2, "board": ', 2, "not valid JSON"),
    ("[1, 2, 3]", 2, "JSON object"),
    (_pack_line(board=None), 2, "missing field 'board'"),
    (_pack_line(number=0), 2, "positive whole number"),
    (_pack_line(board=GOOD.text[:80]), 2, "81 digits"),
    (_pack_line(board=GOOD.text[:80] + "x"), 2, "only hold the digits"),
    (_pack_line(board=CLASHING, solution=None), 2, "givens contradict"),
    (_pack_line(board=NO_SOLUTION, solution=None), 2, "no solution"),
    (_pack_line(board="0" * 81, solution=None), 2, "several solutions"),
    (_pack_line(solution=_with(SOL, GIVEN0, str(int(SOL[GIVEN0]) % 9 + 1))), 2,
     "not a complete valid grid"),
    (_pack_line(solution=_with(SOL, 0, "0")), 2, "not a complete valid grid"),
    (_pack_line(solution=SOL[:80]), 2, "81 digits"),
    (_pack_line(optimal=3), 2, "optimal is 3"),
    (_pack_line(number=1), 1, "appears twice"),
])
def test_pack_errors_name_file_line_and_level(line, level, needle):
    text = formats.dump_pack([GOOD]) + "\n" + line + "\n"
    with pytest.raises(LevelError) as err:
        formats.load_pack(text, "bad.jsonl")
    msg = str(err.value)
    assert needle in msg
    if "twice" not in needle:
        assert msg.startswith(f"bad.jsonl:3: level {level}: ")
    else:
        assert msg.startswith("bad.jsonl: level 1: ")


def test_solution_that_does_not_match_the_givens():
    # a valid full grid that is not this puzzle's: relabel digits 1 <-> 2 everywhere
    other = SOL.translate(str.maketrans("12", "21"))
    line = json.dumps({"number": 5, "board": GOOD.text, "solution": other})
    with pytest.raises(LevelError) as err:
        formats.load_pack(line, "s.jsonl")
    assert str(err.value).startswith("s.jsonl:1: level 5: the solution does not match the givens")


@pytest.mark.parametrize("fields,needle", [
    ({"position": None}, "missing field 'position'"),
    ({"level": None}, "missing field 'level'"),
    ({"clue_numbers": 70}, "clue_numbers is 70"),
    ({"position": "1" * 81}, "givens contradict"),
    ({"solutions": SOL.replace(SOL[0], "0", 1)}, "not a complete valid grid"),
    ({"position": 12345}, "field 'position' must be text of 81 digits, got 12345"),
])
def test_ingvp_errors_name_file_line_and_level(fields, needle):
    rec = {"level": 9, "position": GOOD.text, "solutions": SOL, "clue_numbers": 71}
    rec.update(fields)
    rec = {k: v for k, v in rec.items() if v is not None}
    text = "\n" + json.dumps(rec) + "\n"
    with pytest.raises(LevelError) as err:
        formats.load_ingvp(text, "their.jsonl")
    number = rec.get("level", 1)
    assert str(err.value).startswith(f"their.jsonl:2: level {number}: ")
    assert needle in str(err.value)


def test_start_rejects_broken_levels():
    for text, stored in (("0" * 81, None), (GOOD.text, SOL[::-1])):
        with pytest.raises(LevelError):
            FINAL.start(Level("sudoku", text, meta={"solution": stored} if stored else {}))


# --- completion ----------------------------------------------------------------------------

def test_distance_counts_cells_that_differ_from_the_solution():
    level = PACK[4]
    blanks = [i for i, ch in enumerate(level.text) if ch == "0"]
    for rules in (FINAL, OVER):
        s = rules.start(level)
        assert distance(rules, s) == len(blanks) == 10
        a, b = blanks[:2]
        s = rules.apply(s, Move(a // 9, a % 9, int(s.solution[a]))).state       # right
        s = rules.apply(s, Move(b // 9, b % 9, int(s.solution[b]) % 9 + 1)).state  # wrong
        assert distance(rules, s) == 9  # 8 blanks + 1 wrong digit
        assert distance(rules, s, 8) is None and distance(rules, s, 9) == 9
        env = BoardEnv(SPEC, {"wrong_digits": rules.wrong_digits})
        env.reset(level)
        env.restore(s)
        assert env.moves_left() == 9
        assert 100 - SPEC.completion_unit * env.moves_left() == pytest.approx(10)
        solved = s._replace(grid=s.solution)
        assert distance(rules, solved) == 0 and rules.is_solved(solved)


# --- renderer ------------------------------------------------------------------------------

def _red_pixels(frame: np.ndarray) -> int:
    r, g, b = (frame[..., k].astype(int) for k in range(3))
    return int(((r > 170) & (g < 90) & (b < 90)).sum())


def _blue_pixels(frame: np.ndarray) -> int:
    return int(((frame[..., 2] > 170) & (frame[..., 0] < 90)).sum())


def _cell(frame: np.ndarray, i: int) -> np.ndarray:
    r, c = divmod(i, 9)
    return frame[r * 50 + 6:r * 50 + 44, c * 50 + 6:c * 50 + 44]


@pytest.mark.parametrize("reveal", ["no", "yes"])
def test_reveal_correctness_colours_wrong_entries(reveal):
    env = BoardEnv(SPEC, {"reveal_correctness": reveal, "wrong_digits": "overwritable"})
    level = PACK[5]
    env.reset(level)
    blank = level.text.index("0")
    first = env.render()
    assert first.shape == (450, 450, 3) and first.dtype == np.uint8
    assert _red_pixels(first) == 0 and _blue_pixels(first) == 0  # givens are black
    right = int(env.state.solution[blank])
    env.step(Move(blank // 9, blank % 9, right % 9 + 1))
    wrong_frame = env.render()
    assert (wrong_frame != first).any()
    env.step(Move(blank // 9, blank % 9, right))
    right_cell = _cell(env.render(), blank)
    assert _blue_pixels(right_cell) > 20 and _red_pixels(right_cell) == 0
    wrong_cell = _cell(wrong_frame, blank)
    if reveal == "yes":
        assert _red_pixels(wrong_cell) > 20 and _blue_pixels(wrong_cell) == 0
    else:
        assert _blue_pixels(wrong_cell) > 20 and _red_pixels(wrong_cell) == 0


def test_render_option_overrides_the_rules_choice():
    s = FINAL.start(PACK[5])
    blank = PACK[5].text.index("0")
    s = FINAL.apply(s, Move(blank // 9, blank % 9, int(s.solution[blank]) % 9 + 1)).state
    shown = SPEC.make_renderer(FINAL, {"reveal_correctness": "yes"}).render(s)
    hidden = SPEC.make_renderer(FINAL, {}).render(s)
    assert _red_pixels(shown) > 20 and _red_pixels(hidden) == 0


def test_labels_option_adds_a_margin():
    env = BoardEnv(SPEC, render_options={"labels": True})
    env.reset(PACK[0])
    h, w, _ = env.render().shape
    assert h == w > 450
