"""The episode viewer: every recorded episode (human, model or scripted), and a scrubber over
the chosen one - frame, action, raw input or reply, validity, score so far.

Nothing here reads the database or decodes a PNG on the UI thread: the episode list, the
chosen episode and the frame at the scrubber are each loaded through an
:class:`~playbench.app.ui.operation.Operation` (the pool functions below), and a load that a newer
choice overtook is dropped. The step texts come from the loaded record and show at once; the
frame follows when it is decoded.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playbench.app.studies.access import Viewer, hidden_study_ids
from playbench.app.ui.board import BoardWidget
from playbench.app.ui.frame_zoom import HINT as ZOOM_HINT
from playbench.app.ui.frame_zoom import FrameZoom, open_frame
from playbench.app.ui.models.app_state import AppState
from playbench.app.ui.models.records import (
    EpisodeRecord,
    EpisodeSummary,
    StepView,
    for_viewer,
    list_episodes,
)
from playbench.app.ui.models.wording import action_text, count
from playbench.app.ui.operation import Operation
from playbench.app.ui.qt import (
    QAbstractItemView,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QImage,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    Qt,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
    Signal,
    monospace,
    png_image,
    restyle,
)
from playbench.app.ui.researcher import ResearcherSwitch
from playbench.app.ui.scrubber import Scrubber
from playbench.db.store import Store

COLUMNS = ("id", "game", "level", "who", "setting", "status", "steps", "solved")


# -- pool functions (run in the app's thread pool, never on the UI thread) -------------------

def load_list(store: Store, viewer: Viewer) -> list[EpisodeSummary]:
    """The episodes ``viewer`` may see, newest first."""
    return for_viewer(list_episodes(store), viewer, hidden_study_ids(store, viewer))


def load_record(store: Store, episode_id: int) -> EpisodeRecord:
    """One episode with its steps, ready for scrubbing."""
    return EpisodeRecord(store, episode_id)


def load_frame(record: EpisodeRecord, position: int) -> tuple[str | None, QImage | None]:
    """The frame after ``position`` steps: its hash and the decoded image (``QImage`` may be
    made outside the GUI thread)."""
    png = record.frame_png(position)
    return record.frame_hash(position), (png_image(png) if png else None)


def _cell(text: object, center: bool = False) -> QTableWidgetItem:
    item = QTableWidgetItem("" if text is None else str(text))
    if center:
        item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
    return item


class EpisodeViewer(QWidget):
    """List of episodes on the left; the chosen one, step by step, on the right."""

    resume_requested = Signal(int)

    def __init__(self, state: AppState, on_error: Callable[[BaseException], None],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.on_error = on_error
        self.summaries: list[EpisodeSummary] = []
        self.shown: list[EpisodeSummary] = []
        self.record: EpisodeRecord | None = None
        self.frame_shown: str | None = None
        """Hash of the frame on the board (None: none yet, or the episode has none)."""
        jobs, pool = state.jobs, state.executor
        self.listing: Operation[list[EpisodeSummary]] = Operation(
            self, jobs, pool, "episode list", on_error=on_error)
        self.opening: Operation[EpisodeRecord] = Operation(
            self, jobs, pool, "open episode", on_error=on_error)
        self.framing: Operation[tuple[str | None, QImage | None]] = Operation(
            self, jobs, pool, "episode frame", on_error=on_error)

        self.kind = QComboBox()
        for text, value in (("everyone", ""), ("people", "human"), ("models", "model"),
                            ("scripts", "script")):
            self.kind.addItem(text, value)
        self.status_filter = QComboBox()
        for text in ("any status", "done", "interrupted", "error", "running"):
            self.status_filter.addItem(text, "" if text == "any status" else text)
        self.search = QLineEdit()
        self.search.setPlaceholderText("Filter: game, level, name, setting")
        self.search.setClearButtonEnabled(True)
        self.refresh_button = QPushButton("Refresh")
        self.researcher = ResearcherSwitch(
            state, "Show every participant's episodes and scores, blind "
                   "studies included (annotators see only their own there, "
                   "without scores)")
        self.blinded = False
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setObjectName("episodes")
        self.table.setHorizontalHeaderLabels([c.capitalize() for c in COLUMNS])
        self.table.verticalHeader().setVisible(False)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setAlternatingRowColors(True)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.empty = QLabel("No episodes recorded yet. Play a level or watch a model in the "
                            "Library; every step lands here.")
        self.empty.setObjectName("hint")
        self.empty.setWordWrap(True)

        self.heading = QLabel("Choose an episode")
        self.heading.setObjectName("title")
        self.heading.setWordWrap(True)
        self.subheading = QLabel("")
        self.subheading.setObjectName("hint")
        self.board = BoardWidget()
        self.board.accepts_input = False
        self.board.setToolTip(ZOOM_HINT)
        self.board.setCursor(Qt.CursorShape.PointingHandCursor)
        self.board.inspect.connect(self._zoom)
        self.zoomed: FrameZoom | None = None
        """The frame opened at a readable size (web screenshots shrink to ~250 px here)."""
        self.nav = Scrubber()
        self.slider = self.nav.slider
        self.slider.setObjectName("scrubber")
        self.next = self.nav.next
        self.position = QLabel("")
        self.resume = QPushButton("Resume this episode")
        self.resume.setObjectName("primary")
        self.resume.hide()
        self.step_action = QLabel("")
        self.step_action.setObjectName("figure")
        self.step_valid = QLabel("")
        self.step_valid.setWordWrap(True)
        self.step_score = QLabel("")
        self.step_cost = QLabel("")
        self.raw = QPlainTextEdit()
        self.raw.setObjectName("raw")
        self.raw.setReadOnly(True)
        self.raw.setFont(monospace(10))
        self.raw.setMaximumHeight(150)
        self.final = QLabel("")
        self.final.setWordWrap(True)
        self.final.setObjectName("hint")

        left = QWidget()
        lv = QVBoxLayout(left)
        lv.setContentsMargins(0, 0, 0, 0)
        filters = QHBoxLayout()
        filters.addWidget(self.kind)
        filters.addWidget(self.status_filter)
        filters.addWidget(self.search, 1)
        filters.addWidget(self.researcher)
        filters.addWidget(self.refresh_button)
        lv.addLayout(filters)
        lv.addWidget(self.table, 1)
        lv.addWidget(self.empty)

        right = QWidget()
        rv = QVBoxLayout(right)
        rv.setContentsMargins(0, 0, 0, 0)
        rv.addWidget(self.heading)
        rv.addWidget(self.subheading)
        rv.addWidget(self.board, 1)
        rv.addWidget(self.nav)
        rv.addWidget(self.position)
        form = QFormLayout()
        form.addRow("Action", self.step_action)
        form.addRow("Validity", self.step_valid)
        form.addRow("So far", self.step_score)
        form.addRow("Think / cost", self.step_cost)
        rv.addLayout(form)
        rv.addWidget(QLabel("Raw input or model reply"))
        rv.addWidget(self.raw)
        rv.addWidget(self.final)
        rv.addWidget(self.resume)

        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(right)
        split.setSizes([760, 640])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(split)

        self.kind.currentIndexChanged.connect(lambda *_: self._refilter())
        self.status_filter.currentIndexChanged.connect(lambda *_: self._refilter())
        self.search.textChanged.connect(lambda *_: self._refilter())
        self.refresh_button.clicked.connect(self.refresh)
        self.researcher.toggled.connect(lambda _on: self.refresh())
        self.table.itemSelectionChanged.connect(self._chosen)
        self.slider.valueChanged.connect(self.show_position)
        self.resume.clicked.connect(self._resume)
        self.nav.setEnabled(False)

    # -- list ---------------------------------------------------------------------------------

    def refresh(self, select: int | None = None) -> Any:
        """Read the episode list again (in the pool) and keep the episode shown - or show
        ``select`` - when it is listed. Returns the asyncio task (None without a database)."""
        keep = select if select is not None else (
            self.record.id if self.record is not None else None)
        if self.state.store is None:
            self.summaries = []
            self._refilter()
            return None

        def listed(summaries: list[EpisodeSummary]) -> None:
            self.summaries = summaries
            self._refilter(keep)

        def failed(err: BaseException) -> None:  # a dialog; the viewer stays usable
            self.summaries = []
            self._refilter()
            self.on_error(err)
        return self.listing.call(load_list, self.state.store, self.viewer, done=listed,
                                 failed=failed)

    @property
    def viewer(self) -> Viewer:
        return self.researcher.viewer()

    def _refilter(self, keep: int | None = None) -> None:
        kind, status = self.kind.currentData(), self.status_filter.currentData()
        text = self.search.text().strip().lower()
        self.shown = [s for s in self.summaries
                      if (not kind or s.participant_kind == kind)
                      and (not status or s.status == status)
                      and (not text or text in " ".join(
                          [s.game, s.level, s.who, s.setting, s.player]).lower())]
        self.table.blockSignals(True)
        self.table.setRowCount(len(self.shown))
        for i, s in enumerate(self.shown):
            solved = "" if s.solved is None else ("yes" if s.solved else "no")
            values = (s.id, s.game, s.level, s.who, s.setting, s.status, s.steps, solved)
            for col, v in enumerate(values):
                self.table.setItem(i, col, _cell(v, center=col in (0, 6, 7)))
        self.table.blockSignals(False)
        self.empty.setVisible(not self.summaries)
        ids = [s.id for s in self.shown]
        if keep is not None and keep in ids:
            self.table.selectRow(ids.index(keep))
            self._chosen()

    def select(self, episode_id: int) -> Any:
        """Open episode ``episode_id``; the list is read again first when it is new to it.
        Returns the asyncio task that opens it."""
        if episode_id not in [s.id for s in self.shown]:
            for box in (self.kind, self.status_filter, self.search):
                box.blockSignals(True)
            self.kind.setCurrentIndex(0)
            self.status_filter.setCurrentIndex(0)
            self.search.clear()
            for box in (self.kind, self.status_filter, self.search):
                box.blockSignals(False)
            if episode_id not in [s.id for s in self.summaries]:
                return self.refresh(select=episode_id)
        self._refilter(episode_id)
        return self.opening.task

    def _chosen(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        if not rows or self.state.store is None:
            return
        summary = self.shown[rows[0].row()]
        self.opening.call(load_record, self.state.store, summary.id,
                          done=lambda record: self._opened(record, summary.blinded))

    def _opened(self, record: EpisodeRecord, blinded: bool) -> None:
        self.record = record
        self.open_record(record, blinded=blinded)

    # -- one episode --------------------------------------------------------------------------

    def open_record(self, record: EpisodeRecord, blinded: bool = False) -> None:
        """Show ``record`` from its last step; ``blinded`` hides rewards and scores (an
        annotator's own episode of a blind study)."""
        self.blinded = blinded
        s = record.summary
        self.heading.setText(f"Episode {s.id} · {s.level}")
        end = f" ({s.end_reason})" if s.end_reason and s.end_reason != s.status else ""
        self.subheading.setText(f"{s.game} · {s.who} · setting {s.setting} · "
                                f"{s.status}{end}")
        scores = record.scores
        shown = [f"{k} {v:.4g}" for k, v in sorted(scores.items()) if v is not None]
        by = f"Annotator {record.annotator}. " if record.annotator else ""
        if blinded:
            self.final.setText(by + "Scores are hidden: this episode belongs to a blind study.")
        else:
            self.final.setText(by + ("Final scores: " + ", ".join(shown) if shown
                                     else "No final scores (the episode did not finish)."))
        self.resume.setVisible(s.resumable)
        self.nav.setEnabled(True)
        self.slider.blockSignals(True)
        self.slider.setRange(0, len(record.steps))
        self.slider.setValue(len(record.steps))
        self.slider.blockSignals(False)
        self.show_position(len(record.steps))

    def show_position(self, position: int) -> None:
        """Show the board after ``position`` steps (0: the start)."""
        record = self.record
        if record is None:
            return
        n = len(record.steps)
        if record.frame_hash(position) != self.frame_shown or self.framing.running:
            self.framing.call(load_frame, record, position, done=self._framed)
        if position == 0:
            self.position.setText(f"Start position - {count(n, 'step')} recorded")
            self.step_action.setText("-")
            self.step_valid.setText("")
            self.step_score.setText("")
            self.step_cost.setText("")
            self.raw.setPlainText("")
            return
        st: StepView = record.steps[position - 1]
        self.position.setText(f"After step {position} of {n} (decision {st.decision + 1})")
        self.step_action.setText(action_text(st.action) if st.action else "(none: unreadable)")
        reason = f" - {st.invalid_reason}" if st.invalid_reason else ""
        self.step_valid.setText(st.validity + reason)
        restyle(self.step_valid, "kind", "good" if st.valid else "bad")
        limit = record.budget.max_actions
        reward = "" if self.blinded else f"reward {st.reward_so_far:g} · "
        self.step_score.setText(
            f"{reward}{st.used_so_far} of "
            f"{limit if limit is not None else 'unlimited'} actions used · "
            f"{st.invalid_so_far} invalid")
        cost = f", {st.tokens:,} tokens, ${st.cost:.4f}" if st.tokens or st.cost else ""
        self.step_cost.setText(f"{st.think_ms / 1000:.2f} s{cost}")
        raw = st.raw
        if st.reasoning:
            raw = f"[reasoning] {st.reasoning}\n\n{raw}"
        self.raw.setPlainText(raw if raw else "(same decision as the step before)")

    def _zoom(self) -> None:
        where = self.position.text() or "frame"
        self.zoomed = open_frame(self, self.board.image, f"{self.heading.text()} · {where}")

    def _framed(self, frame: tuple[str | None, QImage | None]) -> None:
        digest, image = frame
        self.board.set_image(image)
        self.frame_shown = digest

    def _resume(self) -> None:
        if self.record is not None:
            self.resume_requested.emit(self.record.id)
