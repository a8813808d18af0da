"""The Code tab with real Chromium: a person types a page into the editor (qtbot key events),
sees a live render only in Online, submits with the button, and the submission is recorded and
scored by AES like a model's. In Global nothing is rendered before the submission, which ends
the episode (budget 1). The test waits on the app's own state, never on time."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from playbench.app.ui.models.catalog import PackRef
from playbench.app.ui.models.start import StartRequest
from playbench.db.engine import open_database
from playbench.db.store import Store
from playbench.games.coding.fences import page_files
from playbench.games.webui.kind import SETTINGS
from playbench.games.webui.tasks import load_levels, task_of
from tests.ui.helpers import close_window

pytestmark = pytest.mark.browser

TIMEOUT = 90000
LEVELS = tuple(load_levels("webui"))
INDEX = next(i for i, lv in enumerate(LEVELS) if lv.meta["id"] == "form-01")


def request(setting: str) -> StartRequest:
    pack = PackRef("webui", "webui", "webui", True)
    return StartRequest(pack, LEVELS, INDEX, "human", setting, SETTINGS[setting].budget)


def type_page(qtbot, view, files: dict[str, str]) -> None:
    for name, text in files.items():
        editor = view.editor.editors[name]
        view.editor.tabs.setCurrentWidget(editor)
        editor.setFocus()
        for i, line in enumerate(text.split("\n")):
            if i:
                qtbot.keyClick(editor, Qt.Key.Key_Return)
            if line:
                qtbot.keyClicks(editor, line)


@pytest.mark.smoke
@pytest.mark.parametrize("setting", ["webui:online", "webui:global"])
def test_a_person_types_a_page_and_submits_it(qtbot, make_window, db_url, setting):
    window = make_window()
    window.start(request(setting))
    view = window.play_place.view("code")
    assert window.current_page() is view
    qtbot.waitUntil(lambda: view.submit_button.isEnabled(), timeout=TIMEOUT)
    assert view.targets_layout.count() >= 4  # two captioned target screenshots
    online = setting == "webui:online"
    assert view.right.isVisible() is online
    reference = dict(task_of(LEVELS[INDEX]).reference)
    # First a page that is only half right: the heading and no style sheet.
    type_page(qtbot, view, {"index.html": "<h1>Newsletter sign-up</h1>"})
    assert view.editor.editors["index.html"].code() == "<h1>Newsletter sign-up</h1>"
    if online:
        qtbot.waitUntil(lambda: "Would score" in view.render_note.text(), timeout=TIMEOUT)
        assert view.render_view.pixmap() is not None and not view.render_view.pixmap().isNull()
        assert view.session.budget_use().used == 0  # a live render is not a submission
    else:
        assert not view.timer.isActive() and view.render_note.text() == ""
    view.editor.set_files({})
    type_page(qtbot, view, reference)
    assert page_files(view.answer_text()) == reference
    qtbot.mouseClick(view.submit_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(view.session.steps) == 1, timeout=TIMEOUT)
    qtbot.waitUntil(lambda: view.session.result is not None, timeout=TIMEOUT)
    assert "AES 100.0 %" in view.result.text()
    store = Store(open_database(db_url))
    steps = store.steps(view.session.episode_id)
    assert len(steps) == 1 and steps[0].valid
    assert page_files(steps[0].action) == reference
    assert store.episode(view.session.episode_id).episode.setting == setting


def test_an_interrupted_page_resumes_from_episodes_with_the_last_submission(
        qtbot, make_window, db_url):
    """A person submits a half-right page and closes the app: the episode is interrupted, the
    Episodes list offers Resume, and Resume opens the Code tab with the submitted page in the
    editor, one of five submissions used and its render shown; the next submission goes on
    from there and the episode records both."""
    from playbench.app.ui.models.records import list_episodes

    window = make_window()
    window.start(request("webui:online"))
    view = window.play_place.view("code")
    qtbot.waitUntil(lambda: view.submit_button.isEnabled(), timeout=TIMEOUT)
    first = {"index.html": "<h1>Newsletter sign-up</h1>"}
    type_page(qtbot, view, first)
    qtbot.mouseClick(view.submit_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(view.session.steps) == 1, timeout=TIMEOUT)
    episode_id = view.session.episode_id
    close_window(qtbot, window)                  # closed mid-episode

    window = make_window()
    store = Store(open_database(db_url))
    assert store.episode(episode_id).episode.status == "interrupted"
    summary = next(s for s in list_episodes(store) if s.id == episode_id)
    assert summary.resumable
    viewer = window.episodes
    window.show_episode(episode_id)
    qtbot.waitUntil(lambda: viewer.record is not None and viewer.record.id == episode_id,
                    timeout=TIMEOUT)
    assert viewer.resume.isVisible()
    qtbot.mouseClick(viewer.resume, Qt.MouseButton.LeftButton)
    view = window.play_place.view("code")
    qtbot.waitUntil(lambda: view.session is not None and view.session.episode_id == episode_id,
                    timeout=TIMEOUT)
    assert window.current_page() is view
    qtbot.waitUntil(lambda: view.submit_button.isEnabled(), timeout=TIMEOUT)
    assert view.editor.files()["index.html"] == first["index.html"]
    assert view.budget.text() == f"Submissions: 1 of {SETTINGS['webui:online'].budget.max_actions}"
    assert "Last submission: AES" in view.result.text()
    assert view.render_view.pixmap() is not None and not view.render_view.pixmap().isNull()
    assert view.render_title.text() == "Render of your last submission"
    assert not view.timer.isActive()  # the submitted page is not rendered a second time
    reference = dict(task_of(LEVELS[INDEX]).reference)
    view.editor.set_files(reference)
    qtbot.mouseClick(view.submit_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.session.result is not None, timeout=TIMEOUT)
    assert view.session.result.scores["solved"] == 1.0
    steps = store.steps(episode_id)
    assert [page_files(s.action) for s in steps] == [first, reference]
    row = store.episode(episode_id)
    assert row.episode.status == "done" and row.scores["submissions"] == 2.0
    assert row.scores["aes"] == pytest.approx(1.0) and row.scores["best_aes"] == row.scores["aes"]
