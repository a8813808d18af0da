"""The "Answer a harness" view: a person is the model of an outside harness.

Left, the requests waiting for an answer, oldest first, each with its harness, task and how
long it has waited; in the middle the selected request as the model would get it
(``playbench.app.ui.answer_request``); right, the answer - text, or a tool call built with a form
from the tool's schema (``playbench.app.ui.answer_compose``). Above them, the endpoint: started and
stopped here on 127.0.0.1, with its port and a base URL to copy into the harness's settings.

The queue (``playbench.app.harness.queue.RequestQueue``) tells the view about changes on
whichever
thread made them; the view re-reads it on its own thread through a queued signal. A request
counts as shown - its think time starts - when it is on screen in this tab; the think time is
measured by the request itself (shown to answered) and recorded with the step.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Protocol

from shiboken6 import isValid

from playbench.app.harness.queue import PendingRequest, Reply, RequestQueue
from playbench.app.ui.answer_compose import ComposePane
from playbench.app.ui.answer_request import RequestPane
from playbench.app.ui.models.answering import choose_next, queue_line
from playbench.app.ui.models.app_state import AppState
from playbench.app.ui.qt import (
    QApplication,
    QHBoxLayout,
    QKeySequence,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QShortcut,
    QSpinBox,
    QSplitter,
    Qt,
    QTimer,
    QVBoxLayout,
    QWidget,
    Signal,
    restyle,
)

TAB_TITLE = "Answer a harness"

DEFAULT_PORT = 8766
"""The port ``playbench serve-human`` listens on by default, so a harness set up for one works
with the other."""


class Endpoint(Protocol):
    """The serve-human endpoint as the view drives it (``playbench.app.ui.models.serving``)."""

    queue: RequestQueue

    @property
    def base_url(self) -> str | None: ...

    async def start(self, port: int) -> str: ...

    async def stop(self) -> None: ...


class AnswerView(QWidget):
    """Queue, request and answer, plus the endpoint's controls."""

    queue_changed = Signal()
    """The queue changed (emitted from any thread; handled on the UI thread)."""
    waiting = Signal(int)
    """How many requests wait now (after each refresh), for the tab's title."""

    def __init__(self, state: AppState, on_error: Callable[[BaseException], None],
                 endpoint_factory: Callable[[], Endpoint] | None = None,
                 ask_annotator: Callable[..., None] | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.on_error = on_error
        self.endpoint_factory = endpoint_factory
        self.ask_annotator = ask_annotator
        """Asks who is answering (then starts) when no annotator is set."""
        self.endpoint: Endpoint | None = None
        self.queue: RequestQueue | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self.current: int | None = None
        self.sent: list[tuple[PendingRequest, Reply]] = []
        """Replies sent from this view, oldest first (what the status line reports)."""

        title = QLabel("Answer a harness")
        title.setObjectName("title")
        intro = QLabel("Be the model of an outside harness: it calls the OpenAI chat API at "
                       "the base URL below, and each of its model calls waits here for you.")
        intro.setObjectName("hint")
        intro.setWordWrap(True)
        self.start_button = QPushButton("Start endpoint")
        self.start_button.setObjectName("primary")
        self.stop_button = QPushButton("Stop")
        self.port = QSpinBox()
        self.port.setRange(0, 65535)
        self.port.setSpecialValueText("any free port")
        self.port.setValue(DEFAULT_PORT)
        self.port.setToolTip("The port on 127.0.0.1 to listen on (as playbench serve-human; "
                             "0: any free port)")
        self.url = QLineEdit()
        self.url.setObjectName("base_url")
        self.url.setReadOnly(True)
        self.url.setPlaceholderText("not listening")
        self.copy = QPushButton("Copy")
        self.copy.setToolTip("Copy the base URL (give it to the harness as its OpenAI base URL)")
        bar = QHBoxLayout()
        bar.addWidget(self.start_button)
        bar.addWidget(self.stop_button)
        bar.addWidget(QLabel("Port:"))
        bar.addWidget(self.port)
        bar.addWidget(QLabel("Base URL:"))
        bar.addWidget(self.url, 1)
        bar.addWidget(self.copy)

        self.count = QLabel("Waiting requests")
        self.count.setObjectName("heading")
        self.list = QListWidget()
        self.list.setObjectName("requests")
        self.list.setWordWrap(True)
        self.list.setSpacing(3)
        self.end_button = QPushButton("End this task's episode")
        self.end_button.setToolTip("End the episode of the selected request's harness and "
                                   "task; its next request starts a new episode")
        left = QWidget()
        lv = QVBoxLayout(left)
        lv.setContentsMargins(0, 0, 0, 0)
        lv.addWidget(self.count)
        lv.addWidget(self.list, 1)
        lv.addWidget(self.end_button)
        self.request_pane = RequestPane(state, on_error)
        self.compose = ComposePane(self._send, self._decline)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(self.request_pane)
        split.addWidget(self.compose)
        split.setStretchFactor(1, 1)
        split.setSizes([250, 560, 430])
        self.status = QLabel("")
        self.status.setTextFormat(Qt.TextFormat.PlainText)  # names a harness chose
        self.status.setObjectName("status_line")
        self.status.setWordWrap(True)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(title)
        layout.addWidget(intro)
        layout.addLayout(bar)
        layout.addWidget(split, 1)
        layout.addWidget(self.status)

        self.start_button.clicked.connect(self.start_endpoint)
        self.stop_button.clicked.connect(self.stop_endpoint)
        self.copy.clicked.connect(self._copy)
        self.list.currentItemChanged.connect(self._picked)
        self.end_button.clicked.connect(self._end_episode)
        self.queue_changed.connect(self.refresh, Qt.ConnectionType.QueuedConnection)
        send = QShortcut(QKeySequence("Ctrl+Return"), self)
        send.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)  # this tab only
        send.activated.connect(self.compose.submit)
        self.timer = QTimer(self)
        self.timer.setInterval(1000)
        self.timer.timeout.connect(self._tick)
        self.timer.start()
        self._show_endpoint()
        self.refresh()

    # -- the queue ----------------------------------------------------------------------------

    def attach(self, queue: RequestQueue | None) -> None:
        """Show (and answer) the requests of ``queue`` (None: none)."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        self.queue = queue
        if queue is not None:
            def changed() -> None:  # any thread; a view already deleted is left alone
                if isValid(self):
                    self.queue_changed.emit()
            self._unsubscribe = queue.subscribe(changed)
        self.refresh()

    def pending(self) -> list[PendingRequest]:
        return self.queue.pending() if self.queue is not None else []

    def selected(self) -> PendingRequest | None:
        return next((r for r in self.pending() if r.id == self.current), None)

    def refresh(self) -> None:
        """Re-read the queue: rows oldest first, the shown request kept while it waits
        (else the oldest is shown)."""
        pending = self.pending()
        gone = self.current is not None and self.current not in {r.id for r in pending}
        if gone and self.compose.request is not None and self.compose.request.state == \
                "abandoned":
            r = self.compose.request
            self.status.setText(f"Request #{r.id} ({r.harness}, task {r.task_id}) was "
                                f"abandoned: {r.reason}")
        self.current = choose_next(pending, self.current)
        waiting = {r.id for r in pending}
        for rid in [k for k in self.compose.drafts if k not in waiting]:
            del self.compose.drafts[rid]  # answered or abandoned elsewhere: nothing to keep
        now = time.monotonic()
        self.list.blockSignals(True)
        self.list.clear()
        for r in pending:
            item = QListWidgetItem(f"#{r.id}  {queue_line(r, now)}")
            item.setData(Qt.ItemDataRole.UserRole, r.id)
            self.list.addItem(item)
            if r.id == self.current:
                self.list.setCurrentItem(item)
        self.list.blockSignals(False)
        self.count.setText(f"Waiting requests ({len(pending)})" if pending
                           else "Waiting requests (none)")
        self.waiting.emit(len(pending))
        self._show_selected()

    def _picked(self, item: QListWidgetItem | None, _old: Any = None) -> None:
        if item is not None:
            self.current = int(item.data(Qt.ItemDataRole.UserRole))
            self._show_selected()

    def _show_selected(self) -> None:
        request = self.selected()
        self.request_pane.show_request(request)
        self.compose.show_request(request)
        self.end_button.setEnabled(request is not None)
        if request is not None and self.isVisible():
            request.mark_shown()
        self.compose.tick(time.monotonic())

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        request = self.selected()
        if request is not None:  # shown now that the tab is on screen
            request.mark_shown()

    def _tick(self) -> None:
        now = time.monotonic()
        for i in range(self.list.count()):
            item = self.list.item(i)
            rid = item.data(Qt.ItemDataRole.UserRole)
            r = next((p for p in self.pending() if p.id == rid), None)
            if r is not None:
                item.setText(f"#{r.id}  {queue_line(r, now)}")
        self.compose.tick(now)

    # -- answering ----------------------------------------------------------------------------

    def _send(self, request: PendingRequest, reply: Reply) -> None:
        try:
            accepted = request.answer(reply)
        except ValueError as err:  # a tool the request did not offer
            self.compose.problems.setText(f"Not sent: {err}")
            return
        if not accepted:
            why = f"{request.state}: {request.reason}" if request.reason else request.state
            self.status.setText(f"Request #{request.id} was no longer waiting ({why}); "
                                "nothing was sent.")
        else:
            self.sent.append((request, reply))
            think = request.think_ms() or 0.0
            what = (f"tool call {reply.tool_call.name}" if reply.tool_call is not None
                    else "text reply")
            self.status.setText(f"Sent a {what} to request #{request.id} ({request.harness}, "
                                f"task {request.task_id}) after {think / 1000:.1f} s.")
        self.refresh()

    def _decline(self, request: PendingRequest) -> None:
        if request.abandon("declined by the person"):
            self.status.setText(f"Declined request #{request.id}: recorded as abandoned.")
        self.refresh()

    def _end_episode(self) -> None:
        request = self.selected()
        if request is None or self.queue is None:
            return
        if self.queue.end_episode(request.harness, request.task_id):
            self.status.setText(f"Ended the episode of {request.harness}, task "
                                f"{request.task_id}; its next request starts a new one.")
        else:
            self.status.setText("That episode is not running any more.")
        self.refresh()

    # -- the endpoint -------------------------------------------------------------------------

    def start_endpoint(self) -> None:
        """Start serve-human on 127.0.0.1 at the chosen port (in the app's loop). Closing the
        app stops it: its episodes end, recorded, and waiting requests are abandoned."""
        if self.endpoint_factory is None or self.endpoint is not None:
            return
        if self.ask_annotator is not None and not self.state.prefs.annotator:
            self.ask_annotator(then=self.start_endpoint)
            return
        endpoint = self.endpoint_factory()
        self.endpoint = endpoint
        self.state.closers.append(endpoint.stop)
        self.start_button.setEnabled(False)
        self.status.setText("Starting the endpoint…")

        async def start() -> None:
            try:
                await endpoint.start(self.port.value())
            except BaseException:
                self.endpoint = None
                if endpoint.stop in self.state.closers:
                    self.state.closers.remove(endpoint.stop)
                self._show_endpoint()
                raise
            self.attach(endpoint.queue)
            self._show_endpoint()
            self.status.setText(f"Listening: point the harness at {endpoint.base_url} "
                                "(any API key).")
        self.state.jobs.start(start(), name="start serve-human", on_error=self.on_error)

    def stop_endpoint(self) -> None:
        """Stop the endpoint; waiting requests are abandoned (their episodes end)."""
        endpoint = self.endpoint
        if endpoint is None:
            return
        self.stop_button.setEnabled(False)

        async def stop() -> None:
            try:
                await endpoint.stop()
            finally:
                if endpoint.stop in self.state.closers:
                    self.state.closers.remove(endpoint.stop)
                self.endpoint = None
                self.attach(None)
                self._show_endpoint()
                self.status.setText("The endpoint is stopped.")
        self.state.jobs.start(stop(), name="stop serve-human", on_error=self.on_error)

    def _show_endpoint(self) -> None:
        url = self.endpoint.base_url if self.endpoint is not None else None
        running = bool(url)
        self.url.setText(url or "")
        self.copy.setEnabled(running)
        self.stop_button.setEnabled(running)
        self.start_button.setEnabled(not running and self.endpoint_factory is not None
                                     and self.state.store is not None)
        self.port.setEnabled(not running)
        restyle(self.url, "kind", "good" if running else "neutral")

    def _copy(self) -> None:
        clipboard = QApplication.clipboard()
        if clipboard is not None and self.url.text():
            clipboard.setText(self.url.text())
            self.status.setText("Copied the base URL.")
