"""The library: games -> level packs -> levels (thumbnails, facts, optimal length, filters),
and the start panel that chooses who plays, in which setting, under which budget."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from playbench.app.ui.browser_library import WebTasksPanel, browser_kinds
from playbench.app.ui.dialogs import open_file_name
from playbench.app.ui.level_marks import LevelMarks
from playbench.app.ui.models import catalog
from playbench.app.ui.models.app_state import AppState
from playbench.app.ui.models.catalog import LevelFilter, LevelRow, PackRef
from playbench.app.ui.operation import Operation
from playbench.app.ui.qt import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QIcon,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPixmap,
    QPushButton,
    QSize,
    QSizePolicy,
    QSpinBox,
    QSplitter,
    Qt,
    QTableWidget,
    QTableWidgetItem,
    QTimer,
    QVBoxLayout,
    QWidget,
    Signal,
    frame_image,
)
from playbench.app.ui.start_panel import StartPanel
from playbench.app.ui.surface_registry import SurfaceRegistry
from playbench.db.lockguard import database_files
from playbench.games.kind import default_registry, source_picker

THUMB = 64
OPTIMAL_COLUMN = 4
MARK_COLUMN = 5
BATCH = 16
GAME_ICON = 30
"""Pixels: the games list's pictures, small enough that every kind is listed without
scrolling on a 1280x800 screen (44 px rows needed scrolling once twelve kinds were listed)."""


def game_pictures(names: list[str], size: int) -> list[np.ndarray | None]:
    """One small picture per game (runs in the thread pool)."""
    return [catalog.game_picture(name, size) for name in names]


def _pixmap(frame: np.ndarray) -> QPixmap:
    return QPixmap.fromImage(frame_image(frame).image.copy())


def _heading(text: str) -> QLabel:
    label = QLabel(text)
    label.setObjectName("heading")
    return label


class LibraryView(QWidget):
    """Browse levels and start one; ``start_requested`` carries a ``StartRequest``."""

    start_requested = Signal(object)

    filled = Signal()
    """The games list (and every task panel) is in place: :meth:`fill` has run."""

    def __init__(self, state: AppState, on_error: Callable[[BaseException], None],
                 parent: QWidget | None = None, surfaces: SurfaceRegistry | None = None,
                 *, fill: bool = True) -> None:
        """``fill`` False leaves the lists empty until :meth:`fill` is called: the app fills
        them once its window is up, since listing the games loads every installed kind
        (a fifth of a second here) and the window's first paint needs none of them."""
        super().__init__(parent)
        self.state = state
        self.surfaces = surfaces
        self._games: list[catalog.GameRef] = []
        self._pack_refs: list[PackRef] = []
        self.on_error = on_error
        self.rows: list[LevelRow] = []
        self.shown: list[LevelRow] = []
        self.pack: PackRef | None = None
        self._thumbs: dict[str, QPixmap] = {}
        self.thumbnails: Operation[Any] = Operation(self, state.jobs, state.executor,
                                                    "thumbnails")
        """Drawing the shown pack's thumbnails, a batch at a time; a new pack drops it."""
        self.pictures: Operation[Any] = Operation(self, state.jobs, state.executor,
                                                  "game pictures")

        self.games = QListWidget()
        self.games.setObjectName("games")
        self.games.setIconSize(QSize(GAME_ICON, GAME_ICON))
        # Every kind's whole name, on two lines where it is long, and no sideways scrolling.
        self.games.setWordWrap(True)
        self.games.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.games.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.packs = QListWidget()
        self.packs.setObjectName("packs")
        self.add_file = QPushButton("Add level file…")
        self.remove_file = QPushButton("Remove")
        self.remove_file.setEnabled(False)

        self.search = QLineEdit()
        self.search.setPlaceholderText("Filter by title or facts")
        self.search.setClearButtonEnabled(True)
        self.min_opt = QSpinBox()
        self.max_opt = QSpinBox()
        for spin, text in ((self.min_opt, "min"), (self.max_opt, "max")):
            spin.setRange(0, 999)
            spin.setSpecialValueText("any")
            spin.setPrefix(f"{text} ")
            spin.setToolTip(f"{text}imum optimal solution length (0 = any)")
        self.count = QLabel("")
        self.levels = QTableWidget(0, 6)
        self.levels.setObjectName("levels")
        self.levels.setHorizontalHeaderLabels(["", "#", "Title", "Facts", "Optimal"])
        you = QTableWidgetItem("You")
        you.setToolTip("Your plays of each level (the current annotator's): ✓ solved, "
                       "○ played but not solved yet")
        self.levels.setHorizontalHeaderItem(MARK_COLUMN, you)
        self.marks = LevelMarks(self, state, self.levels, MARK_COLUMN,
                                lambda: [r.level.content_hash for r in self.shown], on_error)
        self.levels.verticalHeader().setVisible(False)
        self.levels.verticalHeader().setDefaultSectionSize(THUMB + 8)
        self.levels.setIconSize(QSize(THUMB, THUMB))
        self.levels.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.levels.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.levels.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.levels.setAlternatingRowColors(True)
        # Tab leaves the table for the Start panel (arrow keys still move between levels);
        # with Qt's default it walked the cells and never reached Play.
        self.levels.setTabKeyNavigation(False)
        header = self.levels.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Fixed)
        header.resizeSection(0, THUMB + 12)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(OPTIMAL_COLUMN, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(MARK_COLUMN, QHeaderView.ResizeMode.ResizeToContents)
        self.empty = QLabel("")
        self.empty.setObjectName("empty")
        self.empty.setWordWrap(True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)

        self.start = StartPanel(state)

        left = QWidget()
        lv = QVBoxLayout(left)
        lv.addWidget(_heading("Games"))
        # The games list takes the height first (up to its full length), the packs the rest.
        lv.addWidget(self.games, 100)
        self.packs.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Ignored)
        self.packs.setMinimumHeight(80)
        self._packs_heading = _heading("Level packs")
        lv.addWidget(self._packs_heading)
        lv.addWidget(self.packs, 1)
        row = QHBoxLayout()
        row.addWidget(self.add_file)
        row.addWidget(self.remove_file)
        lv.addLayout(row)
        lv.addStretch(0)  # keeps the games list at the top when the packs are hidden (web)

        middle = QWidget()
        mv = QVBoxLayout(middle)
        top = QHBoxLayout()
        top.addWidget(_heading("Levels"))
        top.addStretch(1)
        top.addWidget(self.count)
        mv.addLayout(top)
        filters = QHBoxLayout()
        filters.addWidget(self.search, 1)
        self._optimal_parts = (QLabel("Optimal:"), self.min_opt, self.max_opt)
        for w in self._optimal_parts:
            filters.addWidget(w)
        mv.addLayout(filters)
        mv.addWidget(self.levels, 1)
        mv.addWidget(self.empty)

        # The games list keeps room for its names when a task panel (wide tables, a start
        # column) shares a 1024 px window with it; Qt squeezed it to 75 px before.
        left.setMinimumWidth(180)
        split = self._split = QSplitter(Qt.Orientation.Horizontal)
        split.setChildrenCollapsible(False)
        split.addWidget(left)
        split.addWidget(middle)
        split.addWidget(self.start)
        self.panels: list[WebTasksPanel] = []
        self._board_parts = (self._packs_heading, self.packs, self.add_file, self.remove_file,
                             middle, self.start)
        split.setStretchFactor(0, 0)
        split.setStretchFactor(1, 1)
        split.setStretchFactor(2, 0)
        split.setSizes([230, 640, 380])
        outer = QVBoxLayout(self)
        outer.setContentsMargins(8, 8, 8, 8)
        outer.addWidget(split)

        self.games.currentRowChanged.connect(self._game_changed)
        self.packs.currentRowChanged.connect(self._pack_changed)
        self.levels.itemSelectionChanged.connect(self._level_changed)
        self.levels.doubleClicked.connect(lambda _i: self.start.play.click())
        self.search.textChanged.connect(self._refilter)
        self.min_opt.valueChanged.connect(self._refilter)
        self.max_opt.valueChanged.connect(self._refilter)
        self.add_file.clicked.connect(self._add_file)
        self.remove_file.clicked.connect(self._remove_file)
        self.start.start_requested.connect(self.start_requested)
        if fill:
            self.fill()

    @property
    def is_filled(self) -> bool:
        return bool(self._games or self.panels)

    def fill(self) -> None:
        """List the installed games and make one task panel per kind played in the browser
        view (web tasks; later kinds alike), after the board games in the registry's order;
        then show the last game chosen. Its pictures and thumbnails follow from the thread
        pool. Calling it again does nothing."""
        if self.is_filled:
            return
        state = self.state
        self.panels = [WebTasksPanel(state, self.on_error, kind=k)
                       for k in browser_kinds(self.surfaces)]
        for panel in self.panels:
            panel.hide()
            self._split.addWidget(panel)
            panel.start_requested.connect(self.start_requested)
        self._games = catalog.games()
        for g in self._games:
            item = QListWidgetItem(g.title)
            item.setToolTip(g.move_help)
            self.games.addItem(item)
        for panel in self.panels:
            self.games.addItem(QListWidgetItem(panel.kind.title))
        # Rows with a picture are about GAME_ICON + 8 px high, the task-panel kinds' text rows
        # one or two lines. The list shows them all where there is room and scrolls on a small
        # screen: with every kind listed, a fixed height pushed the window past a 1366x768
        # laptop screen.
        line = GAME_ICON + 8
        full = len(self._games) * line + len(self.panels) * 30 + 6
        self.games.setMaximumHeight(full)
        self.games.setMinimumHeight(min(full, 4 * line + 6))
        self.pictures.call(game_pictures, [g.name for g in self._games], GAME_ICON,
                           done=self._show_game_pictures)
        names = self._names()
        last = state.prefs.last_game
        self.games.setCurrentRow(names.index(last) if last in names else 0)
        self.filled.emit()

    # -- selection ----------------------------------------------------------------------------

    @property
    def game(self) -> str | None:
        row = self.games.currentRow()
        return self._games[row].name if 0 <= row < len(self._games) else None

    @property
    def first_game(self) -> str:
        """The first board game listed (what the start panel shows before any choice)."""
        self.fill()
        return self._games[0].name

    def _names(self) -> list[str]:
        """Kind names in the order of the list: board games, then browser kinds."""
        return [g.name for g in self._games] + [p.kind.name for p in self.panels]

    def _game_changed(self, row: int) -> None:
        shown = row - len(self._games)  # which browser kind's panel, if any
        browser = 0 <= shown < len(self.panels)
        was = [i for i, p in enumerate(self.panels) if not p.isHidden()]
        was_browser = bool(was)
        for w in self._board_parts:
            w.setVisible(not browser)
        for i, panel in enumerate(self.panels):
            panel.setVisible(i == shown)
        # Switching between board games and a task panel, or from one kind's task panel to
        # another's (whose pane would otherwise keep its width of 0, leaving the games list
        # alone across the window).
        if browser != was_browser or (browser and was != [shown]):
            total = sum(self._split.sizes()) or 1250
            panes = [0] * len(self.panels)
            if browser:
                panes[shown] = total - 230
                self._split.setSizes([230, 0, 0, *panes])
            else:
                self._split.setSizes([230, total - 610, 380, *panes])
        if browser:
            self.state.prefs = self.state.prefs.with_(last_game=self.panels[shown].kind.name)
        game = self.game
        if game is None:
            return
        if self.state.prefs.last_game != game:
            self.state.prefs = self.state.prefs.with_(last_game=game)
        self.start.set_game(game)
        self._list_packs(game)

    def _list_packs(self, game: str, select: str | None = None) -> None:
        self._pack_refs = catalog.packs(game, self.state.prefs.level_files.get(game, []))
        self.packs.blockSignals(True)
        self.packs.clear()
        for p in self._pack_refs:
            item = QListWidgetItem(p.label)
            item.setToolTip(p.source)
            self.packs.addItem(item)
        self.packs.blockSignals(False)
        if not self._pack_refs:
            self._show_rows(None, [])
            self.empty.setText("No level packs for this game yet. Add a level file.")
            return
        sources = [p.source for p in self._pack_refs]
        self.packs.setCurrentRow(sources.index(select) if select in sources else 0)

    def _pack_changed(self, row: int) -> None:
        if not 0 <= row < len(self._pack_refs):
            return
        pack = self._pack_refs[row]
        self.remove_file.setEnabled(not pack.bundled)
        try:
            rows = catalog.load(pack)
        except Exception as err:  # noqa: BLE001 - shown as a dialog; the library stays usable
            self._show_rows(pack, [])
            self.empty.setText("This level pack could not be loaded.")
            self.on_error(err)
            return
        self._show_rows(pack, rows)

    def _show_rows(self, pack: PackRef | None, rows: list[LevelRow]) -> None:
        self.pack, self.rows = pack, rows
        # A pack with no known optimal length (football's scenarios) has no Optimal column
        # and no filter on it.
        known = any(r.optimal is not None for r in rows)
        self.levels.setColumnHidden(OPTIMAL_COLUMN, not known)
        for w in self._optimal_parts:
            w.setVisible(known)
        if not known:
            self.min_opt.setValue(0)
            self.max_opt.setValue(0)
        self._thumbs.clear()
        self.thumbnails.drop()
        self._refilter()
        self.marks.refresh(None if pack is None else pack.game)
        if rows and pack is not None:
            self._load_thumbs(pack, rows, 0)

    def _filter(self) -> LevelFilter:
        return LevelFilter(self.search.text().strip(), self.min_opt.value() or None,
                           self.max_opt.value() or None)

    def _refilter(self) -> None:
        self.shown = self._filter().apply(self.rows)
        self.levels.setRowCount(len(self.shown))
        for i, r in enumerate(self.shown):
            thumb = QTableWidgetItem()
            pix = self._thumbs.get(r.level.content_hash)
            if pix is not None:
                thumb.setIcon(QIcon(pix))
            number = QTableWidgetItem(str(r.level.number))
            number.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
            facts = ", ".join(f"{k} {v}" for k, v in r.facts.items() if v is not None)
            optimal = QTableWidgetItem("?" if r.optimal is None else str(r.optimal))
            optimal.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
            for col, item in enumerate((thumb, number, QTableWidgetItem(r.title),
                                        QTableWidgetItem(facts), optimal,
                                        self.marks.item(r.level.content_hash))):
                self.levels.setItem(i, col, item)
        self.count.setText(f"{len(self.shown)} of {len(self.rows)} levels")
        self.empty.setVisible(not self.shown)
        if self.rows and not self.shown:
            self.empty.setText("No level matches the filter.")
        self.levels.clearSelection()
        if self.shown:
            self.levels.selectRow(0)
        else:
            self.start.set_level(None, [], -1)

    def showEvent(self, event: Any) -> None:
        """Coming back to the Library (after playing, say) reads the level marks again."""
        super().showEvent(event)
        # Posted, not called: the window is first shown before the asyncio loop runs, and
        # the read is an asyncio task.
        QTimer.singleShot(0, self, self.refresh_marks)

    def refresh_marks(self) -> None:
        """Read the shown pack's played/solved marks again (another annotator, a new
        database, a finished episode)."""
        if self.pack is not None:
            self.marks.refresh(self.pack.game)

    def _level_changed(self) -> None:
        rows = self.levels.selectionModel().selectedRows()
        if not rows or self.pack is None:
            return
        row = self.shown[rows[0].row()]
        levels = [r.level for r in self.rows]
        self.start.set_level(self.pack, levels, levels.index(row.level))

    def panel(self, kind: str) -> WebTasksPanel:
        """The task panel of ``kind`` (a kind the Library lists as tasks)."""
        self.fill()
        found = next((p for p in self.panels if p.kind.name == kind), None)
        if found is None:
            raise KeyError(f"the Library has no task panel for {kind!r}")
        return found

    def select_level(self, number: int) -> None:
        """Select the level with this number (tests, screenshots)."""
        for i, r in enumerate(self.shown):
            if r.level.number == number:
                self.levels.selectRow(i)
                return

    def select(self, game: str, pack: str | None = None) -> None:
        """Show ``game`` (and a pack of it by source name)."""
        self.fill()
        names = self._names()
        self.games.setCurrentRow(names.index(game))
        if pack is not None and game in (g.name for g in self._games):
            sources = [p.source for p in self._pack_refs]
            self.packs.setCurrentRow(sources.index(pack))

    # -- thumbnails ---------------------------------------------------------------------------

    def _load_thumbs(self, pack: PackRef, rows: list[LevelRow], start: int) -> None:
        """Draw the thumbnails of ``rows[start:]`` in the thread pool, a batch at a time."""
        if start >= len(rows):
            return
        chunk = [r.level for r in rows[start:start + BATCH]]
        rules = self.state.prefs.rules.get(pack.game, {})

        def drawn(frames: list[np.ndarray | None]) -> None:
            for lv, frame in zip(chunk, frames, strict=True):
                if frame is not None:
                    self._thumbs[lv.content_hash] = _pixmap(frame)
            self._apply_thumbs()
            self._load_thumbs(pack, rows, start + BATCH)
        self.thumbnails.call(catalog.thumbnails, pack.game, chunk, rules, THUMB, done=drawn)

    def _show_game_pictures(self, frames: list[np.ndarray | None]) -> None:
        for i, frame in enumerate(frames):
            item = self.games.item(i)
            if frame is not None and item is not None:
                item.setIcon(QIcon(_pixmap(frame)))

    def _apply_thumbs(self) -> None:
        for i, r in enumerate(self.shown):
            pix = self._thumbs.get(r.level.content_hash)
            item = self.levels.item(i, 0)
            if pix is not None and item is not None and item.icon().isNull():
                item.setIcon(QIcon(pix))

    # -- level files --------------------------------------------------------------------------

    def _add_file(self) -> None:
        game = self.game
        if game is None:
            return
        picker = source_picker(default_registry().get(game))  # the kind's own files, if named
        path, _ = open_file_name(self, picker.title if picker else "Add a level file", "",
                                 picker.file_filter if picker else
                                 "Level files (*.xsb *.txt *.jsonl *.json);;All (*)",
                                 protect=database_files(self.state.db_url))
        if path:
            self.add_level_file(game, path)

    def add_level_file(self, game: str, path: str) -> None:
        files = dict(self.state.prefs.level_files)
        files[game] = [*files.get(game, []), path] if path not in files.get(game, []) else \
            files[game]
        self.state.save_prefs(self.state.prefs.with_(level_files=files))
        self._list_packs(game, select=path)

    def _remove_file(self) -> None:
        game, row = self.game, self.packs.currentRow()
        if game is None or not 0 <= row < len(self._pack_refs):
            return
        pack = self._pack_refs[row]
        files = dict(self.state.prefs.level_files)
        files[game] = [p for p in files.get(game, []) if p != pack.source]
        self.state.save_prefs(self.state.prefs.with_(level_files=files))
        self._list_packs(game)
