"""The game pane with real Chromium and a bundled browser game: a person's key presses become
the canonical actions a model sends (a held key is one action), are counted against the same
100-action budget, run on the same clock (paused between actions) or in real time by the
setting, and land in the database; a person's and a model's episode (the offline endpoint
``serve-model`` answering over HTTP) of one task open side by side in Compare.

One Chromium serves the whole module; each test opens its own window (and so its own
database). Tests wait on the app's own state; the only timed waits are the ones that check a
clock (the game's time must stand still, or run, while the person thinks).
"""

from __future__ import annotations

import asyncio
import shutil
import time

import pytest
from PySide6.QtCore import QEvent, QEventLoop, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication, QPushButton

from playbench.app.ui.models.web_session import WebRuntime
from playbench.app.ui.web_runtime import use_runtime
from playbench.games.browser.browser import Browser
from tests.ui.helpers import confirm_box

pytestmark = pytest.mark.browser

TIMEOUT = 40000
START = 120000
"""Milliseconds for an episode to open (Chromium's first start on a loaded machine)."""
KIND = "browser-games"
TASK = "01_2048/01_01"


def _playwright_task(task: asyncio.Task) -> bool:
    coro = task.get_coro()
    code = getattr(coro, "cr_code", None) or getattr(coro, "gi_code", None)
    return code is not None and "playwright" in code.co_filename


@pytest.fixture
def aloop(qloop, qtbot, shared):
    """As in test_browser_pane: Playwright's own tasks (the module's Chromium connection)
    keep running between tests; everything else a test leaves is cancelled."""
    asyncio.set_event_loop(qloop)
    asyncio.events._set_running_loop(qloop)
    yield qloop
    pending = [t for t in asyncio.all_tasks(qloop) if not t.done() and not _playwright_task(t)]
    for t in pending:
        t.cancel()
    qtbot.waitUntil(lambda: all(t.done() for t in pending), timeout=10000)


@pytest.fixture(scope="module")
def shared(qloop, qapp):
    """One Chromium (started by the first episode) for the module."""
    browser = Browser()
    yield browser
    asyncio.set_event_loop(qloop)
    asyncio.events._set_running_loop(qloop)
    try:
        closing = asyncio.ensure_future(browser.close())
        deadline = time.monotonic() + 20
        while not closing.done() and time.monotonic() < deadline:
            qapp.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
    finally:
        asyncio.events._set_running_loop(None)
        asyncio.set_event_loop(None)


@pytest.fixture
def window(make_window, shared):
    w = make_window()
    w.resize(1480, 920)
    use_runtime(w.ctx, WebRuntime(shared))
    return w


# -- driving the pane -------------------------------------------------------------------------

def start_game(qtbot, window, player: str = "human", setting: str = "default",
               actions: int | None = None):
    lib = window.library
    lib.select(KIND)
    panel = next(p for p in lib.panels if p.game == KIND)
    qtbot.waitUntil(lambda: bool(panel.rows), timeout=TIMEOUT)
    row = next(r for r in panel.rows if r.level.title == TASK)
    panel.select_task(row.task_id)
    panel.player.setCurrentIndex(panel.player.findData(player))
    panel.setting.setCurrentIndex(panel.setting.findData(setting))
    if actions is not None:
        panel.max_actions.setValue(actions)
    qtbot.mouseClick(panel.play, Qt.MouseButton.LeftButton)
    view = window.play_place.view("game") if player == "human" else window.demo
    qtbot.waitUntil(lambda: view.session is not None and view.session.episode_id != 0,
                    timeout=START)
    if player == "human":
        idle(qtbot, view)
    return view.session


def idle(qtbot, view) -> None:
    """Until the episode waits for the person with nothing queued (or has ended)."""
    def ready() -> bool:
        s = view.session
        return s.result is not None or (s.player.waiting and not view.host.inputs.in_flight
                                        and not view.host.inputs.waiting)
    qtbot.waitUntil(ready, timeout=TIMEOUT)


def steps_done(qtbot, view, n: int) -> None:
    qtbot.waitUntil(lambda: len(view.session.steps) >= n, timeout=TIMEOUT)
    idle(qtbot, view)


def send_key(widget, key: Qt.Key, pressed: bool, auto_repeat: bool = False,
             stamp_ms: int = 0) -> None:
    kind = QEvent.Type.KeyPress if pressed else QEvent.Type.KeyRelease
    event = QKeyEvent(kind, key, Qt.KeyboardModifier.NoModifier, "", auto_repeat)
    event.setTimestamp(stamp_ms)
    QApplication.sendEvent(widget, event)


def game_time(qtbot, view) -> float:
    """The game's own clock now (``gameAPI.getState().gameTimeMs``), read from the page."""
    got: list[float] = []
    job = asyncio.ensure_future(view.session.env.read_state())
    job.add_done_callback(lambda j: got.append(float(j.result()["gameTimeMs"])))
    qtbot.waitUntil(lambda: bool(got), timeout=TIMEOUT)
    return got[0]


def game_time_passes(qtbot, view) -> float:
    """How much game time passes while the person waits half a second doing nothing."""
    before = game_time(qtbot, view)
    qtbot.wait(500)
    return game_time(qtbot, view) - before


# -- tests --------------------------------------------------------------------------------------

@pytest.mark.smoke
def test_a_persons_keys_are_the_models_actions_on_the_same_clock(window, qtbot):
    session = start_game(qtbot, window)
    view = window.play_place.view("game")
    canvas = view.page.canvas
    assert session.budget.max_actions == 100  # GameWorld's budget, as a model's
    assert view.hud.actions_left.text() == "100" and view.hud.actions_of.text() == "of 100"
    assert "paused between your actions" in view.clock.text()
    assert "ArrowLeft: Slide all tiles left." in view.hud.help.text()  # the keys are named
    hud = session.observation.info["hud"]
    assert view.target.text() == f"{hud['target']:g}"
    qtbot.waitUntil(lambda: view.page.frames_received > 0, timeout=TIMEOUT)  # the screencast
    assert view.stream is not None and view.stream.active
    # same clock: the game stands still while the person thinks
    assert game_time_passes(qtbot, view) == 0

    # a key press is one action: the game's semantic control bound to that key
    qtbot.keyClick(canvas, Qt.Key.Key_Left)
    steps_done(qtbot, view, 1)
    step = session.steps[0]
    assert step.action == "move_left" and step.valid
    person = {"input": "human", "device": "key", "key": "ArrowLeft", "interface": "semantic"}
    assert {k: step.info.get(k) for k in person} == person
    assert view.hud.actions_left.text() == "99"
    # a key held down is still one action, whether the window system flags the keyboard's
    # repeats or sends them as release-press pairs at one moment (Xvfb)
    send_key(canvas, Qt.Key.Key_Up, True, stamp_ms=10_000)
    for n in range(1, 5):
        send_key(canvas, Qt.Key.Key_Up, False, auto_repeat=True, stamp_ms=10_000 + 40 * n)
        send_key(canvas, Qt.Key.Key_Up, True, auto_repeat=True, stamp_ms=10_000 + 40 * n)
    for n in range(5, 9):
        send_key(canvas, Qt.Key.Key_Up, False, stamp_ms=10_000 + 40 * n)
        send_key(canvas, Qt.Key.Key_Up, True, stamp_ms=10_000 + 40 * n)
    send_key(canvas, Qt.Key.Key_Up, False, stamp_ms=10_400)
    steps_done(qtbot, view, 2)
    assert [s.action for s in session.steps] == ["move_left", "move_up"]
    assert "held 0.4 s: still one action" in view.sent.text()
    # the same key pressed again after a real release is a new action
    send_key(canvas, Qt.Key.Key_Up, True, stamp_ms=10_600)
    send_key(canvas, Qt.Key.Key_Up, False, stamp_ms=10_700)
    steps_done(qtbot, view, 3)
    assert [s.action for s in session.steps] == ["move_left", "move_up", "move_up"]
    # a key that is no control of the game costs nothing
    qtbot.keyClick(canvas, Qt.Key.Key_X)
    idle(qtbot, view)
    assert len(session.steps) == 3 and "not a control" in view.hud.feedback.text()
    assert view.hud.actions_left.text() == "97"
    hud = session.observation.info["hud"]
    assert view.score.text() == (f"{hud['score']:g}" if isinstance(hud["score"], float)
                                 else str(hud["score"]))
    assert game_time_passes(qtbot, view) == 0  # still paused between actions

    # giving up ends the episode; the database has every action as the session had it
    qtbot.mouseClick(view.give_up, Qt.MouseButton.LeftButton)
    box = confirm_box(qtbot)
    qtbot.mouseClick(box.findChild(QPushButton, "confirm_yes"), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: session.result is not None, timeout=TIMEOUT)
    assert session.result.end_reason == "gave_up"
    assert view.banner.isVisible() and "3 actions" in view.banner.text.text()
    rows = window.state.store.steps(session.episode_id)
    assert [(r.action, r.valid) for r in rows] == [("move_left", True), ("move_up", True),
                                                   ("move_up", True)]
    assert all(r.info["input"] == "human" and r.frame is not None for r in rows)
    episode = window.state.store.episode(session.episode_id)
    assert episode.participant.kind == "human" and episode.episode.setting == "default"
    assert episode.task.game == KIND and episode.task.title == TASK
    assert episode.scores["progress"] == session.result.scores["progress"]


def test_real_time_and_computer_use_settings(window, qtbot):
    session = start_game(qtbot, window, setting="tools:computer-use-rt")
    view = window.play_place.view("game")
    canvas = view.page.canvas
    assert "runs on" in view.clock.text()
    assert game_time_passes(qtbot, view) > 0  # real time: the game does not wait
    qtbot.keyClick(canvas, Qt.Key.Key_Right)
    steps_done(qtbot, view, 1)
    assert session.steps[0].action == "press_key ArrowRight" and session.steps[0].valid
    # under computer-use a key outside the game's allowed keys is sent, and refused by the
    # game's table as a model's would be: invalid, with its reason, and it costs an action
    qtbot.keyClick(canvas, Qt.Key.Key_X)
    steps_done(qtbot, view, 2)
    bad = session.steps[1]
    assert not bad.valid and "x" in bad.invalid_reason
    assert view.hud.actions_left.text() == "98"
    assert "invalid" in view.hud.feedback.text()
    view.stop()
    qtbot.waitUntil(lambda: session.result is not None, timeout=TIMEOUT)
    rows = window.state.store.steps(session.episode_id)
    assert [r.valid for r in rows] == [True, False]


def test_a_person_and_a_model_side_by_side_in_compare(window, qtbot):
    human = start_game(qtbot, window, actions=3)
    view = window.play_place.view("game")
    for key in (Qt.Key.Key_Left, Qt.Key.Key_Up, Qt.Key.Key_Right):
        qtbot.keyClick(view.page.canvas, key)
    qtbot.waitUntil(lambda: human.result is not None, timeout=TIMEOUT)
    assert human.result.end_reason == "budget" and len(human.steps) == 3
    # the offline endpoint (serve-model over HTTP) plays the same task in the Model demo
    model = start_game(qtbot, window, player="model:demo", actions=3)
    demo = window.demo
    assert demo.board is demo.page
    qtbot.waitUntil(lambda: model.result is not None, timeout=60000)
    assert len(model.steps) == 3 and all(s.valid for s in model.steps)
    assert demo.page.canvas.image is not None and demo.page.canvas.image.width() == 1280
    compare = window.compare
    window.show_page(compare)
    qtbot.waitUntil(lambda: compare.loading is not None and compare.loading.done(),
                    timeout=TIMEOUT)
    task_id = window.state.store.episode(human.episode_id).task.id
    compare.select_task(task_id)
    qtbot.waitUntil(lambda: compare.loading.done() and compare.comparison is not None
                    and len(compare.lanes) == 2, timeout=TIMEOUT)
    assert sorted(lane.kind for lane in compare.comparison.lanes) == ["human", "model"]
    assert {lane.episode_id for lane in compare.comparison.lanes} == {human.episode_id,
                                                                      model.episode_id}
    compare.slider.setValue(1)
    qtbot.waitUntil(lambda: all(w.shown == w.lane.frame_at(1) for w in compare.lanes),
                    timeout=TIMEOUT)
    assert all(w.lane.frame_at(1) is not None for w in compare.lanes)


def test_a_users_gameworld_catalog_folder_plays_like_a_bundled_game(window, qtbot, tmp_path):
    from playbench.games.browser_games.tasks import bundled_root
    bundled = bundled_root()
    root = tmp_path / "my-gameworld"
    for part in ("catalog/games/01_2048.yaml", "catalog/tasks/01_2048",
                 "games/benchmark/01_2048"):
        src, dst = bundled / part, root / part
        dst.parent.mkdir(parents=True, exist_ok=True)
        (shutil.copytree if src.is_dir() else shutil.copy)(src, dst)
    # A GameWorld game folder carries its own game_api.js; ours load the catalog's shared one.
    game = root / "games/benchmark/01_2048"
    shutil.copy(bundled / "games/benchmark/_common/game_api.js", game / "game_api.js")
    page = game / "index.html"
    page.write_text(page.read_text().replace("../_common/game_api.js", "game_api.js"))
    lib = window.library
    lib.select(KIND)
    panel = next(p for p in lib.panels if p.game == KIND)
    assert panel.add_file.text() == "Add catalog folder…"
    panel.add_task_file(str(root))
    qtbot.waitUntil(lambda: panel.pack is not None and panel.pack.source == str(root)
                    and len(panel.rows) == 5, timeout=TIMEOUT)
    assert panel.sets.currentText() == "my-gameworld (folder)"
    session = start_game(qtbot, window)
    assert session.task.level.meta["catalog"] != "bundled"
    qtbot.keyClick(window.play_place.view("game").page.canvas, Qt.Key.Key_Down)
    steps_done(qtbot, window.play_place.view("game"), 1)
    assert session.steps[0].action == "move_down" and session.steps[0].valid
    window.play_place.view("game").stop()
    qtbot.waitUntil(lambda: session.result is not None, timeout=TIMEOUT)
