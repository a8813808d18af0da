"""One person's episode as every play surface runs it (Qt-free).

Each surface (the board, the browser pane, a browser game, CSS repair, the code editor, a
plugin's own) only draws what happens and forwards what the person does. Everything about the
episode's life is here, once: starting it (or resuming a recorded one) as an asyncio job, the
queue that turns gestures into the loop's inputs one decision at a time
(:class:`~playbench.app.ui.models.input_queue.InputQueue`), stopping, giving up, the way on after
the end (the next level, or a study's next task), the questions asked before a running task is
replaced or re-attributed, and a study task's pause.

A surface's view implements :class:`PersonSurface`; the host calls it and nothing else, so the
same host drives a widget under test without Qt.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from playbench.app.core.events import Deciding, Ended, EpisodeEvent
from playbench.app.players.human import HumanInput
from playbench.app.ui.models.ending import give_up_question
from playbench.app.ui.models.guards import (
    Question,
    annotator_question,
    replace_question,
    running_task,
)
from playbench.app.ui.models.input_queue import InputQueue, Maker
from playbench.app.ui.models.session import PlaySession
from playbench.app.ui.models.start import StartRequest
from playbench.app.ui.models.study_run import PauseState, StudySession, pause_state

Then = tuple[str, Callable[[], None]]
"""The end banner's way on instead of "Next level": its button text and what it does."""


class Jobs(Protocol):
    """Where the episode runs (``AppState.jobs``): an asyncio task with an error callback."""

    def start(self, work: Any, *, name: str,
              on_error: Callable[[BaseException], None] | None = None) -> Any: ...


class PersonSurface(Protocol):
    """What the host asks of a surface's view."""

    def show_session(self, session: PlaySession, host: EpisodeHost) -> None:
        """Clear what the last episode left and show ``session`` before it starts (and
        enable the controls that take input from the start)."""

    def on_event(self, event: EpisodeEvent) -> None:
        """Draw one event of the episode being played (never one of a replaced session)."""

    def set_active(self, on: bool) -> None:
        """Enable or disable the surface's controls."""

    def hand_over(self, given: Any) -> None:
        """Give one queued input to the episode's player (with whatever the surface adds)."""


class EpisodeHost:
    """The life of one person's episode at a time on one surface."""

    def __init__(self, jobs: Jobs, on_error: Callable[[BaseException], None]) -> None:
        self.jobs = jobs
        self.on_error = on_error
        self.surface: PersonSurface | None = None
        self.session: PlaySession | None = None
        self.request: StartRequest | None = None
        self.task: Any = None
        self.then: Then | None = None
        self.blind = False
        self.inputs: InputQueue[Any] = InputQueue(self._hand_over, self.accepting)
        """Gestures waiting to become the loop's inputs (one decision at a time)."""
        self.on_changed: Callable[[], None] = lambda: None
        """Called after each event and on start and failure (the pause button, say)."""

    def attach(self, surface: PersonSurface) -> None:
        self.surface = surface

    # -- state --------------------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        """An episode is running (started and not yet over)."""
        return self.session is not None and self.task is not None and not self.task.done()

    def accepting(self) -> bool:
        """The running episode still takes input."""
        return self.busy and self.session is not None and self.session.result is None

    @property
    def live(self) -> PlaySession:
        """The session being played; input handlers run only while there is one."""
        assert self.session is not None, "no session is being played"
        return self.session

    @property
    def steps(self) -> int:
        return 0 if self.session is None else len(self.session.steps)

    def study(self) -> StudySession | None:
        s = self.session
        return s if isinstance(s, StudySession) else None

    @property
    def instructions(self) -> str:
        """The study's instructions text while a study task is shown ('' otherwise)."""
        s = self.study()
        return "" if s is None else s.instructions

    # -- starting and stopping ----------------------------------------------------------------

    def begin(self, session: PlaySession, request: StartRequest | None = None,
              resume_id: int | None = None, *, then: Then | None = None,
              blind: bool = False) -> None:
        """Show ``session`` on the surface and start its episode (or resume ``resume_id``).
        ``then`` replaces "Next level" on the end banner (a study's next task); ``blind``
        keeps the outcome off the banner (a blind study)."""
        assert self.surface is not None, "no surface is attached"
        self.session, self.request = session, request
        self.then, self.blind = then, blind
        self.inputs.reset()
        self.surface.show_session(session, self)
        session.subscribe(functools.partial(self._event, session=session))
        work = session.resume(resume_id) if resume_id is not None else session.play()
        self.task = self.jobs.start(work, name=f"play {session.task.game}",
                                    on_error=self._failed)
        self.on_changed()

    def stop(self) -> None:
        """Interrupt the running episode (it is recorded as interrupted)."""
        if self.busy:
            self.task.cancel()

    def stop_then(self, then: Callable[[], None]) -> None:
        """Stop the running episode and call ``then`` once its end is recorded, so what
        follows never overlaps it."""
        task = self.task
        self.stop()
        if task is None or task.done():
            then()
        else:
            task.add_done_callback(lambda _t: then())

    def _failed(self, err: BaseException) -> None:
        if self.surface is not None:
            self.surface.set_active(False)
        self.on_error(err)
        self.on_changed()

    # -- events and input ---------------------------------------------------------------------

    def _event(self, event: EpisodeEvent, session: PlaySession) -> None:
        if session is not self.session or self.surface is None:  # a replaced session's
            return
        if isinstance(event, Deciding):
            self.inputs.deciding()
        elif isinstance(event, Ended):
            self.inputs.ended()
            self.surface.set_active(False)
        self.surface.on_event(event)
        self.on_changed()

    def push(self, maker: Maker[Any]) -> None:
        """Queue a gesture; ``maker`` runs when its turn comes (see InputQueue)."""
        self.inputs.push(maker)

    def push_front(self, inputs: Sequence[Any]) -> None:
        self.inputs.push_front(inputs)

    def _hand_over(self, given: Any) -> None:
        if self.surface is not None:
            self.surface.hand_over(given)

    def submit(self, given: Any) -> None:
        """Give ``given`` to the episode's player (the surfaces' default ``hand_over``)."""
        player: Any = self.live.player
        player.submit(given)

    def give_up_question(self) -> Question | None:
        """The question before giving up (None: nothing is running to give up)."""
        return give_up_question(self.steps) if self.accepting() else None

    def give_up(self) -> None:
        """End the task as given up (it jumps the queue of waiting gestures)."""
        if self.accepting():
            self.inputs.give_up(HumanInput.give_up())

    # -- after the end ------------------------------------------------------------------------

    @property
    def next_text(self) -> str | None:
        """The end banner's way-on button text, or None when there is no way on."""
        if self.then is not None:
            return self.then[0]
        return None

    def can_go_next(self) -> bool:
        return self.then is not None or (
            self.request is not None and self.request.next() is not None)

    def go_next(self, start: Callable[[StartRequest], None]) -> None:
        """Go on after the end: the study's next task, else ``start`` the next level."""
        if self.then is not None:
            self.then[1]()
            return
        nxt = self.request.next() if self.request is not None else None
        if nxt is not None:
            start(nxt)

    @property
    def episode_id(self) -> int:
        return 0 if self.session is None else self.session.episode_id

    # -- questions before something replaces the running task ----------------------------------

    def running(self) -> str | None:
        """A short name of the person's task running here (None if nothing runs)."""
        return running_task(self.session, self.busy)

    def replace_question(self, starting: str) -> Question | None:
        return replace_question(self.session, self.busy, starting)

    def annotator_question(self, name: str) -> Question | None:
        return annotator_question(self.session, self.busy, name)

    # -- a study task's clock -----------------------------------------------------------------

    def pause_state(self) -> PauseState:
        return pause_state(self.study(), self.busy)

    def pause_study(self) -> bool:
        """Pause the study task being played: the episode stops (recorded ``interrupted``,
        with the time spent on the decision in flight) and the clock with it. Returns
        whether there was one to pause."""
        s = self.study()
        if s is None or not self.busy or s.result is not None:
            return False
        self.stop()
        return True


__all__ = ["EpisodeHost", "Jobs", "PersonSurface", "Then"]
