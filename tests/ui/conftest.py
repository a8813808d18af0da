"""Desktop UI tests: real widgets (offscreen), a real SQLite file, one qasync loop.

The loop is created once, already running on the Qt thread, so the coroutines the app starts
advance whenever Qt processes events - in particular inside ``qtbot.waitUntil``. Tests never
sleep to pass: they wait on conditions.
"""

from __future__ import annotations

import asyncio
import json

import pytest

from playbench.app.ui.models.app_state import AppState
from playbench.app.ui.models.prefs import Prefs, PrefsStore
from tests.ui.helpers import close_window

ANNOTATOR = "ann-test"


@pytest.fixture(scope="session")
def qloop(qapp):
    import qasync

    from playbench.app.ui.style import apply_style
    apply_style(qapp)
    qapp.setQuitOnLastWindowClosed(False)
    loop = qasync.QEventLoop(qapp, already_running=True)
    asyncio.events._set_running_loop(None)  # marked running only inside UI tests (aloop)
    yield loop


@pytest.fixture
def aloop(qloop, qtbot):
    """The shared loop, running on the Qt thread for this test; tasks a test leaves behind
    are cancelled and awaited afterwards, and the loop is unmarked so that other tests can
    use ``asyncio.run``."""
    asyncio.set_event_loop(qloop)
    asyncio.events._set_running_loop(qloop)
    try:
        yield qloop
        pending = [t for t in asyncio.all_tasks(qloop) if not t.done()]
        for t in pending:
            t.cancel()
        qtbot.waitUntil(lambda: all(t.done() for t in pending), timeout=10000)
    finally:
        asyncio.events._set_running_loop(None)
        asyncio.set_event_loop(None)


@pytest.fixture
def config_dir(tmp_path, monkeypatch):
    """A private config directory with the annotator already chosen."""
    d = tmp_path / "config"
    d.mkdir()
    monkeypatch.setenv("PLAYBENCH_CONFIG_DIR", str(d))
    monkeypatch.delenv("PLAYBENCH_DB", raising=False)
    PrefsStore(d).save(Prefs(annotator=ANNOTATOR))
    return d


def add_profile(config_dir, name: str, **data) -> None:
    path = config_dir / "models.json"
    stored = json.loads(path.read_text())["profiles"] if path.exists() else {}
    stored[name] = data
    path.write_text(json.dumps({"version": 1, "profiles": stored}))


@pytest.fixture
def make_window(qtbot, aloop, config_dir, db_url):
    """Build main windows over the test database; each is closed (and its database
    released) at the end of the test."""
    from playbench.app.ui.main import build
    made = []

    def make(url: str | None = None, show_prompts: bool = False):
        window, state = build(AppState(PrefsStore(config_dir), db_url=url or db_url))
        window.show()
        if show_prompts:
            window.after_show()
        made.append(window)
        return window

    yield make
    for w in made:
        close_window(qtbot, w)
        w.deleteLater()
