"""The browser pane: a person plays a web task in Chromium under a model's budget and rules.

Playwright's Chromium runs the page; its screencast is painted in :class:`PageView`. Every
mouse, wheel and key event, and every control of the pane (back, forward, address bar, tabs,
answer box, action field), goes to :class:`playbench.app.ui.models.web_input.BrowserInput`, which
turns it into the canonical VWA action a model would send. The action goes to the episode's
:class:`WebHumanPlayer` and through the same loop as a model's (``Episode`` ->
``WebTaskEnv.step``), so the budget, the validity check and the record are the same.

Events are queued and turned into actions one at a time, each against the observation left by
the step before (Set-of-Marks ids change with every observation), so fast input plays in order.
The Set-of-Marks overlay is shown by default where the model's observation carries the marks
(``default``, ``vwa:som``) and hidden in ``vwa:text``; the person can toggle it, and every step
records whether it was on (``marks_shown``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import QMenu

from playbench.app.core.events import Ended, EpisodeEvent, Moved, Started, Stepped
from playbench.app.players.human import HumanInput
from playbench.app.ui.banner import EndBanner
from playbench.app.ui.browser_chrome import BrowserChrome
from playbench.app.ui.browser_page import PageView
from playbench.app.ui.confirm import confirm
from playbench.app.ui.hud import HudPanel
from playbench.app.ui.models.ending import answer_question
from playbench.app.ui.models.episode_host import EpisodeHost
from playbench.app.ui.models.outcome import web_end_text
from playbench.app.ui.models.page_stream import PageStream
from playbench.app.ui.models.session import PlaySession
from playbench.app.ui.models.web_input import BrowserInput, Captured
from playbench.app.ui.models.web_session import WebInput, WebRuntime
from playbench.app.ui.qt import (
    QApplication,
    QCheckBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    Qt,
    QTimer,
    QVBoxLayout,
    QWidget,
)
from playbench.app.ui.surface import SurfaceContext, SurfaceView
from playbench.app.ui.web_runtime import shared_runtime
from playbench.games.browser.som import SomItem
from playbench.games.env import ShowsPage

HELP = ("Click, type and scroll in the page as in a browser; each becomes the action a model "
        "would send. Typing goes to the field you clicked and is sent as one "
        "type [id] [text] on Enter (Tab or a click elsewhere sends it without Enter; Esc drops "
        "it). A wheel notch is one scroll [up|down] (one viewport); the bar at the right moves "
        "your view of the viewport for free. Finish with your answer in the answer box "
        "(stop [answer]).")


def marks_by_default(setting: Any) -> bool:
    """Show the marks where the model's observation has them (the screenshot with boxes)."""
    return getattr(setting, "observation", "image") != "text"


class BrowserPlayView(SurfaceView):
    """The browser surface: one person's web episode at a time."""

    def __init__(self, ctx: SurfaceContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.hi = BrowserInput()
        self.stream: PageStream | None = None
        self.menu: QMenu | None = None

        self.objective = QLabel("No web task is being played. Choose one in the Library "
                                "(Web tasks).")
        self.objective.setObjectName("title")
        self.objective.setWordWrap(True)
        self.where = QLabel("")
        self.where.setObjectName("hint")
        self.where.setWordWrap(True)
        self.chrome = BrowserChrome()
        self.page = PageView()
        self.page.set_placeholder("No page yet.")
        self.pointer = QLabel("")
        self.pointer.setObjectName("hint")
        self.banner = EndBanner("Next task")
        self.banner_text = self.banner.text
        self.next_button = self.banner.next_button
        self.view_button = self.banner.view_button
        self.library_button = self.banner.library_button

        self.hud = HudPanel()
        # A check box does not wrap: the label fits the narrowest side column (360 px).
        self.marks = QCheckBox("Show the numbered boxes the model sees")
        self.marks.setToolTip("The Set-of-Marks: each element a model can act on, boxed and "
                              "numbered as in the model's observation (click [12])")
        self.marks.setObjectName("marks")
        self.answer = QLineEdit()
        self.answer.setObjectName("answer")
        self.answer.setPlaceholderText("Your answer (empty if the task asks for none)")
        self.answer_button = QPushButton("Answer and finish")
        self.answer_button.setObjectName("primary")
        self.typed = QLineEdit()
        self.typed.setObjectName("typed")
        self.typed.setPlaceholderText("or type an action as a model would, e.g. click [12]")
        self.give_up = QPushButton("Give up")
        # Keys belong to the page while it is shown: buttons do not keep the keyboard.
        for b in (self.answer_button, self.give_up, self.next_button, self.view_button,
                  self.library_button):
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)

        answer_box = QGroupBox("Answer (ends the task: stop [answer])")
        av = QVBoxLayout(answer_box)
        av.addWidget(self.answer)
        av.addWidget(self.answer_button)
        left = QWidget()
        lv = QVBoxLayout(left)
        lv.setContentsMargins(0, 0, 0, 0)
        lv.setSpacing(4)
        lv.addWidget(self.banner)
        lv.addWidget(self.chrome)
        lv.addWidget(self.page, 1)
        lv.addWidget(self.pointer)
        right = QWidget()
        right.setMinimumWidth(360)
        rv = QVBoxLayout(right)
        rv.setContentsMargins(0, 0, 0, 0)
        # The answer box and the action field sit above the HUD, whose feedback grows and
        # shrinks with each step's message: a click aimed at the answer box must land there,
        # not in the action field the message pushed under the pointer.
        rv.addWidget(answer_box)
        rv.addWidget(self.typed)
        rv.addWidget(self.marks)
        rv.addWidget(self.hud)
        rv.addStretch(1)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.give_up)
        rv.addLayout(buttons)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(right)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 1)
        split.setSizes([980, 400])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(self.objective)
        layout.addWidget(self.where)
        layout.addWidget(split, 1)

        canvas = self.page.canvas
        canvas.clicked.connect(lambda x, y: self._queue(lambda: self.hi.click(x, y)))
        canvas.wheeled.connect(lambda n: self._queue(lambda: self.hi.wheel(n)))
        canvas.key_pressed.connect(lambda k, t, m: self._queue(lambda: self._key(k, t, m)))
        canvas.hovered.connect(self._hovered)
        self.chrome.back.connect(lambda: self._queue(self.hi.back))
        self.chrome.forward.connect(lambda: self._queue(self.hi.forward))
        self.chrome.new_tab.connect(lambda: self._queue(self.hi.new_tab))
        self.chrome.close_tab.connect(lambda: self._queue(self.hi.close_tab))
        self.chrome.tab.connect(lambda i: self._queue(lambda: self.hi.tab(i)))
        self.chrome.goto.connect(lambda url: self._queue(lambda: self.hi.goto(url)))
        self.answer.returnPressed.connect(lambda: self._ask_answer(pressed_button=False))
        self.answer_button.clicked.connect(lambda: self._ask_answer(pressed_button=True))
        self.typed.returnPressed.connect(self._typed)
        self.give_up.clicked.connect(lambda: self.ask_give_up(after=self.page.canvas.setFocus))
        self.marks.toggled.connect(self.page.set_show_marks)
        self.next_button.clicked.connect(self.go_next)
        self.view_button.clicked.connect(self.view_episode)
        self.library_button.clicked.connect(self.go_library)
        self.timer = QTimer(self)
        self.timer.setInterval(100)
        self.timer.timeout.connect(self.hud.tick)
        self.refit = QTimer(self)  # a resize restarts the stream sized for the page, once
        self.refit.setSingleShot(True)
        self.refit.setInterval(250)
        self.refit.timeout.connect(self._refit_stream)
        self.page.refitted.connect(self.refit.start)
        self.set_active(False)

    @property
    def runtime(self) -> WebRuntime:
        """The Chromium every browser surface shares."""
        return shared_runtime(self.ctx)

    # -- a new session ------------------------------------------------------------------------

    @property
    def player(self) -> Any:
        return None if self.session is None else self.session.player

    def show_heading(self, text: str) -> None:
        self.where.setText(f"{text} · {self.where.text()}")

    def show_finished(self, text: str, *, can_view: bool) -> None:
        self.banner.show_end(text, False, can_go_next=False, can_view=can_view)

    def show_session(self, session: PlaySession, host: EpisodeHost) -> None:
        self._end_stream()
        self.hi = BrowserInput()
        level, setting = session.task.level, session.setting
        self.objective.setText(level.title or f"Task {level.number}")
        name = session.task.source.rsplit("/", 1)[-1]
        self.where.setText(f"Web task {level.number} · {name} · setting {setting.name}: "
                           f"{setting.description}")
        self.marks.setChecked(marks_by_default(setting))
        self.page.set_show_marks(self.marks.isChecked())
        self.page.set_marks([])
        self.page.set_hover(None)
        self.page.set_typing(None)
        self.page.set_image(None)
        self.page.set_placeholder("Opening the page…")
        self.chrome.show_page("", [])
        self.answer.clear()
        self.typed.clear()
        self.pointer.setText("")
        self.hud.attach(session, HELP)
        self.hud.text_title.setText("Element list (what the model reads)")
        self.banner.hide()
        self.set_active(True)
        self.stream = PageStream(self.page.show_jpeg, frame_size=self.page.canvas.device_size)
        self.page.canvas.setFocus()

    def set_active(self, on: bool) -> None:
        for w in (self.answer, self.answer_button, self.typed, self.give_up):
            w.setEnabled(on)
        self.chrome.set_active(on)
        self.page.accepts_input = on
        if on:
            self.timer.start()
        else:
            self.timer.stop()

    # -- episode events -----------------------------------------------------------------------

    def on_event(self, event: EpisodeEvent) -> None:
        if isinstance(event, Started):
            self._observed(event.observation, first=True)
        elif isinstance(event, Moved):
            self._observed(event.observation)
        elif isinstance(event, Stepped):
            r = event.record
            if r.valid:
                self.hud.show_feedback(f"Done: {r.action}", "neutral")
            else:
                kind = (r.invalid_kind or "invalid").replace("_", " ")
                self.hud.show_feedback(f"Step {r.index + 1} was invalid ({kind}): "
                                       f"{r.invalid_reason}. It used an action, as a model's "
                                       "invalid action does.")
        elif isinstance(event, Ended):
            self._ended(event)
        self.hud.refresh()

    def _observed(self, obs: Any, first: bool = False) -> None:
        """A new observation: its elements for input, its marks, URL and tabs; its frame
        when the page is not streamed."""
        info = obs.info or {}
        som = info.get("som") or []
        if first:
            self.hi = BrowserInput(som)
        else:
            self.host.push_front(self.hi.update(som))
        self.page.set_marks([SomItem.from_dict(d) for d in som])
        self.page.set_hover(None)
        self._show_typing()
        self.chrome.show_page(str(info.get("url") or ""), info.get("tabs") or [])
        if info.get("error"):
            self.page.set_image(None)
            self.page.set_placeholder(str(obs.text))
            self.hud.show_feedback(str(obs.text))
            return
        env = self.session.env if self.session is not None else None
        streaming = self.stream is not None and self.stream.active
        if not streaming and info.get("raw_frame") is not None:
            self.page.set_frame(info["raw_frame"])
        page_session = env.page_session if isinstance(env, ShowsPage) else None
        if self.stream is not None and page_session is not None:
            self.state.jobs.start(self.stream.follow(page_session), name="page stream")

    def _ended(self, event: Ended) -> None:
        self.page.set_typing(None)
        self.page.set_hover(None)
        self._end_stream()
        r = event.result
        text = web_end_text(r, blind=self.host.blind, study=self.host.study() is not None)
        self.banner.show_end(text, r.scores.get("score") == 1 and not self.host.blind,
                             next_text=self.host.next_text or "Next task",
                             can_go_next=self.host.can_go_next(), can_view=not self.host.blind)

    def _refit_stream(self) -> None:
        if self.stream is not None:
            self.state.jobs.start(self.stream.refit(), name="page stream size")

    def _end_stream(self) -> None:
        if self.stream is not None:
            stream, self.stream = self.stream, None
            self.state.jobs.start(stream.stop(), name="stop page stream")

    # -- input --------------------------------------------------------------------------------

    def _accepting(self) -> bool:
        return self.host.accepting()

    def _queue(self, make: Callable[[], list[Captured]]) -> None:
        """Queue an event; ``make`` reads the observation current when its turn comes."""
        self.host.push(lambda: self._made(make()))

    def _made(self, captured: list[Captured]) -> list[Captured]:
        self._show_typing()
        if self.hi.choosing is not None:
            self._choose(self.hi.choosing)
        return captured

    def _key(self, key: str, text: str, mods: list[str]) -> list[Captured]:
        if self.hi.typing is not None and key == "v" and mods in (["Control"], ["Meta"]):
            return self.hi.paste(QApplication.clipboard().text())  # into the field's buffer
        return self.hi.key(key, text, mods)

    def hand_over(self, c: Captured | HumanInput) -> None:
        if isinstance(c, HumanInput):  # giving up
            self.player.submit(c)
            return
        info = {"input": "human", "marks_shown": self.marks.isChecked()}
        if c.coordinate:
            info["coordinate_click"] = True
        self.player.submit(WebInput("move", c.text, c.raw, info))
        self.pointer.setText(f"Sent: {c.text}")

    def _show_typing(self) -> None:
        t = self.hi.typing
        self.page.set_typing(None if t is None else t.item.box, "" if t is None else t.buffer)
        if t is not None:
            self.pointer.setText(
                f"Typing into [{t.item.id}]: Enter sends type [{t.item.id}] [{t.buffer}]; "
                "Tab or a click elsewhere sends it without Enter; Esc drops it.")

    def _choose(self, item: SomItem) -> None:
        """A list (<select>) was clicked: its options in a menu; the choice is the action."""
        menu = QMenu(self)
        for label in item.options:
            menu.addAction(label).triggered.connect(
                lambda _c=False, label=label: self._queue(lambda: self.hi.choose(label)))
        x, y, w, h = item.box
        menu.popup(self.page.canvas.mapToGlobal(self.page.canvas.from_page(x, y + h).toPoint()))
        self.menu = menu

    def _hovered(self, point: Any) -> None:
        if point is None or self.hi.typing is not None:
            self.page.set_hover(None)
            return
        item = self.hi.element_at(*point)
        self.page.set_hover(None if item is None else item.box)
        if item is None:
            self.pointer.setText(f"({point[0]:.0f}, {point[1]:.0f}): no marked element - a "
                                 "click here is recorded as a coordinate click, which models "
                                 "cannot make.")
        else:
            what = ("type into" if item.editable else "choose in" if item.select else "click")
            self.pointer.setText(f"[{item.id}] {item.tag} “{item.text[:70]}” - a click will "
                                 f"{what} [{item.id}].")

    def _ask_answer(self, pressed_button: bool) -> None:
        """Finishing ends the task: "Answer and finish" and an empty answer ask first."""
        if not self._accepting():
            return
        question = answer_question(self.answer.text(), pressed_button)
        if question is None:
            self._answer()
        else:
            confirm(self, question, self._answer)

    def _answer(self) -> None:
        text = self.answer.text()
        self._queue(lambda: self.hi.stop(text))

    def _typed(self) -> None:
        text = self.typed.text().strip()
        if text and self._accepting():
            self._queue(lambda: self.hi.action(text, f"typed action: {text}"))
            self.typed.clear()

    def focus_input(self) -> None:
        self.page.canvas.setFocus()

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        self.page.canvas.setFocus()

