"""The line the Studies view shows instead of a queue when the annotator may not take part
(``app.studies.admission``): why, and for an invitation-only study a way to give the code."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QHBoxLayout, QInputDialog, QLabel, QPushButton, QWidget

from playbench.app.studies.admission import NotAdmitted

AskCode = Callable[[QWidget], str | None]


def ask_code(parent: QWidget) -> str | None:
    """The invite code typed by the annotator; None when cancelled."""
    text, ok = QInputDialog.getText(parent, "Invite code",
                                    "This study is by invitation. Your invite code:")
    return text.strip() if ok and text.strip() else None


class AdmissionPanel(QWidget):
    """Shows a refusal; ``on_code`` gets the invite code the annotator typed."""

    def __init__(self, on_code: Callable[[str], None], ask: AskCode = ask_code) -> None:
        super().__init__()
        self.on_code = on_code
        self.ask = ask
        self.reason = QLabel("")
        self.reason.setObjectName("warning")
        self.reason.setWordWrap(True)
        self.code_button = QPushButton("Enter invite code…")
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.reason, 1)
        row.addWidget(self.code_button)
        self.code_button.clicked.connect(self.enter_code)
        self.show_refusal(None)

    def show_refusal(self, refusal: NotAdmitted | None) -> None:
        self.reason.setText(str(refusal) if refusal else "")
        self.code_button.setVisible(bool(refusal and refusal.needs_code))
        self.setVisible(refusal is not None)

    def enter_code(self) -> None:
        code = self.ask(self)
        if code:
            self.on_code(code)
