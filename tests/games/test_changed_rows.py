"""A renderer's ``changed_rows`` names every pixel row a move repaints, so the frames recorded
from that note decode to exactly the pictures the player was shown.

Random move sequences on each board that says which rows a move changed: every row left out of
the note is equal in the two renders, and an episode's frames encoded through the recorder's
codec (which trusts the note and compares nothing) are the fresh encodings of their pixels.
"""

from __future__ import annotations

import io

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from playbench.app.core.png import FrameCodec, encode_png, pixel_digest
from playbench.games.base import BoardEnv, RowsOfChange
from playbench.games.env import BoardTaskEnv
from playbench.games.frame import as_frame
from playbench.games.registry import get
from playbench.games.types import Task

# (game, render options): the boards whose renderers tell which rows changed, with the
# options that change what a move draws (Sudoku's red wrong digits, labels in the margin).
BOARDS = [("sokoban", {}), ("sokoban", {"max_edge": 200}), ("maze", {}), ("maze", {"cell": 7}),
          ("queens", {}), ("queens", {"size": 333, "labels": False}), ("hanoi", {}),
          ("npuzzle", {}), ("npuzzle", {"size": 123}), ("sudoku", {}),
          ("sudoku", {"reveal_correctness": "yes", "labels": True})]


def _level(game: str, seed: int):
    return get(game).generate(1, seed, None if game == "queens" else 6)[0]


def _unchanged_rows_equal(before: np.ndarray, after: np.ndarray,
                          rows: list[tuple[int, int]]) -> None:
    keep = np.ones(before.shape[0], bool)
    for start, end in rows:
        keep[max(0, start):max(0, end)] = False
    differ = np.nonzero((before != after).any(axis=(1, 2)) & keep)[0]
    assert not differ.size, f"rows {differ[:10].tolist()} changed but were not named"


@pytest.mark.parametrize(("game", "options"), BOARDS)
@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_rows_outside_the_named_ones_are_unchanged(game, options, data):
    spec = get(game)
    env: BoardEnv = BoardEnv(spec, None, options)
    env.reset(_level(game, data.draw(st.integers(0, 50), label="seed")))
    assert isinstance(env._made_renderer(), RowsOfChange)
    codec = FrameCodec()
    state, pixels = env.state, env.render()
    shown = as_frame(pixels)
    codec.encode(shown)
    for _ in range(data.draw(st.integers(1, 8), label="moves")):
        moves = env.legal_actions()
        if not moves:
            break
        env.step(env.rules.parse_move(data.draw(st.sampled_from(moves), label="move")))
        rows = env.changed_rows(state, env.state)
        assert rows is not None
        after = env.render()
        _unchanged_rows_equal(pixels, after, list(rows))
        frame = as_frame(after, since=shown, rows=rows)
        digest, png = codec.encode(frame)
        assert png == encode_png(after) and digest == pixel_digest(after)
        state, pixels, shown = env.state, after, frame


@pytest.mark.parametrize("game", ["sokoban", "maze", "queens", "hanoi", "npuzzle", "sudoku"])
async def test_an_episodes_frames_carry_the_note_and_record_their_pixels(game):
    """Through the environment the loop drives: each observation's frame names the frame
    before it and its changed rows; the codec encodes only those rows' bands, and the PNG it
    writes decodes to the observation's pixels."""
    spec = get(game)
    level = _level(game, 7)
    env = BoardTaskEnv(spec, spec.rule_options({}))
    observation = await env.reset(Task(game, level, spec.rule_options({})), 0)
    codec = FrameCodec()
    codec.encode(observation.frame)
    previous = observation.frame
    reused_before = codec.reused
    bands = -(-previous.shape[0] // 16)
    steps = 0
    while (plan := env.oracle()) and steps < 6:
        observation = (await env.step(env.parse_action(plan[0]))).observation
        frame = observation.frame
        assert frame.changed is not None and frame.changed.base() is previous
        digest, png = codec.encode(frame)
        back = np.array(Image.open(io.BytesIO(png)).convert("RGB"))
        assert (back == frame).all() and digest == pixel_digest(np.asarray(frame))
        previous, steps = frame, steps + 1
    assert steps >= 1 and codec.reused >= reused_before + steps * bands // 2
    first = (await env.reset(Task(game, level, spec.rule_options({})), 0)).frame
    assert first.changed is None  # a new episode's first frame is told from nothing
