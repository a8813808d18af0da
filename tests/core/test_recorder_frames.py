"""The recorder encodes each step's frame from the episode's previous one, and the step's row
and frame are both committed when the step returns: a second connection reads the frame right
after the step, pixel for pixel, under the key the prompt's image has."""

from __future__ import annotations

import io
import sqlite3

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from playbench.app.core.env import make_env
from playbench.app.core.episode import Episode
from playbench.app.core.events import Started, Stepped
from playbench.app.core.png import frame_digest
from playbench.app.core.recorder import DbRecorder
from playbench.app.core.settings import get_setting
from playbench.app.core.task import Task
from playbench.app.players.scripted import RandomPlayer, SolverPlayer
from playbench.db.engine import open_database
from playbench.db.store import Store
from playbench.games import registry
from playbench.games.types import Budget


async def test_each_steps_frame_is_committed_with_it_and_encoded_from_the_previous(tmp_path):
    path = tmp_path / "frames.sqlite3"
    store = Store(open_database(f"sqlite:///{path}"))
    recorder = DbRecorder(store)
    spec = registry.get("queens")
    task = Task("queens", spec.generate(1, 3, None)[0], spec.rule_options({}))
    reader = sqlite3.connect(path)  # another connection, as the UI's or a second process's
    seen: list[tuple[str, bytes]] = []

    def read_back(event: object) -> None:
        if isinstance(event, Stepped):
            frame = event.observation.frame
            row = reader.execute(
                "SELECT s.frame, f.png FROM steps s JOIN frames f ON f.hash = s.frame "
                "WHERE s.episode_id = ? AND s.\"index\" = ?",
                (event.episode_id, event.record.index)).fetchone()
            assert row is not None, f"step {event.record.index} or its frame is not committed"
            assert row[0] == frame_digest(frame)
            back = np.array(Image.open(io.BytesIO(row[1])).convert("RGB"))
            assert (back == frame).all()
            seen.append(row)

    setting = get_setting("ingvp:image-multi", "queens")
    result = await Episode(make_env(task), SolverPlayer(), task, setting=setting,
                           budget=setting.budget, recorder=recorder,
                           listeners=[read_back]).run()
    reader.close()
    assert result.status == "done" and len(seen) == len(result.steps) >= 5
    # A queen covers one cell: most of the 800 x 800 board's bands were reused at each step.
    codec_reuse = recorder.writer.reused_bands
    assert codec_reuse > len(seen) * 30
    recorder.close()
    store.db.dispose()


@pytest.mark.parametrize("game", ["sokoban", "maze", "npuzzle", "sudoku", "hanoi", "queens"])
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 10_000))
async def test_random_play_stores_every_frame_as_shown_on_every_board(tmp_path_factory, game,
                                                                      seed):
    """Random legal moves on each board through the real loop and recorder: every step's
    frame (encoded from the previous one, told by the renderer which rows changed)
    is committed with its step, and decodes from the database to exactly the pixels the
    player was shown."""
    path = tmp_path_factory.mktemp("random") / "frames.sqlite3"
    store = Store(open_database(f"sqlite:///{path}"))
    recorder = DbRecorder(store)
    spec = registry.get(game)
    task = Task(game, spec.generate(1, seed % 50, None if game == "queens" else 6)[0],
                spec.rule_options({}))
    reader = sqlite3.connect(path)
    shown: list[np.ndarray] = []
    previous: list[np.ndarray] = []

    def read_back(event: object) -> None:
        if isinstance(event, Started):
            previous.append(event.observation.frame)
        if isinstance(event, Stepped):
            row = reader.execute(
                "SELECT f.png FROM steps s JOIN frames f ON f.hash = s.frame "
                "WHERE s.episode_id = ? AND s.\"index\" = ?",
                (event.episode_id, event.record.index)).fetchone()
            assert row is not None, f"step {event.record.index} or its frame is not committed"
            frame = event.observation.frame
            back = np.array(Image.open(io.BytesIO(row[0])).convert("RGB"))
            assert (back == frame).all()
            # told from the frame shown before it (the renderer named the rows that changed)
            assert frame.changed is not None and frame.changed.base() is previous[-1]
            previous.append(frame)
            shown.append(back)

    setting = get_setting("ingvp:image-multi", game)
    result = await Episode(make_env(task), RandomPlayer(legal_only=True), task,
                           setting=setting, budget=Budget(max_actions=10), recorder=recorder,
                           seed=seed, listeners=[read_back]).run()
    reader.close()
    recorder.close()
    store.db.dispose()
    # A listener's failure is logged, not raised: every step must have been checked.
    assert len(shown) == len(result.steps) >= 1
