"""The CSS repair surface: a person repairs a page's CSS with the tools a model gets.

Thin widgets over the kind's tool panel (:mod:`playbench.app.ui.models.tool_panel`): the target
and the current rendering side by side (the environment's frame), the page's elements to pick
from, the rules that match the picked element, the rule shown with its properties, a property
and value to set, and buttons for VAB-CSS's four tools and "It is fixed". Every button is one
step, recorded as the tool call a model would make (docs/reference/web.md, "VAB CSS").
"""

from __future__ import annotations

from typing import Any

from playbench.app.core.events import Ended, EpisodeEvent, Started, Stepped
from playbench.app.players.human import HumanInput
from playbench.app.ui.banner import EndBanner
from playbench.app.ui.models.episode_host import EpisodeHost
from playbench.app.ui.models.outcome import BLIND_END
from playbench.app.ui.models.session import PlaySession
from playbench.app.ui.models.tool_panel import ToolPanel, panel_for
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
    frame_image,
)
from playbench.app.ui.surface import SurfaceContext, SurfaceView
from playbench.app.ui.web_runtime import shared_runtime


class CssRepairView(SurfaceView):
    """The CSS repair surface (see the module docstring)."""

    def __init__(self, ctx: SurfaceContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.model: ToolPanel | None = None
        """The episode's tool panel (the kind makes one per episode)."""

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
        self.banner = EndBanner("Next task")
        self.view_episode_button = self.banner.view_button

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
        left.addWidget(self.banner)
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
        self.revert.clicked.connect(lambda: self.panel.revert())
        self.done.clicked.connect(lambda: self.panel.fixed())
        self.banner.view_button.clicked.connect(self.view_episode)
        self.banner.next_button.clicked.connect(self.go_next)
        self.banner.library_button.clicked.connect(self.go_library)
        self.set_active(False)

    # -- running --------------------------------------------------------------------------

    @property
    def runtime(self) -> WebRuntime:
        """The Chromium every browser surface shares."""
        return shared_runtime(self.ctx)

    def show_finished(self, text: str, *, can_view: bool) -> None:
        self.banner.show_end(text, False, can_go_next=False, can_view=can_view)

    @property
    def panel(self) -> ToolPanel:
        """The panel of the episode shown (controls act only while one is)."""
        assert self.model is not None, "no CSS repair episode is shown"
        return self.model

    def show_heading(self, text: str) -> None:
        self.title.setText(f"{text} · {self.title.text()}")

    def show_session(self, session: PlaySession, host: EpisodeHost) -> None:
        self.model = panel_for(session.spec, self._submit)
        level = session.task.level
        self.title.setText(f"CSS repair · {level.title or f'task {level.number}'} · "
                           f"{session.setting.name}")
        self.status.setText("Rendering the target and the broken page…")
        self.banner.hide()
        for w in (self.elements, self.selectors):
            w.clear()
        self.rule.clear()
        self.result.clear()

    def set_active(self, on: bool) -> None:
        for w in (self.find_rules, self.show_rule, self.apply, self.revert, self.done):
            w.setEnabled(on)

    def _submit(self, given: HumanInput) -> None:
        if self.host.accepting():
            self.set_active(False)  # until the step's new observation arrives
            self.host.push(lambda: [given])

    # -- tools ----------------------------------------------------------------------------

    def _find(self) -> None:
        item = self.elements.currentItem()
        if item is not None:
            self.panel.pick(item.text())

    def _show_rule(self) -> None:
        item = self.selectors.currentItem()
        if item is not None:
            self.panel.show_rule(item.text())

    def _edit(self) -> None:
        selector = self.panel.rule_selector
        item = self.selectors.currentItem()
        if not selector and item is not None:
            selector = item.text()
        if selector and self.prop.text().strip() and self.value.text().strip():
            self.panel.edit(selector, self.prop.text(), self.value.text())

    # -- episode events -------------------------------------------------------------------

    def on_event(self, event: EpisodeEvent) -> None:
        if isinstance(event, Started):
            self._observed(event.observation, first=True)
        elif isinstance(event, Stepped):
            self._observed(event.observation)
        elif isinstance(event, Ended):
            scores = event.result.scores
            solved = scores.get("solved") == 1.0
            host = self.host
            text = (BLIND_END if host.blind
                    else ("Solved: " if solved else "Not solved: ") + self.panel.status())
            self.status.setText(text)
            self.banner.show_end(text, solved and not host.blind,
                                 next_text=host.next_text or "Next task",
                                 can_go_next=host.can_go_next(), can_view=not host.blind)

    def _observed(self, obs: Any, first: bool = False) -> None:
        self.panel.observe(obs)
        if first:
            self.elements.clear()
            self.elements.addItems(self.panel.elements())
            self.hint.setText(f"Hint: {self.panel.hint}")
        if self.panel.listed_selectors():
            self.selectors.clear()
            self.selectors.addItems(list(self.panel.selectors))
        self.rule.setPlainText(
            (f"{self.panel.rule_selector} {{\n" if self.panel.rule_selector else "")
            + "".join(f"  {p}: {v};\n" for p, v in self.panel.rule)
            + ("}" if self.panel.rule_selector else ""))
        self.result.setPlainText(self.panel.result)
        self.status.setText(self.panel.status())
        if obs.frame is not None:
            self._frame = frame_image(obs.frame)
            self._fit()
        self.set_active(True)

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


__all__ = ["CssRepairView"]
