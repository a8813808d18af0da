"""The button pad: a play surface this plugin brings (registered as ``playbench.surfaces``
``lightpad``). One push button per cell, lit ones yellow; a push is the press a model would
send (``[row, col]``). It uses PlayBench's public surface API only: a
:class:`~playbench.app.ui.surface.SurfaceView` draws the episode and hands input to its host,
which runs the episode's life (start, budget, give up, the end).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QGridLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from pb_lightsout.pad import SURFACE_NAME
from playbench.app.core.events import Ended, EpisodeEvent, Started, Stepped
from playbench.app.players.human import HumanInput, HumanPlayer
from playbench.app.ui.models.episode_host import EpisodeHost
from playbench.app.ui.models.launch import annotator, human_session, model_session
from playbench.app.ui.models.pacing import Pacer
from playbench.app.ui.models.session import PlaySession
from playbench.app.ui.models.start import StartRequest
from playbench.app.ui.surface import SurfaceContext, SurfaceView

LIT = "background: #f5d90a; color: #222;"
DARK = "background: #555; color: #eee;"


class PadView(SurfaceView):
    """A grid of buttons, one per cell of the board being played."""

    def __init__(self, ctx: SurfaceContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.setObjectName("lightpad")
        self.title = QLabel("Lights Out on the button pad")
        self.status = QLabel("")
        self.pad = QWidget()
        self.grid = QGridLayout(self.pad)
        self.buttons: dict[tuple[int, int], QPushButton] = {}
        self.give_up = QPushButton("Give up")
        self.give_up.clicked.connect(lambda: self.ask_give_up())
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.pad, 1)
        layout.addWidget(self.status)
        layout.addWidget(self.give_up)

    def show_session(self, session: PlaySession, host: EpisodeHost) -> None:
        for button in self.buttons.values():
            button.deleteLater()
        self.buttons.clear()
        self.title.setText(session.task.level.title or "Lights Out")
        self.status.setText("Starting…")
        self.set_active(True)

    def set_active(self, on: bool) -> None:
        self.give_up.setEnabled(on)
        for button in self.buttons.values():
            button.setEnabled(on)

    def on_event(self, event: EpisodeEvent) -> None:
        if isinstance(event, (Started, Stepped)):
            self._draw(self.host.live.state)
            use = self.host.live.budget_use()
            self.status.setText(f"Presses used: {use.used}"
                                + ("" if use.limit is None else f" of {use.limit}"))
        elif isinstance(event, Ended):
            solved = event.result.end_reason == "solved"
            self.status.setText("Solved: every light is off." if solved
                                else f"Over: {event.result.end_reason}.")

    def _draw(self, state: Any) -> None:
        if not self.buttons:
            for r in range(state.rows):
                for c in range(state.cols):
                    button = QPushButton(f"{r},{c}")
                    button.setObjectName(f"cell-{r}-{c}")
                    button.clicked.connect(lambda _c=False, r=r, c=c: self._press(r, c))
                    self.grid.addWidget(button, r, c)
                    self.buttons[(r, c)] = button
        for (r, c), button in self.buttons.items():
            button.setStyleSheet(LIT if state.lit(r, c) else DARK)
            button.setEnabled(self.host.accepting())

    def _press(self, row: int, col: int) -> None:
        if self.host.accepting():
            text = f"[{row}, {col}]"
            self.host.push(lambda: [HumanInput.move(text, f"button:{row},{col}")])


class PadSurface:
    name = SURFACE_NAME
    title = "Button pad"
    shows_pages = False

    def make_view(self, ctx: SurfaceContext) -> SurfaceView:
        return PadView(ctx)

    def person(self, annotator: str) -> HumanPlayer:
        return HumanPlayer(annotator, {"input": "button pad"})

    def human_session(self, ctx: SurfaceContext, req: StartRequest) -> PlaySession:
        return human_session(ctx.state, req, self.person(annotator(ctx.state)))

    def model_session(self, ctx: SurfaceContext, req: StartRequest,
                      delay: float) -> tuple[PlaySession, Pacer]:
        return model_session(ctx.state, req, delay)


SURFACE = PadSurface()
