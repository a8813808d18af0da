"""The answer area of the "Answer a harness" view: a text reply, or a tool call built with a
form generated from the chosen tool's schema; Send, Decline, and the think time so far.

What may be sent is decided by ``playbench.app.ui.models.answering.compose``; this pane shows its
messages (in red, nothing sent) and hands a finished ``Reply`` to ``on_send``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from playbench.app.harness.queue import PendingRequest, Reply
from playbench.app.ui.models.answering import TEXT, TOOL, compose, form_for
from playbench.app.ui.models.tool_form import Raw, ToolForm
from playbench.app.ui.qt import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QTabWidget,
    QVBoxLayout,
    QWidget,
    restyle,
)
from playbench.app.ui.tool_form_view import ToolFormView


@dataclass
class Draft:
    """What the person had entered for a request they switched away from."""

    mode: str = TEXT
    text: str = ""
    tool: int = 0
    raw: dict[str, dict[str, Raw]] = field(default_factory=dict)
    """Form values by tool name."""


class ComposePane(QWidget):
    """Build and send the answer to one request."""

    def __init__(self, on_send: Callable[[PendingRequest, Reply], None],
                 on_decline: Callable[[PendingRequest], None],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.on_send = on_send
        self.on_decline = on_decline
        self.request: PendingRequest | None = None
        self.form: ToolForm | None = None
        self.form_view: ToolFormView | None = None
        self.drafts: dict[int, Draft] = {}
        self._stored_raw: dict[str, dict[str, Raw]] = {}
        """Form values of the shown request's other tools (switching tools keeps them)."""

        self.heading = QLabel("Your answer")
        self.heading.setObjectName("heading")
        self.think = QLabel("")
        self.think.setObjectName("hint")
        self.modes = QTabWidget()
        self.modes.setObjectName("answer_modes")
        self.text = QPlainTextEdit()
        self.text.setObjectName("answer_text")
        self.text.setPlaceholderText("Type the reply as the model would write it.")
        self.modes.addTab(self.text, "Text")
        tool_page = QWidget()
        tv = QVBoxLayout(tool_page)
        tv.setContentsMargins(4, 6, 4, 4)
        row = QHBoxLayout()
        row.addWidget(QLabel("Tool:"))
        self.tool = QComboBox()
        self.tool.setObjectName("tool_choice")
        row.addWidget(self.tool, 1)
        tv.addLayout(row)
        self.tool_help = QLabel("")
        self.tool_help.setObjectName("hint")
        self.tool_help.setWordWrap(True)
        tv.addWidget(self.tool_help)
        self.form_area = QScrollArea()
        self.form_area.setWidgetResizable(True)
        tv.addWidget(self.form_area, 1)
        self.required_hint = QLabel("* required")
        self.required_hint.setObjectName("hint")
        tv.addWidget(self.required_hint)
        self.modes.addTab(tool_page, "Tool call")
        self.problems = QLabel("")
        self.problems.setObjectName("problems")
        self.problems.setWordWrap(True)
        restyle(self.problems, "kind", "bad")
        self.send = QPushButton("Send answer")
        self.send.setObjectName("primary")
        self.send.setToolTip("Send this reply to the harness (Ctrl+Return)")
        self.decline = QPushButton("Decline")
        self.decline.setToolTip("Do not answer: the request is recorded as abandoned and the "
                                "harness gets an error")
        buttons = QHBoxLayout()
        buttons.addWidget(self.decline)
        buttons.addStretch(1)
        buttons.addWidget(self.send)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.heading)
        layout.addWidget(self.think)
        layout.addWidget(self.modes, 1)
        layout.addWidget(self.problems)
        layout.addLayout(buttons)

        self.tool.currentIndexChanged.connect(self._tool_chosen)
        self.send.clicked.connect(self.submit)
        self.decline.clicked.connect(self._decline)
        self.show_request(None)

    @property
    def mode(self) -> str:
        return TOOL if self.modes.currentIndex() == 1 else TEXT

    def show_request(self, request: PendingRequest | None) -> None:
        """Answer ``request`` now (None: nothing to answer). A draft left for another
        request is kept and comes back when that request is shown again."""
        if request is self.request:
            return
        self._keep_draft()
        self.request = request
        self.problems.setText("")
        for w in (self.send, self.decline, self.modes):
            w.setEnabled(request is not None)
        if request is None:
            self.heading.setText("Your answer")
            self.think.setText("")
            self.text.clear()
            self._set_tools([])
            return
        self.heading.setText(f"Your answer to request #{request.id} ({request.harness}, "
                             f"task {request.task_id})")
        draft = self.drafts.pop(request.id, Draft())
        names = [t.name for t in request.tools]
        self._stored_raw = draft.raw
        self._set_tools(names)
        self.modes.setTabEnabled(1, bool(names))
        self.modes.setCurrentIndex(1 if draft.mode == TOOL and names else 0)
        self.text.setPlainText(draft.text)
        if names:
            self.tool.setCurrentIndex(min(draft.tool, len(names) - 1))

    def _keep_draft(self) -> None:
        old = self.request
        if old is None or old.done:
            return
        raw = dict(self._stored_raw)
        if self.form is not None and self.form_view is not None:
            raw[self.form.name] = self.form_view.raw()
        self.drafts[old.id] = Draft(self.mode, self.text.toPlainText(),
                                    max(0, self.tool.currentIndex()), raw)

    def _set_tools(self, names: list[str]) -> None:
        self.tool.blockSignals(True)
        self.tool.clear()
        self.tool.addItems(names)
        self.tool.blockSignals(False)
        self._tool_chosen()

    def _tool_chosen(self) -> None:
        request, index = self.request, self.tool.currentIndex()
        if self.form is not None and self.form_view is not None:
            self._stored_raw = {**self._stored_raw, self.form.name: self.form_view.raw()}
        if request is None or index < 0 or index >= len(request.tools):
            self.form, self.form_view = None, None
            self.tool_help.setText("")
            self.form_area.setWidget(QLabel("No tools were offered with this request."))
            return
        spec = request.tools[index]
        self.form = form_for(spec)
        view = ToolFormView(self.form)
        stored = self._stored_raw.get(spec.name)
        if stored is not None:
            view.fill(stored)
        self.form_view = view
        help_text = spec.description
        if self.form.notes:
            help_text += ("\n" if help_text else "") + "\n".join(self.form.notes)
        self.tool_help.setText(help_text)
        self.form_area.setWidget(view)
        self.problems.setText("")

    def tick(self, now: float) -> None:
        """Show how long the request has been in front of the person (``now`` monotonic)."""
        r = self.request
        if r is None or r.shown_monotonic is None:
            self.think.setText("")
            return
        self.think.setText(f"Think time so far: {now - r.shown_monotonic:.0f} s "
                           "(recorded with the reply)")

    def submit(self) -> Reply | None:
        """Send the answer if it is complete; otherwise say what is missing, send nothing."""
        request = self.request
        if request is None:
            return None
        raw = self.form_view.raw() if self.form_view is not None else {}
        # A tool call is sent alone: text typed in the hidden Text tab is not slipped in.
        text = self.text.toPlainText() if self.mode == TEXT else ""
        reply, problems = compose(self.mode, text, self.form, raw)
        if reply is None:
            self.problems.setText("Not sent: " + "; ".join(problems))
            return None
        self.problems.setText("")
        self.on_send(request, reply)
        return reply

    def _decline(self) -> None:
        if self.request is not None:
            self.on_decline(self.request)
