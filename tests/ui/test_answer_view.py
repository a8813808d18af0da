"""The "Answer a harness" view with real widgets (offscreen) over a real request queue: the
queue oldest first, the request shown as the model gets it (system prompt, conversation,
images that open at full size, tools), a tool call built with the generated form, and an
empty or invalid answer refused with a message while nothing is sent."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QLineEdit

from playbench.app.harness.queue import PendingRequest, RequestImage, RequestQueue, ToolSpec
from playbench.app.ui.answer import AnswerView
from playbench.app.ui.frame_zoom import FrameZoom
from playbench.app.ui.models.app_state import AppState
from playbench.app.ui.models.prefs import PrefsStore

CLICK = {"type": "object", "required": ["x", "y", "button"], "properties": {
    "x": {"type": "integer", "description": "column in pixels"},
    "y": {"type": "integer"},
    "button": {"enum": ["left", "right"]},
    "double": {"type": "boolean"},
    "keys": {"type": "array", "items": {"type": "string"}}}}


def png(width: int, height: int, colour: tuple[int, int, int]) -> bytes:
    buf = io.BytesIO()
    Image.fromarray(np.full((height, width, 3), colour, np.uint8)).save(buf, "PNG")
    return buf.getvalue()


def request(harness: str, task: str, *, image: bytes | None = None,
            tools: tuple[ToolSpec, ...] = ()) -> PendingRequest:
    user = [{"type": "text", "text": f"What next in {task}?"}]
    images = ()
    if image is not None:
        user.append({"type": "image_url", "image_url": {"url": "data:image/png;base64,..."}})
        images = (RequestImage(image, "image/png", message=1),)
    return PendingRequest(harness=harness, task_id=task, tools=tools, images=images,
                          messages=[{"role": "system", "content": f"You play {task}."},
                                    {"role": "user", "content": user}])


@pytest.fixture
def view(qtbot, aloop, config_dir, db_url):
    state = AppState(PrefsStore(config_dir), db_url=db_url)
    state.try_open_database()
    v = AnswerView(state, lambda err: pytest.fail(f"reported: {err!r}"))
    qtbot.addWidget(v)
    v.resize(1240, 700)
    v.show()
    yield v
    state.executor.shutdown(wait=True)
    state.store.db.dispose()


def test_requests_wait_oldest_first_and_the_next_is_shown_after_an_answer(qtbot, view):
    queue = RequestQueue()
    view.attach(queue)
    first, second = request("vab", "t-1"), request("gameworld", "t-2")
    queue.put(second)  # put out of order: the queue orders by arrival
    queue.put(first)
    qtbot.waitUntil(lambda: view.list.count() == 2)
    rows = [view.list.item(i).text() for i in range(2)]
    assert "vab · task t-1" in rows[0] and "gameworld · task t-2" in rows[1]
    assert view.compose.request is first and first.shown_monotonic is not None
    assert second.shown_monotonic is None  # never on screen yet: its think time has not begun
    view.compose.text.setPlainText("go left")
    qtbot.mouseClick(view.compose.send, Qt.MouseButton.LeftButton)
    assert first.result(0).text == "go left" and first.think_ms() is not None
    qtbot.waitUntil(lambda: view.list.count() == 1)
    assert view.compose.request is second
    assert "Sent a text reply to request" in view.status.text()


def test_an_empty_or_invalid_answer_says_why_and_sends_nothing(qtbot, view):
    queue = RequestQueue()
    view.attach(queue)
    r = request("vab", "t-1", tools=(ToolSpec("click", "Click a point", CLICK),))
    queue.put(r)
    qtbot.waitUntil(lambda: view.compose.request is r)
    qtbot.mouseClick(view.compose.send, Qt.MouseButton.LeftButton)
    assert "Write an answer first" in view.compose.problems.text()
    view.compose.modes.setCurrentIndex(1)
    qtbot.mouseClick(view.compose.send, Qt.MouseButton.LeftButton)
    text = view.compose.problems.text()
    assert text.startswith("Not sent:")
    for name in ("x", "y", "button"):
        assert f"{name}: required" in text
    editors = view.compose.form_view.editors
    editors["x"].setText("twelve")
    qtbot.mouseClick(view.compose.send, Qt.MouseButton.LeftButton)
    assert "'twelve' is not a whole number" in view.compose.problems.text()
    assert not r.done and view.list.count() == 1 and view.sent == []


def test_a_tool_call_is_built_with_the_form_and_the_image_opens_full_size(qtbot, view):
    queue = RequestQueue()
    view.attach(queue)
    picture = png(900, 500, (30, 140, 90))
    r = request("vab", "t-9", image=picture,
                tools=(ToolSpec("type", "Type text", {"type": "object", "properties": {
                    "text": {"type": "string"}}}), ToolSpec("click", "Click a point", CLICK)))
    queue.put(r)
    pane = view.request_pane
    qtbot.waitUntil(lambda: bool(pane.thumbs) and pane.thumbs[0].image is not None,
                    timeout=10000)
    shown = pane.thumbs[0].pixmap()
    assert not shown.isNull() and shown.width() <= 900
    assert pane.images[0].size().width() == 900 and pane.images[0].height() == 500
    qtbot.mouseClick(pane.thumbs[0], Qt.MouseButton.LeftButton)
    assert isinstance(pane.zoomed, FrameZoom) and pane.zoomed.image.width() == 900
    pane.zoomed.zoom.setCurrentIndex(pane.zoomed.zoom.findData(1.0))
    assert pane.zoomed.picture.pixmap().width() == 900  # full size
    pane.zoomed.close()

    compose = view.compose
    compose.modes.setCurrentIndex(1)
    compose.tool.setCurrentIndex(1)
    editors = compose.form_view.editors
    qtbot.keyClicks(editors["x"], "120")
    qtbot.keyClicks(editors["y"], "48")
    button = editors["button"]
    assert isinstance(button, QComboBox)
    button.setCurrentIndex(button.findText("right"))
    double = editors["double"]
    assert isinstance(double, QComboBox)  # optional boolean: not given / true / false
    double.setCurrentIndex(double.findText("true"))
    keys = editors["keys"]
    qtbot.mouseClick(keys.add, Qt.MouseButton.LeftButton)
    item = keys.rows[0][0].findChild(QLineEdit)
    qtbot.keyClicks(item, "shift")
    qtbot.mouseClick(compose.send, Qt.MouseButton.LeftButton)
    reply = r.result(0)
    assert reply.tool_call is not None and reply.tool_call.name == "click"
    assert dict(reply.tool_call.arguments) == {"x": 120, "y": 48, "button": "right",
                                               "double": True, "keys": ["shift"]}
    assert reply.text == ""


def test_ctrl_return_sends_from_the_answer_box(qtbot, view):
    queue = RequestQueue()
    view.attach(queue)
    r = request("vab", "t-1")
    queue.put(r)
    qtbot.waitUntil(lambda: view.compose.request is r)
    view.activateWindow()
    view.compose.text.setFocus()
    qtbot.waitUntil(view.compose.text.hasFocus)
    qtbot.keyClicks(view.compose.text, "up")
    qtbot.keyClick(view.compose.text, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert r.done and r.result(0).text == "up"
