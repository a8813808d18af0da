"""The Studies view: pick a study (or create one from its YAML file), see your queue through
it with progress, and play the next task in the Play tab under the study's conditions.

The queue lives in the database, never in this widget: every refresh reads it again, so
closing the app mid-task (the episode is recorded ``interrupted``) and opening it another day
shows the task as paused, and "Continue" resumes it from its last step with the time used so
far counted. In a blind study the queue shows no outcomes and the play view no "Solved".
Reading the queue and storing a study run in the thread pool, through
:class:`~playbench.app.ui.operation.Operation` (a read overtaken by a newer one is dropped).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import QProgressBar

from playbench.app.core.events import Ended
from playbench.app.studies import FieldProblem, StudyFileError
from playbench.app.studies.admission import NotAdmitted
from playbench.app.ui.confirm import confirm
from playbench.app.ui.dialogs import open_file_name
from playbench.app.ui.models.app_state import AppState
from playbench.app.ui.models.guards import Question
from playbench.app.ui.models.study_run import (
    STATUS_TEXT,
    QueueSnapshot,
    StudySession,
    budget_text,
    create_from_file,
    limit_text,
    next_label,
    open_queue,
    outcome_text,
    progress_text,
    study_summary,
)
from playbench.app.ui.operation import Operation
from playbench.app.ui.play_place import PlayPlace
from playbench.app.ui.qt import (
    QAbstractItemView,
    QColor,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    Qt,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)
from playbench.app.ui.studies_create import ProblemsPanel
from playbench.app.ui.studies_sweeps import SweepsPanel
from playbench.app.ui.study_admission import AdmissionPanel
from playbench.app.ui.study_consent import ConsentPanel
from playbench.app.ui.study_report import ReportPanel
from playbench.app.ui.surface import SurfaceView, study_session
from playbench.db.lockguard import database_files
from playbench.db.store import Store, StudyExists

COLUMNS = ("#", "Task", "Game", "Level", "Setting", "Budget", "Time limit", "Status",
           "Outcome")
PRACTICE_TINT = QColor(255, 246, 214)
DONE_INK = QColor(93, 102, 117)
PAUSED_INK = QColor(179, 92, 0)


Found = tuple[list[str], str, str, QueueSnapshot | None, NotAdmitted | None]


def read_queue(store: Store, wanted: str, annotator: str | None,
               invite: str | None = None) -> Found:
    """The study names, the study to show (``wanted`` if it exists, else the first), its
    summary and ``annotator``'s queue through it - or why they may not take part (runs in
    the thread pool). ``invite`` is the code the annotator typed, if any."""
    names = store.study_names(archived=False)
    name = wanted if wanted in names else (names[0] if names else "")
    summary, snapshot, refusal = "", None, None
    if name:
        summary = study_summary(store, name)
        if annotator:
            try:
                snapshot = open_queue(store, name, annotator, invite)
            except NotAdmitted as err:
                refusal = err
    return names, name, summary, snapshot, refusal


HOW = ("\"Next task\" opens the task in the Play tab with the study's budget and time limit. "
       "Closing the app or pausing mid-task keeps every step; the task continues from there "
       "next time, with the time already used counted.")


class StudiesView(QWidget):
    """An annotator's studies; plays each task on the Play place's view for its kind's
    surface (a board, the browser pane, a plugin's own)."""

    def __init__(self, state: AppState, on_error: Callable[[BaseException], None],
                 place: PlayPlace, show_play: Callable[[SurfaceView], None],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.on_error = on_error
        self.place = place
        self.show_play = show_play
        self.play: SurfaceView | None = None
        """The view the latest study task was played on (its kind's surface)."""
        self.snapshot: QueueSnapshot | None = None
        self._invite: str | None = None
        """An invite code typed for the next queue read."""
        jobs, pool = state.jobs, state.executor
        self.reading: Operation[Any] = Operation(self, jobs, pool, "study queue",
                                                 on_error=self._failed)
        """Reading the queue: the latest refresh wins."""
        self.starting: Operation[Any] = Operation(self, jobs, pool, "next study task",
                                                  on_error=self._failed)
        self.creating: Operation[Any] = Operation(self, jobs, pool, "create study",
                                                  on_error=self._failed, latest_only=False)
        self.archiving: Operation[Any] = Operation(self, jobs, pool, "archive study",
                                                   on_error=self._failed, latest_only=False)

        self.study = QComboBox()
        self.study.setObjectName("study")
        self.study.setMinimumWidth(260)
        self.create_button = QPushButton("Create from study file…")
        self.refresh_button = QPushButton("Refresh")
        self.archive_button = QPushButton("Archive…")
        self.archive_button.setToolTip("Take this study off the list (for every annotator); "
                                       "its episodes and results stay. `playbench study "
                                       "unarchive NAME` brings it back.")
        self.title = QLabel("Studies")
        self.title.setObjectName("title")
        self.summary = QLabel("")
        self.summary.setObjectName("hint")
        self.summary.setWordWrap(True)
        self.description = QLabel("")
        self.description.setWordWrap(True)
        self.who = QLabel("")
        self.progress = QProgressBar()
        self.progress.setObjectName("queue_progress")
        self.progress.setTextVisible(True)
        self.next_button = QPushButton("Next task")
        self.next_button.setObjectName("primary")
        self.pause_button = QPushButton("Pause the task being played")
        self.pause_button.setToolTip("Stops the task now; it is saved as paused and continues "
                                     "from the same step next time (also after closing the app).")
        self.playing = QLabel("")
        self.playing.setObjectName("hint")
        self.busy = QLabel("")
        self.busy.setObjectName("hint")
        self.empty = QLabel("No study yet. Create one from a study file (YAML): it lists the "
                            "tasks, budget, time limits and order - see docs/studies.md.")
        self.empty.setObjectName("hint")
        self.empty.setWordWrap(True)
        self.problems = ProblemsPanel()
        self.admission = AdmissionPanel(self._with_code)
        self.consent = ConsentPanel(state, on_error)
        self.sweeps = SweepsPanel(state, on_error)
        self.report = ReportPanel(state, self.study.currentText, on_error)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setObjectName("queue")
        self.table.setHorizontalHeaderLabels(list(COLUMNS))
        self.table.verticalHeader().setVisible(False)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.how = QLabel(HOW)
        self.how.setObjectName("hint")
        self.how.setWordWrap(True)

        top = QHBoxLayout()
        top.addWidget(QLabel("Study"))
        top.addWidget(self.study)
        top.addWidget(self.refresh_button)
        top.addWidget(self.archive_button)
        top.addStretch(1)
        top.addWidget(self.busy)
        top.addWidget(self.create_button)
        actions = QHBoxLayout()
        actions.addWidget(self.next_button)
        actions.addWidget(self.pause_button)
        actions.addWidget(self.playing, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addLayout(top)
        layout.addWidget(self.problems)
        layout.addWidget(self.title)
        layout.addWidget(self.summary)
        layout.addWidget(self.description)
        layout.addWidget(self.who)
        layout.addWidget(self.admission)
        layout.addWidget(self.consent, 3)
        layout.addWidget(self.progress)
        layout.addLayout(actions)
        layout.addWidget(self.report)
        layout.addWidget(self.how)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.empty)
        layout.addWidget(self.sweeps)
        layout.addStretch()  # takes the room the queue leaves when there is none
        self.consent.covers = (self.table, self.how, self.sweeps, self.next_button)

        self.study.activated.connect(lambda _i: self.refresh())
        self.refresh_button.clicked.connect(self.refresh)
        self.archive_button.clicked.connect(self.ask_archive)
        self.create_button.clicked.connect(self._choose_file)
        self.next_button.clicked.connect(self.next_task)
        self.pause_button.clicked.connect(self.pause)
        place.on_view(lambda view: view.continue_study.connect(self.continue_task))
        self._show(None)

    # -- reading ------------------------------------------------------------------------------

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        self.refresh()

    @property
    def annotator(self) -> str | None:
        return self.state.prefs.annotator

    @property
    def loading(self) -> Any:
        """The latest refresh (an asyncio task), for tests and the busy hint."""
        return self.reading.task

    def refresh(self) -> None:
        """Read the studies and this annotator's queue again (in the thread pool)."""
        self.sweeps.refresh()
        if self.state.store is None:
            self._show(None)
            return
        self.busy.setText("Reading the queue…")
        self.reading.call(read_queue, self.state.store, self.study.currentText(),
                          self.annotator, self._invite, done=self._read)

    def _with_code(self, code: str) -> None:
        """Read the queue again with the invite code the annotator typed (used up once they
        are admitted; a wrong one is refused with the reason)."""
        self._invite = code
        self.refresh()

    def _failed(self, err: BaseException) -> None:
        self.busy.setText("")
        self.on_error(err)

    def _read(self, found: Found) -> None:
        names, name, summary, snapshot, refusal = found
        self._invite = None
        if self.consent.queue is not None and self.consent.queue.protocol.name != name:
            self.consent.close_form()  # asked for another study
        self.admission.show_refusal(refusal)
        self.study.blockSignals(True)
        self.study.clear()
        self.study.addItems(names)
        self.study.setCurrentIndex(names.index(name) if name else -1)
        self.study.blockSignals(False)
        self.title.setText(name or "Studies")
        self.summary.setText(summary)
        self.empty.setVisible(not names)
        self.busy.setText("")
        self._show(snapshot)

    def _show(self, snapshot: QueueSnapshot | None) -> None:
        self.snapshot = snapshot
        has_study = bool(self.study.currentText())
        if not self.annotator:
            self.who.setText("Choose your annotator id (toolbar: Annotator) to see your queue.")
        else:
            self.who.setText(f"Queue of annotator <b>{self.annotator}</b> - practice tasks "
                             "come first and are never scored.")
        self.description.setText(snapshot.description if snapshot else "")
        self.description.setVisible(bool(snapshot and snapshot.description))
        items = snapshot.items if snapshot else []
        self.progress.setVisible(snapshot is not None)
        if snapshot is not None:
            p = snapshot.progress
            self.progress.setRange(0, max(1, p.total))
            self.progress.setValue(p.done)
            self.progress.setFormat(progress_text(p))
        self.next_button.setEnabled(snapshot is not None and snapshot.next is not None)
        self.next_button.setText(next_label(snapshot.next) if snapshot else "Next task")
        asking = self.consent.form is not None  # the consent screen has its own buttons
        self.next_button.setVisible(has_study and not asking)
        self._show_playing()
        self.table.setRowCount(len(items))
        for row, item in enumerate(items):
            assert snapshot is not None  # items is empty without a snapshot
            level = item.level_title or f"level {item.level_number}"
            budget = budget_text(snapshot.queue.protocol.task(item.key))
            cells = (str(item.position), item.key + ("  practice" if item.practice else ""),
                     item.game, level, item.setting, budget, limit_text(item.time_limit),
                     STATUS_TEXT.get(item.status, item.status), outcome_text(item))
            for col, text in enumerate(cells):
                cell = QTableWidgetItem(text)
                if item.practice:
                    cell.setBackground(PRACTICE_TINT)
                if item.status == "done":
                    cell.setForeground(DONE_INK)
                elif item.status in ("interrupted", "in_progress") and col == 7:
                    cell.setForeground(PAUSED_INK)
                    font = cell.font()
                    font.setBold(True)
                    cell.setFont(font)
                if col == 0:
                    cell.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                self.table.setItem(row, col, cell)
        self.table.setVisible(has_study and not asking)
        self.how.setVisible(has_study and not asking)
        self.archive_button.setVisible(has_study)
        self.report.setVisible(has_study and not asking)

    def _study_view(self) -> SurfaceView | None:
        """The view whose study task is being played (an ended task is not playing, even
        while its episode winds up)."""
        for view in self.place.views():
            s = view.session
            if isinstance(s, StudySession) and view.busy and s.result is None:
                return view
        return None

    def _study_session(self) -> StudySession | None:
        view = self._study_view()
        s = None if view is None else view.session
        return s if isinstance(s, StudySession) else None

    def _show_playing(self) -> None:
        s = self._study_session()
        self.pause_button.setVisible(s is not None)
        self.playing.setText(f"Playing {s.item.key} of {s.study} in the Play tab." if s else "")

    # -- playing ------------------------------------------------------------------------------

    def next_task(self) -> None:
        """Open the first task not done in the Play tab (a paused one is continued)."""
        running = self._study_session()
        view = self._study_view()
        if (running is not None and view is not None
                and running.study == self.study.currentText()):
            self.show_play(view)
            return
        if self.state.store is None or not self.annotator or not self.study.currentText():
            return
        other = self.place.running()
        question = (None if other is None
                    else other.host.replace_question("the next study task"))
        if question is not None:  # a level from the Library is still being played
            confirm(self, question, self._next_task_now)
            return
        self._next_task_now()

    def _next_task_now(self) -> None:
        if self.state.store is None or not self.annotator or not self.study.currentText():
            return
        self.next_button.setEnabled(False)
        study, annotator, store = self.study.currentText(), self.annotator, self.state.store
        # Whatever ran is stopped first (kept as interrupted), then the queue is read again.

        def reopen(_stopped: None) -> None:
            self.starting.call(open_queue, store, study, annotator,
                               done=lambda snapshot: self._start_next(snapshot, study, annotator))
        self.starting.wait(self._stop_play(), done=reopen)

    async def _stop_play(self) -> None:
        """Stop whatever a person is playing (on any surface) and wait for its end."""
        for view in self.place.views():
            task = view.task
            view.stop()
            if task is not None and not task.done():
                await asyncio.wait([task])

    def _start_next(self, snapshot: QueueSnapshot, study: str, annotator: str) -> None:
        self._show(snapshot)
        item = snapshot.next
        if item is None:  # asked from the last task's banner, or a queue finished meanwhile
            done = f"Every task of {study} is done - thank you. There is nothing left to play."
            self.playing.setText(done)
            if self.play is not None:
                self.play.show_finished(done, can_view=not snapshot.queue.blind)
            return
        if self.state.store is None:  # the database was closed meanwhile
            return
        if snapshot.due is not None and snapshot.due.pending:  # asked once, before anything
            self.consent.ask(snapshot.queue, snapshot.due, then=self._next_task_now)
            return
        surface = self.place.surfaces.for_game(item.game)
        view = self.place.view(surface.name)
        session = study_session(surface, self.place.ctx, snapshot.queue, item, annotator)
        session.subscribe(lambda event: self.refresh() if isinstance(event, Ended) else None)
        self.play = view
        self.show_play(view)
        view.begin(session, None, then=("Next task", self.next_task),
                   blind=snapshot.queue.blind)
        kind = "practice, not scored" if item.practice else "scored"
        view.show_heading(f"{study} · task {item.key} ({kind})")
        self._show_playing()

    def continue_study(self, study: str) -> None:
        """Show ``study`` and continue the annotator's paused task in it (the start-up
        prompt's "Continue task")."""
        self.study.blockSignals(True)
        if self.study.findText(study) < 0:
            self.study.addItem(study)  # the view has not read the study list yet
        self.study.setCurrentText(study)
        self.study.blockSignals(False)
        self.next_task()

    def continue_task(self) -> None:
        """Continue the study task paused in the Play tab (its study's queue, whatever study
        this view shows)."""
        s = next((v.session for v in self.place.views()
                  if isinstance(v.session, StudySession)), None)
        if isinstance(s, StudySession) and self.study.findText(s.study) >= 0:
            self.study.setCurrentText(s.study)
        self.next_task()

    def pause(self) -> None:
        """Stop the study task being played; it is kept as paused and can be continued."""
        if self._study_session() is None:
            return
        self.reading.drop()  # a read under way may see the task half stopped; read after
        self.starting.wait(self._stop_play(), done=lambda _stopped: self.refresh())

    def ask_archive(self) -> None:
        """Archive the study shown, once the person confirms (a study task being played is
        paused first, and kept)."""
        study = self.study.currentText()
        if not study or self.state.store is None:
            return
        confirm(self, Question(
            "Archive this study?",
            f"\u201c{study}\u201d leaves the Studies list for every annotator. Nothing is "
            "deleted: its episodes, queues and results stay, and `playbench study unarchive "
            f"{study}` brings it back.", "Archive"), lambda: self.archive(study))

    def archive(self, study: str) -> Any:
        """Archive ``study`` (in the executor), then show the list without it."""
        store = self.state.store
        if store is None:
            return None
        running, view = self._study_session(), self._study_view()
        if running is not None and view is not None and running.study == study:
            view.stop()

        def done(_: None) -> None:
            self.study.setCurrentIndex(-1)
            self.refresh()
        return self.archiving.call(store.archive_study, study, done=done)

    # -- creating -----------------------------------------------------------------------------

    def _choose_file(self) -> None:
        path, _ = open_file_name(self, "Create a study from its file", "",
                                 "Study files (*.yaml *.yml);;All (*)",
                                 protect=database_files(self.state.db_url))
        if path:
            self.create_from_file(path)

    def create_from_file(self, path: str) -> Any:
        """Check and store the study in ``path`` (in the executor); problems are listed in
        the view. Returns the asyncio task."""
        if self.state.store is None:
            return None
        self.problems.hide()
        self.busy.setText("Checking the study file…")
        return self.creating.call(create_from_file, self.state.store, path,
                                  done=self._created,
                                  failed=lambda err: self._not_created(path, err))

    def _not_created(self, path: str, err: BaseException) -> None:
        self.busy.setText("")
        if isinstance(err, StudyFileError):
            self.problems.show_problems(err.source, err.problems)
        elif isinstance(err, StudyExists):
            self.problems.show_problems(path, [FieldProblem("name", str(err))])
        else:
            self.on_error(err)

    def _created(self, protocol: Any) -> None:
        self.study.blockSignals(True)
        self.study.addItem(protocol.name)
        self.study.setCurrentText(protocol.name)
        self.study.blockSignals(False)
        self.refresh()
