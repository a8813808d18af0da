"""A person plays football with the keyboard in the Play view: each key is one decision in the
model's action vocabulary, the game waits for it, and the episode is recorded and verifies.
Needs the football extra, which ``./bootstrap test`` (CI's command) builds."""

from __future__ import annotations

import pytest

from playbench.app.core.replay import verify_episode
from playbench.games.football.kind import KEYS
from tests.ui.helpers import key, start_level, wait_ready, wait_steps

pytestmark = pytest.mark.football

PRESSES = ["D", "Right", "E", "Space", "Right", "F"]


def test_a_football_scenario_played_with_keys(make_window, qtbot, aloop):
    window = make_window()
    session = start_level(qtbot, window, "football", "magebench-mini", 5,
                          setting="magebench:online",
                          timeout=90000)  # the engine's first start: 20-40 s under load
    board = window.play_place.view("board").board
    pressed = []
    for name in PRESSES:
        if session.result is not None:
            break
        before = len(session.steps)
        key(qtbot, board, name)
        wait_steps(qtbot, session, before + 1, timeout=60000)
        qtbot.waitUntil(lambda: session.result is not None or session.player.waiting,
                        timeout=60000)
        pressed.append(name)
    if session.result is None:
        key(qtbot, board, "P")  # not a football key: ignored, nothing recorded
        wait_ready(qtbot, session)
    store = window.state.store
    steps = store.steps(session.episode_id)
    assert [s.action for s in steps] == [KEYS[n] for n in pressed]
    assert [s.raw for s in steps] == [f"key:{n}" for n in pressed]
    assert all(s.valid for s in steps) and all(s.frame for s in steps)
    assert window.play_place.view("board").board.isVisible()
    check = aloop.create_task(verify_episode(store, session.episode_id))
    qtbot.waitUntil(check.done, timeout=120000)
    assert check.result().steps_checked == len(steps)

