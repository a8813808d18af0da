"""The code surface: a person writes a web page for a ``code``-view task (MageBench WebUI).

Left, the task: its description and the target screenshots (as loaded, then after each scripted
interaction). Middle, the code editor (``index.html``, ``style.css``, ``script.js``; Pygments
highlighting). Right, in Online settings only, a live render of the person's page, redrawn a
moment after they stop typing; in Global settings nothing of their page is rendered before they
submit, as in MageBench's human baseline (``docs/reference/web.md``). Submit hands the files to
the loop as one action - the same budget a model gets; a live render is not an action.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from playbench.app.core.events import Ended, EpisodeEvent, Started, Stepped
from playbench.app.players.human import HumanInput
from playbench.app.ui.banner import EndBanner
from playbench.app.ui.code_editor import PageEditor
from playbench.app.ui.models.episode_host import EpisodeHost
from playbench.app.ui.models.outcome import BLIND_END
from playbench.app.ui.models.session import PlaySession
from playbench.app.ui.qt import (
    QHBoxLayout,
    QLabel,
    QPixmap,
    QPushButton,
    QScrollArea,
    QSplitter,
    Qt,
    QTextBrowser,
    QTimer,
    QVBoxLayout,
    QWidget,
    frame_image,
)
from playbench.app.ui.surface import SurfaceContext, SurfaceView
from playbench.games.coding.fences import as_answer
from playbench.games.env import LivePreview

TAB_TITLE = "Code"
PREVIEW_DELAY_MS = 1200
"""How long after the last keystroke the live render is redrawn (Online only)."""
SHOT_WIDTH = 440


def shows_render(setting_name: str) -> bool:
    """Online settings show the person's render; Global never does."""
    return not setting_name.startswith("webui:global")


def scaled(frame: np.ndarray, width: int) -> QPixmap:
    pix = QPixmap.fromImage(frame_image(frame).image.copy())
    return pix.scaledToWidth(width, Qt.TransformationMode.SmoothTransformation)


class CodeView(SurfaceView):
    """The code surface (see the module docstring)."""

    def __init__(self, ctx: SurfaceContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self._preview_job: Any = None
        self._preview_again = False

        self.title = QLabel("Choose a WebUI task in the Library and press Play.")
        self.title.setObjectName("codeTitle")
        self.where = QLabel("")
        self.budget = QLabel("")
        self.description = QTextBrowser()
        self.description.setOpenExternalLinks(False)
        self.targets = QWidget()
        self.targets_layout = QVBoxLayout(self.targets)
        targets_scroll = QScrollArea()
        targets_scroll.setWidgetResizable(True)
        targets_scroll.setWidget(self.targets)
        left = QSplitter(Qt.Orientation.Vertical)
        left.addWidget(self.description)
        left.addWidget(targets_scroll)
        left.setSizes([220, 560])

        self.editor = PageEditor()
        self.editor.changed.connect(self._edited)
        self.submit_button = QPushButton("Submit page")
        self.submit_button.clicked.connect(self.submit)
        self.give_up = QPushButton("Give up")
        self.give_up.clicked.connect(lambda: self.ask_give_up())
        self.result = QLabel("")
        buttons = QHBoxLayout()
        buttons.addWidget(self.submit_button)
        buttons.addWidget(self.give_up)
        buttons.addStretch(1)
        buttons.addWidget(self.result)
        middle = QWidget()
        mid = QVBoxLayout(middle)
        mid.setContentsMargins(0, 0, 0, 0)
        mid.addWidget(self.editor, 1)
        mid.addLayout(buttons)

        self.render_title = QLabel("Your page (live render)")
        self.render_view = QLabel("Write some HTML to see it rendered here.")
        self.render_view.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignHCenter)
        self.render_view.setWordWrap(True)
        self.render_note = QLabel("")
        self.render_note.setWordWrap(True)
        self.right = QWidget()
        right = QVBoxLayout(self.right)
        right.setContentsMargins(0, 0, 0, 0)
        right.addWidget(self.render_title)
        right.addWidget(self.render_view, 1)
        right.addWidget(self.render_note)

        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(middle)
        split.addWidget(self.right)
        split.setSizes([SHOT_WIDTH + 30, 520, SHOT_WIDTH + 10])
        head = QHBoxLayout()
        head.addWidget(self.title)
        head.addStretch(1)
        head.addWidget(self.budget)
        layout = QVBoxLayout(self)
        layout.addLayout(head)
        layout.addWidget(self.where)
        layout.addWidget(split, 1)
        self.banner = EndBanner("Next task")
        layout.addWidget(self.banner)
        self.banner.view_button.clicked.connect(self.view_episode)
        self.banner.next_button.clicked.connect(self.go_next)
        self.banner.library_button.clicked.connect(self.go_library)

        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(PREVIEW_DELAY_MS)
        self.timer.timeout.connect(self.preview)
        self.set_active(False)

    # -- session ----------------------------------------------------------------------------

    @property
    def online(self) -> bool:
        return self.session is not None and shows_render(self.session.setting.name)

    def show_heading(self, text: str) -> None:
        self.where.setText(f"{text} · {self.where.text()}")

    def show_finished(self, text: str, *, can_view: bool) -> None:
        self.banner.show_end(text, False, can_go_next=False, can_view=can_view)

    def show_session(self, session: PlaySession, host: EpisodeHost) -> None:
        """Show ``session`` (on a resume the editor opens with the last submitted page when
        the episode starts)."""
        level, setting = session.task.level, session.setting
        self.title.setText(level.title or f"Task {level.number}")
        self.banner.hide()
        self.where.setText(f"Setting {setting.name}: {setting.description}")
        self.description.setMarkdown("Opening the target page…")
        self._clear_targets()
        self.editor.set_files({"index.html": "", "style.css": "", "script.js": ""})
        self.editor.set_read_only(False)
        self.right.setVisible(self.online)
        self.render_view.setText("Write some HTML to see it rendered here.")
        self.render_view.setPixmap(QPixmap())
        self.render_note.setText("")
        self.result.setText("")
        self._show_budget()

    def set_active(self, on: bool) -> None:
        for w in (self.submit_button, self.give_up):
            w.setEnabled(on)

    def _show_budget(self) -> None:
        if self.session is None:
            return
        use = self.session.budget_use()
        limit = "no limit" if use.limit is None else str(use.limit)
        self.budget.setText(f"Submissions: {use.used} of {limit}")

    def _clear_targets(self) -> None:
        while self.targets_layout.count():
            item = self.targets_layout.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()

    def on_event(self, event: EpisodeEvent) -> None:
        if isinstance(event, Started):
            obs = event.observation
            self.description.setMarkdown(obs.text)
            labels = list(obs.info.get("target_labels") or [])
            for i, frame in enumerate(obs.info.get("targets") or []):
                caption = QLabel(f"Target, {labels[i] if i < len(labels) else i + 1}")
                shot = QLabel()
                shot.setPixmap(scaled(frame, SHOT_WIDTH))
                self.targets_layout.addWidget(caption)
                self.targets_layout.addWidget(shot)
            self.targets_layout.addStretch(1)
            files = obs.info.get("files") or {}
            if event.resumed_steps and files:  # a resume: go on from the last submission
                self.editor.set_files({"index.html": "", "style.css": "", "script.js": "",
                                       **files})
                self.timer.stop()  # the page was just rendered; no live render of it again
                self._show_last(obs)
            self._show_budget()
            self.set_active(True)
        elif isinstance(event, Stepped):
            info = event.record.info if hasattr(event.record, "info") else {}
            self._show_last(event.observation, info if isinstance(info, dict) else {})
            self._show_budget()
        elif isinstance(event, Ended):
            result, host = event.result, self.host
            score = (result.scores or {}).get("aes")
            text = BLIND_END if host.blind else (
                f"Finished ({result.end_reason}): AES "
                + (f"{100 * score:.1f} %" if score is not None else "-"))
            self.result.setText(text)
            self.banner.show_end(text, score == 1 and not host.blind,
                                 next_text=host.next_text or "Next task",
                                 can_go_next=host.can_go_next(), can_view=not host.blind)
            self.editor.set_read_only(True)
            self._show_budget()

    def _show_last(self, obs: Any, info: dict[str, Any] | None = None) -> None:
        """The last submission's AES and, in Online settings, its render."""
        aes = (obs.info or {}).get("aes")
        if aes is None:
            aes = (info or {}).get("aes")
        self.result.setText("Last submission: AES "
                            + (f"{100 * aes:.1f} %" if aes is not None else "-"))
        if self.online:
            renders = (obs.info or {}).get("renders") or []
            if renders:
                self._show_render(renders[0], "Render of your last submission")

    # -- input ------------------------------------------------------------------------------

    def answer_text(self) -> str:
        """The editor's files as one answer (fenced blocks), as a model would write it."""
        return as_answer(self.editor.files())

    def submit(self) -> None:
        """Hand the files to the loop as one action."""
        if self.host.accepting():
            text = self.answer_text()
            self.host.push(lambda: [HumanInput.move(text, "button:submit")])

    def _edited(self) -> None:
        if self.online and self.busy:
            self.timer.start()

    # -- live render (Online only) ----------------------------------------------------------

    def preview(self) -> None:
        """Render the editor's page now (not an action; Online settings only)."""
        session = self.session
        if session is None or not self.online or session.env is None or not self.busy:
            return
        if not isinstance(session.env, LivePreview) or not session.env.preview_ready():
            return
        if self._preview_job is not None and not self._preview_job.done():
            self._preview_again = True
            return
        files = self.editor.files()
        if not files["index.html"].strip():
            return
        self._preview_job = self.state.jobs.start(self._preview(session, files),
                                                  name="live render", on_error=self._noted)

    async def _preview(self, session: PlaySession, files: dict[str, str]) -> None:
        sub = await session.env.preview(files)
        if session is not self.session:
            return
        frames = [f for f in sub.frames if f is not None]
        if frames:
            self._show_render(frames[0], "Live render (not a submission)")
        note = f"Would score AES {100 * sub.score:.1f} %" if sub.failure is None else \
            f"The page failed: {sub.failure}"
        self.render_note.setText(note + "".join(f"\n{n}" for n in sub.notes))
        if self._preview_again:
            self._preview_again = False
            self.preview()

    def _noted(self, err: BaseException) -> None:
        self.render_note.setText(f"Could not render: {err}")

    def _show_render(self, frame: np.ndarray, title: str) -> None:
        self.render_title.setText(title)
        self.render_view.setPixmap(scaled(frame, SHOT_WIDTH))


__all__ = ["CodeView", "shows_render"]
