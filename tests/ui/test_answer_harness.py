"""A person answers an outside harness through the real app: the "Answer a harness" tab starts
serve-human on 127.0.0.1, the example harness (``docs/examples/harness.py``, only the official
openai client) runs against it in a thread as a separate program would, and the person reads
the request (the picture shown, the tool offered) and answers with a tool call built in the
form, then in text. Everything lands in the app's database as one episode. Two harnesses
calling at once queue oldest first."""

from __future__ import annotations

import importlib.util
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QComboBox

from tests.ui.conftest import ANNOTATOR

ROOT = Path(__file__).resolve().parents[2]


def load_harness() -> Any:
    spec = importlib.util.spec_from_file_location("example_harness_ui",
                                                  ROOT / "docs/examples/harness.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["example_harness_ui"] = module
    spec.loader.exec_module(module)
    return module


HARNESS = load_harness()


class HarnessThread(threading.Thread):
    """The example harness run once, in its own thread (it blocks on HTTP)."""

    def __init__(self, url: str, colour: str, task: str) -> None:
        super().__init__(daemon=True, name=f"harness-{task}")
        self.url, self.colour, self.task = url, colour, task
        self.outcome: Any = None
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self.outcome = HARNESS.run(self.url, colour=self.colour, task=self.task,
                                       timeout=60)
        except BaseException as err:  # noqa: BLE001 - reported by the test
            self.error = err


def started(qtbot, window):
    """Open the tab and press Start endpoint; returns the view once it listens."""
    view = window.models.answer
    window.show_page(view)
    assert view.port.value() == 8766  # serve-human's default port
    view.port.setValue(0)  # any free port: tests run beside other servers
    qtbot.mouseClick(view.start_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(view.url.text()), timeout=10000)
    return view


def wait_for(qtbot, view, task: str, n: int = 1):
    """Until a request of ``task`` is shown in the queue (``n`` requests waiting)."""
    qtbot.waitUntil(lambda: view.list.count() == n and any(
        task in view.list.item(i).text() for i in range(n)), timeout=20000)


def test_a_person_answers_the_example_harness_in_the_view(make_window, qtbot):
    window = make_window()
    view = started(qtbot, window)
    url = view.url.text()
    assert url.startswith("http://127.0.0.1:") and url.endswith("/v1")
    assert not view.start_button.isEnabled() and view.stop_button.isEnabled()
    qtbot.mouseClick(view.copy, Qt.MouseButton.LeftButton)
    assert QApplication.clipboard().text() == url

    harness = HarnessThread(url, "green", "t-green")
    harness.start()
    wait_for(qtbot, view, "t-green")
    request = view.compose.request
    assert request is not None and request.harness == "example-harness"
    pane = view.request_pane
    qtbot.waitUntil(lambda: bool(pane.thumbs) and pane.thumbs[0].image is not None,
                    timeout=10000)
    assert pane.images[0].width() == 96 and not pane.thumbs[0].pixmap().isNull()
    middle = pane.images[0].pixelColor(48, 48)
    assert (middle.red(), middle.green(), middle.blue()) == HARNESS.COLOURS["green"]
    shown_text = " ".join(label.text() for label in pane.widget().findChildren(
        type(view.count)))
    assert "You look at pictures" in shown_text  # the system prompt
    assert "What colour is the square" in shown_text and "answer(colour, sure)" in shown_text

    compose = view.compose
    compose.modes.setCurrentIndex(1)
    assert compose.tool.currentText() == "answer"
    qtbot.mouseClick(compose.send, Qt.MouseButton.LeftButton)  # nothing chosen yet
    assert "colour: required" in compose.problems.text() and not request.done
    colour = compose.form_view.editors["colour"]
    assert isinstance(colour, QComboBox)
    colour.setCurrentIndex(colour.findText("green"))
    sure = compose.form_view.editors["sure"]
    sure.setCurrentIndex(sure.findText("true"))
    qtbot.mouseClick(compose.send, Qt.MouseButton.LeftButton)
    assert request.done and request.think_ms() is not None

    qtbot.waitUntil(lambda: view.compose.request is not None
                    and view.compose.request is not request, timeout=20000)
    second = view.compose.request
    assert second.tools == () and not compose.modes.isTabEnabled(1)
    qtbot.keyClicks(compose.text, "a clean green square")
    qtbot.mouseClick(compose.send, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not harness.is_alive(), timeout=20000)
    assert harness.error is None, harness.error
    outcome = harness.outcome
    assert outcome.guess == "green" and outcome.correct
    assert outcome.remark == "a clean green square"

    store = window.state.store
    episode_id = outcome.report["episode"]
    qtbot.waitUntil(lambda: store.episode(episode_id).episode.status == "done",
                    timeout=20000)
    row = store.episode(episode_id)
    steps = store.steps(episode_id)
    assert row.participant.kind == "human" and row.participant.name == ANNOTATOR
    assert row.episode.meta["via"] == "serve-human"
    assert [s.action for s in steps] == ['answer {"colour": "green", "sure": true}',
                                         "a clean green square"]
    assert all(s.valid and s.think_ms > 0 for s in steps)
    assert steps[0].info["answer_ms"] == round(request.think_ms(), 3)
    assert row.scores["score"] == 1.0

    qtbot.mouseClick(view.stop_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.url.text() == "" and view.start_button.isEnabled(),
                    timeout=10000)
    try:
        urllib.request.urlopen(url + "/models", timeout=2).close()
        listening = True
    except (urllib.error.URLError, OSError):
        listening = False
    assert not listening


def test_two_harnesses_at_once_queue_oldest_first(make_window, qtbot):
    window = make_window()
    view = started(qtbot, window)
    url = view.url.text()
    first = HarnessThread(url, "red", "t-first")
    first.start()
    wait_for(qtbot, view, "t-first")
    second = HarnessThread(url, "blue", "t-second")
    second.start()
    wait_for(qtbot, view, "t-second", n=2)
    rows = [view.list.item(i).text() for i in range(2)]
    assert "task t-first" in rows[0] and "task t-second" in rows[1]
    window.show_page(window.library)  # the places' titles say requests wait
    assert window.tabs.tabText(window.tabs.indexOf(window.models)) == "Models (2)"
    assert window.models.tabText(window.models.indexOf(view)) == "Answer a harness (2)"
    window.show_page(view)
    older = view.compose.request
    assert older.task_id == "t-first"  # the oldest is shown first

    # Answer the newer one first: pick it in the list, the older stays queued.
    view.list.setCurrentRow(1)
    assert view.compose.request.task_id == "t-second"
    qtbot.keyClicks(view.compose.text, "blue")
    qtbot.mouseClick(view.compose.send, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.list.count() >= 1 and "t-first" in view.list.item(0).text(),
                    timeout=10000)

    def answer_next(text: str) -> None:
        qtbot.waitUntil(lambda: view.compose.request is not None
                        and not view.compose.request.done, timeout=20000)
        view.compose.modes.setCurrentIndex(0)
        view.compose.text.setPlainText(text)
        qtbot.mouseClick(view.compose.send, Qt.MouseButton.LeftButton)

    # Whatever is shown is the oldest still waiting: t-first, then the follow-ups.
    assert view.compose.request is older
    answer_next("red")
    answer_next("fine")
    answer_next("fine")
    qtbot.waitUntil(lambda: not first.is_alive() and not second.is_alive(), timeout=20000)
    assert first.error is None and second.error is None
    assert first.outcome.correct and second.outcome.correct
    episodes = {first.outcome.report["episode"], second.outcome.report["episode"]}
    assert len(episodes) == 2
