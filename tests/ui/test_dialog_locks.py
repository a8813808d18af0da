"""The app's file dialogs must not cost it its SQLite locks (issue 12, blocker).

Every file dialog of the real app is opened on the database's own folder and cancelled once it
has listed the database's files with their types. After each one this process must still hold
its locks on ``pb.db`` and ``pb.db-shm``; then PlayBench CLI commands run in a second process,
the app records more steps, and a third process must see every step the app recorded, before
and after, in a database that passes ``PRAGMA integrity_check``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QFileDialog, QFileSystemModel, QMessageBox

from tests.db.lock_loss_recorder import held_locks
from tests.ui.helpers import key, start_level, wait_steps

PLAYBENCH = str(Path(sys.executable).with_name("playbench"))
DB_FILES = ("pb.db", "pb.db-wal", "pb.db-shm")
READ_STEPS = """
import json, sqlite3, sys
conn = sqlite3.connect(sys.argv[1])
steps = [i for (i,) in conn.execute(
    'SELECT "index" FROM steps WHERE episode_id = ? ORDER BY "index"', (int(sys.argv[2]),))]
print(json.dumps({"steps": steps,
                  "integrity": conn.execute("PRAGMA integrity_check").fetchone()[0]}))
"""


class CancelWhenListed:
    """Waits for the app's modal file dialog, points it at ``folder`` showing every file, and
    cancels it once its list shows the database's files with their types (so whatever the
    dialog does to learn a file's type has been done). ``listed`` keeps what each showed."""

    def __init__(self, folder: Path, give_up_s: float = 60.0) -> None:
        self.folder = folder
        self.give_up_s = give_up_s
        self.listed: list[dict[str, str]] = []
        self.failed: list[str] = []
        self.since: float | None = None
        self.timer = QTimer()
        self.timer.setInterval(20)
        self.timer.timeout.connect(self._poll)
        self.timer.start()

    def _poll(self) -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QFileDialog):
            self.since = None
            return
        if self.since is None:
            self.since = time.monotonic()
        elif time.monotonic() - self.since > self.give_up_s:  # never leave a test hanging
            self.failed.append(f"{dialog.windowTitle()}: the files were never listed")
            dialog.reject()
            return
        if dialog.property("test_prepared") is None:
            # What a person does: go to the folder, show every file (type "*" as the name).
            dialog.setProperty("test_prepared", True)
            dialog.setDirectory(str(self.folder))
            dialog.setNameFilter("All files (*)")
            return
        model = dialog.findChild(QFileSystemModel)
        root = model.index(str(self.folder))
        shown = {model.index(i, 0, root).data(): model.index(i, 2, root).data()
                 for i in range(model.rowCount(root))}
        if all(shown.get(name) for name in DB_FILES):
            self.listed.append(shown)
            self.since = None
            dialog.reject()


def deleted_descriptors(folder: Path) -> list[str]:
    """Files in ``folder`` this process still has open although they were deleted."""
    found = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith(str(folder)) and target.endswith("(deleted)"):
            found.append(target)
    return found


def test_file_dialogs_on_the_database_folder_lose_no_locks_and_no_steps(
        make_window, qtbot, tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    db = folder / "pb.db"
    url = f"sqlite:///{db}"
    window = make_window(url)
    session = start_level(qtbot, window, "sokoban", "ingvp", 1)
    board = window.play_place.view("board").board
    for name in ("Left", "Right", "Left", "Right", "Up", "Down"):
        key(qtbot, board, name)
    wait_steps(qtbot, session, 6)
    assert held_locks(folder) == ["pb.db", "pb.db-shm"]

    window.show_page(window.results)  # builds the plot panel
    qtbot.waitUntil(lambda: window.results.plot is not None)
    settings = window.open_settings()
    dialogs = {
        "Results: export table": window.results._choose_file,
        "Results: export plot": lambda: window.results.plot._choose_file(),
        "Settings: database file": settings._browse,
        "Library: add level file": window.library._add_file,
        "Library: add web task file": window.library.panel("web")._add_file,
        "Studies: create from file": window.studies._choose_file,
    }
    closer = CancelWhenListed(folder)
    for what, show in dialogs.items():
        before = len(closer.listed)
        show()
        assert not closer.failed, closer.failed
        assert len(closer.listed) == before + 1, f"{what}: no file dialog was shown"
        assert held_locks(folder) == ["pb.db", "pb.db-shm"], f"{what} dropped our locks"
    closer.timer.stop()
    settings.reject()
    window.show_page(window.play_place.view("board"))

    for args in (["episodes"], ["run", "--game", "sokoban", "--levels", "ingvp:1", "--player",
                                "random", "--budget", "10", "--no-progress"]):
        done = subprocess.run([PLAYBENCH, *args, "--db", url], cwd=folder, capture_output=True,
                              text=True, timeout=300)
        assert done.returncode == 0, done.stderr

    board.setFocus()
    for name in ("Right", "Left", "Down", "Up"):
        key(qtbot, board, name)
    wait_steps(qtbot, session, 10)
    recorded = [s.index for s in session.steps]
    qtbot.waitUntil(lambda: window.state.store.episode(session.episode_id).episode.n_steps
                    == len(recorded))

    seen = subprocess.run([sys.executable, "-c", READ_STEPS, str(db), str(session.episode_id)],
                          capture_output=True, text=True, timeout=60, check=True)
    third = json.loads(seen.stdout)
    assert third["steps"] == recorded
    assert third["integrity"] == "ok"
    assert deleted_descriptors(folder) == []


def test_every_file_dialog_of_the_app_is_built_by_app_ui_dialogs():
    """Qt's static file-dialog functions (and native dialogs) sniff the files they list; the
    app must ask app/ui/dialogs.py instead, so a new dialog cannot bring the hazard back."""
    root = Path(__file__).resolve().parents[2] / "app"
    calls = ("QFileDialog.get", "QFileDialog(", "QFileSystemModel", "QFileIconProvider")
    found = [f"{path.relative_to(root.parent)}:{n}"
             for path in root.rglob("*.py") if path.name != "dialogs.py"
             for n, line in enumerate(path.read_text().splitlines(), 1)
             if any(c in line for c in calls)]
    assert found == []


@pytest.mark.answers_modal_dialogs  # its poll() accepts the warning box
def test_a_file_dialog_will_not_hand_out_the_database_itself(make_window, qtbot, tmp_path):
    """Loading pb.db as a level file (or exporting over it) would open it outside SQLite:
    the dialog says so and stays open."""
    folder = tmp_path / "data"
    folder.mkdir()
    db = folder / "pb.db"
    window = make_window(f"sqlite:///{db}")
    window.library.select("sokoban", "ingvp")
    said: list[str] = []

    def poll() -> None:
        shown = QApplication.activeModalWidget()
        if isinstance(shown, QMessageBox):
            said.append(shown.text())
            shown.accept()
        elif isinstance(shown, QFileDialog):
            if said:  # refused once, and still open: give up like a person would
                shown.reject()
            elif shown.property("test_prepared") is None:
                shown.setProperty("test_prepared", True)
                shown.setDirectory(str(folder))
                shown.setNameFilter("All files (*)")
                shown.selectFile(str(db))
                QTimer.singleShot(0, shown.accept)  # after this poll: its message box blocks

    timer = QTimer()
    timer.setInterval(20)
    timer.timeout.connect(poll)
    timer.start()
    window.library._add_file()
    timer.stop()
    assert len(said) == 1 and "database" in said[0]
    assert str(db) not in window.state.prefs.level_files.get("sokoban", [])
    assert held_locks(folder) == ["pb.db", "pb.db-shm"]
