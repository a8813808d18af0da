"""The Studies view's "Write report…" button (issue 29, item 5) in the real window: it asks
for a folder with the app's own folder dialog, writes the report in the thread pool while
the window keeps handling events, and says where it went; a sealed study's report is written
only once its researcher passphrase is typed into the dialog that asks for it."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QFileDialog, QInputDialog

from playbench.app.studies.credential import make_verifier
from tests.studies.report_study import NAME, make_study

PASS = "correct horse battery"

pytestmark = pytest.mark.answers_modal_dialogs  # Answer (below) closes each one it sees


class Answer:
    """Answers the app's modal dialogs as a person would: the folder dialog with ``folder``,
    the passphrase dialog with each of ``secrets`` in turn. ``asked`` lists what was shown."""

    def __init__(self, folder: Path, secrets: list[str]) -> None:
        self.folder = folder
        self.secrets = list(secrets)
        self.asked: list[str] = []
        self.timer = QTimer()
        self.timer.setInterval(20)
        self.timer.timeout.connect(self._poll)
        self.timer.start()

    def _poll(self) -> None:
        dialog = QApplication.activeModalWidget()
        if isinstance(dialog, QFileDialog):
            self.asked.append(dialog.windowTitle())
            # Open the folder itself and accept: a folder dialog answers with the folder it
            # shows. Selecting the folder from its parent raced the dialog's directory
            # listing, which could drop the selection and answer with the parent.
            dialog.setDirectory(str(self.folder))
            dialog.accept()
        elif isinstance(dialog, QInputDialog):
            self.asked.append(dialog.windowTitle())
            dialog.setTextValue(self.secrets.pop(0) if self.secrets else "")
            dialog.accept()


def shown(qtbot, window):
    view = window.studies
    window.show_page(view)
    qtbot.waitUntil(lambda: view.study.currentText() == NAME and view.report.isVisible(),
                    timeout=20000)
    return view.report


def seed(qtbot, aloop, tmp_path, db_url, **changes) -> None:
    job = aloop.create_task(make_study(tmp_path, db_url, **changes))
    qtbot.waitUntil(job.done, timeout=120000)
    job.result().db.dispose()


def test_write_report_asks_for_a_folder_and_writes_without_freezing(
        make_window, qtbot, aloop, tmp_path, db_url):
    seed(qtbot, aloop, tmp_path, db_url)
    window = make_window()
    panel = shown(qtbot, window)
    folder = tmp_path / "reports"
    folder.mkdir()
    answer = Answer(folder, [])
    ticks: list[int] = []
    beat = QTimer()
    beat.setInterval(5)
    beat.timeout.connect(lambda: ticks.append(1))
    qtbot.mouseClick(panel.button, Qt.MouseButton.LeftButton)
    assert answer.asked == ["Write the study report into this folder"]
    task = panel.writing.task
    assert task is not None and not task.done() and not panel.button.isEnabled()
    beat.start()
    qtbot.waitUntil(task.done, timeout=60000)
    beat.stop()
    answer.timer.stop()
    assert len(ticks) >= 3  # the window's loop kept running while the report was written
    assert (folder / "report.html").is_file() and (folder / "data" / "checklist.csv").is_file()
    assert panel.outcome.text().startswith(f"Report written to {folder / 'report.html'}")
    assert "6 included episodes" in panel.outcome.text() and panel.button.isEnabled()


def test_a_sealed_study_report_waits_for_the_passphrase(make_window, qtbot, aloop, tmp_path,
                                                         db_url):
    seed(qtbot, aloop, tmp_path, db_url, researcher=make_verifier(PASS), blind=True)
    window = make_window()
    panel = shown(qtbot, window)
    folder = tmp_path / "reports"
    folder.mkdir()
    answer = Answer(folder, ["not the passphrase"])
    qtbot.mouseClick(panel.button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.outcome.text().startswith("Not written"), timeout=60000)
    assert "researcher passphrase or key" in panel.outcome.text()
    assert answer.asked == ["Write the study report into this folder", "Researcher passphrase"]
    assert not (folder / "report.html").exists() and not (folder / "data").exists()

    answer.secrets = [PASS]
    qtbot.mouseClick(panel.button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.outcome.text().startswith("Report written"), timeout=60000)
    answer.timer.stop()
    assert (folder / "report.html").is_file()
    assert window.state.unlocked  # unlocked for this session, as "Researcher view" does
