"""The Models place: where models play and where a person stands in for one.

Two pages: the model demo (a model or script plays a level or task, paced, with the recording
proxy's exchanges below its controls) and "Answer a harness" (an outside harness's requests
answered by the annotator). One top-level place, so the window has no tab per view type.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playbench.app.ui.answer import TAB_TITLE as ANSWER_TITLE
from playbench.app.ui.answer import AnswerView
from playbench.app.ui.browser_demo import BrowserDemoView
from playbench.app.ui.models.app_state import AppState
from playbench.app.ui.proxy_demo import ProxyPanel
from playbench.app.ui.qt import QTabWidget, QVBoxLayout, QWidget, Signal
from playbench.app.ui.surface_registry import SurfaceRegistry

TITLE = "Models"


class ModelsPlace(QTabWidget):
    """The model demo and the harness answering, as pages of one place."""

    waiting = Signal(int)
    """How many harness requests wait for the person (0: none)."""

    def __init__(self, state: AppState, report: Callable[[BaseException], None],
                 ask_annotator: Callable[..., Any], surfaces: SurfaceRegistry,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("models")
        self.setDocumentMode(True)
        # a DemoView that also shows web pages, for kinds whose surface plays pages
        self.demo = BrowserDemoView(state, report,
                                    shows_pages=lambda game: surfaces.for_game(game).shows_pages)
        self.proxy = ProxyPanel(self.demo, state, report)
        layout = self.demo.layout()
        assert isinstance(layout, QVBoxLayout), "the demo view stacks its parts"
        layout.insertWidget(layout.indexOf(self.demo.who) + 1, self.proxy)
        self.answer = AnswerView(state, report, _endpoint(state), ask_annotator=ask_annotator)
        self.addTab(self.demo, "Model demo")
        self.addTab(self.answer, ANSWER_TITLE)
        self.answer.waiting.connect(self._waiting)

    def _waiting(self, n: int) -> None:
        self.setTabText(self.indexOf(self.answer),
                        f"{ANSWER_TITLE} ({n})" if n else ANSWER_TITLE)
        self.waiting.emit(n)

    def show_demo(self) -> None:
        self.setCurrentWidget(self.demo)


def _endpoint(state: AppState) -> Callable[[], Any]:
    """The human endpoint factory: the annotator is the participant the requests record."""

    def endpoint() -> Any:
        from playbench.app.ui.models.serving import HumanEndpoint
        assert state.store is not None  # the Start button is off without a database
        return HumanEndpoint(state.store, state.prefs.annotator or "anonymous")
    return endpoint


__all__ = ["ModelsPlace", "TITLE"]
