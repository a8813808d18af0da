"""The Studies view's "Write report…" button: asks for a folder and writes the study report
(``report.html`` and ``data/``, :mod:`playbench.app.exports.report`) there in the thread pool,
so the window stays responsive; the line beside it says where it went, or why not.

A sealed blind study's report needs its researcher credential: when the write is refused
for that, the button asks for the passphrase (or the key file's text) as the "Researcher view"
switch does, unlocks the study for this session and writes again.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from playbench.app.exports.report import ReportError, Written, write_report
from playbench.app.studies import Blinded
from playbench.app.ui.dialogs import existing_directory
from playbench.app.ui.models.app_state import AppState
from playbench.app.ui.operation import Operation
from playbench.app.ui.qt import QHBoxLayout, QLabel, QPushButton, Qt, QTimer, QWidget
from playbench.app.ui.researcher import ask_secret

AskFolder = Callable[[QWidget], str]
AskSecret = Callable[[QWidget], str | None]


def choose_folder(parent: QWidget) -> str:
    """The folder the person picks for the report ("" when cancelled)."""
    return existing_directory(parent, "Write the study report into this folder")


class ReportPanel(QWidget):
    """The button and its outcome line; ``study`` gives the name of the study shown."""

    def __init__(self, state: AppState, study: Callable[[], str],
                 on_error: Callable[[BaseException], None], *,
                 ask_folder: AskFolder = choose_folder, ask: AskSecret = ask_secret,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.study = study
        self.ask_folder = ask_folder
        self.ask = ask
        self.on_error = on_error
        self.writing: Operation[Written] = Operation(self, state.jobs, state.executor,
                                                     "study report", on_error=on_error,
                                                     latest_only=False)
        self.button = QPushButton("Write report…")
        self.button.setToolTip("Write this study's report (one HTML file that opens offline) "
                               "and the data behind it into a folder.")
        self.outcome = QLabel("")
        self.outcome.setObjectName("hint")
        self.outcome.setWordWrap(True)
        self.outcome.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.button)
        layout.addWidget(self.outcome, 1)
        self.button.clicked.connect(self.choose)

    def choose(self) -> None:
        """Ask for the folder, then write the report there."""
        folder = self.ask_folder(self)
        if folder:
            self.write(folder)

    def write(self, folder: str | Path) -> Any:
        """Write the report of the study shown into ``folder`` (in the thread pool); returns
        the asyncio task (None when there is no study or database)."""
        study, store = self.study(), self.state.store
        if not study or store is None:
            return None
        self.button.setEnabled(False)
        self.outcome.setText(f"Writing the report of {study}…")
        work = partial(write_report, store, study, Path(folder),
                       viewer=self.state.researcher())
        return self.writing.call(work, done=self._written,
                                 failed=lambda err: self._refused(err, folder))

    def _written(self, written: Written) -> None:
        self.button.setEnabled(True)
        self.outcome.setText(f"Report written to {written.html} ({written.episodes} included "
                             f"episodes; data in {written.data.name}/).")

    def _ask_and_retry(self, folder: str | Path) -> None:
        secret = self.ask(self)
        if secret is not None and self.state.unlock(secret):
            self.write(folder)
            return
        self.outcome.setText("Not written: this sealed study's report needs its "
                             "researcher passphrase or key.")

    def _refused(self, err: BaseException, folder: str | Path) -> None:
        self.button.setEnabled(True)
        if isinstance(err, Blinded):
            # This runs inside the write's asyncio task; the question is a modal dialog with
            # its own event loop, which must not run inside a task step (qasync would then
            # step other tasks within it: "Cannot enter into task ..."). Ask once it ends.
            QTimer.singleShot(0, lambda: self._ask_and_retry(folder))
        elif isinstance(err, (ReportError, OSError)):
            self.outcome.setText(f"Not written: {err}")
        else:
            self.outcome.setText("")
            self.on_error(err)
