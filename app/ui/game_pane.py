"""The game pane: a person plays a browser game (kinds whose ``view`` is ``"game"``) under a
model's interface and budget.

The game runs in Chromium; its screencast is painted in the browser pane's page widget
(:class:`PageView`, frames sized for the widget by Chromium, decoded off the UI thread). Key
presses, key releases and clicks go to :class:`playbench.app.ui.models.game_play.GameInputs`,
which turns them into the canonical actions a model sends (a held key is one action); each goes
through the same loop as a model's (``Episode`` -> the game environment's ``step``), so the
100-action budget, the clock (paused between actions, or real time, by the setting), the
validity check and the database record are the model's. The HUD shows actions left, score,
best, progress, target and the clock mode.
"""

from __future__ import annotations

from typing import Any

from playbench.app.core.events import Ended, EpisodeEvent, Moved, Started, Stepped
from playbench.app.players.human import HumanInput
from playbench.app.ui.banner import EndBanner
from playbench.app.ui.browser_page import PageView
from playbench.app.ui.hud import HudPanel
from playbench.app.ui.models.episode_host import EpisodeHost
from playbench.app.ui.models.game_play import (
    GameInputs,
    Refusal,
    game_end_text,
    game_figures,
)
from playbench.app.ui.models.page_stream import PageStream
from playbench.app.ui.models.session import PlaySession
from playbench.app.ui.models.web_session import WebInput, WebRuntime
from playbench.app.ui.qt import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSplitter,
    Qt,
    QTimer,
    QVBoxLayout,
    QWidget,
)
from playbench.app.ui.surface import SurfaceContext, SurfaceView
from playbench.app.ui.web_runtime import shared_runtime
from playbench.games.env import ShowsPage
from playbench.games.kind import KindError, person_input

GAME_PAGE = (1280, 720)
"""GameWorld's viewport, the page size shown until the game's first frame says otherwise."""

HELP = ("Each key press is one action - holding it is still one - and runs for the duration "
        "the game binds to it, as a model's action does; every action counts against the "
        "budget.")


class GamePlayView(SurfaceView):
    """The browser-game surface: one person's browser-game episode at a time."""

    def __init__(self, ctx: SurfaceContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.stream: PageStream | None = None
        self.game_inputs: GameInputs | None = None
        self._sent = ""

        self.objective = QLabel("No game is being played. Choose one in the Library "
                                "(Browser games).")
        self.objective.setObjectName("title")
        self.objective.setWordWrap(True)
        self.where = QLabel("")
        self.where.setObjectName("hint")
        self.where.setWordWrap(True)
        self.page = PageView()
        self.page.set_placeholder("No game yet.")
        self.sent = QLabel("")
        self.sent.setObjectName("hint")
        self.banner = EndBanner("Next task")
        self.next_button = self.banner.next_button
        self.view_button = self.banner.view_button
        self.library_button = self.banner.library_button

        self.score = QLabel("-")
        self.score.setObjectName("big")
        self.best = QLabel("-")
        self.best.setObjectName("figure")
        self.target = QLabel("-")
        self.target.setObjectName("figure")
        self.progress = QProgressBar()
        self.progress.setRange(0, 100)
        self.progress.setObjectName("progress")
        self.clock = QLabel("")
        self.clock.setObjectName("hint")
        self.clock.setWordWrap(True)
        figures = QFrame()
        figures.setObjectName("figures")
        grid = QGridLayout(figures)
        grid.addWidget(QLabel("Score"), 0, 0)
        grid.addWidget(self.score, 1, 0)
        grid.addWidget(QLabel("Best"), 0, 1)
        grid.addWidget(self.best, 1, 1)
        grid.addWidget(QLabel("Target"), 0, 2)
        grid.addWidget(self.target, 1, 2)
        grid.addWidget(QLabel("Progress"), 2, 0)
        grid.addWidget(self.progress, 2, 1, 1, 2)
        grid.addWidget(self.clock, 3, 0, 1, 3)
        self.hud = HudPanel()
        self.give_up = QPushButton("Give up")
        for b in (self.give_up, self.next_button, self.view_button, self.library_button):
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # keys belong to the game

        left = QWidget()
        lv = QVBoxLayout(left)
        lv.setContentsMargins(0, 0, 0, 0)
        lv.setSpacing(4)
        lv.addWidget(self.banner)
        lv.addWidget(self.page, 1)
        lv.addWidget(self.sent)
        right = QWidget()
        right.setMinimumWidth(300)
        rv = QVBoxLayout(right)
        rv.setContentsMargins(0, 0, 0, 0)
        rv.addWidget(figures)
        rv.addWidget(self.hud, 1)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.give_up)
        rv.addLayout(buttons)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(right)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 1)
        split.setSizes([960, 320])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(self.objective)
        layout.addWidget(self.where)
        layout.addWidget(split, 1)

        canvas = self.page.canvas
        canvas.key_changed.connect(self._key)
        canvas.clicked.connect(self._click)
        self.give_up.clicked.connect(lambda: self.ask_give_up(after=self.page.canvas.setFocus))
        self.next_button.clicked.connect(self.go_next)
        self.view_button.clicked.connect(self.view_episode)
        self.library_button.clicked.connect(self.go_library)
        self.timer = QTimer(self)
        self.timer.setInterval(100)
        self.timer.timeout.connect(self.hud.tick)
        self.refit = QTimer(self)  # a resize restarts the stream sized for the page, once
        self.refit.setSingleShot(True)
        self.refit.setInterval(250)
        self.refit.timeout.connect(self._refit_stream)
        self.page.refitted.connect(self.refit.start)
        self.set_active(False)

    @property
    def runtime(self) -> WebRuntime:
        """The Chromium every browser surface shares."""
        return shared_runtime(self.ctx)

    # -- a new session ------------------------------------------------------------------------

    @property
    def player(self) -> Any:
        return None if self.session is None else self.session.player

    def show_heading(self, text: str) -> None:
        self.where.setText(f"{text} · {self.where.text()}")

    def show_finished(self, text: str, *, can_view: bool) -> None:
        self.banner.show_end(text, False, can_go_next=False, can_view=can_view)

    def show_session(self, session: PlaySession, host: EpisodeHost) -> None:
        self._end_stream()
        level, setting = session.task.level, session.setting
        kind = self.runtime.kind(session.task.game)
        table = person_input(kind, level, setting.name)
        if table is None:
            raise KindError(f"{kind.name} gives no person input for the game pane")
        self.game_inputs = GameInputs(table, table.interface)
        meta = level.meta or {}
        self.objective.setText(str(meta.get("prompt") or level.title))
        self.where.setText(f"{level.title} · setting {setting.name}: {setting.description}")
        self.page.set_image(None, page_size=GAME_PAGE)
        self.page.set_placeholder("Opening the game…")
        self._sent = ""
        self.sent.setText("")
        self.hud.attach(session, f"{self.game_inputs.table.controls_help()}\n{HELP}")
        self.hud.history_title.setText("Your actions")
        self._figures({})
        self.banner.hide()
        self.set_active(True)
        self.stream = PageStream(self.page.show_jpeg, frame_size=self.page.canvas.device_size)
        self.page.canvas.setFocus()

    def set_active(self, on: bool) -> None:
        self.give_up.setEnabled(on)
        self.page.accepts_input = on
        if on:
            self.timer.start()
        else:
            self.timer.stop()

    # -- episode events -----------------------------------------------------------------------

    def on_event(self, event: EpisodeEvent) -> None:
        if isinstance(event, (Started, Moved)):
            self._observed(event.observation)
        elif isinstance(event, Stepped):
            r = event.record
            if r.valid:
                self.hud.show_feedback(f"Done: {r.action}", "neutral")
            else:
                kind = (r.invalid_kind or "invalid").replace("_", " ")
                self.hud.show_feedback(f"Action {r.index + 1} was invalid ({kind}): "
                                       f"{r.invalid_reason}. It used an action, as a model's "
                                       "invalid action does.")
        elif isinstance(event, Ended):
            self._ended(event)
        self.hud.refresh()

    def _observed(self, obs: Any) -> None:
        """A new observation: the HUD's figures; the stream, or the observation's frame when
        the page cannot be streamed."""
        info = obs.info or {}
        self._figures(info.get("hud") or {})
        streaming = self.stream is not None and self.stream.active
        if not streaming and obs.frame is not None:
            self.page.set_frame(obs.frame)
        env = self.session.env if self.session is not None else None
        page_session = env.page_session if isinstance(env, ShowsPage) else None
        if self.stream is not None and page_session is not None:
            self.state.jobs.start(self.stream.follow(page_session), name="game stream")

    def _figures(self, hud: dict[str, Any]) -> None:
        use = self.session.budget_use() if self.session is not None else None
        f = game_figures(hud, None if use is None else use.left,
                         None if use is None else use.limit)
        self.score.setText(f.score)
        self.best.setText(f.best)
        self.target.setText(f.target)
        self.progress.setValue(round(100 * f.progress_value))
        self.progress.setFormat(f.progress)
        self.clock.setText(f.clock)

    def _ended(self, event: Ended) -> None:
        if self.game_inputs is not None:
            self.game_inputs.release_all()
        self._end_stream()
        r = event.result
        host = self.host
        self.banner.show_end(game_end_text(r, blind=host.blind, study=host.study() is not None),
                             bool(r.scores.get("solved")) and not host.blind,
                             next_text=host.next_text or "Next task",
                             can_go_next=host.can_go_next(), can_view=not host.blind)

    def _refit_stream(self) -> None:
        if self.stream is not None:
            self.state.jobs.start(self.stream.refit(), name="game stream size")

    def _end_stream(self) -> None:
        if self.stream is not None:
            stream, self.stream = self.stream, None
            self.state.jobs.start(stream.stop(), name="stop game stream")

    # -- input --------------------------------------------------------------------------------

    def _accepting(self) -> bool:
        return self.host.accepting()

    def _key(self, name: str, pressed: bool, auto_repeat: bool, stamp_ms: int) -> None:
        gi = self.game_inputs
        if gi is None or not self._accepting():
            return
        now = stamp_ms / 1000 if stamp_ms else None  # the window system's time of the event
        if not pressed:
            if not auto_repeat:
                held = gi.key_up(name, now)
                if held is not None and held >= 250:
                    self.sent.setText(f"{self._sent} (held {held / 1000:.1f} s: still one "
                                      "action)")
            return
        self._take(gi.key_down(name, now, auto_repeat))

    def _click(self, x: float, y: float) -> None:
        if self.game_inputs is not None and self._accepting():
            self._take(self.game_inputs.click(x, y))

    def _take(self, made: WebInput | Refusal | None) -> None:
        if made is None:
            return
        if isinstance(made, Refusal):
            self.hud.show_feedback(made.text, "neutral")
            return
        self.host.push(lambda: [made])

    def hand_over(self, given: WebInput | HumanInput) -> None:
        self.player.submit(given)
        if isinstance(given, WebInput):
            self._sent = f"Sent: {given.text}"
            self.sent.setText(self._sent)

    def focus_input(self) -> None:
        self.page.canvas.setFocus()

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        self.page.canvas.setFocus()
