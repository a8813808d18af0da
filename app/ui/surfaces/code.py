"""The code surface: a person writes a web page (MageBench WebUI) in an editor; the kind's
environment renders and scores it."""

from __future__ import annotations

from playbench.app.players.human import HumanPlayer
from playbench.app.ui.code_view import CodeView
from playbench.app.ui.models.launch import annotator, human_session, kind_env, model_session
from playbench.app.ui.models.pacing import Pacer
from playbench.app.ui.models.session import PlaySession
from playbench.app.ui.models.start import StartRequest
from playbench.app.ui.surface import SurfaceContext, SurfaceView


class CodeSurface:
    name = "code"
    title = "Code"
    shows_pages = False

    def make_view(self, ctx: SurfaceContext) -> SurfaceView:
        return CodeView(ctx)

    def person(self, annotator: str) -> HumanPlayer:
        return HumanPlayer(annotator, {"input": "code editor"})

    def human_session(self, ctx: SurfaceContext, req: StartRequest) -> PlaySession:
        return human_session(ctx.state, req, self.person(annotator(ctx.state)),
                             **kind_env(req.game))

    def model_session(self, ctx: SurfaceContext, req: StartRequest,
                      delay: float) -> tuple[PlaySession, Pacer]:
        return model_session(ctx.state, req, delay, **kind_env(req.game))


SURFACE = CodeSurface()
