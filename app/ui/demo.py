"""The model demo view: the board, the transcript as replies arrive, and the controls
(pause, resume, single step, speed, stop).

The model player is wrapped in a pacer (``playbench.app.ui.models.pacing``) so that pausing or
slowing
the demo never changes what is recorded: think times and elapsed seconds leave out the waits.
Stopping cancels the episode, which is then recorded as interrupted and can be resumed.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Protocol

import numpy as np

from playbench.app.agents.retry import RetryNotice
from playbench.app.core.events import Deciding, Ended, EpisodeEvent, Moved, Started, Stepped
from playbench.app.ui.board import BoardWidget
from playbench.app.ui.hud import clock_text
from playbench.app.ui.models.app_state import AppState
from playbench.app.ui.models.outcome import end_head
from playbench.app.ui.models.pacing import Pacer
from playbench.app.ui.models.retrying import retry_line
from playbench.app.ui.models.session import PlaySession
from playbench.app.ui.models.start import heading
from playbench.app.ui.models.wording import count
from playbench.app.ui.qt import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    Qt,
    QTimer,
    QVBoxLayout,
    QWidget,
    Signal,
    restyle,
)
from playbench.app.ui.transcript import TranscriptPane

SPEEDS = (("as fast as the model answers", 0.0), ("0.25 s between steps", 0.25),
          ("0.5 s between steps", 0.5), ("1 s between steps", 1.0), ("2 s between steps", 2.0))


class FrameView(Protocol):
    """Where the demo shows the latest frame: the board, or a page in the browser demo."""

    def set_frame(self, frame: np.ndarray | None) -> None: ...


class DemoView(QWidget):
    open_episode = Signal(int)

    def __init__(self, state: AppState, on_error: Callable[[BaseException], None],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.on_error = on_error
        self.session: PlaySession | None = None
        self.pacer: Pacer | None = None
        self.task: Any = None
        self.tokens = 0
        self.cost = 0.0
        self.retry_note = ""
        """Why the pending decision's reply is late (a failed attempt being retried)."""

        self.title = QLabel("No model is playing. Choose a level in the Library and pick a "
                            "model profile (the demo profile works offline).")
        self.title.setObjectName("title")
        self.title.setWordWrap(True)
        self.who = QLabel("")
        self.who.setObjectName("hint")
        self.who.setWordWrap(True)
        self.pause = QPushButton("Pause")
        self.pause.setObjectName("pause")
        self.step = QPushButton("Step")
        self.step.setToolTip("Let exactly one more decision through, then pause")
        self.speed = QComboBox()
        for text, seconds in SPEEDS:
            self.speed.addItem(text, seconds)
        self.stop = QPushButton("Stop")
        self.stop.setToolTip("Stop the episode; it is saved as interrupted and can be resumed")
        self.view = QPushButton("View episode")
        board = BoardWidget()
        board.accepts_input = False
        self.board_widget = board
        self.board: FrameView = board
        self.transcript = TranscriptPane()
        self.status = QLabel("")
        self.status.setObjectName("status_line")

        bar = QHBoxLayout()
        for w in (self.pause, self.step, QLabel("Speed:"), self.speed, self.stop):
            bar.addWidget(w)
        bar.addStretch(1)
        bar.addWidget(self.view)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(board)
        split.addWidget(self.transcript)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 1)
        split.setSizes([700, 640])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(self.title)
        layout.addWidget(self.who)
        layout.addLayout(bar)
        layout.addWidget(split, 1)
        layout.addWidget(self.status)

        self.pause.clicked.connect(self._toggle_pause)
        self.step.clicked.connect(self._step)
        self.speed.currentIndexChanged.connect(self._speed)
        self.stop.clicked.connect(self.stop_episode)
        self.view.clicked.connect(self._view)
        self.timer = QTimer(self)
        self.timer.setInterval(100)
        self.timer.timeout.connect(self._tick)
        self._controls(False)
        self.view.setEnabled(False)
        wanted = state.prefs.demo_delay
        self.speed.setCurrentIndex(min(range(len(SPEEDS)), key=lambda i: abs(SPEEDS[i][1]
                                                                             - wanted)))

    @property
    def busy(self) -> bool:
        return self.task is not None and not self.task.done()

    def delay(self) -> float:
        return float(self.speed.currentData() or 0.0)

    def begin(self, session: PlaySession, pacer: Pacer | None,
              resume_id: int | None = None) -> None:
        self.session, self.pacer = session, pacer
        self.tokens, self.cost = 0, 0.0
        title, where = heading(session.spec.title, session.task.source, session.task.level)
        self.title.setText(title)
        player = session.player
        inner = getattr(player, "inner", player)
        if hasattr(inner, "on_partial"):  # model players stream their reply into the card
            inner.on_partial = self._partial
        completer: Any = getattr(inner, "completer", None)
        if hasattr(completer, "on_retry"):  # say why no reply comes while the client retries
            completer.on_retry = lambda notice, mine=session: self._retrying(notice, mine)
        self.retry_note = ""
        label = getattr(inner, "profile", None)
        note = f" ({label.label})" if label is not None and label.label else ""
        self.who.setText(f"{where} · player {player.spec}{note} · setting "
                         f"{session.setting.name}: {session.setting.description}")
        self.transcript.clear()
        self.board.set_frame(None)
        if pacer is not None:
            pacer.set_delay(self.delay())
        self._show_paused()
        self._controls(pacer is not None)
        self.view.setEnabled(False)
        session.subscribe(functools.partial(self._event, session=session))
        self.timer.start()
        work = session.resume(resume_id) if resume_id is not None else session.play()
        self.task = self.state.jobs.start(work, name="model demo", on_error=self._failed)

    def _controls(self, on: bool) -> None:
        """Pause, Step and Stop work only while an episode runs; once it has ended (or was
        stopped while paused) none of them can do anything, and "Resume" would promise what
        Stop took away, so the button goes back to a disabled "Pause"."""
        for w in (self.pause, self.step, self.stop):
            w.setEnabled(on)
        if not on:
            self.pause.setText("Pause")
            restyle(self.pause, "paused", False)

    def _failed(self, err: BaseException) -> None:
        self.timer.stop()
        self._controls(False)
        self.on_error(err)

    # -- events -------------------------------------------------------------------------------

    def _event(self, event: EpisodeEvent, session: PlaySession) -> None:
        if session is not self.session:  # a replaced session's last events
            return
        if isinstance(event, Started):
            self.view.setEnabled(True)
            self.board.set_frame(event.observation.frame)
        elif isinstance(event, Deciding):
            self.retry_note = ""
            self.transcript.asked(event.context.decision)
        elif isinstance(event, Moved):
            self.board.set_frame(event.observation.frame)
            return
        elif isinstance(event, Stepped):
            r = event.record
            self.tokens += r.prompt_tokens + r.completion_tokens
            self.cost += r.cost
            self.transcript.answered(event.decision, r)
            self.board.set_frame(event.observation.frame)
        elif isinstance(event, Ended):
            self._ended(event)
        self._tick()

    def _retrying(self, notice: RetryNotice, session: PlaySession) -> None:
        if session is self.session and session.result is None:
            self.retry_note = retry_line(notice)
            self._tick()

    def _partial(self, decision: int, text: str) -> None:
        if self.session is not None and self.session.result is None:
            self.transcript.streaming(decision, text)

    def _ended(self, event: Ended) -> None:
        self.timer.stop()
        self._controls(False)
        r = event.result
        if r.status == "error":
            from playbench.app.ui.errors import Explanation, show_problem
            show_problem(self, Explanation(
                "The model episode stopped", r.end_reason or "unknown error",
                "If the profile cannot connect, check its base URL, model and key in "
                "Settings > Model profiles (Test connection). The steps so far are kept; "
                "resume the episode from Episodes when the model is reachable."))
            head = "Stopped with an error; steps so far are kept"
        elif r.status == "interrupted":
            head = "Stopped - saved as interrupted, resumable from Episodes"
        else:
            head = end_head(r.end_reason)
            head = head.replace("You gave up", "The player gave up")
        pending = self.transcript.pending()
        if pending is not None:
            pending.head.setText(f"Decision {pending.number + 1} · no reply ({r.status})")
            pending.done = True
        self.status.setText(f"{head} after {count(len(r.steps), 'step')}. " + self._figures())

    def _figures(self) -> str:
        s = self.session
        if s is None:
            return ""
        use = s.budget_use()
        left = "no limit" if use.limit is None else f"{use.left} of {use.limit}"
        return (f"Actions left: {left} · model time {clock_text(s.elapsed())} · "
                f"tokens {self.tokens:,} · cost ${self.cost:.4f}")

    def _tick(self) -> None:
        s = self.session
        if s is None or s.result is not None:
            return
        card = self.transcript.pending()
        if card is not None:
            paused = self.pacer is not None and self.pacer.paused and self.pacer.waiting
            card.waiting(s.thinking() or 0.0, paused, self.retry_note)
        self.status.setText(self._figures())

    # -- controls -----------------------------------------------------------------------------

    def _toggle_pause(self) -> None:
        if self.pacer is None:
            return
        if self.pacer.paused:
            self.pacer.resume()
        else:
            self.pacer.pause()
        self._show_paused()

    def _show_paused(self) -> None:
        paused = self.pacer is not None and self.pacer.paused
        self.pause.setText("Resume" if paused else "Pause")
        restyle(self.pause, "paused", paused)

    def _step(self) -> None:
        if self.pacer is not None:
            self.pacer.step()
            self._show_paused()

    def _speed(self) -> None:
        seconds = self.delay()
        if self.pacer is not None:
            self.pacer.set_delay(seconds)
        self.state.prefs = self.state.prefs.with_(demo_delay=seconds)

    def stop_episode(self) -> None:
        if self.busy:
            self.task.cancel()

    def _view(self) -> None:
        if self.session is not None and self.session.episode_id:
            self.open_episode.emit(self.session.episode_id)
