"""The study clock in the real window: the Play tab has its own Pause, leaving the Play tab
pauses the task, and continuing it keeps the time already spent - on recorded steps and on
the decision that was in flight - so pausing before each move gives no time back."""

from __future__ import annotations

import time

from PySide6.QtCore import Qt

from playbench.db.thinking import pending_of
from tests.studies.helpers import study_yaml
from tests.ui.helpers import ARROW_OF, key, wait_ready, wait_steps
from tests.ui.test_studies_view import TASKS, create_study, next_task, open_studies, started


def think(qtbot, seconds: float) -> float:
    """The annotator looks at the board for ``seconds`` (the time the test is about)."""
    t0 = time.monotonic()
    qtbot.wait(int(seconds * 1000))
    return time.monotonic() - t0


def test_pause_on_the_play_tab_and_tab_switch_keep_the_clock(make_window, qtbot, tmp_path):
    path = study_yaml(tmp_path, name="pilot", order="fixed", time_limit=300, **TASKS)
    window = make_window()
    create_study(qtbot, window, path)
    studies = open_studies(qtbot, window, "pilot")
    play = window.play_place.view("board")
    session = next_task(qtbot, window)
    assert play.pause_task.isVisible() and play.pause_task.text() == "Pause task"

    # Think, then pause with the Play tab's own button.
    thought = think(qtbot, 1.2)
    qtbot.mouseClick(play.pause_task, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: session.result is not None, timeout=10000)
    assert session.result.status == "interrupted"
    episode_id = session.episode_id
    saved = pending_of(window.state.store.db, episode_id)
    assert saved is not None and saved.step == 0 and saved.ms >= thought * 1000
    assert play.pause_task.text() == "Continue task" and play.pause_task.isEnabled()
    # The banner names the way back the annotator has: Continue task, not Episodes.
    assert "Continue task" in play.banner.text.text()
    assert "Episodes" not in play.banner.text.text()

    # Continue: the same episode, with the time already spent on the clock.
    qtbot.mouseClick(play.pause_task, Qt.MouseButton.LeftButton)
    session = started(qtbot, window, session)
    assert session.episode_id == episode_id
    assert session.elapsed() >= thought
    play.hud.tick()
    assert not play.hud.elapsed.text().startswith("00:00")
    move = session.context.oracle()[0]
    more = think(qtbot, 0.3)
    key(qtbot, play.board, ARROW_OF[move])
    wait_steps(qtbot, session, 1)
    first = window.state.store.steps(episode_id)[0]
    assert first.think_ms >= (thought + more) * 1000

    # Leaving the Play tab pauses too; the time on the next decision is kept.
    wait_ready(qtbot, session)
    away = think(qtbot, 0.6)
    window.show_page(studies)
    qtbot.waitUntil(lambda: session.result is not None, timeout=10000)
    assert session.result.status == "interrupted"
    saved = pending_of(window.state.store.db, episode_id)
    assert saved.step == 1 and saved.ms >= away * 1000
    qtbot.waitUntil(lambda: studies.snapshot is not None
                    and studies.snapshot.next.status == "interrupted", timeout=10000)

    window.show_page(play)
    assert play.pause_task.text() == "Continue task"
    qtbot.mouseClick(play.pause_task, Qt.MouseButton.LeftButton)
    session = started(qtbot, window, session)
    assert session.episode_id == episode_id and len(session.steps) == 1
    assert session.elapsed() >= (first.think_ms / 1000) + away
