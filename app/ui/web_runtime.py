"""The one Chromium the browser surfaces share (the browser pane, browser games, CSS repair):
started on first use, closed when the app closes."""

from __future__ import annotations

from playbench.app.ui.models.web_session import WebRuntime
from playbench.app.ui.surface import SurfaceContext

KEY = "web runtime"


def shared_runtime(ctx: SurfaceContext) -> WebRuntime:
    """The window's shared :class:`WebRuntime` (made, and closed with the app, once)."""

    def make() -> WebRuntime:
        runtime = WebRuntime()
        ctx.state.closers.append(runtime.close)
        return runtime
    return ctx.shared(KEY, make)


def use_runtime(ctx: SurfaceContext, runtime: WebRuntime) -> None:
    """Make ``runtime`` the one every browser surface of this window uses (tests give one
    on a shared Chromium; it is not closed by the app)."""
    ctx.provide(KEY, runtime)
