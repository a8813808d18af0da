"""The recorder encodes each step's frame from the episode's previous one, and the step's row
and frame are both committed when the step returns: a second connection reads the frame right
after the step, pixel for pixel, under the key the prompt's image has."""

from __future__ import annotations

import io
import sqlite3

import numpy as np
from PIL import Image

from playbench.app.core.env import make_env
from playbench.app.core.episode import Episode, Stepped
from playbench.app.core.png import frame_digest
from playbench.app.core.recorder import DbRecorder
from playbench.app.core.settings import get_setting
from playbench.app.core.task import Task
from playbench.app.players.scripted import SolverPlayer
from playbench.db.engine import open_database
from playbench.db.store import Store
from playbench.games import registry


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
