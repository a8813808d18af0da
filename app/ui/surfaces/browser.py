"""The surfaces on the shared Chromium: the browser pane (web tasks), the game pane (browser
games) and CSS repair. A person's session and a model's both run on the window's one browser."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from playbench.app.players.human import HumanPlayer
from playbench.app.ui.browser import BrowserPlayView
from playbench.app.ui.css_repair import CssRepairView
from playbench.app.ui.game_pane import GamePlayView
from playbench.app.ui.models.launch import annotator
from playbench.app.ui.models.pacing import Pacer
from playbench.app.ui.models.session import PlaySession
from playbench.app.ui.models.start import StartRequest
from playbench.app.ui.models.web_session import (
    WebHumanPlayer,
    web_human_session,
    web_model_session,
)
from playbench.app.ui.surface import SurfaceContext, SurfaceView
from playbench.app.ui.web_runtime import shared_runtime


@dataclass(frozen=True)
class OnTheBrowser:
    """A surface whose episodes open pages on the shared Chromium."""

    name: str
    title: str
    view: Callable[[SurfaceContext], SurfaceView]
    input: str
    """How a person gives actions here, as recorded with the participant."""
    shows_pages: bool = True

    def make_view(self, ctx: SurfaceContext) -> SurfaceView:
        return self.view(ctx)

    def person(self, annotator: str) -> HumanPlayer:
        return WebHumanPlayer(annotator, {"input": self.input})

    def environment(self, ctx: SurfaceContext, game: str) -> dict[str, Any]:
        runtime = shared_runtime(ctx)
        return {"env_factory": runtime.make_env, "spec": runtime.kind(game)}

    def human_session(self, ctx: SurfaceContext, req: StartRequest) -> PlaySession:
        return web_human_session(ctx.state, req, shared_runtime(ctx),
                                 self.person(annotator(ctx.state)))

    def model_session(self, ctx: SurfaceContext, req: StartRequest,
                      delay: float) -> tuple[PlaySession, Pacer]:
        return web_model_session(ctx.state, req, shared_runtime(ctx), delay)


BROWSER = OnTheBrowser("browser", "Browser", BrowserPlayView,
                       "browser pane: mouse and keyboard")
GAME = OnTheBrowser("game", "Browser game", GamePlayView, "game pane: keyboard and mouse")
CSS = OnTheBrowser("css", "CSS repair", CssRepairView, "CSS repair tools", shows_pages=False)
