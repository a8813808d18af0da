"""The episode viewer scrubs recorded episodes; closing the app mid-episode leaves it
interrupted, and the next start offers it for resumption from its last step."""

from __future__ import annotations

from PySide6.QtCore import Qt

from playbench.app.ui.resume import ResumeDialog
from tests.ui.helpers import (
    ARROW_OF,
    close_window,
    give_up,
    key,
    start_level,
    wait_end,
    wait_ready,
    wait_steps,
)


def listed(qtbot, viewer) -> None:
    """Wait until the viewer's latest list read has been shown."""
    qtbot.waitUntil(lambda: viewer.listing.task is not None and viewer.listing.task.done(),
                    timeout=10000)
    assert viewer.listing.task.exception() is None


def test_viewer_scrubs_a_recorded_episode_step_by_step(make_window, qtbot):
    window = make_window()
    session = start_level(qtbot, window, "sokoban", "ingvp", 1)
    solution = session.task.level.meta["solution"]
    blocked = next(m for m in "UDLR" if m not in session.env.legal_actions())
    key(qtbot, window.play_place.view("board").board, ARROW_OF[blocked])
    for move in solution:
        key(qtbot, window.play_place.view("board").board, ARROW_OF[move])
    wait_end(qtbot, session)
    qtbot.mouseClick(window.play_place.view("board").view_button, Qt.MouseButton.LeftButton)
    viewer = window.episodes
    qtbot.waitUntil(lambda: viewer.record is not None and viewer.record.id == session.episode_id)
    assert window.current_page() is viewer
    n = len(solution) + 1
    assert viewer.slider.maximum() == n and viewer.slider.value() == n
    frames = set()
    viewer.slider.setValue(0)
    assert viewer.position.text().startswith("Start position")
    frames.add(viewer.record.frame_hash(0))
    qtbot.waitUntil(lambda: viewer.frame_shown == viewer.record.frame_hash(0))
    assert viewer.board._image is not None and not viewer.board._image.isNull()
    qtbot.mouseClick(viewer.next, Qt.MouseButton.LeftButton)
    assert viewer.step_action.text() == blocked
    assert "invalid: illegal" in viewer.step_valid.text()
    assert viewer.raw.toPlainText() == f"key:{ARROW_OF[blocked]}"
    assert "1 invalid" in viewer.step_score.text()
    for i in range(2, n + 1):
        qtbot.mouseClick(viewer.next, Qt.MouseButton.LeftButton)
        assert viewer.step_action.text() == solution[i - 2]
        assert viewer.step_valid.text().startswith("valid")
        frames.add(viewer.record.frame_hash(i))
    assert viewer.slider.value() == n
    assert f"{n} of" in viewer.step_score.text()
    assert "solved 1" in viewer.final.text()
    assert len(frames) > 2  # the picture changes as the boxes move


def test_viewer_lists_model_and_human_episodes_and_filters(make_window, qtbot):
    window = make_window()
    session = start_level(qtbot, window, "maze", "ingvp", 1, player="solver")
    wait_end(qtbot, session)
    human = start_level(qtbot, window, "maze", "ingvp", 1)
    give_up(qtbot, window.play_place.view("board"))
    wait_end(qtbot, human)
    window.tabs.setCurrentIndex(3)
    viewer = window.episodes
    listed(qtbot, viewer)
    assert len(viewer.shown) == 2
    viewer.kind.setCurrentIndex(viewer.kind.findData("script"))
    assert [s.player for s in viewer.shown] == ["solver"]
    viewer.kind.setCurrentIndex(viewer.kind.findData("human"))
    assert [s.participant for s in viewer.shown] == ["ann-test"]


def test_closing_mid_episode_saves_it_interrupted_and_it_resumes(make_window, qtbot):
    window = make_window()
    session = start_level(qtbot, window, "sokoban", "ingvp", 1)
    solution = session.task.level.meta["solution"]
    for move in solution[:3]:
        key(qtbot, window.play_place.view("board").board, ARROW_OF[move])
    wait_steps(qtbot, session, 3)
    wait_ready(qtbot, session)
    episode_id = session.episode_id
    close_window(qtbot, window)              # the person closes the app mid-episode
    assert session.result.status == "interrupted"

    window = make_window(show_prompts=True)  # the next start
    row = window.state.store.episode(episode_id)
    assert (row.episode.status, row.episode.n_steps) == ("interrupted", 3)
    dialog = window.findChild(ResumeDialog)
    assert dialog is not None and dialog.isVisible()
    assert dialog.table.item(0, 0).text() == f"#{episode_id}"
    qtbot.mouseClick(dialog.resume_button, Qt.MouseButton.LeftButton)
    play = window.play_place.view("board")
    qtbot.waitUntil(lambda: play.session is not None and play.session.episode_id == episode_id)
    resumed = play.session
    qtbot.waitUntil(lambda: resumed.player.waiting)
    assert len(resumed.steps) == 3 and play.hud.actions_left.text() == "47"
    for move in solution[3:]:
        key(qtbot, play.board, ARROW_OF[move])
    wait_end(qtbot, resumed)
    assert resumed.result.end_reason == "solved"
    steps = window.state.store.steps(episode_id)
    assert [s.action for s in steps] == list(solution)
    assert [s.index for s in steps] == list(range(len(solution)))
    assert window.state.store.episode(episode_id).episode.status == "done"


def test_the_viewer_loads_off_the_ui_thread_and_drops_an_overtaken_load(
        make_window, qtbot, monkeypatch):
    import threading

    from PySide6.QtCore import QTimer

    import playbench.app.ui.viewer as viewer_module
    window = make_window()
    first = start_level(qtbot, window, "maze", "ingvp", 1, player="solver")
    wait_end(qtbot, first)
    second = start_level(qtbot, window, "sokoban", "ingvp", 1, player="solver")
    wait_end(qtbot, second)
    viewer = window.episodes
    window.show_page(viewer)
    listed(qtbot, viewer)

    # Every load (list, episode, frame) reads the real SQLite file in a pool thread; the
    # first episode's load is held there while the person moves on to the second.
    threads: dict[str, list[threading.Thread]] = {"list": [], "record": [], "frame": []}
    release, held = threading.Event(), threading.Event()
    real_list, real_record, real_frame = (viewer_module.load_list, viewer_module.load_record,
                                          viewer_module.load_frame)

    def load_list(store, who):
        threads["list"].append(threading.current_thread())
        return real_list(store, who)

    def load_record(store, episode_id):
        threads["record"].append(threading.current_thread())
        record = real_record(store, episode_id)
        if episode_id == first.episode_id:
            held.set()
            assert release.wait(20)
        return record

    def load_frame(record, position):
        threads["frame"].append(threading.current_thread())
        return real_frame(record, position)
    monkeypatch.setattr(viewer_module, "load_list", load_list)
    monkeypatch.setattr(viewer_module, "load_record", load_record)
    monkeypatch.setattr(viewer_module, "load_frame", load_frame)

    listed_task = viewer.refresh()
    qtbot.waitUntil(listed_task.done, timeout=10000)
    viewer.select(first.episode_id)
    qtbot.waitUntil(held.is_set, timeout=10000)
    ticks = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(1))
    timer.start(10)
    qtbot.waitUntil(lambda: len(ticks) >= 5, timeout=5000)  # the UI thread is not blocked
    timer.stop()
    overtaken = viewer.opening.task
    assert not overtaken.done()

    viewer.select(second.episode_id)
    qtbot.waitUntil(lambda: viewer.record is not None
                    and viewer.record.id == second.episode_id, timeout=10000)
    qtbot.waitUntil(lambda: viewer.frame_shown == viewer.record.frame_hash(
        len(second.steps)), timeout=10000)
    release.set()                                   # the first load finishes late...
    qtbot.waitUntil(overtaken.done, timeout=10000)
    window.state.executor.submit(lambda: None).result(timeout=20)  # ...its thread too
    qtbot.wait(0)
    assert viewer.record.id == second.episode_id    # ...and is dropped
    assert f"Episode {second.episode_id}" in viewer.heading.text()
    loaded = [t for ts in threads.values() for t in ts]
    assert all(threads.values()) and threading.main_thread() not in loaded
    assert window.state.db_url.startswith("sqlite:///")  # a real SQLite file
