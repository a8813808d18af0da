"""The Compare view: N episodes of one task side by side on one step scrubber.

Pick a study, game and task; tick the episodes to compare (the finished ones by default).
Each lane shows its frame, action, validity and cumulative score at the scrubber's row; the
first row where the lanes stop agreeing is marked on the scrubber, outlined in the lanes that
differ there, and one button away. Episodes are loaded once per task in the thread pool (one
:class:`~playbench.app.ui.operation.Operation`, so a slow read overtaken by a newer choice is
dropped);
frames are decoded there too (:mod:`playbench.app.ui.compare_frames`), so scrubbing only draws ready
images.

Blind studies: an annotator sees only their own episodes of a blind study, without scores,
unless "Researcher view" is ticked (the researcher's machine).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playbench.app.results.compare import Comparison
from playbench.app.studies import Blinded, Viewer
from playbench.app.ui.compare_frames import FrameCache
from playbench.app.ui.compare_lane import LaneWidget, ScrubSlider
from playbench.app.ui.models.app_state import AppState
from playbench.app.ui.models.comparing import (
    TaskOption,
    cell,
    default_selection,
    divergence_text,
    divergent_lanes,
    games_of,
    load_task,
    narrow,
    option_label,
    position_text,
    task_options,
    wanted_frames,
)
from playbench.app.ui.models.wording import count
from playbench.app.ui.operation import Operation
from playbench.app.ui.qt import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    Qt,
    QVBoxLayout,
    QWidget,
)
from playbench.app.ui.researcher import ResearcherSwitch
from playbench.app.ui.scrubber import Scrubber
from playbench.db.store import Store

ALL = "(all)"


def read_tasks(store: Store, study: str | None,
               viewer: Viewer) -> tuple[list[str], str | None, list[TaskOption]]:
    """The study names, the study still chosen (None: all, or it is gone) and the tasks
    with episodes ``viewer`` may compare there (runs in the thread pool)."""
    names = store.study_names()
    chosen = study if study in names else None
    return names, chosen, task_options(store, chosen, None, viewer)


class CompareView(QWidget):
    def __init__(self, state: AppState, on_error: Callable[[BaseException], None],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.on_error = on_error
        self.options: list[TaskOption] = []
        self.full: Comparison | None = None
        self.comparison: Comparison | None = None
        self.lanes: list[LaneWidget] = []
        self.loads: Operation[Any] = Operation(self, state.jobs, state.executor, "compare",
                                               on_error=on_error, busy=self._busy)
        """Reading tasks and loading a task's episodes: the latest request wins."""
        self._loaded: tuple[int, int] | None = None
        """(task id, episode count) of what is loaded: a task that gained episodes since
        is loaded again when the tab is shown; otherwise the ticks a person chose stay."""
        self.cache = FrameCache(state, parent=self)

        self.study = QComboBox()
        self.study.setMinimumWidth(150)
        # Sized to its longest study name it pushed a 1024 px window to 1134 px.
        self.study.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.study.setMinimumContentsLength(14)
        self.game = QComboBox()
        self.game.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.game.setMinimumContentsLength(10)
        self.task = QComboBox()
        self.task.setObjectName("task")
        self.task.setMinimumWidth(200)
        # A long task title never widens the window: the combo shows what fits.
        self.task.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.researcher = ResearcherSwitch(
            state, "Show every participant's episodes and scores, blind "
                   "studies included. Annotators of a blind study leave it off.")
        self.refresh_button = QPushButton("Refresh")
        self.busy = QLabel("")
        self.busy.setObjectName("hint")
        # "Reading tasks…" for a moment must not widen the window for good: the label takes
        # a fixed share of the row whatever it says.
        self.busy.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.busy.setMinimumWidth(100)

        self.episodes = QListWidget()
        self.episodes.setObjectName("compare_episodes")
        self.episodes.setSpacing(3)
        self.tick_all = QPushButton("All")
        self.tick_done = QPushButton("Finished only")
        self.hidden = QLabel("")
        self.hidden.setObjectName("hint")
        self.hidden.setWordWrap(True)

        self.heading = QLabel("Choose a task")
        self.heading.setObjectName("title")
        self.divergence = QLabel("")
        self.divergence.setObjectName("lane_note")
        self.divergence.setWordWrap(True)
        self.jump = QPushButton("Jump to divergence")
        self.jump.setObjectName("primary")
        self.strip = QWidget()
        self.strip_layout = QHBoxLayout(self.strip)
        self.strip_layout.setContentsMargins(0, 0, 0, 0)
        self.lanes_scroll = QScrollArea()
        self.lanes_scroll.setWidgetResizable(True)
        self.lanes_scroll.setWidget(self.strip)
        self.slider = ScrubSlider()
        self.nav = Scrubber(self.slider)
        self.position = QLabel("")
        self.empty = QLabel("Nothing to compare yet: play a level (or run a model) and its "
                            "episodes appear here, grouped by task.")
        self.empty.setObjectName("hint")
        self.empty.setWordWrap(True)

        top = QHBoxLayout()
        for text, w in (("Study", self.study), ("Game", self.game), ("Task", self.task)):
            top.addWidget(QLabel(text))
            top.addWidget(w, 1 if w is self.task else 0)
        top.addWidget(self.researcher)
        top.addWidget(self.refresh_button)
        top.addWidget(self.busy)
        left = QWidget()
        lv = QVBoxLayout(left)
        lv.setContentsMargins(0, 0, 0, 0)
        heading = QLabel("Episodes")
        heading.setObjectName("heading")
        lv.addWidget(heading)
        lv.addWidget(self.episodes, 1)
        ticks = QHBoxLayout()
        ticks.addWidget(self.tick_all)
        ticks.addWidget(self.tick_done)
        lv.addLayout(ticks)
        lv.addWidget(self.hidden)
        right = QWidget()
        rv = QVBoxLayout(right)
        rv.setContentsMargins(0, 0, 0, 0)
        rv.addWidget(self.heading)
        div = QHBoxLayout()
        div.addWidget(self.divergence, 1)
        div.addWidget(self.jump)
        rv.addLayout(div)
        rv.addWidget(self.lanes_scroll, 1)
        rv.addWidget(self.nav)
        rv.addWidget(self.position)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(right)
        split.setSizes([300, 1150])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addLayout(top)
        layout.addWidget(self.empty)
        layout.addWidget(split, 1)

        self.study.activated.connect(lambda _i: self.refresh())
        self.researcher.toggled.connect(lambda _on: self.refresh(reload=True))
        self.refresh_button.clicked.connect(lambda: self.refresh(reload=True))
        self.game.activated.connect(lambda _i: self._fill_tasks())
        self.task.activated.connect(lambda _i: self.load_selected())
        self.episodes.itemChanged.connect(lambda _item: self.apply_selection())
        self.tick_all.clicked.connect(lambda: self._tick(lambda lane: True))
        self.tick_done.clicked.connect(lambda: self._tick(lambda lane: lane.status == "done"))
        self.jump.clicked.connect(self.jump_to_divergence)
        self.slider.valueChanged.connect(self.show_row)
        self.cache.ready.connect(self._frames_arrived)
        self._set_comparison(None)

    # -- choosing -----------------------------------------------------------------------------

    @property
    def viewer(self) -> Viewer:
        return self.researcher.viewer()

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        self.refresh()

    @property
    def loading(self) -> Any:
        """The latest background load (an asyncio task), or None before the first."""
        return self.loads.task

    def _busy(self, on: bool) -> None:
        if not on:
            self.busy.setText("")

    def refresh(self, reload: bool = False) -> Any:
        """Read the studies and tasks again (and reload the chosen task when ``reload``)."""
        if self.state.store is None:
            return None

        def read(found: tuple[list[str], str | None, list[TaskOption]]) -> None:
            names, chosen, options = found
            self._fill_combo(self.study, ["(all studies and free play)", *names],
                             [None, *names], chosen)
            self.options = options
            self._fill_tasks(reload=reload)
        self.busy.setText("Reading tasks…")
        return self.loads.call(read_tasks, self.state.store, self._study(), self.viewer,
                               done=read)

    def _study(self) -> str | None:
        return self.study.currentData() if self.study.count() else None

    @staticmethod
    def _fill_combo(combo: QComboBox, texts: list[str], values: list[Any], keep: Any) -> None:
        combo.blockSignals(True)
        combo.clear()
        for text, value in zip(texts, values, strict=True):
            combo.addItem(text, value)
        index = values.index(keep) if keep in values else 0
        combo.setCurrentIndex(index)
        combo.blockSignals(False)

    def _fill_tasks(self, reload: bool = False) -> None:
        games = games_of(self.options)
        keep_game = self.game.currentData() if self.game.count() else None
        self._fill_combo(self.game, ["(all games)", *games], [None, *games], keep_game)
        game = self.game.currentData()
        shown = [o for o in self.options if game is None or o.choice.game == game]
        keep = self.task.currentData() if self.task.count() else None
        ids = [o.choice.task_id for o in shown]
        self._fill_combo(self.task, [o.label for o in shown], ids, keep)
        self.empty.setVisible(not self.options)
        if not shown:
            self._set_comparison(None, "No recorded episodes in this choice.")
        elif reload or self._option_key() != self._loaded:
            self.load_selected()

    def _option_key(self) -> tuple[int, int] | None:
        task_id = self.task.currentData()
        count = next((o.choice.episodes for o in self.options if o.choice.task_id == task_id),
                     0)
        return None if task_id is None else (task_id, count)

    def select_task(self, task_id: int) -> Any:
        """Choose a task by id (as a person picks it from the list) and load it."""
        index = self.task.findData(task_id)
        if index < 0:
            raise LookupError(f"task {task_id} is not in the list")
        self.task.setCurrentIndex(index)
        return self.load_selected()

    def load_selected(self) -> Any:
        task_id = self.task.currentData()
        if task_id is None or self.state.store is None:
            return None
        key = self._option_key()

        def loaded(full: Comparison) -> None:
            self._loaded = key
            self._set_full(full)

        def failed(err: BaseException) -> None:
            if not isinstance(err, (Blinded, LookupError)):
                self.on_error(err)
                return
            self._loaded = key
            self._set_full(None, f"Nothing to show: {err}.")
        self.busy.setText("Loading episodes…")
        return self.loads.call(load_task, self.state.store, task_id, self._study(),
                               self.viewer, done=loaded, failed=failed)

    def _set_full(self, full: Comparison | None, why: str = "") -> None:
        self.full = full
        self.cache.clear()
        self.episodes.blockSignals(True)
        self.episodes.clear()
        if full is not None:
            ticked = set(default_selection(full))
            for lane in full.lanes:
                item = QListWidgetItem(option_label(lane))
                item.setToolTip(option_label(lane).replace("\n", "  "))
                item.setData(Qt.ItemDataRole.UserRole, lane.episode_id)
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(Qt.CheckState.Checked if lane.episode_id in ticked
                                   else Qt.CheckState.Unchecked)
                self.episodes.addItem(item)
        self.episodes.blockSignals(False)
        n = full.hidden if full is not None else 0
        self.hidden.setText(f"{count(n, 'episode')} of other participants "
                            "hidden (blind study)." if n else "")
        if full is None:
            self._set_comparison(None, why)
        else:
            self.apply_selection()

    def _tick(self, rule: Callable[[Any], bool]) -> None:
        if self.full is None:
            return
        self.episodes.blockSignals(True)
        for i, lane in enumerate(self.full.lanes):
            self.episodes.item(i).setCheckState(Qt.CheckState.Checked if rule(lane)
                                                else Qt.CheckState.Unchecked)
        self.episodes.blockSignals(False)
        self.apply_selection()

    def checked_ids(self) -> list[int]:
        return [self.episodes.item(i).data(Qt.ItemDataRole.UserRole)
                for i in range(self.episodes.count())
                if self.episodes.item(i).checkState() == Qt.CheckState.Checked]

    def apply_selection(self) -> None:
        """Compare the ticked episodes."""
        if self.full is not None:
            self._set_comparison(narrow(self.full, self.checked_ids()))

    # -- showing ------------------------------------------------------------------------------

    def _set_comparison(self, comparison: Comparison | None, why: str = "") -> None:
        self.comparison = comparison
        for w in self.lanes:
            self.strip_layout.removeWidget(w)
            w.deleteLater()
        self.lanes = []
        while self.strip_layout.count():
            self.strip_layout.takeAt(0)
        on = comparison is not None and bool(comparison.lanes)
        self.nav.setEnabled(on)
        if comparison is None:
            self.heading.setText(why or "Choose a task")
            self.divergence.setText("")
            self.jump.setEnabled(False)
            self.position.setText("")
            self.slider.set_marker(None)
            return
        title = comparison.level_title or f"level {comparison.level_number}"
        self.heading.setText(f"{comparison.game} · level {comparison.level_number} · {title}")
        for lane in comparison.lanes:
            w = LaneWidget(lane)
            w.setMinimumWidth(260)
            self.lanes.append(w)
            self.strip_layout.addWidget(w, 1)
        div = comparison.divergence
        self.divergence.setText(divergence_text(comparison))
        self.jump.setEnabled(div is not None)
        keep = self.slider.value()
        self.slider.blockSignals(True)
        self.slider.setRange(-1, max(-1, comparison.rows - 1))
        self.slider.setTickInterval(max(1, comparison.rows // 25))
        self.slider.setValue(min(max(keep, -1), comparison.rows - 1))
        self.slider.blockSignals(False)
        self.slider.set_marker(div.row if div is not None else None)
        self.show_row(self.slider.value())

    def jump_to_divergence(self) -> None:
        if self.comparison is not None and self.comparison.divergence is not None:
            self.slider.setValue(self.comparison.divergence.row)

    def show_row(self, row: int) -> None:
        """Every lane at scrubber row ``row`` (-1: the start)."""
        comparison = self.comparison
        if comparison is None:
            return
        div = comparison.divergence
        at_divergence = div is not None and row == div.row
        odd = divergent_lanes(comparison) if at_divergence else set()
        for i, w in enumerate(self.lanes):
            marked = i in odd
            w.show_cell(cell(w.lane, row), marked,
                        "Differs from the others here." if marked else "")
        text = position_text(comparison, row)
        if div is not None:
            text += (" · this is the first divergence" if at_divergence
                     else f" · first divergence: {'start' if div.row < 0 else div.row + 1}")
        self.position.setText(text)
        self._frames_arrived()
        self.cache.want(wanted_frames(comparison, row))

    def _frames_arrived(self) -> None:
        if self.comparison is None:
            return
        row = self.slider.value()
        for w in self.lanes:
            digest = w.lane.frame_at(row)
            w.show_frame(digest, self.cache.image(digest))
