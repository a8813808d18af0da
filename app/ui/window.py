"""The main window: Library, Play, Model demo and Episodes tabs, settings, start-up prompts
(annotator, resume) and a shutdown that never loses a running episode."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from PySide6.QtCore import QByteArray, Qt
from PySide6.QtGui import QCloseEvent, QGuiApplication
from PySide6.QtWidgets import QSplitter

from playbench.app.ui.annotator import AnnotatorDialog
from playbench.app.ui.answer import add_answer_tab
from playbench.app.ui.browser import BrowserPlayView
from playbench.app.ui.browser_demo import BrowserDemoView
from playbench.app.ui.browser_tab import add_browser_tab, start_web
from playbench.app.ui.code_view import CodeView, add_code_tab, start_code
from playbench.app.ui.confirm import confirm
from playbench.app.ui.css_repair import CssRepairView
from playbench.app.ui.css_tab import VIEW as CSS_VIEW
from playbench.app.ui.css_tab import add_css_tab, start_css
from playbench.app.ui.errors import Explanation, show_error, show_problem
from playbench.app.ui.game_pane import GamePlayView
from playbench.app.ui.library import LibraryView
from playbench.app.ui.models.app_state import AppState
from playbench.app.ui.models.geometry import Rect, fit, saved_rect
from playbench.app.ui.models.guards import (
    Question,
    annotator_question,
    replace_question,
    running_task,
)
from playbench.app.ui.models.launch import human_session, model_session, resume_session
from playbench.app.ui.models.records import abandon, list_episodes, offered_at_start
from playbench.app.ui.models.start import StartRequest
from playbench.app.ui.models.study_run import paused_task
from playbench.app.ui.play import PlayView
from playbench.app.ui.proxy_demo import add_proxy_panel
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
from playbench.app.ui.resume import ResumeDialog
from playbench.app.ui.settings_dialog import SettingsDialog
from playbench.app.ui.studies import StudiesView
from playbench.app.ui.studies_tabs import add_study_tabs
from playbench.app.ui.viewer import EpisodeViewer
from playbench.games.kind import KindError, UnknownKind, default_registry

LIBRARY, PLAY, DEMO, EPISODES = range(4)


class MainWindow(QMainWindow):
    closed = Signal()
    web: BrowserPlayView
    """The Browser tab's view (set up by :func:`playbench.app.ui.browser_tab.add_browser_tab`)."""
    code: CodeView
    """The Code tab's view: a person writes a web page (``code``-view kinds, WebUI)."""
    games: GamePlayView
    """The Game tab's view (browser games; set up with the Browser tab)."""
    css: CssRepairView
    """The CSS repair tab's view (set up by :func:`playbench.app.ui.css_tab.add_css_tab`)."""
    studies: StudiesView
    """The Studies tab's view (set up by :func:`playbench.app.ui.studies_tabs.add_study_tabs`)."""

    def __init__(self, state: AppState) -> None:
        super().__init__()
        self.state = state
        self.problems: list[Explanation] = []
        self._closing = False
        self._closed = False
        state.jobs.on_error = self.report
        self.setWindowTitle("PlayBench")

        self.library = LibraryView(state, self.report)
        self.play = PlayView(state, self.report)
        self.demo = BrowserDemoView(state, self.report)  # DemoView that also shows web pages
        self.episodes = EpisodeViewer(state, self.report)
        self.tabs = QTabWidget()
        self.tabs.setObjectName("tabs")
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.library, "Library")
        self.tabs.addTab(self.play, "Play")
        self.tabs.addTab(self.demo, "Model demo")
        self.tabs.addTab(self.episodes, "Episodes")
        add_browser_tab(self)  # Browser: web tasks played by a person
        add_code_tab(self)  # Code: a person writes a web page (WebUI)
        add_css_tab(self)  # CSS repair: a person fixes a page's CSS with the model's tools
        add_study_tabs(self)  # Studies, Compare, Results
        add_answer_tab(self)  # Answer a harness: a person is an outside harness's model
        add_proxy_panel(self)  # the recording proxy's exchanges, live in the Model demo tab

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
        self.play.go_library.connect(lambda: self.tabs.setCurrentIndex(LIBRARY))
        self.play.next_level.connect(self.start)
        self.play.open_episode.connect(self.show_episode)
        self.demo.open_episode.connect(self.show_episode)
        self.episodes.resume_requested.connect(self.resume)
        self.tabs.currentChanged.connect(self._tab_changed)
        self._show_identity()
        self.place()

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
        for i in range(self.tabs.count()):
            page = self.tabs.widget(i)
            if page is None:
                continue
            for n, split in enumerate(page.findChildren(QSplitter)):
                found[f"{type(page).__name__}.{n}"] = split
        return found

    def place(self) -> None:
        """Size and place the window to fit the screen: the geometry it was closed with
        (brought inside the screen) or the preferred size, never larger than the screen's
        free area; splitters get their stored states back."""
        stored = self.state.prefs.window or {}
        rect = fit(self.available(), saved_rect(stored))
        self.resize(rect.w, rect.h)
        self.move(rect.x, rect.y)
        states = stored.get("splitters")
        if isinstance(states, dict):
            for name, split in self.splitters().items():
                text = states.get(name)
                if isinstance(text, str):
                    split.restoreState(QByteArray.fromBase64(text.encode("ascii")))
        if stored.get("maximized") is True:
            self.setWindowState(self.windowState() | Qt.WindowState.WindowMaximized)

    def remember_geometry(self) -> None:
        """Store the window's geometry and splitter states in the preferences file."""
        geo = self.normalGeometry() if self.isMaximized() else self.geometry()
        window = {**Rect(geo.x(), geo.y(), geo.width(), geo.height()).as_dict(),
                  "maximized": self.isMaximized(),
                  "splitters": {name: bytes(split.saveState().toBase64().data()).decode("ascii")
                                for name, split in self.splitters().items()}}
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
            view = self._running_human_view()
            question = (None if view is None
                        else annotator_question(view.session, view.busy, name))
            if question is None:
                switch(name)
            else:
                confirm(self, question,
                        lambda: self.stop_view_then(view, lambda: switch(name)))
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
        """Start ``req``: a person in the Play tab, anyone else in the Model demo tab."""
        if self.state.store is None:
            self.report(RuntimeError("no database is open; choose one in Settings > Database"))
            return
        if self.view_of(req.game) in ("browser", "game"):
            start_web(self, req)
            return
        if self.view_of(req.game) == CSS_VIEW:
            start_css(self, req)
            return
        if self.view_of(req.game) == "code":
            start_code(self, req)
            return
        try:
            if req.is_human:
                if not self.state.prefs.annotator:
                    self.ask_annotator(then=lambda: self.start(req))
                    return
                question = replace_question(self.play.session, self.play.busy, "a new level")
                if question is not None:
                    confirm(self, question,
                            lambda: self.stop_play_then(lambda: self.start(req)))
                    return
                self.play.stop()
                session = human_session(self.state, req)
                self.tabs.setCurrentIndex(PLAY)
                self.play.begin(session, req)
            else:
                self.demo.stop_episode()
                session, pacer = model_session(self.state, req, self.demo.delay())
                self.tabs.setCurrentIndex(DEMO)
                self.demo.begin(session, pacer)
        except Exception as err:  # noqa: BLE001 - bad profile, level, rules: a dialog
            self.report(err)

    def view_of(self, game: str) -> str:
        """Which play surface the game's kind uses (``TaskKind.view``: board or browser)."""
        try:
            return default_registry().get(game).view
        except (UnknownKind, KindError):
            return "board"

    def resume(self, episode_id: int) -> None:
        """Continue recorded episode ``episode_id`` in the tab for its kind of player."""
        try:
            session, pacer = resume_session(self.state, episode_id, self.demo.delay())
        except Exception as err:  # noqa: BLE001
            self.report(err)
            return
        if pacer is None:  # a person's episode: back to the tab of its kind's view
            view = self._human_view(session.task.game)
            question = replace_question(view.session, view.busy, f"episode #{episode_id}")
            if question is not None:
                confirm(self, question,
                        lambda: self.stop_view_then(view, lambda: self.resume(episode_id)))
                return
            view.stop()
            self.tabs.setCurrentWidget(view)
            view.begin(session, None, resume_id=episode_id)
        else:
            self.demo.stop_episode()
            self.tabs.setCurrentIndex(DEMO)
            self.demo.begin(session, pacer, resume_id=episode_id)

    def _human_view(self, game: str) -> Any:
        """The tab where a person plays ``game`` (by its kind's view; the Play tab for
        boards)."""
        views = {"code": self.code, CSS_VIEW: self.css}
        return views.get(self.view_of(game)) or self.play

    def _running_human_view(self) -> Any:
        """The Play or Browser view whose person's task is running, or None."""
        for view in (self.play, self.web, self.games, self.css, self.code):
            if view is not None and running_task(view.session, view.busy) is not None:
                return view
        return None

    def stop_play_then(self, then: Any) -> None:
        """Stop the Play tab's episode (recorded ``interrupted``) and call ``then`` once its
        end is recorded, so what follows never overlaps it."""
        self.stop_view_then(self.play, then)

    def stop_view_then(self, view: Any, then: Any) -> None:
        """Stop ``view``'s episode (Play or Browser) and call ``then`` once its end is
        recorded."""
        task = view.task
        view.stop()
        if task is None or task.done():
            then()
        else:
            task.add_done_callback(lambda _t: then())

    def show_episode(self, episode_id: int) -> None:
        self.tabs.setCurrentIndex(EPISODES)
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

    def _tab_changed(self, index: int) -> None:
        if index == EPISODES:
            self.episodes.refresh()
        elif index == PLAY:
            self.play.board.setFocus()

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
