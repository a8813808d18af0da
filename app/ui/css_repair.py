"""The CSS repair tab: a person repairs a page's CSS with the tools a model gets.

Thin widgets over :class:`playbench.app.ui.models.css_repair.CssRepairModel`: the target and the
current rendering side by side (the environment's frame), the page's elements to pick from,
the rules that match the picked element, the rule shown with its properties, a property and
value to set, and buttons for VAB-CSS's four tools and "It is fixed". Every button is one
step, recorded as the tool call a model would make (docs/reference/web.md, "VAB CSS").
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from playbench.app.core.episode import Ended, EpisodeEvent, Started, Stepped
from playbench.app.players.human import HumanInput
from playbench.app.ui.models.app_state import AppState
from playbench.app.ui.models.css_repair import CssRepairModel
from playbench.app.ui.models.session import PlaySession
from playbench.app.ui.models.start import StartRequest
from playbench.app.ui.models.web_session import WebRuntime
from playbench.app.ui.qt import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPixmap,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QSplitter,
    Qt,
    QVBoxLayout,
    QWidget,
    Signal,
    frame_image,
)


class CssRepairView(QWidget):
    """The CSS repair tab (see the module docstring)."""

    open_episode = Signal(int)

    def __init__(self, state: AppState, on_error: Callable[[BaseException], None],
                 runtime: WebRuntime | None = None) -> None:
        super().__init__()
        self.state = state
        self.on_error = on_error
        self.runtime = runtime or WebRuntime()
        self.session: PlaySession | None = None
        self.request: StartRequest | None = None
        self.task: Any = None
        self.model = CssRepairModel(self._submit)

        self.title = QLabel("Choose a CSS repair task in the Library.")
        self.title.setObjectName("heading")
        self.hint = QLabel("")
        self.hint.setWordWrap(True)
        self.status = QLabel("")
        self.picture = QLabel("The target (left) and your page (right) appear here.")
        self.picture.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.picture.setMinimumSize(480, 200)
        self.picture.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        self._frame: Any = None

        self.elements = QListWidget()
        self.find_rules = QPushButton("Find its rules")
        self.selectors = QListWidget()
        self.show_rule = QPushButton("Show rule")
        self.rule = QPlainTextEdit()
        self.rule.setReadOnly(True)
        self.prop = QLineEdit()
        self.prop.setPlaceholderText("property, e.g. padding")
        self.value = QLineEdit()
        self.value.setPlaceholderText("new value, e.g. 12px 24px")
        self.apply = QPushButton("Edit property")
        self.revert = QPushButton("Revert last edit")
        self.done = QPushButton("It is fixed")
        self.result = QPlainTextEdit()
        self.result.setReadOnly(True)
        self.result.setMaximumHeight(110)
        self.view_episode = QPushButton("View episode")
        self.view_episode.hide()

        tools = QVBoxLayout()
        tools.addWidget(QLabel("1. Pick an element"))
        tools.addWidget(self.elements, 2)
        tools.addWidget(self.find_rules)
        tools.addWidget(QLabel("2. Its rules"))
        tools.addWidget(self.selectors, 1)
        tools.addWidget(self.show_rule)
        tools.addWidget(QLabel("3. The rule"))
        tools.addWidget(self.rule, 2)
        edit = QHBoxLayout()
        edit.addWidget(self.prop)
        edit.addWidget(self.value)
        tools.addLayout(edit)
        tools.addWidget(self.apply)
        buttons = QHBoxLayout()
        buttons.addWidget(self.revert)
        buttons.addWidget(self.done)
        tools.addLayout(buttons)
        side = QWidget()
        side.setLayout(tools)

        left = QVBoxLayout()
        left.addWidget(self.title)
        left.addWidget(self.hint)
        left.addWidget(self.status)
        left.addWidget(self.picture, 1)
        left.addWidget(QLabel("Result of the last tool"))
        left.addWidget(self.result)
        left.addWidget(self.view_episode)
        main = QWidget()
        main.setLayout(left)

        split = QSplitter()
        split.addWidget(main)
        split.addWidget(side)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(split)

        self.find_rules.clicked.connect(self._find)
        self.elements.itemDoubleClicked.connect(lambda _i: self._find())
        self.show_rule.clicked.connect(self._show_rule)
        self.selectors.itemDoubleClicked.connect(lambda _i: self._show_rule())
        self.apply.clicked.connect(self._edit)
        self.value.returnPressed.connect(self._edit)
        self.revert.clicked.connect(lambda: self.model.revert())
        self.done.clicked.connect(lambda: self.model.fixed())
        self.view_episode.clicked.connect(self._view)
        self._set_controls(False)

    # -- running --------------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        return self.task is not None and not self.task.done()

    def begin(self, session: PlaySession, request: StartRequest | None = None,
              resume_id: int | None = None) -> None:
        """Show ``session`` and start its episode (or continue recorded ``resume_id``)."""
        self.session, self.request = session, request
        self.model = CssRepairModel(self._submit)
        level = session.task.level
        self.title.setText(f"CSS repair · {level.title or f'task {level.number}'} · "
                           f"{session.setting.name}")
        self.status.setText("Rendering the target and the broken page…")
        self.view_episode.hide()
        for w in (self.elements, self.selectors):
            w.clear()
        self.rule.clear()
        self.result.clear()
        session.subscribe(functools.partial(self._event, session=session))
        work = session.resume(resume_id) if resume_id is not None else session.play()
        self.task = self.state.jobs.start(work, name="play CSS repair", on_error=self._failed)

    def stop(self) -> None:
        """Interrupt the running episode (it is recorded as interrupted)."""
        if self.busy:
            self.task.cancel()

    def _failed(self, err: BaseException) -> None:
        self._set_controls(False)
        self.on_error(err)

    def _set_controls(self, on: bool) -> None:
        for w in (self.find_rules, self.show_rule, self.apply, self.revert, self.done):
            w.setEnabled(on)

    def _submit(self, given: HumanInput) -> None:
        if self.session is not None and self.busy:
            self._set_controls(False)  # until the step's new observation arrives
            player: Any = self.session.player  # a WebHumanPlayer (web_human_session)
            player.submit(given)

    # -- tools ----------------------------------------------------------------------------

    def _find(self) -> None:
        item = self.elements.currentItem()
        if item is not None:
            self.model.pick(item.text())

    def _show_rule(self) -> None:
        item = self.selectors.currentItem()
        if item is not None:
            self.model.show_rule(item.text())

    def _edit(self) -> None:
        selector = self.model.rule_selector
        item = self.selectors.currentItem()
        if not selector and item is not None:
            selector = item.text()
        if selector and self.prop.text().strip() and self.value.text().strip():
            self.model.edit(selector, self.prop.text(), self.value.text())

    # -- episode events -------------------------------------------------------------------

    def _event(self, event: EpisodeEvent, session: PlaySession) -> None:
        if session is not self.session:
            return
        if isinstance(event, Started):
            self._observed(event.observation, first=True)
        elif isinstance(event, Stepped):
            self._observed(event.observation)
        elif isinstance(event, Ended):
            self._set_controls(False)
            scores = event.result.scores
            solved = scores.get("solved") == 1.0
            self.status.setText(("Solved: " if solved else "Not solved: ") + self.model.status())
            self.view_episode.show()

    def _observed(self, obs: Any, first: bool = False) -> None:
        self.model.observe(obs)
        if first:
            self.elements.clear()
            self.elements.addItems(self.model.elements())
            self.hint.setText(f"Hint: {self.model.hint}")
        if self.model.last_call.startswith("get_selectors"):
            self.selectors.clear()
            self.selectors.addItems(list(self.model.selectors))
        self.rule.setPlainText(
            (f"{self.model.rule_selector} {{\n" if self.model.rule_selector else "")
            + "".join(f"  {p}: {v};\n" for p, v in self.model.rule)
            + ("}" if self.model.rule_selector else ""))
        self.result.setPlainText(self.model.result)
        self.status.setText(self.model.status())
        if obs.frame is not None:
            self._frame = frame_image(obs.frame)
            self._fit()
        self._set_controls(True)

    def _fit(self) -> None:
        if self._frame is None:
            return
        pix = QPixmap.fromImage(self._frame.image.copy())
        self.picture.setPixmap(pix.scaled(self.picture.size(),
                                          Qt.AspectRatioMode.KeepAspectRatio,
                                          Qt.TransformationMode.SmoothTransformation))

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._fit()

    def _view(self) -> None:
        if self.session is not None and self.session.episode_id:
            self.open_episode.emit(self.session.episode_id)


__all__ = ["CssRepairView"]
