"""The fair-play HUD: actions left, elapsed time, think time, feedback, the text the setting
gives a model, and - only where the setting shows history - the list of earlier moves."""

from __future__ import annotations

from playbench.app.core.recorder import StepRecord
from playbench.app.ui.models.session import PlaySession
from playbench.app.ui.models.wording import action_text
from playbench.app.ui.qt import (
    QColor,
    QFrame,
    QGridLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
    monospace,
    restyle,
)

STARTING = "Starting…"
"""The feedback line until the episode's first observation is in."""


def clock_text(seconds: float) -> str:
    m, s = divmod(int(seconds), 60)
    return f"{m:02d}:{s:02d}"


def step_line(r: StepRecord) -> str:
    action = action_text(r.action)
    mark = "" if r.valid else f"  - invalid ({r.invalid_kind})"
    think = f"  {r.think_ms / 1000:.1f} s" if r.think_ms else ""
    return f"{r.index + 1}. {action}{mark}{think}"


class HudPanel(QWidget):
    """Reads a :class:`PlaySession`; ``refresh`` on events, ``tick`` on a timer."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session: PlaySession | None = None
        self._shows_text = False
        self._shows_history = False
        self._opening = "Your move."
        self.actions_left = QLabel("-")
        self.actions_left.setObjectName("big")
        self.actions_of = QLabel("")
        self.time_of = QLabel("")
        self.elapsed = QLabel("00:00")
        self.elapsed.setObjectName("figure")
        self.think_now = QLabel("-")
        self.think_now.setObjectName("figure")
        self.think_last = QLabel("-")
        self.think_last.setObjectName("figure")
        self.feedback = QLabel("")
        self.feedback.setObjectName("feedback")
        self.feedback.setWordWrap(True)
        self.help = QLabel("")
        self.help.setWordWrap(True)
        self.help.setObjectName("hint")
        self.text_title = QLabel("Board as text (what the model reads)")
        self.text_title.setObjectName("heading")
        self.text = QPlainTextEdit()
        self.text.setObjectName("board_text")
        self.text.setReadOnly(True)
        self.text.setFont(monospace(11))
        self.text.setMaximumHeight(140)
        self.history_title = QLabel("Your moves")
        self.history_title.setObjectName("heading")
        self.history = QListWidget()
        self.history.setObjectName("history")
        # Both lists grow into the spare height; their small minimum keeps the views that
        # carry this panel inside a 1024x700 window (Qt's default of 70 px each did not).
        self.text.setMinimumHeight(40)
        self.history.setMinimumHeight(40)

        figures = QFrame()
        figures.setObjectName("figures")
        grid = QGridLayout(figures)
        grid.addWidget(QLabel("Actions left"), 0, 0)
        grid.addWidget(self.actions_left, 1, 0)
        grid.addWidget(self.actions_of, 2, 0)
        grid.addWidget(QLabel("Time"), 0, 1)
        grid.addWidget(self.elapsed, 1, 1)
        grid.addWidget(self.time_of, 2, 1)
        grid.addWidget(QLabel("This action"), 0, 2)
        grid.addWidget(self.think_now, 1, 2)
        grid.addWidget(QLabel("Last action"), 0, 3)
        grid.addWidget(self.think_last, 1, 3)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(figures)
        layout.addWidget(self.feedback)
        layout.addWidget(self.help)
        layout.addWidget(self.text_title)
        layout.addWidget(self.text)
        layout.addWidget(self.history_title)
        layout.addWidget(self.history, 1)
        layout.addStretch(1)
        self._layout = layout

    def attach(self, session: PlaySession, help_text: str) -> None:
        self.session = session
        s = session.setting
        self.help.setText(help_text)
        # Text-only settings show the text in the board's place; "both" shows it here too.
        shows_text = self._shows_text = s.observation == "both"
        self.text_title.setVisible(shows_text)
        self.text.setVisible(shows_text)
        shows_history = self._shows_history = s.history
        self.history_title.setVisible(shows_history)
        self.history.setVisible(shows_history)
        # The list takes the spare height when shown; otherwise a stretch keeps the rest up.
        self._layout.setStretch(self._layout.count() - 1, 0 if shows_history else 1)
        self.history.clear()
        self.think_last.setText("-")
        self._opening = ("Type the whole plan, then submit it once." if s.one_step
                         else "Your move.")
        self.show_feedback(STARTING, "neutral")  # a slow game (football) takes seconds
        self.refresh()

    def refresh(self) -> None:
        """Update after an episode event."""
        session = self.session
        if session is None:
            return
        use = session.budget_use()
        if use.limit is not None:
            self.actions_left.setText(str(use.left))
            self.actions_of.setText(f"of {use.limit}")
        elif use.decision_limit is not None:
            left = max(0, use.decision_limit - use.decisions)
            self.actions_left.setText(str(left))
            self.actions_of.setText("submission" if use.decision_limit == 1 else "submissions")
        else:
            self.actions_left.setText("no limit")
            self.actions_of.setText("")
        if session.observation is not None and self.feedback.text() == STARTING:
            self.show_feedback(self._opening, "neutral")  # the first observation is in
        if (session.observation is not None and self._shows_text
                and self.text.toPlainText() != session.observation.text):
            self.text.setPlainText(session.observation.text)
        if session.steps:
            self.think_last.setText(f"{session.steps[-1].think_ms / 1000:.1f} s")
        if self._shows_history:
            for r in session.steps[self.history.count():]:
                item = QListWidgetItem(step_line(r))
                if not r.valid:
                    item.setForeground(QColor(190, 40, 40))
                self.history.addItem(item)
            self.history.scrollToBottom()
        self.tick()

    def tick(self) -> None:
        """Update the clocks (called several times a second)."""
        session = self.session
        if session is None:
            return
        elapsed = session.elapsed()
        limit = session.budget.seconds
        # The limit goes under the clock (as "of 40" under actions left): beside it, the big
        # figures no longer fit the side column of a 1024 px window.
        self.elapsed.setText(clock_text(elapsed))
        self.time_of.setText(f"of {clock_text(limit)}" if limit else "")
        thinking = session.thinking()
        self.think_now.setText("-" if thinking is None else f"{thinking:.1f} s")

    def show_feedback(self, text: str, kind: str = "bad") -> None:
        restyle(self.feedback, "kind", kind)
        self.feedback.setText(text)
