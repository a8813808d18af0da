"""The model demo, able to show web tasks and browser games (kinds whose ``view`` is
``"browser"`` or ``"game"``): the same view, with the page in place of the board.

A web observation's frame is the viewport screenshot with the Set-of-Marks drawn - the picture
a ``vwa:som`` model is given - usually 1280 x 2048. Fitted whole into the board area it would
be unreadable, so for web episodes the demo shows it in the browser pane's page widget (fitted
to the width, scrolled locally), with the objective and the page's URL above it. Board episodes
are shown exactly as before.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from playbench.app.core.events import EpisodeEvent, Moved, Started
from playbench.app.ui.browser_page import PageView
from playbench.app.ui.demo import DemoView
from playbench.app.ui.models.app_state import AppState
from playbench.app.ui.models.pacing import Pacer
from playbench.app.ui.models.session import PlaySession
from playbench.app.ui.qt import QLabel, QSplitter, QStackedWidget, QVBoxLayout, QWidget


class BrowserDemoView(DemoView):
    """:class:`DemoView` with a page widget swapped in for web episodes."""

    def __init__(self, state: AppState, on_error: Callable[[BaseException], None],
                 parent: QWidget | None = None,
                 shows_pages: Callable[[str], bool] = lambda _game: False) -> None:
        super().__init__(state, on_error, parent)
        self.shows_pages = shows_pages
        """Whether ``game``'s episodes are shown as live pages (its surface says)."""
        self.page = PageView()
        self.page.accepts_input = False
        self.url = QLabel("")
        self.url.setObjectName("hint")
        self.url.setWordWrap(True)
        web = QWidget()
        wv = QVBoxLayout(web)
        wv.setContentsMargins(0, 0, 0, 0)
        wv.addWidget(self.url)
        wv.addWidget(self.page, 1)
        self.stack = QStackedWidget()
        split = self.board_widget.parentWidget()
        assert isinstance(split, QSplitter)
        split.replaceWidget(split.indexOf(self.board_widget), self.stack)
        self.stack.addWidget(self.board_widget)
        self.stack.addWidget(web)
        self._web = web

    def begin(self, session: PlaySession, pacer: Pacer | None,
              resume_id: int | None = None) -> None:
        web = self.shows_pages(session.task.game)
        self.board = self.page if web else self.board_widget
        self.stack.setCurrentWidget(self._web if web else self.board_widget)
        if web:
            self.url.setText("Opening the page…")
            session.subscribe(functools.partial(self._web_event, session=session))
            split = self.stack.parentWidget()
            assert isinstance(split, QSplitter)
            total = sum(split.sizes()) or 1340
            split.setSizes([total * 3 // 5, total - total * 3 // 5])  # the page gets the room
        super().begin(session, pacer, resume_id)
        if web:
            self.who.setText(self.who.text().replace(" · level ", " · task ", 1))

    def _web_event(self, event: EpisodeEvent, session: PlaySession) -> None:
        if session is not self.session or not isinstance(event, (Started, Moved)):
            return
        info = event.observation.info or {}
        url = info.get("url") or ""
        self.url.setText(f"{url}   ·   the model's view: screenshot with the numbered "
                         "Set-of-Marks boxes" if url else str(event.observation.text))
