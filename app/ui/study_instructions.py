"""The Play tab's "Instructions" button during a study task: the study's instructions again,
in a window beside the task (not modal: the task, its clock and its keys carry on)."""

from __future__ import annotations

from playbench.app.ui.qt import QDialog, QPushButton, Qt, QTextBrowser, QVBoxLayout, QWidget


class InstructionsWindow(QDialog):
    """A non-modal window showing Markdown instructions."""

    def __init__(self, parent: QWidget | None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Study instructions")
        self.setModal(False)
        self.resize(560, 480)
        self.text = QTextBrowser()
        self.text.setObjectName("study_instructions")
        self.text.setOpenExternalLinks(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)


class InstructionsButton(QPushButton):
    """Shown only while a study task with instructions is in the Play tab."""

    def __init__(self) -> None:
        super().__init__("Instructions")
        self.setObjectName("study_instructions_button")
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # keys stay with the board
        self.setToolTip("Read the study's instructions again; the task goes on meanwhile.")
        self.markdown = ""
        self.viewer: InstructionsWindow | None = None
        self.clicked.connect(self.open_instructions)
        self.hide()

    def show_for(self, markdown: str) -> None:
        """The instructions of the task now in the Play tab ("" hides the button)."""
        self.markdown = markdown
        self.setVisible(bool(markdown))
        if self.viewer is not None:
            if markdown:
                self.viewer.text.setMarkdown(markdown)
            else:
                self.viewer.hide()

    def open_instructions(self) -> InstructionsWindow | None:
        if not self.markdown:
            return None
        if self.viewer is None:
            self.viewer = InstructionsWindow(self.window())
        self.viewer.text.setMarkdown(self.markdown)
        self.viewer.show()
        self.viewer.raise_()
        return self.viewer
