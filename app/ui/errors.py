"""Problem dialogs: what went wrong, why, and what to do - and the app keeps running.

Dialogs open window-modal without a nested event loop (``open``, not ``exec``), so background
episodes keep running and recording while one is shown. The last problem is remembered on the
parent window (its ``problems`` list) for tests and the status bar.
"""

from __future__ import annotations

from dataclasses import dataclass

from playbench.app.ui.qt import QMessageBox, QWidget


@dataclass(frozen=True)
class Explanation:
    title: str
    cause: str
    todo: str


def explain(exc: BaseException) -> Explanation:
    """A problem description for the errors the app expects, by type."""
    from playbench.app.agents.profiles import ProfileError
    from playbench.app.core.runs import NotResumable
    from playbench.app.players.factory import UnknownPlayer
    from playbench.app.studies.queue import QueueError
    from playbench.db.engine import DatabaseProblem
    from playbench.games.base import LevelError
    from playbench.games.packs import RangeError
    if isinstance(exc, DatabaseProblem):
        return Explanation("The database cannot be used", str(exc),
                       "Choose another database file in Settings > Database. Nothing was "
                       "written to the file that was refused.")
    if isinstance(exc, (LevelError, RangeError)):
        return Explanation("The levels cannot be loaded", str(exc),
                       "Check that the level file still exists and is in a supported format; "
                       "remove it from the library or add it again.")
    if isinstance(exc, (UnknownPlayer, ProfileError)):
        return Explanation("The model profile cannot be used", str(exc),
                       "Open Settings > Model profiles to fix or test the profile.")
    if isinstance(exc, NotResumable):
        return Explanation("The episode cannot be resumed", str(exc),
                       "Only interrupted or failed episodes continue; start a new one instead.")
    if isinstance(exc, QueueError):
        return Explanation("The study task cannot start here", str(exc),
                       "A study task is played in one place at a time: finish or pause it "
                       "where it is open (another PlayBench window, or a terminal), then try "
                       "again.")
    if isinstance(exc, OSError):
        return Explanation("A file could not be read or written", str(exc),
                       "Check the path and its permissions.")
    return Explanation("Something went wrong", f"{type(exc).__name__}: {exc}",
                   "The app keeps running and every recorded step is kept. Please report "
                   "this with the steps that led to it.")


def show_problem(parent: QWidget, problem: Explanation) -> QMessageBox:
    """Open a warning naming the cause and what to do; returns the (non-blocking) box."""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle("PlayBench")
    box.setText(f"<b>{problem.title}</b>")
    box.setInformativeText(f"{problem.cause}\n\nWhat to do: {problem.todo}")
    box.setStandardButtons(QMessageBox.StandardButton.Ok)
    box.setObjectName("problem")
    owner: QWidget | None = parent
    while owner is not None:
        problems = getattr(owner, "problems", None)
        if isinstance(problems, list):
            problems.append(problem)
            break
        owner = owner.parentWidget()
    box.open()
    return box


def show_error(parent: QWidget, exc: BaseException) -> QMessageBox:
    return show_problem(parent, explain(exc))
