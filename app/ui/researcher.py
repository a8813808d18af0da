"""The "Researcher view" switch of the Results, Compare and Episodes views: switching it on
asks for the researcher passphrase or key of sealed blind studies (``app.studies.credential``)
while any is still locked in this session; without it those studies stay hidden."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QCheckBox, QInputDialog, QLineEdit, QToolTip, QWidget

from playbench.app.studies import Viewer
from playbench.app.ui.models.app_state import AppState

Ask = Callable[[QWidget], str | None]


def ask_secret(parent: QWidget) -> str | None:
    """The passphrase (or the text of the key file) typed by the researcher; None when
    cancelled."""
    text, ok = QInputDialog.getText(
        parent, "Researcher passphrase",
        "Sealed blind studies show their scores only to the researcher.\n"
        "Passphrase or key (the text of the key file):", QLineEdit.EchoMode.Password)
    return text if ok and text else None


class ResearcherSwitch(QCheckBox):
    """A "Researcher view" check box bound to the session's unlocked studies."""

    def __init__(self, state: AppState, tooltip: str, ask: Ask = ask_secret) -> None:
        super().__init__("Researcher view")
        self.state = state
        self.ask = ask
        self.setToolTip(tooltip + " Sealed blind studies also need their researcher "
                        "passphrase or key.")
        self.notice = ""
        """Why the last unlock attempt did not unlock anything ("" when it did)."""
        self.toggled.connect(self._asked)

    def _asked(self, on: bool) -> None:
        if not on or not self.state.locked_studies():
            return
        secret = self.ask(self)
        if secret is None:
            self.notice = "Sealed blind studies stay hidden (no passphrase given)."
            return
        if self.state.unlock(secret):
            self.notice = ""
        else:
            self.notice = "That passphrase or key fits no sealed study; they stay hidden."
            QToolTip.showText(self.mapToGlobal(self.rect().bottomLeft()), self.notice, self)

    def viewer(self) -> Viewer:
        """The viewer the view shows data to: the annotator of this app, or the researcher
        (with what this session has unlocked) when switched on or when no one is entered."""
        who = self.state.prefs.annotator
        return self.state.researcher() if self.isChecked() or not who else Viewer(who)
