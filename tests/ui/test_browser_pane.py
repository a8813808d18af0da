"""The browser pane with real Chromium and the offline site: a person's clicks, typing, wheel,
keys, browser controls and answer box become the canonical VWA actions, go through the same
loop as a model's, are counted against the same budget and land in the database; a human and a
model episode of one task open side by side in the Compare view.

One Chromium and one classifieds site serve the whole module; each test opens its own window
(and so its own database). Tests wait on the app's own state, never on time.
"""

from __future__ import annotations

import asyncio
import time

import pytest
from PySide6.QtCore import QEventLoop, QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication, QPushButton

from playbench.app.ui.models.web_session import WebRuntime
from playbench.app.ui.web_runtime import use_runtime
from playbench.games.browser.browser import Browser
from playbench.resources.web.site import ClassifiedsServer
from tests.ui.helpers import close_window, confirm_box

pytestmark = pytest.mark.browser

TIMEOUT = 30000


def _playwright_task(task: asyncio.Task) -> bool:
    coro = task.get_coro()
    code = getattr(coro, "cr_code", None) or getattr(coro, "gi_code", None)
    return code is not None and "playwright" in code.co_filename


@pytest.fixture
def aloop(qloop, qtbot, shared):
    """The conftest's loop fixture, except that Playwright's own tasks (the connection to the
    module's Chromium) keep running between tests, and the loop stays marked running until the
    module ends: the driver's late messages (a context closing, a last screencast frame) are
    read between tests too, and reading them needs a running loop."""
    asyncio.set_event_loop(qloop)
    asyncio.events._set_running_loop(qloop)
    yield qloop
    pending = [t for t in asyncio.all_tasks(qloop) if not t.done() and not _playwright_task(t)]
    for t in pending:
        t.cancel()
    qtbot.waitUntil(lambda: all(t.done() for t in pending), timeout=10000)


@pytest.fixture(scope="module")
def shared(qloop, qapp):
    """One site and one Chromium (started by the first episode) for the module."""
    site = ClassifiedsServer()
    site.start()
    browser = Browser()
    yield browser, {"CLASSIFIEDS": (site.base_url, site.reset_url)}
    asyncio.set_event_loop(qloop)
    asyncio.events._set_running_loop(qloop)
    try:  # the loop is unmarked here, once the module is done (see ``aloop``)
        closing = asyncio.ensure_future(browser.close())
        deadline = time.monotonic() + 20
        while not closing.done() and time.monotonic() < deadline:
            qapp.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
    finally:
        asyncio.events._set_running_loop(None)
        asyncio.set_event_loop(None)
        site.stop()


@pytest.fixture
def window(make_window, shared):
    w = make_window()
    w.resize(1480, 920)
    use_runtime(w.ctx, WebRuntime(*shared))
    return w


# -- driving the pane -------------------------------------------------------------------------

def start_task(qtbot, window, task_id: int, player: str = "human", setting: str = "default"):
    lib = window.library
    lib.select("web")
    panel = lib.panel("web")
    qtbot.waitUntil(lambda: bool(panel.rows))
    panel.select_task(task_id)
    panel.player.setCurrentIndex(panel.player.findData(player))
    panel.setting.setCurrentIndex(panel.setting.findData(setting))
    qtbot.mouseClick(panel.play, Qt.MouseButton.LeftButton)
    view = window.play_place.view("browser") if player == "human" else window.demo
    qtbot.waitUntil(lambda: view.session is not None and view.session.episode_id != 0,
                    timeout=TIMEOUT)
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


def element(view, tag: str, text: str) -> dict:
    som = view.session.observation.info["som"]
    return next(e for e in som if e["tag"] == tag and e["text"] == text)


def widget_point(view, x: float, y: float) -> QPoint:
    return view.page.canvas.from_page(x, y).toPoint()


def click_page(qtbot, view, x: float, y: float) -> tuple[float, float]:
    """Click the canvas at page point (x, y); returns the page point the click maps to."""
    at = widget_point(view, x, y)
    qtbot.mouseClick(view.page.canvas, Qt.MouseButton.LeftButton, pos=at)
    return view.page.canvas.to_page(QPointF(at))


def click_element(qtbot, view, e: dict) -> None:
    x, y, w, h = e["box"]
    click_page(qtbot, view, x + w / 2, y + h / 2)


def wheel(view, notches: int) -> None:
    canvas = view.page.canvas
    at = QPointF(canvas.width() / 2, 100)
    event = QWheelEvent(at, QPointF(canvas.mapToGlobal(at)), QPoint(0, 0),
                        QPoint(0, -120 * notches), Qt.MouseButton.NoButton,
                        Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(canvas, event)


def recorded(window, session) -> list:
    return window.state.store.steps(session.episode_id)


# -- tests --------------------------------------------------------------------------------------

@pytest.mark.smoke
def test_a_click_on_an_element_is_click_of_its_id_counted_like_a_models(window, qtbot):
    session = start_task(qtbot, window, 0)
    view = window.play_place.view("browser")
    assert view.marks.isChecked() and view.page.canvas.show_marks  # default: as the model sees
    assert view.hud.actions_left.text() == "30" and view.hud.actions_of.text() == "of 30"
    qtbot.waitUntil(lambda: view.page.frames_received > 0, timeout=TIMEOUT)  # the screencast
    canvas = view.page.canvas  # the page's 1280 px, in frames Chromium sized for the widget
    assert canvas.page_size[0] == 1280
    qtbot.waitUntil(lambda: abs(canvas.image.width() - canvas.device_size()[0])
                    <= 0.02 * canvas.page_size[0], timeout=TIMEOUT)
    cars = element(view, "A", "Cars")
    x, y, w, h = cars["box"]
    qtbot.mouseMove(view.page.canvas, widget_point(view, x + w / 2, y + h / 2))
    qtbot.waitUntil(lambda: view.page.canvas.hover_box == tuple(cars["box"]))
    assert f"[{cars['id']}]" in view.pointer.text()
    click_element(qtbot, view, cars)
    steps_done(qtbot, view, 1)
    step = session.steps[0]
    assert step.action == f"click [{cars['id']}]" and step.valid
    assert step.raw.startswith("click at (")
    assert step.info == {"input": "human", "marks_shown": True}
    assert session.observation.info["url"].endswith("category=cars")
    assert view.chrome.address.text().endswith("category=cars")
    assert view.hud.actions_left.text() == "29"
    [row] = recorded(window, session)
    assert (row.action, row.valid, row.raw) == (step.action, True, step.raw)
    assert row.info["input"] == "human" and row.frame is not None


def test_a_click_on_empty_space_is_a_marked_coordinate_click(window, qtbot):
    session = start_task(qtbot, window, 0)
    view = window.play_place.view("browser")
    px, py = click_page(qtbot, view, 20, 300)  # the margin beside the banner: no element
    steps_done(qtbot, view, 1)
    step = session.steps[0]
    assert step.action == f"click_at [{round(px)}] [{round(py)}]" and step.valid
    assert step.info["coordinate_click"] is True
    assert recorded(window, session)[0].info["coordinate_click"] is True
    assert view.hud.actions_left.text() == "29"


def test_typing_then_enter_is_one_type_action(window, qtbot):
    session = start_task(qtbot, window, 0)
    view = window.play_place.view("browser")
    search = element(view, "INPUT", "Search listings")
    click_element(qtbot, view, search)
    qtbot.keyClicks(view.page.canvas, "red ")
    QApplication.clipboard().setText("lamx")
    qtbot.keyClick(view.page.canvas, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(view.page.canvas, Qt.Key.Key_Backspace)
    qtbot.keyClick(view.page.canvas, Qt.Key.Key_P)
    qtbot.waitUntil(lambda: view.page.canvas.typing == (tuple(search["box"]), "red lamp"))
    assert session.steps == [] and view.hud.actions_left.text() == "30"  # nothing sent yet
    qtbot.keyClick(view.page.canvas, Qt.Key.Key_Return)
    steps_done(qtbot, view, 1)
    assert [s.action for s in session.steps] == [f"type [{search['id']}] [red lamp]"]
    assert session.steps[0].raw == "typed 'red lamp', then Enter"
    assert "q=red+lamp" in session.observation.info["url"]
    assert view.page.canvas.typing is None
    assert [s.action for s in recorded(window, session)] == [s.action for s in session.steps]


def test_scroll_back_keys_tabs_and_the_answer_box(window, qtbot):
    session = start_task(qtbot, window, 0)
    view = window.play_place.view("browser")
    wheel(view, 1)
    steps_done(qtbot, view, 1)
    click_element(qtbot, view, element(view, "A", "Cars"))
    steps_done(qtbot, view, 2)
    qtbot.mouseClick(view.chrome.back_button, Qt.MouseButton.LeftButton)
    steps_done(qtbot, view, 3)
    assert not session.observation.info["url"].endswith("cars")
    qtbot.keyClick(view.page.canvas, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    steps_done(qtbot, view, 4)
    qtbot.mouseClick(view.chrome.new_button, Qt.MouseButton.LeftButton)
    steps_done(qtbot, view, 5)
    assert view.chrome.tabs.count() == 2 and view.chrome.tabs.currentIndex() == 1
    view.chrome.tabs.tabBarClicked.emit(0)  # a click on the first tab
    steps_done(qtbot, view, 6)
    assert view.chrome.tabs.currentIndex() == 0
    view.answer.setText(" $115 ")
    qtbot.mouseClick(view.answer_button, Qt.MouseButton.LeftButton)
    box = confirm_box(qtbot)  # "Answer and finish" asks first
    assert "stop [$115]" in box.text() and session.result is None
    qtbot.mouseClick(box.findChild(QPushButton, "confirm_yes"), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: session.result is not None, timeout=TIMEOUT)
    actions = ["scroll [down]", f"click [{element(view, 'A', 'Cars')['id']}]", "go_back",
               "press [Control+a]", "new_tab", "tab_focus [0]", "stop [$115]"]
    assert [s.action for s in session.steps] == actions
    assert all(s.valid for s in session.steps)
    assert [s.action for s in recorded(window, session)] == actions
    assert session.result.end_reason == "stopped" and session.result.scores["score"] == 1.0
    assert view.hud.actions_left.text() == str(30 - len(actions))
    assert "$115" in view.banner_text.text() and view.banner.isVisible()
    row = window.state.store.episode(session.episode_id)
    assert (row.episode.status, row.participant.kind) == ("done", "human")


def test_invalid_actions_are_recorded_and_counted(window, qtbot):
    session = start_task(qtbot, window, 0, setting="vwa:text")
    view = window.play_place.view("browser")
    assert not view.marks.isChecked()  # the text-only model sees no boxes
    view.typed.setText("click [999]")
    qtbot.keyClick(view.typed, Qt.Key.Key_Return)
    steps_done(qtbot, view, 1)
    view.typed.setText("jump [3]")
    qtbot.keyClick(view.typed, Qt.Key.Key_Return)
    steps_done(qtbot, view, 2)
    missing, unknown = session.steps
    assert (missing.action, missing.valid, missing.invalid_kind) == ("click [999]", False,
                                                                     "illegal")
    assert "no element [999]" in missing.invalid_reason
    assert missing.info == {"input": "human", "marks_shown": False}
    assert (unknown.action, unknown.valid, unknown.invalid_kind) == (None, False,
                                                                     "not_in_vocabulary")
    assert view.hud.actions_left.text() == "28"
    assert "invalid" in view.hud.feedback.text()
    rows = recorded(window, session)
    assert [(r.valid, r.invalid_kind) for r in rows] == [(False, "illegal"),
                                                         (False, "not_in_vocabulary")]


def test_the_answer_box_stays_put_and_ending_the_task_asks_first(window, qtbot):
    session = start_task(qtbot, window, 0, setting="vwa:text")
    view = window.play_place.view("browser")
    page = view.answer.window()

    def where(w) -> tuple[int, int, int, int]:
        g = w.geometry()
        top = w.mapTo(page, g.topLeft() - w.pos())
        return top.x(), top.y(), g.width(), g.height()
    before = where(view.answer), where(view.answer_button), where(view.typed)
    view.typed.setText("click [999]")
    qtbot.keyClick(view.typed, Qt.Key.Key_Return)
    steps_done(qtbot, view, 1)
    assert "invalid" in view.hud.feedback.text() and view.hud.feedback.height() > 0
    # The invalid-step message is shown; the answer box, its button and the action field
    # did not move, so a click aimed at the answer box lands in it.
    assert (where(view.answer), where(view.answer_button), where(view.typed)) == before
    x, y, w, h = before[0]
    qtbot.mouseClick(page, Qt.MouseButton.LeftButton, pos=QPoint(x + w // 2, y + h // 2))
    assert page.childAt(QPoint(x + w // 2, y + h // 2)) is view.answer

    # An empty answer sent with Enter asks first; Cancel keeps the task going.
    view.answer.clear()
    qtbot.keyClick(view.answer, Qt.Key.Key_Return)
    box = confirm_box(qtbot)
    assert "empty" in box.text() and session.result is None
    qtbot.mouseClick(box.button(box.StandardButton.Cancel), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not box.isVisible())
    # Give up asks too: Cancel gives the keys back to the page ...
    view.page.canvas.setFocus()
    qtbot.mouseClick(view.give_up, Qt.MouseButton.LeftButton)
    box = confirm_box(qtbot)
    qtbot.mouseClick(box.button(box.StandardButton.Cancel), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not box.isVisible())
    assert view.give_up.focusPolicy() == Qt.FocusPolicy.NoFocus
    qtbot.waitUntil(lambda: QApplication.focusWidget() is view.page.canvas)
    # ... going ahead ends the task as given up, with its one step kept.
    qtbot.mouseClick(view.give_up, Qt.MouseButton.LeftButton)
    box = confirm_box(qtbot)
    assert "Give up" in box.windowTitle() and session.result is None
    assert len(session.steps) == 1
    qtbot.mouseClick(box.findChild(QPushButton, "confirm_yes"), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: session.result is not None, timeout=TIMEOUT)
    assert session.result.end_reason == "gave_up"
    assert [s.action for s in recorded(window, session)] == ["click [999]"]
    assert not view.give_up.isEnabled() and not view.answer_button.isEnabled()


def test_a_list_choice_comes_from_a_menu(window, qtbot):
    session = start_task(qtbot, window, 0)
    view = window.play_place.view("browser")
    select = element(view, "SELECT", "All categories")
    click_element(qtbot, view, select)
    qtbot.waitUntil(lambda: view.menu is not None and view.menu.isVisible())
    choice = next(a for a in view.menu.actions() if a.text() == "Cars")
    choice.trigger()
    steps_done(qtbot, view, 1)
    assert session.steps[0].action == f"type [{select['id']}] [Cars] [0]"
    assert session.steps[0].valid


def test_closing_mid_episode_leaves_it_interrupted(window, qtbot):
    session = start_task(qtbot, window, 0)
    view = window.play_place.view("browser")
    click_element(qtbot, view, element(view, "A", "Cars"))
    steps_done(qtbot, view, 1)
    store, episode_id = window.state.store, session.episode_id
    url = window.state.db_url
    close_window(qtbot, window)
    assert session.result is not None and session.result.status == "interrupted"
    from playbench.db.engine import open_database
    from playbench.db.store import Store
    again = Store(open_database(url))
    try:
        row = again.episode(episode_id)
        assert (row.episode.status, row.episode.n_steps) == ("interrupted", 1)
        assert [s.action for s in again.steps(episode_id)] == [session.steps[0].action]
    finally:
        again.db.dispose()
    assert store is not None


def test_starting_another_web_task_while_one_runs_asks_first(window, qtbot):
    """As on the Play tab: a person's running web task is never stopped without asking."""
    first = start_task(qtbot, window, 0)
    view = window.play_place.view("browser")
    click_element(qtbot, view, element(view, "A", "Cars"))
    steps_done(qtbot, view, 1)
    panel = window.library.panel("web")
    panel.select_task(1)
    qtbot.mouseClick(panel.play, Qt.MouseButton.LeftButton)
    box = confirm_box(qtbot)
    assert "stops it" in box.text()
    qtbot.mouseClick(box.button(box.StandardButton.Cancel), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not box.isVisible(), timeout=5000)
    assert view.session is first and first.result is None

    qtbot.mouseClick(panel.play, Qt.MouseButton.LeftButton)
    box = confirm_box(qtbot)
    qtbot.mouseClick(box.findChild(QPushButton, "confirm_yes"), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.session is not first and view.session.episode_id != 0,
                    timeout=TIMEOUT)
    assert first.result is not None and first.result.status == "interrupted"
    assert view.session.task.level.number != first.task.level.number


def test_human_and_model_episodes_side_by_side(window, qtbot):
    # The person solves task 0 in the pane ...
    human = start_task(qtbot, window, 0)
    view = window.play_place.view("browser")
    search = element(view, "INPUT", "Search listings")
    click_element(qtbot, view, search)
    qtbot.keyClicks(view.page.canvas, "Solid road bike")
    qtbot.keyClick(view.page.canvas, Qt.Key.Key_Return)
    steps_done(qtbot, view, 1)
    view.answer.setText("$115")
    qtbot.keyClick(view.answer, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: human.result is not None, timeout=TIMEOUT)
    assert human.result.scores["score"] == 1.0
    # ... the offline demo model plays it in the demo view, page frames shown ...
    model = start_task(qtbot, window, 0, player="model:demo")
    demo = window.demo
    assert demo.board is demo.page and demo.stack.currentWidget() is not demo.board_widget
    qtbot.waitUntil(lambda: model.result is not None, timeout=60000)
    assert model.result.scores["score"] == 1.0
    assert demo.page.canvas.image is not None and demo.page.canvas.image.height() == 2048
    assert "127.0.0.1" in demo.url.text()
    assert [s.action for s in model.steps] == [s.action for s in human.steps]
    # ... the episode viewer shows the web episode's recorded screenshots ...
    window.show_episode(human.episode_id)
    viewer = window.episodes
    qtbot.waitUntil(lambda: viewer.record is not None and viewer.record.id == human.episode_id
                    and viewer.frame_shown == viewer.record.frame_hash(len(human.steps)),
                    timeout=TIMEOUT)
    assert viewer.board.frame_size is not None and viewer.board.frame_size.height() == 2048
    assert viewer.step_action.text() == "stop [$115]"
    readable(qtbot, viewer.board, lambda: viewer.zoomed)
    # ... and the Compare view puts both side by side on one scrubber.
    compare = window.compare
    window.show_page(compare)
    qtbot.waitUntil(lambda: compare.loading is not None and compare.loading.done(),
                    timeout=TIMEOUT)
    task_id = window.state.store.episode(human.episode_id).task.id
    compare.select_task(task_id)
    qtbot.waitUntil(lambda: compare.loading.done() and compare.comparison is not None
                    and len(compare.lanes) == 2, timeout=TIMEOUT)
    kinds = sorted(lane.kind for lane in compare.comparison.lanes)
    assert kinds == ["human", "model"]
    assert {lane.episode_id for lane in compare.comparison.lanes} == {human.episode_id,
                                                                      model.episode_id}
    compare.slider.setValue(0)
    qtbot.waitUntil(lambda: all(w.shown == w.lane.frame_at(0) for w in compare.lanes),
                    timeout=TIMEOUT)
    assert all(w.lane.frame_at(0) is not None for w in compare.lanes)
    for lane in compare.lanes:
        readable(qtbot, lane.board, lambda lane=lane: lane.zoomed)


def readable(qtbot, board, zoomed) -> None:
    """The page shot is drawn shrunk in ``board``; a click opens it at a readable size:
    fitted to a window's width (scrolling down the page), then at 100 %."""
    image = board.image
    assert image is not None and image.width() == 1280
    drawn = board.target_rect().width()
    assert drawn < 0.6 * image.width()   # what made the text unreadable
    qtbot.mouseClick(board, Qt.MouseButton.LeftButton, pos=board.rect().center())
    qtbot.waitUntil(lambda: zoomed() is not None and zoomed().isVisible())
    dialog = zoomed()
    picture = dialog.picture.pixmap()
    assert dialog.zoom.currentText() == "Fit width"
    assert picture.width() >= 1.5 * drawn
    assert picture.width() <= dialog.scroll_area.viewport().width()
    assert picture.height() > dialog.scroll_area.viewport().height()       # scrolls down the page
    dialog.zoom.setCurrentIndex(dialog.zoom.findText("100 %"))
    assert (dialog.picture.pixmap().width(), dialog.picture.pixmap().height()) == (
        image.width(), image.height())
    dialog.close()


def test_ctrl_q_in_the_browser_pane_closes_the_window_and_keeps_the_steps(window, qtbot):
    """Ctrl+Q with the page focused is the app's Quit, not a key sent to the page: the
    window closes as with its close button and the web episode's steps are kept."""
    session = start_task(qtbot, window, 1)
    view = window.play_place.view("browser")
    wheel(view, 1)
    steps_done(qtbot, view, 1)
    view.page.canvas.setFocus()
    store = window.state.store
    with qtbot.waitSignal(window.closed, timeout=TIMEOUT):
        qtbot.keyClick(view.page.canvas, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
    row = store.episode(session.episode_id)
    assert row.episode.status == "interrupted" and len(store.steps(session.episode_id)) == 1
    assert not any(s.action.startswith("press") for s in store.steps(session.episode_id))
