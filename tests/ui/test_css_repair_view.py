"""The CSS repair tab with real Chromium: a person picks an element, finds its rules, reads
one, edits a property, reverts, edits again and says it is fixed, all with mouse and keyboard
events; every step lands in the database as the tool call a model would make, counted against
the same ten rounds, and the episode is scored by SSIM as VAB-CSS scores it.
One Chromium serves the module; the test waits on the app's own state, never on time.
"""

from __future__ import annotations

import asyncio
import time

import pytest
from PySide6.QtCore import QEventLoop, Qt

from playbench.app.ui.models.web_session import WebRuntime
from playbench.app.ui.web_runtime import use_runtime
from playbench.games.browser.browser import Browser

pytestmark = pytest.mark.browser

TIMEOUT = 60000


def _playwright_task(task: asyncio.Task) -> bool:
    coro = task.get_coro()
    code = getattr(coro, "cr_code", None) or getattr(coro, "gi_code", None)
    return code is not None and "playwright" in code.co_filename


@pytest.fixture(scope="module")
def shared(qloop, qapp):
    """One Chromium (started by the first render) for the module."""
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
def aloop(qloop, qtbot, shared):
    """The conftest's loop, except that Playwright's own tasks keep running between tests
    (as in test_browser_pane)."""
    asyncio.set_event_loop(qloop)
    asyncio.events._set_running_loop(qloop)
    yield qloop
    pending = [t for t in asyncio.all_tasks(qloop) if not t.done() and not _playwright_task(t)]
    for t in pending:
        t.cancel()
    qtbot.waitUntil(lambda: all(t.done() for t in pending), timeout=10000)


def click(qtbot, button) -> None:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def choose(qtbot, listing, text: str) -> None:
    """Click the row of ``listing`` whose text is ``text``."""
    item = next(listing.item(i) for i in range(listing.count()) if listing.item(i).text() == text)
    listing.scrollToItem(item)
    qtbot.mouseClick(listing.viewport(), Qt.MouseButton.LeftButton,
                     pos=listing.visualItemRect(item).center())
    assert listing.currentItem() is item


def ready(qtbot, view, steps: int) -> None:
    """Until ``steps`` steps are recorded and the view takes input again."""
    qtbot.waitUntil(lambda: len(view.session.steps) >= steps and (
        view.find_rules.isEnabled() or view.session.result is not None), timeout=TIMEOUT)


@pytest.mark.smoke
def test_a_person_repairs_the_css_with_the_models_tools(qtbot, make_window, shared):
    window = make_window()
    window.resize(1280, 800)
    use_runtime(window.ctx, WebRuntime(shared))
    lib = window.library
    lib.select("css-repair")
    panel = next(p for p in lib.panels if p.kind.name == "css-repair")
    qtbot.waitUntil(lambda: bool(panel.rows), timeout=TIMEOUT)
    panel.select_task(1)  # bakery: the top bar's display: flex became block
    panel.player.setCurrentIndex(panel.player.findData("human"))
    panel.setting.setCurrentIndex(panel.setting.findData("default"))
    click(qtbot, panel.play)
    view = window.play_place.view("css")
    qtbot.waitUntil(lambda: view.session is not None and view.find_rules.isEnabled(),
                    timeout=TIMEOUT)
    assert window.current_page() is view
    assert view.model.start_ssim < 0.8
    assert view.picture.pixmap() is not None and not view.picture.pixmap().isNull()

    choose(qtbot, view.elements, "header.top")
    click(qtbot, view.find_rules)
    ready(qtbot, view, 1)
    assert ".top" in [view.selectors.item(i).text() for i in range(view.selectors.count())]
    choose(qtbot, view.selectors, ".top")
    click(qtbot, view.show_rule)
    ready(qtbot, view, 2)
    assert "display: block;" in view.rule.toPlainText()

    qtbot.keyClicks(view.prop, "display")
    qtbot.keyClicks(view.value, "grid")
    click(qtbot, view.apply)
    ready(qtbot, view, 3)
    worse = view.model.ssim
    click(qtbot, view.revert)
    ready(qtbot, view, 4)
    view.value.clear()
    qtbot.keyClicks(view.value, "flex")
    qtbot.keyClick(view.value, Qt.Key.Key_Return)
    ready(qtbot, view, 5)
    assert view.model.ssim > 0.9 and view.model.ssim > worse
    assert "display: flex;" in view.rule.toPlainText()
    click(qtbot, view.done)
    qtbot.waitUntil(lambda: view.session.result is not None, timeout=TIMEOUT)

    session = view.session
    assert session.result.scores["solved"] == 1.0 and session.result.scores["improved"] == 1.0
    stored = window.state.store.steps(session.episode_id)
    assert [s.action for s in stored] == [
        'get_selectors_by_html_elements("header.top")',
        'select_rule(".top")',
        'edit_rule(".top", "display", "grid")',
        "revert_last_edit()",
        'edit_rule(".top", "display", "flex")',
        "fixed()",
    ]
    assert all(s.valid for s in stored)
    assert session.budget.max_actions == 10
    assert view.view_episode_button.isVisible()


def test_a_stopped_repair_resumes_in_the_css_repair_tab(qtbot, make_window, shared):
    """A person's stopped CSS repair resumes from Episodes in the CSS repair tab (not the
    board Play tab): the recorded edit is re-applied, so the page already matches, one of ten
    rounds is used, and saying it is fixed ends the episode solved."""
    window = make_window()
    window.resize(1280, 800)
    use_runtime(window.ctx, WebRuntime(shared))
    lib = window.library
    lib.select("css-repair")
    panel = next(p for p in lib.panels if p.kind.name == "css-repair")
    qtbot.waitUntil(lambda: bool(panel.rows), timeout=TIMEOUT)
    panel.select_task(1)  # bakery: the top bar's display: flex became block
    panel.player.setCurrentIndex(panel.player.findData("human"))
    click(qtbot, panel.play)
    view = window.play_place.view("css")
    qtbot.waitUntil(lambda: view.session is not None and view.find_rules.isEnabled(),
                    timeout=TIMEOUT)
    choose(qtbot, view.elements, "header.top")
    click(qtbot, view.find_rules)
    ready(qtbot, view, 1)
    choose(qtbot, view.selectors, ".top")
    qtbot.keyClicks(view.prop, "display")
    qtbot.keyClicks(view.value, "flex")
    click(qtbot, view.apply)
    ready(qtbot, view, 2)
    first = view.session
    episode_id = first.episode_id
    view.stop()
    qtbot.waitUntil(lambda: first.result is not None, timeout=TIMEOUT)
    assert window.state.store.episode(episode_id).episode.status == "interrupted"

    window.show_episode(episode_id)
    viewer = window.episodes
    qtbot.waitUntil(lambda: viewer.record is not None and viewer.record.id == episode_id,
                    timeout=TIMEOUT)
    assert viewer.resume.isVisible()
    click(qtbot, viewer.resume)
    qtbot.waitUntil(lambda: view.session is not first and view.session is not None
                    and view.find_rules.isEnabled(), timeout=TIMEOUT)
    assert window.current_page() is view
    assert view.session.episode_id == episode_id and len(view.session.steps) == 2
    assert view.model.ssim > 0.9  # the recorded edit was applied again
    assert first.env.browser is shared  # both runs on the window's one Chromium
    assert view.session.env.browser is shared
    click(qtbot, view.done)
    qtbot.waitUntil(lambda: view.session.result is not None, timeout=TIMEOUT)
    assert view.session.result.scores["solved"] == 1.0
    stored = window.state.store.steps(episode_id)
    assert [s.action for s in stored] == [
        'get_selectors_by_html_elements("header.top")',
        'edit_rule(".top", "display", "flex")',
        "fixed()",
    ]


def test_a_blind_study_task_on_the_css_surface_is_played_in_the_app(
        qtbot, make_window, shared, tmp_path):
    """A study whose task is a CSS repair is played in the app on the CSS surface (study
    tasks used to open on the board only), on the window's one Chromium; the blind study's
    end shows no score, the way on is the study's next task, and the episode is the study's."""
    from playbench.app.ui.models.study_run import StudySession
    from tests.studies.helpers import study_yaml
    from tests.ui.test_studies_view import create_study, open_studies

    path = study_yaml(tmp_path, name="css-pilot", order="fixed", blind=True, practice=[],
                      tasks=[{"game": "css-repair", "levels": "css-repair:1"},
                             {"game": "sokoban", "levels": "rooms.xsb:1"}])
    window = make_window()
    window.resize(1280, 800)
    use_runtime(window.ctx, WebRuntime(shared))
    create_study(qtbot, window, path)
    studies = open_studies(qtbot, window, "css-pilot")
    click(qtbot, studies.next_button)
    view = window.play_place.view("css")
    qtbot.waitUntil(lambda: isinstance(view.session, StudySession)
                    and view.find_rules.isEnabled(), timeout=TIMEOUT)
    assert window.current_page() is view
    assert view.title.text().startswith("css-pilot · task t1 (scored) · CSS repair")
    session = view.session
    assert session.env.browser is shared  # the window's Chromium, not one of its own
    click(qtbot, view.done)
    qtbot.waitUntil(lambda: session.result is not None and view.banner.isVisible(),
                    timeout=TIMEOUT)
    assert "shows no scores" in view.banner.text.text()
    assert view.status.text() == view.banner.text.text()
    assert "SSIM" not in view.status.text() and not view.banner.view_button.isVisible()
    assert view.banner.next_button.isVisible()
    assert view.banner.next_button.text() == "Next task"
    row = window.state.store.episode(session.episode_id)
    assert row.episode.study_id is not None and row.episode.meta["study_task"] == "t1"
    assert [s.action for s in window.state.store.steps(session.episode_id)] == ["fixed()"]

    # the way on opens the study's next task on its own surface (the board)
    click(qtbot, view.banner.next_button)
    board = window.play_place.view("board")
    qtbot.waitUntil(lambda: isinstance(board.session, StudySession)
                    and board.session.item.key == "t2", timeout=TIMEOUT)
    assert window.current_page() is board
