"""The Library's "You" column: a mark on each level the current annotator has solved (✓) or
played without solving (○), with the counts in its tooltip.

The marks are read from the database in the app's thread pool (one query per refresh, however
large the pack) and put in the table when they arrive; the Library refreshes them whenever it
is shown - so after an episode, on coming back from Play - when a pack is chosen and when the
annotator changes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from playbench.app.ui.models.app_state import AppState
from playbench.app.ui.models.level_marks import SPOKEN, annotator_marks, mark_text
from playbench.app.ui.operation import Operation
from playbench.app.ui.qt import Qt, QTableWidget, QTableWidgetItem, QWidget
from playbench.db.progress import LevelMark


class LevelMarks:
    """Keeps ``table``'s ``column`` showing the annotator's marks for the rows whose level
    content hashes ``shown()`` returns, in table order."""

    def __init__(self, owner: QWidget, state: AppState, table: QTableWidget, column: int,
                 shown: Callable[[], Sequence[str]],
                 on_error: Callable[[BaseException], None]) -> None:
        self.state = state
        self.table = table
        self.column = column
        self.shown = shown
        self.marks: dict[str, LevelMark] = {}
        self.game: str | None = None
        """The game whose marks ``marks`` holds."""
        self.reading: Operation[Any] = Operation(owner, state.jobs, state.executor,
                                                 "level marks", on_error=on_error)

    def item(self, level_hash: str) -> QTableWidgetItem:
        """A new cell for the level, with the mark known now (empty until the marks arrive)."""
        text, tip = mark_text(self.marks.get(level_hash))
        cell = QTableWidgetItem(text)
        cell.setToolTip(tip)
        cell.setData(Qt.ItemDataRole.AccessibleTextRole, SPOKEN[text])
        cell.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
        return cell

    def refresh(self, game: str | None) -> None:
        """Read ``game``'s marks again for the current annotator; the column is updated when
        they arrive (a mark of another game is cleared at once)."""
        if game != self.game:
            self.game, self.marks = game, {}
            self._fill()
        self.reading.call(annotator_marks, self.state.store, self.state.prefs.annotator, game,
                          done=lambda marks: self._arrived(game, marks))

    def _arrived(self, game: str | None, marks: dict[str, LevelMark]) -> None:
        if game == self.game:
            self.marks = marks
            self._fill()

    def _fill(self) -> None:
        for row, level_hash in enumerate(self.shown()):
            if row < self.table.rowCount():
                self.table.setItem(row, self.column, self.item(level_hash))
