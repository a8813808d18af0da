"""Creating a study from its YAML file in the Studies view, and the panel that lists what is
wrong with a refused file: every problem with its field (``tasks[1].game``) and reason, so the
whole file can be fixed in one go. Nothing is stored while a single problem remains."""

from __future__ import annotations

from collections.abc import Sequence

from playbench.app.studies import FieldProblem
from playbench.app.ui.models.wording import count
from playbench.app.ui.qt import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)


def _text(item: QTableWidgetItem | None) -> str:
    return item.text() if item is not None else ""


class ProblemsPanel(QFrame):
    """Shows why a study file was refused; hidden until there is something to show."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("problems")
        self.title = QLabel("")
        self.title.setObjectName("warning")
        self.title.setWordWrap(True)
        self.table = QTableWidget(0, 2)
        self.table.setObjectName("problem_list")
        self.table.setHorizontalHeaderLabels(["Field", "Reason"])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(True)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.table.setMaximumHeight(180)
        self.dismiss = QPushButton("Dismiss")
        top = QHBoxLayout()
        top.addWidget(self.title, 1)
        top.addWidget(self.dismiss)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.table)
        self.dismiss.clicked.connect(self.hide)
        self.hide()

    def show_problems(self, source: str, problems: Sequence[FieldProblem]) -> None:
        n = len(problems)
        self.title.setText(f"{source}: {count(n, 'problem')} - nothing was "
                           "created. Fix the file and create the study again.")
        self.table.setRowCount(n)
        for i, p in enumerate(problems):
            self.table.setItem(i, 0, QTableWidgetItem(p.field))
            self.table.setItem(i, 1, QTableWidgetItem(p.reason))
        self.table.resizeRowsToContents()
        self.show()

    def rows(self) -> list[tuple[str, str]]:
        """The listed (field, reason) pairs."""
        return [(_text(self.table.item(i, 0)), _text(self.table.item(i, 1)))
                for i in range(self.table.rowCount())]
