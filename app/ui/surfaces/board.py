"""The board surface: a rendered frame (or the text a model reads), keys and clicks through the
kind's input map. Every board kind plays here."""

from __future__ import annotations

from playbench.app.players.human import HumanPlayer
from playbench.app.ui.models.launch import annotator, human_session, model_session
from playbench.app.ui.models.pacing import Pacer
from playbench.app.ui.models.session import PlaySession
from playbench.app.ui.models.start import StartRequest
from playbench.app.ui.play import PlayView
from playbench.app.ui.surface import SurfaceContext, SurfaceView


class BoardSurface:
    name = "board"
    title = "Board"
    shows_pages = False

    def make_view(self, ctx: SurfaceContext) -> SurfaceView:
        return PlayView(ctx)

    def person(self, annotator: str) -> HumanPlayer:
        return HumanPlayer(annotator, {"input": "keyboard and mouse"})

    def human_session(self, ctx: SurfaceContext, req: StartRequest) -> PlaySession:
        return human_session(ctx.state, req, self.person(annotator(ctx.state)))

    def model_session(self, ctx: SurfaceContext, req: StartRequest,
                      delay: float) -> tuple[PlaySession, Pacer]:
        return model_session(ctx.state, req, delay)


SURFACE = BoardSurface()
