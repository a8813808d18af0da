"""What a play surface is: the plugin seam between a kind of task and the window.

A kind names the surface a person plays it on (``TaskKind.view``: ``board``, ``browser``, a
plugin's own name); a surface is registered under the ``playbench.surfaces`` entry-point group,
as kinds are under ``playbench.tasks``, and declares

- its widget (:meth:`Surface.make_view`, a :class:`SurfaceView`): it draws the episode and turns
  the person's gestures into the kind's action texts, handing them to its
  :class:`~playbench.app.ui.models.episode_host.EpisodeHost`, which owns everything else about
  the episode's life;
- its start: the session a person plays (:meth:`Surface.human_session`) and the one a model or
  script plays in the model demo (:meth:`Surface.model_session`);
- optionally (:class:`Environments`) what every session on it needs beyond the kind's own
  environment - the browser surfaces' one shared Chromium - so that episodes the window
  starts for it in other ways (a study's task, a resumed episode) run there too.

The window builds its Play place from the registered surfaces and never names one, so a
package that adds a kind with a surface of its own edits nothing in PlayBench.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, runtime_checkable

from playbench.app.core.events import EpisodeEvent
from playbench.app.players.human import HumanPlayer
from playbench.app.studies import QueueItem, StudyQueue
from playbench.app.ui.confirm import confirm
from playbench.app.ui.models.app_state import AppState
from playbench.app.ui.models.episode_host import EpisodeHost, Then
from playbench.app.ui.models.launch import kind_env
from playbench.app.ui.models.pacing import Pacer
from playbench.app.ui.models.session import PlaySession
from playbench.app.ui.models.start import StartRequest
from playbench.app.ui.models.study_run import StudySession
from playbench.app.ui.qt import QWidget, Signal

T = TypeVar("T")


@dataclass
class SurfaceContext:
    """What a surface gets from the window: the app's state, the error dialog, and things
    surfaces share (one Chromium for every browser surface, say), made on first use."""

    state: AppState
    report: Callable[[BaseException], None]
    _shared: dict[str, Any] = field(default_factory=dict)

    def shared(self, key: str, make: Callable[[], T]) -> T:
        """The object shared under ``key``, made by ``make`` the first time it is asked for."""
        if key not in self._shared:
            self._shared[key] = make()
        found: T = self._shared[key]
        return found

    def provide(self, key: str, value: Any) -> None:
        """Share ``value`` under ``key`` from now on (a test's browser, say)."""
        self._shared[key] = value


class SurfaceView(QWidget):
    """A surface's widget: draws one person's episode and forwards their input.

    Subclasses implement :class:`~playbench.app.ui.models.episode_host.PersonSurface`
    (``show_session``, ``on_event``, ``set_active``; ``hand_over`` gives the input to the
    player by default) and call the host for everything about the episode's life.
    """

    open_episode = Signal(int)
    """Show this recorded episode in Episodes."""
    go_library = Signal()
    next_request = Signal(object)
    """Start this :class:`StartRequest` (the next level)."""
    continue_study = Signal()
    """Continue the study task paused here (its "Continue task" button)."""

    def __init__(self, ctx: SurfaceContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.state = ctx.state
        self.on_error = ctx.report
        self.host = EpisodeHost(ctx.state.jobs, ctx.report)
        self.host.attach(self)

    # -- the host's state, as views and the window read it ------------------------------------

    @property
    def session(self) -> PlaySession | None:
        return self.host.session

    @property
    def request(self) -> StartRequest | None:
        return self.host.request

    @property
    def task(self) -> Any:
        return self.host.task

    @property
    def busy(self) -> bool:
        return self.host.busy

    def begin(self, session: PlaySession, request: StartRequest | None = None,
              resume_id: int | None = None, *, then: Then | None = None,
              blind: bool = False) -> None:
        self.host.begin(session, request, resume_id, then=then, blind=blind)

    def stop(self) -> None:
        self.host.stop()

    # -- what a surface draws (see PersonSurface) ----------------------------------------------

    def show_session(self, session: PlaySession, host: EpisodeHost) -> None:
        raise NotImplementedError

    def on_event(self, event: EpisodeEvent) -> None:
        raise NotImplementedError

    def set_active(self, on: bool) -> None:
        raise NotImplementedError

    # -- what every surface does the same way ----------------------------------------------

    def hand_over(self, given: Any) -> None:
        self.host.submit(given)

    def show_heading(self, text: str) -> None:
        """Say which study task is being played (``text``, e.g. "pilot · task t1 (scored)")
        before the surface's own heading. A surface without a heading shows nothing."""

    def show_finished(self, text: str, *, can_view: bool) -> None:
        """Say that nothing is left to play (``text``), where the end of a task is shown;
        ``can_view``: whether the last episode may be opened (not in a blind study)."""
        self.show_heading(text)

    def focus_input(self) -> None:
        """Give the keyboard to what takes the person's input (the board, the page)."""
        self.setFocus()

    def ask_give_up(self, after: Callable[[], None] | None = None) -> None:
        """Giving up ends the task for good: ask first (Cancel leaves it running)."""
        question = self.host.give_up_question()
        if question is None:
            return
        box = confirm(self, question, self.host.give_up)
        if after is not None:
            box.finished.connect(lambda _r: after())

    def go_next(self) -> None:
        self.host.go_next(self.next_request.emit)

    def view_episode(self) -> None:
        if self.host.episode_id:
            self.open_episode.emit(self.host.episode_id)

    def hideEvent(self, event: Any) -> None:  # noqa: N802 - Qt's name
        """Leaving the Play place (or minimising the window) pauses a study task: its time
        limit counts time on the task, not time spent elsewhere."""
        self.host.pause_study()
        super().hideEvent(event)


@runtime_checkable
class Surface(Protocol):
    """A play surface (see the module docstring)."""

    name: str
    """The name kinds give as their ``view``."""
    title: str
    """What the surface is, for a person ("Board", "Browser")."""
    shows_pages: bool
    """Whether the model demo shows this surface's episodes as live pages (Chromium's
    screencast) rather than the observations' frames."""

    def make_view(self, ctx: SurfaceContext) -> SurfaceView:
        """A new widget for the Play place (made once per window, when first needed)."""

    def person(self, annotator: str) -> HumanPlayer:
        """The player a person is on this surface (what their inputs carry, how they gave
        them), for new episodes and resumed ones alike."""

    def human_session(self, ctx: SurfaceContext, req: StartRequest) -> PlaySession:
        """A new episode of ``req`` played by the annotator on this surface."""

    def model_session(self, ctx: SurfaceContext, req: StartRequest,
                      delay: float) -> tuple[PlaySession, Pacer]:
        """A new episode of ``req`` played by its model or script, paced for the demo."""


@runtime_checkable
class Environments(Protocol):
    """A surface whose sessions need more than the kind's own environment."""

    def environment(self, ctx: SurfaceContext, game: str) -> dict[str, Any]:
        """What a session of ``game`` on this surface gets (``env_factory``, ``spec``; see
        :class:`~playbench.app.ui.models.session.PlaySession`)."""


def environment(surface: Surface, ctx: SurfaceContext, game: str) -> dict[str, Any]:
    """What a session of ``game`` on ``surface`` gets: the surface's own environment when it
    declares one, else the kind's (nothing more for a board game)."""
    if isinstance(surface, Environments):
        return surface.environment(ctx, game)
    return kind_env(game)


def study_session(surface: Surface, ctx: SurfaceContext, queue: StudyQueue, item: QueueItem,
                  annotator: str) -> StudySession:
    """``item`` of ``queue`` played by ``annotator`` on ``surface``, whatever the surface."""
    store = ctx.state.store
    if store is None:
        raise RuntimeError("no database is open; choose one in Settings > Database")
    return StudySession(store, queue, item, surface.person(annotator),
                        **environment(surface, ctx, item.game))


__all__ = ["Environments", "Surface", "SurfaceContext", "SurfaceView", "environment",
           "study_session"]
