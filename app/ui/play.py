"""The board surface's view: a person plays one level under the same budget and information as
a model.

Keys and clicks go through the game's input map (``playbench.app.players.board_input``) and become
the canonical action texts a model would send; the view submits them to the episode's
:class:`~playbench.app.players.human.HumanPlayer`. In one-step settings the same gestures only add
to the plan field, and the plan is submitted once. The HUD shows what the setting allows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playbench.app.core.events import Ended, EpisodeEvent, Moved, Started, Stepped
from playbench.app.players.board_input import Gesture, help_for, input_for
from playbench.app.players.human import HumanInput, HumanPlayer
from playbench.app.players.plans import join_plan, split_plan
from playbench.app.ui.banner import EndBanner
from playbench.app.ui.board import BoardWidget
from playbench.app.ui.hud import HudPanel
from playbench.app.ui.models.board_notes import full_board_note, rules_note
from playbench.app.ui.models.episode_host import EpisodeHost
from playbench.app.ui.models.outcome import board_end_text
from playbench.app.ui.models.session import PlaySession
from playbench.app.ui.models.start import heading
from playbench.app.ui.qt import (
    QHBoxLayout,
    QKeySequence,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QShortcut,
    QSplitter,
    Qt,
    QTimer,
    QVBoxLayout,
    QWidget,
)
from playbench.app.ui.study_instructions import InstructionsButton
from playbench.app.ui.surface import SurfaceContext, SurfaceView
from playbench.games.env import BoardTaskEnv
from playbench.games.kind import default_registry


class PlayView(SurfaceView):
    """The board surface: one person's board episode at a time."""

    """The paused study task should go on (the Studies view continues it)."""

    def __init__(self, ctx: SurfaceContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.input = input_for("")

        self.title = QLabel("No level is being played. Choose one in the Library.")
        self.title.setObjectName("title")
        self.title.setWordWrap(True)
        self.setting_label = QLabel("")
        self.setting_label.setObjectName("hint")
        self.setting_label.setWordWrap(True)
        self.board = BoardWidget()
        self.board.setObjectName("board")
        self.digits = QWidget()
        digit_row = QHBoxLayout(self.digits)
        digit_row.setContentsMargins(0, 0, 0, 0)
        digit_row.addWidget(QLabel("Digit:"))
        self.digit_buttons = []
        for d in range(1, 10):
            b = QPushButton(str(d))
            b.setObjectName("digit")
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            b.clicked.connect(lambda _c=False, d=d: self._digit(d))
            digit_row.addWidget(b)
            self.digit_buttons.append(b)
        digit_row.addStretch(1)

        self.banner = EndBanner("Next level")
        self.banner_text = self.banner.text
        self.next_button = self.banner.next_button
        self.view_button = self.banner.view_button
        self.library_button = self.banner.library_button

        self.hud = HudPanel()
        self.hud.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.typed = QLineEdit()
        self.typed.setObjectName("typed")
        self.typed.setPlaceholderText("or type an action as a model would, then Enter")
        self.plan_title = QLabel("Your plan: the whole action list, submitted once")
        self.plan_title.setObjectName("heading")
        self.plan = QPlainTextEdit()
        self.plan.setObjectName("plan")
        self.plan.setMaximumHeight(110)
        self.plan.setMinimumHeight(48)  # (Qt's 70 px held a 1024x700 window taller)
        self.plan_count = QLabel("")
        self.plan_count.setObjectName("hint")
        self.submit = QPushButton("Submit plan")
        self.submit.setObjectName("primary")
        self.undo = QPushButton("Undo last move")
        self.undo.setObjectName("undo")
        self.give_up = QPushButton("Give up")
        self.pause_task = QPushButton("Pause task")
        self.pause_task.setObjectName("pause_task")
        self.pause_task.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.pause_task.setToolTip("Stops the study task and its clock; every step and the "
                                   "time used are kept. Leaving the Play tab pauses too.")
        self.pause_task.hide()
        self.instructions = InstructionsButton()
        # Keys belong to the board while it is shown: a button that took focus on a click
        # turned Right into "focus the next button" and Space into a second press.
        for b in (self.submit, self.undo, self.give_up, self.next_button, self.view_button,
                  self.library_button):
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)

        left = QWidget()
        lv = QVBoxLayout(left)
        lv.setContentsMargins(0, 0, 0, 0)
        lv.addWidget(self.banner)
        lv.addWidget(self.board, 1)
        lv.addWidget(self.digits)
        right = QWidget()
        right.setMinimumWidth(360)
        rv = QVBoxLayout(right)
        rv.setContentsMargins(0, 0, 0, 0)
        rv.addWidget(self.hud, 1)
        rv.addWidget(self.typed)
        rv.addWidget(self.plan_title)
        rv.addWidget(self.plan)
        rv.addWidget(self.plan_count)
        rv.addWidget(self.submit)
        buttons = QHBoxLayout()
        buttons.addWidget(self.undo)
        buttons.addStretch(1)
        buttons.addWidget(self.give_up)
        rv.addLayout(buttons)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(right)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 1)
        split.setSizes([900, 420])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        heading_row = QHBoxLayout()
        heading_row.addWidget(self.title, 1)
        heading_row.addWidget(self.instructions, 0, Qt.AlignmentFlag.AlignTop)
        heading_row.addWidget(self.pause_task, 0, Qt.AlignmentFlag.AlignTop)
        layout.addLayout(heading_row)
        layout.addWidget(self.setting_label)
        layout.addWidget(split, 1)

        self.board.key_pressed.connect(self._key)
        self.board.pressed.connect(self._press)
        self.board.released.connect(self._release)
        self.typed.returnPressed.connect(self._typed)
        self.plan.textChanged.connect(self._plan_changed)
        self.submit.clicked.connect(self._submit_plan)
        self.undo.clicked.connect(self._undo)
        self.give_up.clicked.connect(lambda: self.ask_give_up(after=self._board_focus))
        for b in (self.submit, self.undo, self.give_up, self.pause_task, *self.digit_buttons):
            b.clicked.connect(self._board_focus)
        self.pause_task.clicked.connect(self._pause_clicked)
        self.next_button.clicked.connect(self.go_next)
        self.view_button.clicked.connect(self.view_episode)
        self.library_button.clicked.connect(self.go_library)
        QShortcut(QKeySequence.StandardKey.Undo, self).activated.connect(self._undo)
        self.timer = QTimer(self)
        self.timer.setInterval(100)
        self.timer.timeout.connect(self.hud.tick)
        self.host.on_changed = self._show_pause
        self.set_active(False)

    # -- a new session ------------------------------------------------------------------------

    @property
    def player(self) -> HumanPlayer | None:
        return None if self.session is None else self.session.player  # type: ignore[return-value]

    def show_heading(self, text: str) -> None:
        self.title.setText(f"{text} · {self.title.text()}")

    def show_finished(self, text: str, *, can_view: bool) -> None:
        self.banner.show_end(text, False, can_go_next=False, can_view=can_view)

    def show_session(self, session: PlaySession, host: EpisodeHost) -> None:
        game = session.task.game
        setting = session.setting
        self.input = input_for(game)
        title, where = heading(session.spec.title, session.task.source, session.task.level)
        self.title.setText(title)
        undo = " Undo is allowed." if session.undo_allowed else ""
        self.setting_label.setText(f"{where} · setting {setting.name}: "
                                   f"{setting.description}.{undo}")
        image = setting.observation != "text"
        self.board.set_frame(None)
        self.board.set_text(None)
        self.board.set_highlight(None)
        self.board.set_placeholder("Starting…")
        self.digits.setVisible(self.input.uses_digits and image)
        how = help_for(game) if image else (
            "Text-only setting: the model gets no picture, so neither do you. The board "
            "on the left is exactly the text it reads." + (" The arrow keys work as usual."
                                                     if getattr(self.input, "uses_arrows", False)
                                                     else ""))
        self.hud.attach(session, f"{how}\nActions as a model writes them: "
                                 f"{session.spec.move_help}")
        one = setting.one_step
        self.plan.clear()
        self.plan.setReadOnly(False)
        for w in (self.plan_title, self.plan, self.plan_count, self.submit):
            w.setVisible(one)
        self.typed.setVisible(not one)
        self.undo.setVisible(session.undo_allowed)
        self.banner.hide()
        self.instructions.show_for(host.instructions)
        self.set_active(True)
        self.board.setFocus()

    def set_active(self, on: bool) -> None:
        for w in (self.typed, self.plan, self.submit, self.undo, self.give_up,
                  *self.digit_buttons):
            w.setEnabled(on)
        self.board.accepts_input = on
        if on:
            self.timer.start()
        else:
            self.timer.stop()

    # -- episode events -----------------------------------------------------------------------

    def on_event(self, event: EpisodeEvent) -> None:
        if isinstance(event, Started):
            self._show_frame(event.observation)
            self._note_rules()
            self._note_board()
        elif isinstance(event, Moved):
            # Shown at once, before the step's commit: a person sees the move without
            # waiting for the database (the next decision still waits for it).
            self._show_frame(event.observation)
            self.board.repaint()
            return
        elif isinstance(event, Stepped):
            self._show_frame(event.observation)
            r = event.record
            if r.valid:
                self.hud.show_feedback("Your move.", "neutral")
            else:
                kind = (r.invalid_kind or "invalid").replace("_", " ")
                self.hud.show_feedback(f"Step {r.index + 1} was invalid ({kind}): "
                                       f"{r.invalid_reason}. It used an action, as a model's "
                                       "invalid action does.")
            if r.action and r.action.startswith("undo") and r.valid:
                self.input.clear()
            self._note_board()
        elif isinstance(event, Ended):
            self._ended(event)
        self.hud.refresh()
        self._update_highlight()

    def _note_rules(self) -> None:
        """Add the rule a person must know before writing (a Sudoku digit's finality) to the
        help, now that the episode's rules exist."""
        s = self._live
        rules = s.env.board.rules if isinstance(s.env, BoardTaskEnv) else None
        note = rules_note(default_registry().get(s.task.game), rules, s.undo_allowed)
        if note and note not in self.hud.help.text():
            self.hud.help.setText(f"{self.hud.help.text()}\n{note}")

    def _note_board(self) -> None:
        """Add what the rules make of the board now (a full but wrong Sudoku, say)."""
        s = self._live
        rules = s.env.board.rules if isinstance(s.env, BoardTaskEnv) else None
        note = full_board_note(default_registry().get(s.task.game), rules, s.state,
                               s.undo_allowed)
        if note is not None:
            said = self.hud.feedback.text()
            self.hud.show_feedback(note if said == "Your move." else f"{said}\n{note}")

    def _show_frame(self, obs: Any) -> None:
        if obs is None or self.session is None:
            return
        if self._live.setting.observation == "text":
            self.board.set_text(obs.text)
        else:
            self.board.set_frame(obs.frame)

    def _ended(self, event: Ended) -> None:
        r = event.result
        host = self.host
        optimal = self._live.task.level.meta.get("optimal") if self.session else None
        text = board_end_text(r, optimal, host.blind, study=host.study() is not None)
        self.banner.show_end(
            text, r.end_reason == "solved" and not host.blind,
            next_text=host.next_text or "Next level", can_go_next=host.can_go_next(),
            can_view=not host.blind)
        self.hud.show_feedback("", "neutral")

    # -- input --------------------------------------------------------------------------------
    #
    # Gestures go to the host's queue (playbench.app.ui.models.input_queue), which turns them
    # into inputs one decision at a time, each against the state the one before left.

    def _accepting(self) -> bool:
        return self.host.accepting()

    @property
    def _live(self) -> PlaySession:
        return self.host.live

    def _queue(self, make: Callable[[Any], HumanInput | None]) -> None:
        """Queue a gesture; ``make`` reads the board state current when its turn comes."""
        self.host.push(lambda: self._made(make(self._live.state)))

    def _made(self, given: HumanInput | None) -> list[HumanInput]:
        self._update_highlight()
        return [] if given is None else [given]

    def _gesture(self, g: Gesture | None) -> HumanInput | None:
        if g is None:
            return None
        if self._live.setting.one_step:
            game = self._live.task.game
            texts = split_plan(game, self.plan.toPlainText())
            self.plan.setPlainText(join_plan(game, [*texts, g.text]))
            return None
        return HumanInput.move(g.text, g.raw)

    def _key(self, name: str) -> None:
        self._queue(lambda state: self._gesture(self.input.key(name, state)))

    def _press(self, x: float, y: float) -> None:
        self._queue(lambda state: self._gesture(
            self.input.press(self._live.geometry.locate(state, x, y), state)))

    def _release(self, x: float, y: float) -> None:
        self._queue(lambda state: self._gesture(
            self.input.release(self._live.geometry.locate(state, x, y), state)))

    def _digit(self, d: int) -> None:
        self._queue(lambda state: self._gesture(self.input.digit(d, state)))
        self.board.setFocus()

    def _update_highlight(self) -> None:
        s = self.session
        sel = self.input.selected
        if s is None or sel is None or s.state is None:
            self.board.set_highlight(None)
        else:
            self.board.set_highlight(s.geometry.area(s.state, sel))

    def _typed(self) -> None:
        text = self.typed.text().strip()
        if text and self._accepting() and not self._live.setting.one_step:
            self._queue(lambda _state: HumanInput.move(text, f"typed:{text}"))
            self.typed.clear()

    def _plan_changed(self) -> None:
        if self.session is None:
            return
        n = len(split_plan(self._live.task.game, self.plan.toPlainText()))
        self.plan_count.setText(f"{n} action{'s' if n != 1 else ''} in the plan")

    def _submit_plan(self) -> None:
        if not self._accepting() or not self._live.setting.one_step:
            return
        plan = self.plan.toPlainText().strip()
        self._queue(lambda _state: HumanInput.plan(plan))
        self.plan.setReadOnly(True)
        self.submit.setEnabled(False)

    def _undo(self) -> None:
        if not self._accepting():
            return
        if self._live.undo_allowed:
            self._queue(self._undo_now)
        else:  # Ctrl+Z did nothing visible: say why (nothing is recorded, no action is used)
            self.hud.show_feedback("Undo is not allowed in this setting.", "neutral")

    def _undo_now(self, _state: Any) -> HumanInput | None:
        """Undo in its turn: it takes back the latest move made before it (if any)."""
        if not self._live.can_undo():
            return None
        self.input.clear()
        return HumanInput.undo()

    def focus_input(self) -> None:
        self.board.setFocus()

    def _board_focus(self) -> None:
        """Give the keyboard back to the board (after a button or a question box)."""
        if self.board.isVisible():
            self.board.setFocus(Qt.FocusReason.OtherFocusReason)

    # -- the study clock: pause and continue ----------------------------------------------------

    def _show_pause(self) -> None:
        """The Pause/Continue button as the study task's state says (hidden otherwise)."""
        state = self.host.pause_state()
        self.pause_task.setVisible(state.visible)
        self.pause_task.setText(state.text)
        self.pause_task.setEnabled(state.enabled)

    def pause_study(self) -> bool:
        """Pause the study task being played (see EpisodeHost.pause_study)."""
        return self.host.pause_study()

    def _pause_clicked(self) -> None:
        if self.host.pause_state().paused:
            self.continue_study.emit()
        else:
            self.host.pause_study()
