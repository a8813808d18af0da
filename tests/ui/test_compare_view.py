"""The Compare tab: N episodes of one study task side by side - annotators played through the
queue with the UI's input layer, a solver sweep - one scrubber moving every lane, the first
divergence marked at the step where it happens, and blind studies hiding other participants
from an annotator."""

from __future__ import annotations

import asyncio
import contextlib

from PySide6.QtCore import Qt

from playbench.app.core.events import Deciding
from playbench.app.players.factory import player_factory
from playbench.app.players.human import HumanPlayer
from playbench.app.studies import StudyQueue, create_study, load_study_file, run_sweep
from tests.studies.helpers import input_layer, optimal, press, study_yaml
from tests.ui.conftest import ANNOTATOR

REVERSE = {"U": "D", "D": "U", "L": "R", "R": "L"}
DETOUR_AT = 2


def detour_at(step: int):
    """Optimal play, except one move the other way at ``step``."""
    def policy(ctx):
        move = optimal(ctx)
        return REVERSE[move] if ctx.step == step and move in REVERSE else move
    return policy


async def seed(store, tmp_path, blind: bool = False) -> None:
    """A one-task study: two annotators (one detours at step 3), a solver sweep, and a third
    annotator who stopped after one move (interrupted)."""
    create_study(store, load_study_file(study_yaml(
        tmp_path, name="pilot", order="fixed", blind=blind, practice=[],
        tasks=[{"game": "sokoban", "levels": "rooms.xsb:2"}])))
    for name, policy in ((ANNOTATOR, optimal), ("bob", detour_at(DETOUR_AT))):
        queue = StudyQueue(store, "pilot", name)
        human = HumanPlayer(name)
        await queue.play(queue.next(), human, listeners=[input_layer(human, policy)])
    await run_sweep(store, "pilot", player_factory("solver"))
    queue = StudyQueue(store, "pilot", "carol")
    human = HumanPlayer("carol")
    play = None

    def one_move_then_leave(event):
        if isinstance(event, Deciding):
            if event.context.step == 0:
                press(human, event.context, optimal(event.context))
            else:
                asyncio.get_running_loop().call_soon(play.cancel)
    play = asyncio.ensure_future(queue.play(queue.next(), human,
                                            listeners=[one_move_then_leave]))
    with contextlib.suppress(asyncio.CancelledError):
        await play


def seeded_window(make_window, qtbot, aloop, tmp_path, blind: bool = False):
    window = make_window()
    job = aloop.create_task(seed(window.state.store, tmp_path, blind))
    qtbot.waitUntil(job.done, timeout=60000)
    job.result()
    return window


def open_task(qtbot, window):
    view = window.compare
    window.show_page(view)
    qtbot.waitUntil(lambda: view.loading is not None and view.loading.done(), timeout=10000)
    view.study.setCurrentIndex(view.study.findData("pilot"))
    view.refresh(reload=True)
    qtbot.waitUntil(lambda: view.loading.done() and view.full is not None, timeout=10000)
    assert view.task.count() == 1
    return view


def frames_shown(view, row: int) -> bool:
    return all(w.shown == w.lane.frame_at(row) for w in view.lanes)


def test_lanes_scrub_together_and_the_divergence_is_marked(
        make_window, qtbot, aloop, tmp_path):
    window = seeded_window(make_window, qtbot, aloop, tmp_path)
    store = window.state.store
    view = open_task(qtbot, window)

    # Four episodes; the three finished ones are ticked and shown as lanes.
    assert view.episodes.count() == 4
    assert [w.lane.participant for w in view.lanes] == [ANNOTATOR, "bob", "solver"]
    steps = {w.lane.participant: store.steps(w.lane.episode_id) for w in view.lanes}
    assert view.slider.minimum() == -1
    assert view.slider.maximum() == max(len(s) for s in steps.values()) - 1

    # Scrubbing moves every lane: action, validity, score and frame of that step.
    for row in (0, 1, 3):
        view.slider.setValue(row)
        qtbot.waitUntil(lambda: frames_shown(view, row), timeout=10000)
        for w in view.lanes:
            step = steps[w.lane.participant][row]
            assert w.action.text() == step.action
            assert w.validity.text().startswith("valid" if step.valid else "invalid")
            assert w.lane.frame_at(row) == step.frame
            total = sum(s.reward for s in steps[w.lane.participant][:row + 1])
            assert w.score.text() == f"{total:g}"
    view.slider.setValue(-1)
    qtbot.waitUntil(lambda: frames_shown(view, -1), timeout=10000)
    assert all(w.action.text() == "start" for w in view.lanes)
    assert view.lanes[0].board._image is not None

    # The first divergence: bob's detour at step 3 (row 2), marked on the scrubber.
    moves = {name: [s.action for s in st] for name, st in steps.items()}
    assert moves[ANNOTATOR][:DETOUR_AT] == moves["bob"][:DETOUR_AT] == moves["solver"][:DETOUR_AT]
    assert moves["bob"][DETOUR_AT] != moves[ANNOTATOR][DETOUR_AT]
    assert view.comparison.divergence.row == DETOUR_AT
    assert view.slider.marker == DETOUR_AT and view.slider.marker_x() is not None
    assert "step 3" in view.divergence.text() and "different actions" in view.divergence.text()
    assert not any(w.marked for w in view.lanes)
    qtbot.mouseClick(view.jump, Qt.MouseButton.LeftButton)
    assert view.slider.value() == DETOUR_AT
    assert [w.marked for w in view.lanes] == [False, True, False]
    assert "Differs" in view.lanes[1].note.text()
    view.slider.setValue(DETOUR_AT + 1)
    assert not any(w.marked for w in view.lanes)

    # Unticking bob: the annotator and the solver never diverge.
    bob = next(i for i in range(view.episodes.count())
               if view.episodes.item(i).text().startswith("bob"))
    view.episodes.item(bob).setCheckState(Qt.CheckState.Unchecked)
    assert [w.lane.participant for w in view.lanes] == [ANNOTATOR, "solver"]
    assert view.comparison.divergence is None and view.slider.marker is None
    assert not view.jump.isEnabled() and "never diverge" in view.divergence.text()

    # Ticking the interrupted episode: it ends after one step.
    view.tick_all.click()
    assert len(view.lanes) == 4
    assert (view.comparison.divergence.row, view.comparison.divergence.kind) == (1, "ended")

    # Leaving the tab and coming back keeps the ticks; a new episode of the task is picked up.
    window.show_page(window.library)
    window.show_page(view)
    qtbot.waitUntil(lambda: view.loading.done(), timeout=10000)
    assert len(view.lanes) == 4
    job = aloop.create_task(run_sweep(store, "pilot", player_factory("solver"), repeat=2))
    qtbot.waitUntil(job.done, timeout=30000)
    window.show_page(window.library)
    window.show_page(view)
    qtbot.waitUntil(lambda: view.loading.done() and len(view.full.lanes) == 5, timeout=10000)
    assert [w.lane.participant for w in view.lanes] == [ANNOTATOR, "bob", "solver", "solver"]


def test_blind_study_shows_an_annotator_only_their_own_episode(
        make_window, qtbot, aloop, tmp_path):
    window = seeded_window(make_window, qtbot, aloop, tmp_path, blind=True)
    view = open_task(qtbot, window)
    assert [w.lane.participant for w in view.lanes] == [ANNOTATOR]
    assert view.episodes.count() == 1
    assert "3 episodes of other participants hidden" in view.hidden.text()
    assert "episode" not in view.task.itemText(0)  # no counts of others' episodes
    view.slider.setValue(view.slider.maximum())
    lane = view.lanes[0]
    assert lane.score.text() == "hidden (blind study)"
    assert "solved" not in lane.facts.text()
    assert all(s.cumulative is None for s in lane.lane.steps) and lane.lane.solved is None

    view.researcher.setChecked(True)  # the researcher's machine
    qtbot.waitUntil(lambda: view.loading.done() and view.full is not None
                    and len(view.full.lanes) == 4, timeout=10000)
    assert [w.lane.participant for w in view.lanes] == [ANNOTATOR, "bob", "solver"]
    assert view.hidden.text() == ""
    assert view.lanes[0].score.text() != "hidden (blind study)"


def test_blind_study_episodes_tab_shows_an_annotator_only_their_own_without_scores(
        make_window, qtbot, aloop, tmp_path):
    window = seeded_window(make_window, qtbot, aloop, tmp_path, blind=True)
    viewer = window.episodes
    window.show_page(viewer)
    job = viewer.refresh()
    qtbot.waitUntil(job.done, timeout=10000)
    assert [(s.participant, s.solved) for s in viewer.shown] == [(ANNOTATOR, None)]
    assert viewer.table.item(0, 7).text() == ""  # the solved column stays empty
    viewer.table.selectRow(0)
    qtbot.waitUntil(lambda: viewer.record is not None
                    and viewer.record.id == viewer.shown[0].id, timeout=10000)
    assert "hidden" in viewer.final.text() and "solved" not in viewer.final.text()
    assert "reward" not in viewer.step_score.text()
    assert "actions used" in viewer.step_score.text()

    viewer.researcher.setChecked(True)  # the researcher's machine sees everyone and scores
    qtbot.waitUntil(lambda: len(viewer.shown) == 4, timeout=10000)
    assert sorted(s.participant for s in viewer.shown) == sorted(
        [ANNOTATOR, "bob", "carol", "solver"])
    mine = next(i for i, s in enumerate(viewer.shown) if s.participant == ANNOTATOR)
    viewer.table.selectRow(mine)
    qtbot.waitUntil(lambda: "Final scores" in viewer.final.text(), timeout=10000)
    assert "reward" in viewer.step_score.text()


def record_web_episode(store, who: tuple[str, str], actions: list[str], seed: int) -> int:
    """A web-task episode as the browser pane records one: a 1280x720 screenshot per step
    (written directly through the recorder; no browser needed)."""
    import numpy as np

    from playbench.app.core.owner import process_token
    from playbench.app.core.recorder import EpisodeStart, StepRecord, StoreWriter

    def shot(i: int) -> np.ndarray:
        frame = np.full((720, 1280, 3), 245, np.uint8)
        frame[40 + 60 * i:100 + 60 * i, 100:400] = (seed * 60 % 255, 90, 200)
        return frame
    recorder = StoreWriter(store)
    eid = recorder.begin(EpisodeStart(
        game="web", level_hash="web-task-hash", level_text='{"id": "shop-1"}', level_number=1,
        level_title="Find the cheapest guitar", level_source="test", level_meta={},
        participant_kind=who[0], participant_name=who[1], participant_details={},
        setting="vwa:som", player=who[1], budget={"max_actions": 10}, rules={}, seed=0,
        owner=process_token(), start_state="page-0"), shot(0))
    for i, action in enumerate(actions):
        recorder.step(eid, StepRecord(i, i, action, action, True, None, None, True, 0.0,
                                      f"page-{action}-{i}"), shot(i + 1))
    recorder.finish(eid, "done", "gave_up", {"solved": 0.0})
    return eid


def test_web_task_screenshots_compare_like_boards(make_window, qtbot):
    window = make_window()
    store = window.state.store
    person = record_web_episode(store, ("human", ANNOTATOR),
                                ["click [12]", "type [5] [guitar]"], 1)
    model = record_web_episode(store, ("model", "demo"), ["click [12]", "click [7]", "stop"], 2)
    view = window.compare
    window.show_page(view)
    qtbot.waitUntil(lambda: view.loading is not None and view.loading.done()
                    and view.full is not None, timeout=10000)
    assert [w.lane.episode_id for w in view.lanes] == [person, model]
    assert "Find the cheapest guitar" in view.heading.text()
    assert (view.comparison.divergence.row, view.comparison.divergence.kind) == (1, "action")
    view.slider.setValue(1)
    qtbot.waitUntil(lambda: frames_shown(view, 1), timeout=10000)
    assert [w.action.text() for w in view.lanes] == ["type [5] [guitar]", "click [7]"]
    image = view.lanes[0].board._image
    assert (image.width(), image.height()) == (1280, 720)
    view.slider.setValue(2)
    qtbot.waitUntil(lambda: frames_shown(view, 2), timeout=10000)
    assert view.lanes[0].action.text() == "(ended after 2 steps)"
    assert view.lanes[1].action.text() == "stop"
