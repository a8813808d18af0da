"""The recording proxy in the model demo view: start it in front of a model profile, give its
base URL to an outside harness, and watch each exchange as it is recorded.

The proxy (``playbench.app.ui.models.serving.ProxyEndpoint``) runs its episodes on the app's event
loop and calls the panel's listener with the same episode events the demo view follows for its own
model episodes; ``playbench.app.ui.models.exchanges.ExchangeFeed`` turns them into transcript cards
and the request's last image into the board's frame. While the demo itself plays a level, the
proxy still records, but the view keeps showing the level.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playbench.app.core.events import EpisodeEvent
from playbench.app.ui.demo import DemoView
from playbench.app.ui.models.app_state import AppState
from playbench.app.ui.models.exchanges import ExchangeFeed
from playbench.app.ui.models.profiles import describe, load_profiles
from playbench.app.ui.qt import (
    QApplication,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QWidget,
)


class ProxyPanel(QWidget):
    """One row of controls: the upstream profile, Start / Stop, the base URL to copy."""

    def __init__(self, demo: DemoView, state: AppState,
                 on_error: Callable[[BaseException], None]) -> None:
        super().__init__()
        self.demo = demo
        self.state = state
        self.on_error = on_error
        self.endpoint: Any = None
        self.feed = ExchangeFeed()
        self.profile = QComboBox()
        self.profile.setObjectName("proxy_profile")
        # Sized to its longest profile description it held the window wider than 1024 px.
        self.profile.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.profile.setMinimumContentsLength(20)
        self.profile.setToolTip("The model the proxy forwards to (its key is read from where "
                                "the profile says, used, never stored)")
        self.start_button = QPushButton("Start proxy")
        self.start_button.setToolTip("Record an outside harness's calls to this model: give "
                                     "the harness the base URL on the right")
        self.stop_button = QPushButton("Stop proxy")
        self.url = QLineEdit()
        self.url.setObjectName("proxy_url")
        self.url.setReadOnly(True)
        self.url.setPlaceholderText("not running")
        self.copy = QPushButton("Copy")
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(QLabel("Recording proxy to:"))
        row.addWidget(self.profile, 1)
        row.addWidget(self.start_button)
        row.addWidget(self.stop_button)
        row.addWidget(self.url, 1)
        row.addWidget(self.copy)
        self.start_button.clicked.connect(self.start)
        self.stop_button.clicked.connect(self.stop)
        self.copy.clicked.connect(self._copy)
        self.refresh_profiles()
        self._show()

    def refresh_profiles(self) -> None:
        """List the model profiles (the built-in demo stand-in first)."""
        current = self.profile.currentData()
        self.profile.clear()
        try:
            profiles = load_profiles()
        except Exception as err:  # noqa: BLE001 - a bad profiles file: said, not raised
            self.profile.addItem(f"(profiles unreadable: {err})", None)
            return
        for name, p in profiles.items():
            self.profile.addItem(describe(p), name)
        if current is not None:
            self.profile.setCurrentIndex(max(0, self.profile.findData(current)))

    def showEvent(self, event: Any) -> None:
        """Profiles added or changed in Settings meanwhile are offered (while stopped)."""
        super().showEvent(event)
        if self.endpoint is None:
            self.refresh_profiles()

    def start(self) -> None:
        """Start the proxy in front of the chosen profile on 127.0.0.1 (any free port)."""
        if self.endpoint is not None or self.state.store is None:
            return
        from playbench.app.agents.keys import resolve_key
        from playbench.app.ui.models.serving import ProxyEndpoint

        name = self.profile.currentData()
        profiles = load_profiles()
        if name not in profiles:
            return
        endpoint = ProxyEndpoint(self.state.store, profiles[name], resolve_key,
                                 listeners=[self._event])
        self.endpoint = endpoint
        self.state.closers.append(endpoint.stop)
        self.feed = ExchangeFeed()
        self.start_button.setEnabled(False)
        if not self.demo.busy:
            self.demo.transcript.clear()
            self.demo.board.set_frame(None)

        async def go() -> None:
            try:
                url = await endpoint.start(0)
            except BaseException:
                self._forget(endpoint)
                raise
            self._show()
            if not self.demo.busy:
                self.demo.title.setText("Recording proxy: waiting for a harness")
                self.demo.who.setText(f"Point the harness's OpenAI base URL at {url}; each "
                                      f"call goes to {endpoint.profile.model} and is recorded "
                                      "as a step of an episode of the harness's task.")
        self.state.jobs.start(go(), name="start proxy", on_error=self.on_error)

    def stop(self) -> None:
        """Stop the proxy: running episodes end (recorded), then it stops listening."""
        endpoint = self.endpoint
        if endpoint is None:
            return
        self.stop_button.setEnabled(False)

        async def go() -> None:
            try:
                await endpoint.stop()
            finally:
                self._forget(endpoint)
        self.state.jobs.start(go(), name="stop proxy", on_error=self.on_error)

    def _forget(self, endpoint: Any) -> None:
        if endpoint.stop in self.state.closers:
            self.state.closers.remove(endpoint.stop)
        if self.endpoint is endpoint:
            self.endpoint = None
        self._show()

    def _show(self) -> None:
        url = self.endpoint.base_url if self.endpoint is not None else None
        self.url.setText(url or "")
        self.start_button.setEnabled(self.endpoint is None and self.state.store is not None)
        self.stop_button.setEnabled(bool(url))
        self.copy.setEnabled(bool(url))
        self.profile.setEnabled(self.endpoint is None)

    def _copy(self) -> None:
        clipboard = QApplication.clipboard()
        if clipboard is not None and self.url.text():
            clipboard.setText(self.url.text())

    def _event(self, event: EpisodeEvent) -> None:
        """An event of one of the proxy's episodes (on the UI thread: the hub's loop)."""
        update = self.feed.event(event)
        if update is None or self.demo.busy:  # the demo's own episode has the view
            return
        if update.card is not None:
            card = self.demo.transcript.card(update.card.key)
            card.head.setText(update.card.head)
            card.body.setText(update.card.body)
            card.done = update.card.done
        if update.frame is not None:
            self.demo.board.set_frame(update.frame)
        if update.status:
            self.demo.title.setText("Recording proxy")
            self.demo.status.setText(f"{update.status} · {self.feed.exchanges} recorded since "
                                     "the proxy started")
