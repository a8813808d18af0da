"""The Results view: leaderboard tables per game, setting and participant with bootstrap
confidence intervals, the episodes left out, plots, and exports.

Filters choose the scope (study, game, setting, kind of participant, practice). The
leaderboard - a level-cluster bootstrap per metric and row - is computed in the thread pool
while a busy bar runs (an :class:`~playbench.app.ui.operation.Operation`: a newer request supersedes
an older one, so the filters stay usable throughout). An annotator asking for a blind study's
results is told they are hidden, unless "Researcher view" is ticked. The plot panel (and with
it matplotlib) is built the first time the tab is shown.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QProgressBar

from playbench.app.studies import Blinded, Viewer
from playbench.app.ui.dialogs import save_file_name
from playbench.app.ui.models.app_state import AppState
from playbench.app.ui.models.results_data import (
    COLUMNS,
    EXPLAIN,
    HEADINGS,
    ResultsData,
    ResultsQuery,
    choices,
    compute,
    left_out_lines,
    left_out_text,
    row_cells,
    scope_text,
    write_table,
)
from playbench.app.ui.models.wording import count
from playbench.app.ui.operation import Operation
from playbench.app.ui.qt import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QPushButton,
    QSplitter,
    Qt,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)
from playbench.app.ui.researcher import ResearcherSwitch
from playbench.db.lockguard import database_files

HUMAN_ROWS = (("one row per person", None), ("pooled", "pooled"),
              ("mean of people", "person-mean"), ("median person", "median-person"),
              ("best person", "best-person"),
              ("second-best, first run", "second-best-first-run"),
              ("solved by ≥ 2 people", "solved-by-2"), ("solved by ≥ 3 people", "solved-by-3"))
"""The Humans menu: a row per person, or a ``HumanBaseline`` rule (docs/studies.md)."""
KINDS = (("all players", None), ("people", "human"), ("models", "model"),
         ("scripts", "script"))
LEGEND = ("Efficiency is ING-VP's action efficiency - actions that changed the state divided "
          "by all actions, averaged per level, then over levels; \"pooled\" weighs every "
          "action equally instead. Human-relative efficiency follows ARC-AGI-3: min(1, "
          "(human baseline's actions / actions)²), 0 when unsolved; the Humans menu picks "
          "the baseline.")


def _combo(items: list[tuple[str, Any]]) -> QComboBox:
    combo = QComboBox()
    for text, value in items:
        combo.addItem(text, value)
    return combo


class ResultsView(QWidget):
    def __init__(self, state: AppState, on_error: Callable[[BaseException], None],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.on_error = on_error
        self.data: ResultsData | None = None
        self.board: Operation[Any] = Operation(
            self, state.jobs, state.executor, "results", on_error=on_error,
            busy=lambda on: self._busy(on, "Computing the leaderboard…"))
        """Reading the filter choices and computing the leaderboard: the latest wins."""
        self.exports: Operation[Any] = Operation(self, state.jobs, state.executor,
                                                 "export table", on_error=on_error,
                                                 latest_only=False)

        self.study = _combo([("all studies and free play", None)])
        self.game = _combo([("all games", None)])
        self.setting = _combo([("all settings", None)])
        self.kind = _combo(list(KINDS))
        self.practice = QCheckBox("Include practice")
        self.humans = _combo(list(HUMAN_ROWS))
        self.humans.setToolTip("Which human is the baseline: one row per person, or one row "
                               "by a stated definition (human-relative efficiency follows it)")
        self.resample = _combo([("resample levels", "levels"), ("resample people", "people")])
        self.resample.setToolTip("The unit the human-baseline row's intervals resample")
        self.researcher = ResearcherSwitch(
            state, "Include blind studies. Annotators of a blind study leave "
                   "it off.")
        self.busy_bar = QProgressBar()
        self.busy_bar.setRange(0, 0)
        self.busy_bar.setMaximumWidth(140)
        self.busy_bar.setMaximumHeight(14)
        self.busy_text = QLabel("")
        self.busy_text.setObjectName("hint")
        # Wrapped, so "Computing the leaderboard…" asks for its longest word's width only:
        # on one line it held a 1024 px window 3 px wider while the table was computed.
        self.busy_text.setWordWrap(True)
        self.export_button = QPushButton("Export table…")
        self.export_button.setToolTip("Save the leaderboard as CSV or JSON")

        self.notice = QLabel("")
        self.notice.setObjectName("warning")
        self.notice.setWordWrap(True)
        self.table = QTableWidget(0, len(HEADINGS))
        self.table.setObjectName("leaderboard")
        self.table.setHorizontalHeaderLabels(list(HEADINGS))
        for i, (metric, _, _) in enumerate(COLUMNS, start=5):
            header = self.table.horizontalHeaderItem(i)
            assert header is not None  # set by setHorizontalHeaderLabels above
            header.setToolTip(EXPLAIN[metric])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setAlternatingRowColors(True)
        self.table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents)
        self.scope_note = QLabel("")
        self.scope_note.setObjectName("hint")
        self.scope_note.setWordWrap(True)
        self.legend = QLabel(LEGEND)
        self.legend.setObjectName("hint")
        self.legend.setWordWrap(True)
        self.left_out = QLabel("")
        self.left_out_list = QListWidget()
        self.left_out_list.setObjectName("left_out")
        self.left_out_list.setMaximumHeight(56)
        self.plot: Any = None
        """The :class:`~playbench.app.ui.results_plot.PlotPanel`, made when the tab is first
        shown."""
        self.plot_box = QWidget()
        self.plot_layout = QVBoxLayout(self.plot_box)
        self.plot_layout.setContentsMargins(0, 0, 0, 0)

        # Two rows, and combos sized by a short minimum rather than their longest entry, so
        # that long study names or the busy text never widen the window past a laptop screen.
        filters = QVBoxLayout()
        choices = QHBoxLayout()
        for text, w in (("Study", self.study), ("Game", self.game), ("Setting", self.setting),
                        ("Players", self.kind)):
            w.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            w.setMinimumContentsLength(12)
            choices.addWidget(QLabel(text))
            choices.addWidget(w, 1)
        options = QHBoxLayout()
        for box in (self.practice, self.researcher):
            options.addWidget(box)
        options.addWidget(QLabel("Humans"))
        options.addWidget(self.humans)
        options.addWidget(self.resample)
        options.addStretch(1)
        options.addWidget(self.busy_text)
        options.addWidget(self.busy_bar)
        options.addWidget(self.export_button)
        filters.addLayout(choices)
        filters.addLayout(options)
        top = QWidget()
        tv = QVBoxLayout(top)
        tv.setContentsMargins(0, 0, 0, 0)
        tv.addWidget(self.notice)
        tv.addWidget(self.table, 1)
        tv.addWidget(self.scope_note)
        tv.addWidget(self.legend)
        tv.addWidget(self.left_out)
        tv.addWidget(self.left_out_list)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(top)
        split.addWidget(self.plot_box)
        split.setSizes([520, 330])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addLayout(filters)
        layout.addWidget(split, 1)

        for combo in (self.study, self.game, self.setting, self.kind, self.humans,
                      self.resample):
            combo.activated.connect(lambda _i: self.recompute())
        for box in (self.practice, self.researcher):
            box.toggled.connect(lambda _on: self.recompute())
        self.export_button.clicked.connect(self._choose_file)
        self._busy(False)
        self._show(None)

    # -- computing ----------------------------------------------------------------------------

    @property
    def viewer(self) -> Viewer:
        return self.researcher.viewer()

    def query(self) -> ResultsQuery:
        return ResultsQuery(study=self.study.currentData(), game=self.game.currentData(),
                            setting=self.setting.currentData(), kind=self.kind.currentData(),
                            include_practice=self.practice.isChecked(),
                            human_baseline=self.humans.currentData(),
                            resample=self.resample.currentData(), viewer=self.viewer)

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        if self.plot is None:
            from playbench.app.ui.results_plot import PlotPanel
            self.plot = PlotPanel(self.state, self.on_error)
            self.plot_layout.addWidget(self.plot)
            self.plot.set_data(self.data if self.table.rowCount() else None)
        self.recompute(refresh_choices=True)

    def _busy(self, on: bool, text: str = "") -> None:
        self.busy_bar.setVisible(on)
        self.busy_text.setText(text if on else "")

    @property
    def computing(self) -> Any:
        """The latest computation (an asyncio task), or None before the first."""
        return self.board.task

    def recompute(self, refresh_choices: bool = False) -> Any:
        """Compute the leaderboard for the filters in the thread pool (reading the filter
        choices first when ``refresh_choices``); returns the task."""
        if self.state.store is None:
            return None
        if refresh_choices:
            def offered(found: Any) -> None:
                self._offer(found)
                self._compute()
            return self.board.call(choices, self.state.store, done=offered)
        return self._compute()

    def _compute(self) -> Any:
        def failed(err: BaseException) -> None:
            if not isinstance(err, Blinded):
                self.on_error(err)
                return
            self._show(None, f"{err}. Ask the researcher for the results once the study is "
                             "over.")
        return self.board.call(compute, self.state.store, self.query(), done=self._show,
                               failed=failed)

    def _offer(self, found: Any) -> None:
        for combo, values in ((self.study, found.studies), (self.game, found.games),
                              (self.setting, found.settings)):
            keep = combo.currentData()
            combo.blockSignals(True)
            while combo.count() > 1:
                combo.removeItem(1)
            for v in values:
                combo.addItem(v, v)
            at = combo.findData(keep)
            combo.setCurrentIndex(at if at >= 0 else 0)
            combo.blockSignals(False)

    # -- showing ------------------------------------------------------------------------------

    def _show(self, data: ResultsData | None, notice: str = "") -> None:
        self.data = data
        self.notice.setText(notice)
        self.notice.setVisible(bool(notice))
        rows = row_cells(data) if data is not None else []
        self.table.setRowCount(len(rows))
        for i, cells in enumerate(rows):
            assert data is not None  # rows is empty without data
            record = data.board.rows[i]
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if col >= 3:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight
                                          | Qt.AlignmentFlag.AlignVCenter)
                if 5 <= col < 5 + len(COLUMNS):
                    metric = COLUMNS[col - 5][0]
                    n = record.metric(metric).n
                    item.setToolTip(f"n = {count(n, 'level')}. {EXPLAIN[metric]}")
                self.table.setItem(i, col, item)
        if data is None:
            self.scope_note.setText("" if notice else "Computing…")
            self.left_out.setText("")
            self.left_out_list.clear()
            self.left_out_list.hide()
        else:
            self.scope_note.setText(scope_text(data) if rows else
                                    "No finished episode in this scope yet.")
            self.left_out.setText(left_out_text(data))
            self.left_out_list.clear()
            self.left_out_list.addItems(left_out_lines(data))
            self.left_out_list.setVisible(bool(data.left_out))
        self.export_button.setEnabled(bool(rows))
        if self.plot is not None:
            self.plot.set_data(data if rows else None)

    def _choose_file(self) -> None:
        path, chosen = save_file_name(self, "Export the leaderboard",
                                      "leaderboard.csv",
                                      "CSV table (*.csv);;JSON (*.json)",
                                      protect=database_files(self.state.db_url))
        if path:
            if not Path(path).suffix:
                path += ".json" if "json" in chosen.lower() else ".csv"
            self.export_table(path)

    def export_table(self, path: str | Path) -> Any:
        """Write the table shown as CSV or JSON (by suffix) in the executor; returns the task."""
        if self.data is None:
            return None
        return self.exports.call(write_table, self.data, path, done=lambda _path: None)
