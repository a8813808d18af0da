"""The main window: its places (Library, Play, Studies, Episodes, Compare, Results, Models),
settings, start-up prompts (annotator, resume) and a shutdown that never loses a running episode.

Play is one place whatever the task's surface (app/ui/play_place.py): the window asks the
registered surfaces (app/ui/surfaces) for the view a kind is played on and its sessions, and
never names one.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from PySide6.QtCore import QByteArray, Qt
from PySide6.QtGui import QCloseEvent, QGuiApplication
from PySide6.QtWidgets import QSplitter

from playbench.app.ui.annotator import AnnotatorDialog
from playbench.app.ui.compare import CompareView
from playbench.app.ui.confirm import confirm
from playbench.app.ui.errors import Explanation, show_error, show_problem
from playbench.app.ui.library import LibraryView
from playbench.app.ui.models.app_state import AppState
from playbench.app.ui.models.geometry import Rect, fit, saved_rect
from playbench.app.ui.models.guards import Question
from playbench.app.ui.models.launch import resume_session
from playbench.app.ui.models.records import abandon, list_episodes, offered_at_start
from playbench.app.ui.models.start import StartRequest
from playbench.app.ui.models.study_run import paused_task
from playbench.app.ui.models_place import TITLE as MODELS_TITLE
from playbench.app.ui.models_place import ModelsPlace
from playbench.app.ui.play_place import PlayPlace
from playbench.app.ui.qt import (
    QAction,
    QEvent,
    QFrame,
    QHBoxLayout,
    QKeySequence,
    QLabel,
    QMainWindow,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
    Signal,
)
from playbench.app.ui.results import ResultsView
from playbench.app.ui.resume import ResumeDialog
from playbench.app.ui.settings_dialog import SettingsDialog
from playbench.app.ui.studies import StudiesView
from playbench.app.ui.surface import SurfaceContext, SurfaceView, environment
from playbench.app.ui.surface_registry import SurfaceRegistry
from playbench.app.ui.viewer import EpisodeViewer


def _page_splitters(page: QWidget) -> dict[str, QSplitter]:
    """A page's splitters, named by its class and their order in it (stored states go back to
    the same splitter)."""
    return {f"{type(page).__name__}.{n}": split
            for n, split in enumerate(page.findChildren(QSplitter))}


class MainWindow(QMainWindow):
    closed = Signal()

    def __init__(self, state: AppState, surfaces: SurfaceRegistry | None = None, *,
                 fill_library: bool = True) -> None:
        """``fill_library`` False leaves the Library's lists for ``library.fill()`` and the
        Play place's views for ``play_place.make_views()`` (the app calls both once the
        window is interactive; a view asked for earlier is made then)."""
        super().__init__()
        self.state = state
        self.problems: list[Explanation] = []
        self._closing = False
        self._closed = False
        state.jobs.on_error = self.report
        self.setWindowTitle("PlayBench")
        self.ctx = SurfaceContext(state, self.report)
        self.surfaces = surfaces if surfaces is not None else SurfaceRegistry()

        self.library = LibraryView(state, self.report, surfaces=self.surfaces,
                                   fill=fill_library)
        self.play_place = PlayPlace(self.ctx, self.surfaces, self._wire,
                                    make_views=fill_library)
        self.studies = StudiesView(state, self.report, self.play_place, self.show_play)
        self.episodes = EpisodeViewer(state, self.report)
        self.compare = CompareView(state, self.report)
        self.results = ResultsView(state, self.report)
        self.models = ModelsPlace(state, self.report, self.ask_annotator, self.surfaces)
        self.demo = self.models.demo
        self.tabs = QTabWidget()
        self.tabs.setObjectName("tabs")
        self.tabs.setDocumentMode(True)
        for page, title in ((self.library, "Library"), (self.play_place, "Play"),
                            (self.studies, "Studies"), (self.episodes, "Episodes"),
                            (self.compare, "Compare"), (self.results, "Results"),
                            (self.models, MODELS_TITLE)):
            self.tabs.addTab(page, title)
        self.models.waiting.connect(lambda n: self.tabs.setTabText(
            self.tabs.indexOf(self.models), f"{MODELS_TITLE} ({n})" if n else MODELS_TITLE))

        self.nodb = QFrame()
        self.nodb.setObjectName("nodb")
        self.nodb_text = QLabel("")
        self.nodb_text.setWordWrap(True)
        fix = QPushButton("Choose a database…")
        nl = QHBoxLayout(self.nodb)
        nl.addWidget(self.nodb_text, 1)
        nl.addWidget(fix)
        fix.clicked.connect(lambda: self.open_settings(tab=2))

        central = QWidget()
        cv = QVBoxLayout(central)
        cv.setContentsMargins(0, 0, 0, 0)
        cv.addWidget(self.nodb)
        cv.addWidget(self.tabs, 1)
        self.setCentralWidget(central)

        bar = self.addToolBar("PlayBench")
        bar.setObjectName("toolbar")
        bar.setMovable(False)
        self.settings_action = QAction("Settings…", self)
        self.settings_action.triggered.connect(lambda: self.open_settings())
        bar.addAction(self.settings_action)
        self.who_action = QAction("", self)
        self.who_action.triggered.connect(self.ask_annotator)
        bar.addAction(self.who_action)
        self.db_label = QLabel("")
        self.statusBar().addPermanentWidget(self.db_label)
        # Ctrl+Q closes the window the way its close button does (running episodes are
        # saved as interrupted); a bare X server or a tiling window manager has no button.
        self.quit_action = QAction("Quit", self)
        self.quit_action.setShortcut(QKeySequence("Ctrl+Q"))
        self.quit_action.triggered.connect(self.close)
        self.addAction(self.quit_action)

        self.library.start_requested.connect(self.start)
        self.demo.open_episode.connect(self.show_episode)
        self.episodes.resume_requested.connect(self.resume)
        self.tabs.currentChanged.connect(self._tab_changed)
        self._show_identity()
        self.place()

    def _wire(self, view: SurfaceView) -> None:
        """Connect a surface's view to the window (the Play place calls it for each)."""
        view.go_library.connect(lambda: self.tabs.setCurrentWidget(self.library))
        view.next_request.connect(self.start)
        view.open_episode.connect(self.show_episode)
        self._restore_splitters(_page_splitters(view))  # a view made after the window's

    # -- geometry -----------------------------------------------------------------------------

    def available(self) -> Rect:
        """The free area (without panels and docks) of the screen the window is on."""
        screen = self.screen() or QGuiApplication.primaryScreen()
        geo = screen.availableGeometry()
        return Rect(geo.x(), geo.y(), geo.width(), geo.height())

    def splitters(self) -> dict[str, QSplitter]:
        """Every splitter of every tab, named by its tab's view class and its order there,
        so a stored state goes back to the same splitter."""
        found: dict[str, QSplitter] = {}
        pages = [self.tabs.widget(i) for i in range(self.tabs.count())]
        pages += [*self.play_place.views(), self.models.demo, self.models.answer]
        for page in pages:
            if page is None or page is self.play_place or page is self.models:
                continue
            found.update(_page_splitters(page))
        return found

    def _restore_splitters(self, splitters: dict[str, QSplitter]) -> None:
        states = (self.state.prefs.window or {}).get("splitters")
        if isinstance(states, dict):
            for name, split in splitters.items():
                text = states.get(name)
                if isinstance(text, str):
                    split.restoreState(QByteArray.fromBase64(text.encode("ascii")))

    def place(self) -> None:
        """Size and place the window to fit the screen: the geometry it was closed with
        (brought inside the screen) or the preferred size, never larger than the screen's
        free area; splitters get their stored states back."""
        stored = self.state.prefs.window or {}
        rect = fit(self.available(), saved_rect(stored))
        self.resize(rect.w, rect.h)
        self.move(rect.x, rect.y)
        self._restore_splitters(self.splitters())
        if stored.get("maximized") is True:
            self.setWindowState(self.windowState() | Qt.WindowState.WindowMaximized)

    def remember_geometry(self) -> None:
        """Store the window's geometry and splitter states in the preferences file."""
        geo = self.normalGeometry() if self.isMaximized() else self.geometry()
        # A play view not opened this time (they are made when first needed) keeps the
        # splitter states it was last closed with.
        kept = (self.state.prefs.window or {}).get("splitters")
        window = {**Rect(geo.x(), geo.y(), geo.width(), geo.height()).as_dict(),
                  "maximized": self.isMaximized(),
                  "splitters": {**(kept if isinstance(kept, dict) else {}),
                                **{name: bytes(split.saveState().toBase64().data()).decode(
                                    "ascii") for name, split in self.splitters().items()}}}
        with contextlib.suppress(OSError):  # an unwritable config never blocks closing
            self.state.save_prefs(self.state.prefs.with_(window=window))

    # -- start-up -----------------------------------------------------------------------------

    def after_show(self) -> None:
        """Prompts once the window is up: problems, annotator, then resumable episodes."""
        if self.state.prefs_problem:
            show_problem(self, Explanation("The preferences could not be read",
                                       self.state.prefs_problem,
                                       "Defaults are used; saving settings rewrites the file."))
        if self.state.db_problem:
            show_problem(self, Explanation("The database cannot be used", self.state.db_problem,
                                       "Choose another database file in Settings > Database. "
                                       "Nothing was written to the refused file."))
        if not self.state.prefs.annotator:
            self.ask_annotator(then=self.offer_resume)
        else:
            self.offer_resume()

    def offer_resume(self) -> None:
        if self.state.store is None:
            return
        try:
            summaries = list_episodes(self.state.store)  # read once for both prompts
            paused = paused_task(self.state.store, self.state.prefs.annotator, summaries)
            waiting = [] if paused else offered_at_start(summaries)
        except Exception as err:  # noqa: BLE001
            self.report(err)
            return
        if paused:  # an annotator who stopped mid-task is asked first, by their study's name
            study, key = paused
            confirm(self, Question(
                "Continue your study task?",
                f"You paused task {key} of the study \u201c{study}\u201d. Continue it now? It "
                "goes on from your last step, with the time already used counted.",
                "Continue task"), lambda: self.studies.continue_study(study))
        elif waiting:
            ResumeDialog(self, waiting, self.resume, self.discard).open()

    def discard(self, episode_id: int) -> None:
        """Stop offering ``episode_id`` for resumption (recorded as abandoned, kept)."""
        if self.state.store is None:  # no database, so nothing was offered
            return
        try:
            abandon(self.state.store, episode_id)
        except Exception as err:  # noqa: BLE001
            self.report(err)

    def changeEvent(self, event: Any) -> None:
        """Coming back to the window (from a terminal where ``playbench models add`` ran, say)
        lists the model profiles again."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.ActivationChange and self.isActiveWindow():
            self.library.start.refresh_players()

    def switch_annotator(self, name: str) -> None:
        """Make ``name`` the annotator: the toolbar, the start panel and the Studies queue
        show theirs at once."""
        self.state.save_prefs(self.state.prefs.with_(annotator=name))
        self._show_identity()
        self.library.start.refresh_players()
        self.library.refresh_marks()
        self.studies.refresh()

    def ask_annotator(self, then: Any = None) -> None:
        def switch(name: str) -> None:
            self.switch_annotator(name)
            if callable(then):
                then()

        def chosen(name: str) -> None:
            # A running task stays with the annotator who played it: stopped first, asked.
            view = self.play_place.running()
            question = None if view is None else view.host.annotator_question(name)
            if view is None or question is None:
                switch(name)
            else:
                confirm(self, question, lambda: view.host.stop_then(lambda: switch(name)))
        AnnotatorDialog(self, self.state.prefs.annotator, chosen).open()

    def _show_identity(self) -> None:
        who = self.state.prefs.annotator or "not set"
        self.who_action.setText(f"Annotator: {who}")
        self.who_action.setToolTip("Change the pseudonymous annotator id")
        self.db_label.setText(f"Database: {self.state.db_url}")
        self.nodb.setVisible(self.state.store is None)
        if self.state.store is None:
            self.nodb_text.setText("No database is open, so nothing can be recorded and play "
                                   f"is disabled. {self.state.db_problem or ''}")
        self.library.start.play.setEnabled(self.state.store is not None
                                           and self.library.start.index >= 0)

    # -- actions ------------------------------------------------------------------------------

    def report(self, err: BaseException) -> None:
        """Explain an error in a dialog; the app keeps running."""
        show_error(self, err)

    def start(self, req: StartRequest) -> None:
        """Start ``req``: a person on the Play place's view for its kind's surface, anyone
        else in the model demo."""
        if self.state.store is None:
            self.report(RuntimeError("no database is open; choose one in Settings > Database"))
            return
        try:
            surface = self.surfaces.for_game(req.game)
            if req.is_human:
                if not self.state.prefs.annotator:
                    self.ask_annotator(then=lambda: self.start(req))
                    return
                view = self.play_place.view(surface.name)
                if self._ask_before_replacing("a new level or task",
                                              lambda: self.start(req)):
                    return
                view.stop()
                session = surface.human_session(self.ctx, req)
                self.show_play(view)
                view.begin(session, req)
            else:
                self.demo.stop_episode()
                session, pacer = surface.model_session(self.ctx, req, self.demo.delay())
                self.show_demo()
                self.demo.begin(session, pacer)
        except Exception as err:  # noqa: BLE001 - bad profile, level, rules: a dialog
            self.report(err)

    def _ask_before_replacing(self, starting: str, then: Any) -> bool:
        """If a person's task is running, ask before ``starting`` stops it (then ``then``
        once its end is recorded) and return True; False when nothing runs."""
        running = self.play_place.running()
        question = None if running is None else running.host.replace_question(starting)
        if running is None or question is None:
            return False
        confirm(self, question, lambda: running.host.stop_then(then))
        return True

    def show_play(self, view: SurfaceView) -> None:
        self.play_place.show_view(view)
        self.tabs.setCurrentWidget(self.play_place)

    def show_demo(self) -> None:
        self.show_page(self.demo)

    def show_page(self, page: QWidget) -> None:
        """Bring ``page`` to the front: a place, a surface's view or a page of Models."""
        if isinstance(page, SurfaceView):
            self.show_play(page)
        elif page in (self.models.demo, self.models.answer):
            self.models.setCurrentWidget(page)
            self.tabs.setCurrentWidget(self.models)
        else:
            self.tabs.setCurrentWidget(page)

    def current_page(self) -> QWidget | None:
        """What the window shows: the place, or within Play and Models the page shown."""
        page = self.tabs.currentWidget()
        if page is self.play_place:
            return self.play_place.shown or self.play_place
        if page is self.models:
            return self.models.currentWidget()
        return page

    def resume(self, episode_id: int) -> None:
        """Continue recorded episode ``episode_id``: a person's on its surface's view, a
        model's in the model demo."""
        try:
            session, pacer = resume_session(
                self.state, episode_id, self.demo.delay(),
                person=lambda game, name: self.surfaces.for_game(game).person(name),
                environment=lambda game: environment(self.surfaces.for_game(game), self.ctx,
                                                     game))
            view = self.play_place.view_for(session.task.game) if pacer is None else None
        except Exception as err:  # noqa: BLE001
            self.report(err)
            return
        if view is not None:
            if self._ask_before_replacing(f"episode #{episode_id}",
                                          lambda: self.resume(episode_id)):
                return
            view.stop()
            self.show_play(view)
            view.begin(session, None, resume_id=episode_id)
        else:
            assert pacer is not None
            self.demo.stop_episode()
            self.show_demo()
            self.demo.begin(session, pacer, resume_id=episode_id)

    def show_episode(self, episode_id: int) -> None:
        self.tabs.setCurrentWidget(self.episodes)
        self.episodes.select(episode_id)

    def open_settings(self, tab: int = 0) -> SettingsDialog:
        def applied() -> None:
            self._show_identity()
            self.library.start.refresh_players()
            self.library.start.set_game(self.library.game or self.library.first_game)
            self.library.refresh_marks()  # the database may be another one now
            self.episodes.refresh()
        dialog = SettingsDialog(self, self.state, applied)
        dialog.tabs.setCurrentIndex(tab)
        dialog.finished.connect(lambda _r: self.library.start.refresh_players())
        dialog.open()
        return dialog

    def _tab_changed(self, _index: int) -> None:
        page = self.tabs.currentWidget()
        if page is self.episodes:
            self.episodes.refresh()
        elif page is self.play_place and self.play_place.shown is not None:
            self.play_place.shown.focus_input()

    # -- shutdown -----------------------------------------------------------------------------

    def closeEvent(self, event: QCloseEvent) -> None:
        if self._closed:
            event.accept()
            return
        event.ignore()
        if not self._closing:
            self._closing = True
            self.remember_geometry()
            self.statusBar().showMessage("Saving and closing…")
            asyncio.ensure_future(self._shut_down())

    async def _shut_down(self) -> None:
        """Cancel running episodes (they record ``interrupted``), close model connections and
        the database, then close for real. Bounded, so closing never hangs."""
        with contextlib.suppress(Exception):  # closing must finish whatever happened
            await asyncio.wait_for(self.state.close(timeout=5.0), timeout=8.0)
        self._closed = True
        self.close()
        self.closed.emit()
