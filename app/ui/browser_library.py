"""The library's entry for a kind played in the browser view (web tasks): task sets (the
bundled ones, added task files), their tasks with objective, difficulty and evaluator kinds,
and a start box (who plays, the kind's setting, its budget - VWA's 30 actions unless changed).
What is kind-specific comes from the task kind (``playbench.games.kind``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playbench.app.agents.profiles import DEMO, ProfileError
from playbench.app.core.settings import get_setting
from playbench.app.ui.dialogs import existing_directory, open_file_name
from playbench.app.ui.models.app_state import AppState
from playbench.app.ui.models.catalog import PackRef
from playbench.app.ui.models.geometry import columns_to_hide
from playbench.app.ui.models.profiles import describe, load_profiles
from playbench.app.ui.models.start import SCRIPTED_PLAYERS, StartRequest, budget_for
from playbench.app.ui.models.web_catalog import WebTaskRow, load_rows, web_packs
from playbench.app.ui.qt import (
    QAbstractItemView,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QSpinBox,
    QSplitter,
    Qt,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
    Signal,
)
from playbench.app.ui.surface_registry import SurfaceRegistry
from playbench.db.lockguard import database_files
from playbench.games import registry
from playbench.games.kind import (
    TaskKind,
    default_registry,
    library_columns,
    library_help,
    play_place,
    source_picker,
)

COLUMNS = ("#", "Objective", "Difficulty", "Evaluators", "Ref.", "Images")
def browser_kinds(surfaces: SurfaceRegistry | None = None) -> list[TaskKind]:
    """The kinds the Library lists as tasks, in listing order (each gets its own entry and
    panel): every kind a person plays on an installed surface that is not a board game with
    level packs (web tasks, browser games, CSS repair, WebUI, a plugin's)."""
    playable = set((surfaces if surfaces is not None else SurfaceRegistry()).names())
    boards = set(registry.available())
    return [k for k in default_registry().listing()
            if k.view in playable and k.name not in boards]


def browser_kind() -> TaskKind:
    """The first registered kind played in the browser view."""
    return browser_kinds()[0]


OBJECTIVE_ROOM = 180
"""The width the objective column keeps: a narrower table hides its last fact columns (each
fact is in the task's details beside the table too)."""
FACT_WIDTH = 120
"""The widest a fact column gets (a longer value is cut, whole in its tooltip)."""


class FittingTable(QTableWidget):
    """The task table: the objective (column 1) stretches, and when the table is too narrow
    for it to keep :data:`OBJECTIVE_ROOM`, the last fact columns are hidden until it does."""

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self.fit_columns()

    def fit_columns(self) -> None:
        wanted = [min(FACT_WIDTH, max(self.sizeHintForColumn(c),
                                      self.horizontalHeader().sectionSizeHint(c)))
                  for c in range(self.columnCount())]
        hidden = columns_to_hide(self.viewport().width(), wanted, 1, OBJECTIVE_ROOM)
        for c in range(self.columnCount()):
            self.setColumnHidden(c, c in hidden)


class WebTasksPanel(QWidget):
    """Choose a web task and start it; ``start_requested`` carries a ``StartRequest``."""

    start_requested = Signal(object)

    def __init__(self, state: AppState, on_error: Callable[[BaseException], None],
                 parent: QWidget | None = None, kind: TaskKind | None = None) -> None:
        super().__init__(parent)
        self.kind = kind if kind is not None else browser_kind()
        self.game = self.kind.name
        self.state = state
        self.on_error = on_error
        self.packs: list[PackRef] = []
        self.pack: PackRef | None = None
        self.rows: list[WebTaskRow] = []
        self.shown: list[WebTaskRow] = []

        self.sets = QComboBox()
        self.sets.setObjectName("task_sets")
        self.add_file = QPushButton("Add task file…")
        self.remove_file = QPushButton("Remove")
        self.search = QLineEdit()
        self.search.setPlaceholderText("Filter by objective, difficulty or evaluator")
        self.search.setClearButtonEnabled(True)
        self.count = QLabel("")
        self.table = FittingTable(0, len(COLUMNS))
        self.table.setObjectName("web_tasks")
        self.table.setHorizontalHeaderLabels(list(COLUMNS))
        self.table.verticalHeader().setVisible(False)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        # No fact column may take the objective's room: a long one is cut, whole in its tooltip.
        header.setMaximumSectionSize(FACT_WIDTH)
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        own = library_columns(self.kind)
        self.columns = (*COLUMNS[:2], *own) if own else COLUMNS
        """The table's headers: number and objective, then the kind's own columns where it
        names them (``library_columns``), else the web-task facts."""
        if own:
            self.table.setColumnCount(len(self.columns))
            self.table.setHorizontalHeaderLabels(list(self.columns))
            *most, last = ["objective", *(c.lower() for c in own)]
            self.search.setPlaceholderText(f"Filter by {', '.join(most)} or {last}")
        self.picker = source_picker(self.kind)
        """How the kind's own task sources are added (a folder, a file or either)."""
        if self.picker is not None:
            self.add_file.setText(self.picker.label)
            self.add_file.setToolTip(self.picker.tooltip)
            if self.picker.folder and self.picker.files:
                menu = QMenu(self.add_file)
                menu.addAction("A folder…", self._add_folder)
                menu.addAction("A file…", self._add_file_only)
                self.add_file.setMenu(menu)

        self.title = QLabel("Choose a task")
        self.title.setObjectName("title")
        self.title.setWordWrap(True)
        self.facts = QLabel("")
        self.facts.setObjectName("hint")
        self.facts.setWordWrap(True)
        self.how = QLabel(library_help(self.kind))
        self.how.setObjectName("hint")
        self.how.setWordWrap(True)
        self.player = QComboBox()
        self.player.setObjectName("player")
        self.setting = QComboBox()
        self.setting.setObjectName("setting")
        self.setting_help = QLabel("")
        self.setting_help.setObjectName("hint")
        self.setting_help.setWordWrap(True)
        self.max_actions = QSpinBox()
        self.max_actions.setRange(0, 999)
        self.max_actions.setSpecialValueText("no limit")
        self.max_actions.setSuffix(" actions")
        self.seconds = QSpinBox()
        self.seconds.setRange(0, 24 * 3600)
        self.seconds.setSpecialValueText("none")
        self.seconds.setSuffix(" s")
        self.play = QPushButton("Play")
        self.play.setObjectName("primary")
        self.play.setEnabled(False)

        middle = QWidget()
        mv = QVBoxLayout(middle)
        sets_row = QHBoxLayout()
        sets_row.addWidget(QLabel("Task set:"))
        sets_row.addWidget(self.sets, 1)
        sets_row.addWidget(self.add_file)
        sets_row.addWidget(self.remove_file)
        mv.addLayout(sets_row)
        filters = QHBoxLayout()
        filters.addWidget(self.search, 1)
        filters.addWidget(self.count)
        mv.addLayout(filters)
        mv.addWidget(self.table, 1)
        box = QGroupBox("Start")
        form = QFormLayout(box)
        form.addRow("Player", self.player)
        form.addRow("Setting", self.setting)
        form.addRow("", self.setting_help)
        form.addRow("Budget", self.max_actions)
        form.addRow("Time limit", self.seconds)
        right = QWidget()
        right.setMinimumWidth(320)
        rv = QVBoxLayout(right)
        rv.setContentsMargins(4, 0, 0, 0)
        rv.addWidget(self.title)
        rv.addWidget(self.facts)
        rv.addSpacing(12)
        rv.addWidget(self.how)
        rv.addStretch(1)
        rv.addWidget(box)
        rv.addWidget(self.play)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(middle)
        split.addWidget(right)
        split.setStretchFactor(0, 1)
        split.setSizes([700, 380])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(split)

        self.sets.currentIndexChanged.connect(self._set_changed)
        self.search.textChanged.connect(self._refilter)
        self.table.itemSelectionChanged.connect(self._task_changed)
        self.table.doubleClicked.connect(lambda _i: self.play.click())
        self.add_file.clicked.connect(self._add_file)
        self.remove_file.clicked.connect(self._remove_file)
        self.setting.currentIndexChanged.connect(self._setting_changed)
        self.player.currentIndexChanged.connect(self._player_changed)
        self.play.clicked.connect(self._start)
        self._loaded = False

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        self.refresh_players()
        if not self._loaded:  # loading task files waits until the entry is first opened
            self._loaded = True
            self.refresh_sets()

    # -- task sets and tasks ------------------------------------------------------------------

    def refresh_sets(self, select: str | None = None) -> None:
        self.packs = web_packs(self.kind, self.state.prefs.level_files.get(self.game, []))
        self.sets.blockSignals(True)
        self.sets.clear()
        for p in self.packs:
            self.sets.addItem(p.label, p.source)
        self.sets.blockSignals(False)
        sources = [p.source for p in self.packs]
        self.sets.setCurrentIndex(sources.index(select) if select in sources else 0)
        self._set_changed()
        if self.setting.count() == 0:
            for s in self.kind.settings().values():
                self.setting.addItem(s.name, s.name)
                self.setting.setItemData(self.setting.count() - 1, s.description,
                                         Qt.ItemDataRole.ToolTipRole)
            wanted = self.state.prefs.last_setting.get(self.game, "default")
            self.setting.setCurrentIndex(max(0, self.setting.findData(wanted)))
            self._setting_changed()

    def _set_changed(self) -> None:
        i = self.sets.currentIndex()
        self.pack = self.packs[i] if 0 <= i < len(self.packs) else None
        self.remove_file.setEnabled(self.pack is not None and not self.pack.bundled)
        self.rows = []
        if self.pack is not None:
            try:
                self.rows = load_rows(self.kind, self.pack)
            except Exception as err:  # noqa: BLE001 - a dialog; the library stays usable
                self.on_error(err)
        self._refilter()

    def _refilter(self) -> None:
        text = self.search.text().strip()
        self.shown = [r for r in self.rows if not text or r.matches(text)]
        self.table.setRowCount(len(self.shown))
        for i, r in enumerate(self.shown):
            values: tuple[object, ...] = (r.task_id, r.intent, *r.values) if r.columns else (
                r.task_id, r.intent, r.difficulty, ", ".join(r.evaluators), r.reference or "-",
                r.images or "-")
            for col, v in enumerate(values):
                item = QTableWidgetItem(str(v))
                if col != 1:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                item.setToolTip(str(v))  # whole, where the column cuts it
                self.table.setItem(i, col, item)
        self.count.setText(f"{len(self.shown)} of {len(self.rows)} tasks")
        self.table.fit_columns()  # the facts' widths changed with the rows
        self.table.clearSelection()
        if self.shown:
            self.table.selectRow(0)
        else:
            self._show_task(None)

    def _task_changed(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        self._show_task(self.shown[rows[0].row()] if rows else None)

    def _show_task(self, row: WebTaskRow | None) -> None:
        self.play.setEnabled(row is not None)
        if row is None:
            self.title.setText("Choose a task")
            self.facts.setText("")
            return
        self.title.setText(row.intent)
        self.facts.setText(f"Task {row.task_id} · {row.facts}")

    def select_task(self, task_id: int) -> None:
        """Select the task with this id (tests, screenshots)."""
        for i, r in enumerate(self.shown):
            if r.task_id == task_id:
                self.table.selectRow(i)
                return

    def _add_folder(self) -> None:
        title = self.picker.title if self.picker is not None else "Add a task folder"
        folder = existing_directory(self, title)
        if folder:
            self.add_task_file(folder)

    def _add_file_only(self) -> None:
        picker = self.picker
        path, _ = open_file_name(self, picker.title if picker else "Add a task file", "",
                                 picker.file_filter if picker else "All (*)",
                                 protect=database_files(self.state.db_url))
        if path:
            self.add_task_file(path)

    def _add_file(self) -> None:
        if self.picker is not None:
            if self.picker.folder and not self.picker.files:
                self._add_folder()
            elif self.picker.files and not self.picker.folder:
                self._add_file_only()
            return  # both: the button's menu asks which
        path, _ = open_file_name(self, "Add a web task file (VWA JSON)", "",
                                 "Task files (*.json);;All (*)",
                                 protect=database_files(self.state.db_url))
        if path:
            self.add_task_file(path)

    def add_task_file(self, path: str) -> None:
        files = list(self.state.prefs.level_files.get(self.game, []))
        if path not in files:
            files.append(path)
        self.state.save_prefs(self.state.prefs.with_(
            level_files={**self.state.prefs.level_files, self.game: files}))
        self.refresh_sets(select=path)

    def _remove_file(self) -> None:
        if self.pack is None or self.pack.bundled:
            return
        files = [p for p in self.state.prefs.level_files.get(self.game, [])
                 if p != self.pack.source]
        self.state.save_prefs(self.state.prefs.with_(
            level_files={**self.state.prefs.level_files, self.game: files}))
        self.refresh_sets()

    # -- who plays, how -----------------------------------------------------------------------

    def refresh_players(self) -> None:
        keep = self.player.currentData() or self.state.prefs.last_player
        self.player.blockSignals(True)
        self.player.clear()
        self.player.addItem(f"Me - annotator {self.state.prefs.annotator or 'not set'}",
                            "human")
        try:
            profiles = load_profiles()
        except ProfileError:
            profiles = {DEMO.name: DEMO}
        for p in profiles.values():
            self.player.addItem(f"Model: {describe(p)}", f"model:{p.name}")
        for name in SCRIPTED_PLAYERS:
            label = "solver (replays the reference)" if name == "solver" else name
            self.player.addItem(f"Scripted: {label}", name)
        self.player.setCurrentIndex(max(0, self.player.findData(keep)))
        self.player.blockSignals(False)
        self._player_changed()

    def _player_changed(self) -> None:
        who = str(self.player.currentData())
        pane = play_place(self.kind)
        self.play.setText(f"Play in {pane}" if who == "human" else
                          "Watch the model play" if who.startswith("model:") else
                          "Watch the scripted player")

    def _setting_changed(self) -> None:
        name = self.setting.currentData()
        if name is None:
            return
        s = get_setting(name, self.game)
        self.setting_help.setText(s.description)
        b = s.budget
        self.max_actions.setValue(b.max_actions or 0)
        self.seconds.setValue(int(b.seconds or 0))

    def request(self) -> StartRequest | None:
        rows = self.table.selectionModel().selectedRows()
        if self.pack is None or not rows:
            return None
        row = self.shown[rows[0].row()]
        levels = tuple(r.level for r in self.rows)
        setting = get_setting(self.setting.currentData(), self.game)
        budget = budget_for(setting, self.game, self.max_actions.value(), self.seconds.value())
        return StartRequest(self.pack, levels, levels.index(row.level),
                            self.player.currentData(), setting.name, budget, {})

    def _start(self) -> None:
        req = self.request()
        if req is None:
            return
        prefs = self.state.prefs
        self.state.prefs = prefs.with_(
            last_player=req.player, last_setting={**prefs.last_setting, self.game: req.setting})
        self.start_requested.emit(req)
