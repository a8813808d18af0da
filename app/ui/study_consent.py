"""The consent screen the Studies tab shows before a person's first study task (practice
included): the instructions (Markdown), the consent text, the optional "seen before?" question
and an "I agree" button enabled only once the consent box is ticked and the question answered.

A page inside the tab, not a modal dialog: nothing waits in a nested event loop. Agreeing
records the acceptance in the thread pool (``StudyQueue.accept``) and then lets the task start;
declining records nothing and says so. The queue refuses to start a task without it anyway.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playbench.app.studies.consent import ConsentDue
from playbench.app.studies.queue import StudyQueue
from playbench.app.ui.models.app_state import AppState
from playbench.app.ui.models.consent_form import DECLINED, SEEN_BEFORE_QUESTION, ConsentForm
from playbench.app.ui.operation import Operation
from playbench.app.ui.qt import (
    QButtonGroup,
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QRadioButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

UNBOUNDED = 16_777_215
"""Qt's largest widget size (QWIDGETSIZE_MAX): no maximum height."""


def markdown_view(name: str) -> QTextBrowser:
    """A read-only Markdown view whose links open in the system browser."""
    view = QTextBrowser()
    view.setObjectName(name)
    view.setOpenExternalLinks(True)
    return view


class ConsentPanel(QWidget):
    """Asks one member for what the study needs before their first task."""

    def __init__(self, state: AppState, on_error: Callable[[BaseException], None]) -> None:
        super().__init__()
        self.recording: Operation[Any] = Operation(self, state.jobs, state.executor,
                                                   "record consent", on_error=on_error)
        self.form: ConsentForm | None = None
        """Set while the screen asks (None once answered, declined or closed)."""
        self.covers: tuple[QWidget, ...] = ()
        """Widgets of the tab hidden while the screen asks (the queue table), so that the
        texts get the room."""
        self.queue: StudyQueue | None = None
        self._then: Callable[[], None] | None = None
        self.heading = QLabel("")
        self.heading.setObjectName("heading")
        self.heading.setWordWrap(True)
        self.instructions = markdown_view("study_instructions")
        self.consent_title = QLabel("Consent")
        self.consent_title.setObjectName("heading")
        self.consent = markdown_view("study_consent")
        self.agree_box = QCheckBox("I have read the consent text and agree to take part")
        self.seen_label = QLabel(SEEN_BEFORE_QUESTION)
        self.seen_label.setWordWrap(True)
        self.seen_yes = QRadioButton("Yes")
        self.seen_no = QRadioButton("No")
        self.seen = QButtonGroup(self)
        self.seen.addButton(self.seen_yes)
        self.seen.addButton(self.seen_no)
        self.agree_button = QPushButton("I agree - start the study")
        self.agree_button.setObjectName("primary")
        self.decline_button = QPushButton("I do not agree")
        self.message = QLabel("")
        self.message.setObjectName("warning")
        self.message.setWordWrap(True)
        self.fields = QWidget()
        seen_row = QHBoxLayout()
        seen_row.addWidget(self.seen_label, 1)
        seen_row.addWidget(self.seen_yes)
        seen_row.addWidget(self.seen_no)
        buttons = QHBoxLayout()
        buttons.addWidget(self.agree_button)
        buttons.addWidget(self.decline_button)
        buttons.addStretch(1)
        inner = QVBoxLayout(self.fields)
        inner.setContentsMargins(0, 0, 0, 0)
        inner.addWidget(self.instructions, 2)
        inner.addWidget(self.consent_title)
        inner.addWidget(self.consent, 1)
        inner.addWidget(self.agree_box)
        inner.addLayout(seen_row)
        inner.addLayout(buttons)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.heading)
        layout.addWidget(self.fields, 1)
        layout.addWidget(self.message)
        self.agree_box.toggled.connect(self._gate)
        self.seen.buttonToggled.connect(lambda *_a: self._gate())
        self.agree_button.clicked.connect(self.agree)
        self.decline_button.clicked.connect(self.decline)
        self.hide()

    @property
    def seen_before(self) -> bool | None:
        """The answer given, or None while neither button is chosen."""
        return True if self.seen_yes.isChecked() else (
            False if self.seen_no.isChecked() else None)

    def ask(self, queue: StudyQueue, due: ConsentDue, then: Callable[[], None]) -> None:
        """Show what ``queue``'s member must read and answer (``due``, read with the queue);
        ``then`` runs once their acceptance is recorded (it starts the task)."""
        self.queue, self._then = queue, then
        form = self.form = ConsentForm(due)
        texts = form.due.texts
        self.heading.setText(form.heading())
        self.instructions.setMarkdown(texts.instructions or "_This study gives no "
                                                            "instructions._")
        self.consent.setMarkdown(texts.consent)
        consent_parts: tuple[QWidget, ...] = (self.consent_title, self.consent, self.agree_box)
        for part in consent_parts:
            part.setVisible(form.asks_consent)
        question: tuple[QWidget, ...] = (self.seen_label, self.seen_yes, self.seen_no)
        for part in question:
            part.setVisible(form.asks_seen_before)
        self.seen.setExclusive(False)  # so that both can be cleared
        self.seen_yes.setChecked(False)
        self.seen_no.setChecked(False)
        self.seen.setExclusive(True)
        self.agree_box.setChecked(False)
        self.agree_button.setText(form.agree_label())
        self.message.setText("")
        self.setMaximumHeight(UNBOUNDED)
        self.fields.show()
        self._gate()
        self.show()
        for cover in self.covers:
            cover.hide()

    def _gate(self) -> None:
        form = self.form
        self.agree_button.setEnabled(form is not None and not self.recording.running
                                     and form.can_agree(self.agree_box.isChecked(),
                                                        self.seen_before))

    def agree(self) -> Any:
        """Record the acceptance (in the thread pool), then start the task."""
        queue, form = self.queue, self.form
        if queue is None or form is None or not form.can_agree(self.agree_box.isChecked(),
                                                               self.seen_before):
            return None
        self.agree_button.setEnabled(False)
        consent, seen = self.agree_box.isChecked(), self.seen_before  # read on the UI thread
        return self.recording.call(lambda: queue.accept(consent=consent, seen_before=seen),
                                   done=self._recorded)

    def _recorded(self, _: None) -> None:
        then, self._then = self._then, None
        self.close_form()
        if then is not None:
            then()

    def decline(self) -> None:
        """Store nothing, start nothing, and say so."""
        self.form = self._then = None
        self.fields.hide()
        self.heading.setText("")
        self.message.setText(DECLINED)
        self.show()
        # Only the message is left: take no more height than it needs (the tab gives this
        # panel most of its room while the texts are shown).
        self.setMaximumHeight(self.sizeHint().height())
        for w in self.covers:
            w.show()

    def close_form(self) -> None:
        """Hide the screen (another study was chosen, or the acceptance is recorded)."""
        asked, self.form, self.queue, self._then = self.form, None, None, None
        self.hide()
        if asked is not None:
            for w in self.covers:
                w.show()
