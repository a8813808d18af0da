"""A code editor for people writing pages: Pygments highlighting on a Qt plain-text editor.

:class:`CodeEditor` highlights HTML, CSS or JavaScript with Pygments' lexers (the whole text is
lexed again when it changes - page files are small - so multi-line comments and strings are
coloured right); :class:`PageEditor` holds one editor per page file (``index.html``,
``style.css``, ``script.js``) in tabs and gives the files back as a submission. Other views may
use :class:`CodeEditor` read-only to show code.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from PySide6.QtGui import QSyntaxHighlighter, QTextCharFormat, QTextDocument

from playbench.app.ui.qt import (
    QColor,
    QFont,
    QPlainTextEdit,
    QTabWidget,
    QTimer,
    QVBoxLayout,
    QWidget,
    Signal,
    monospace,
)

if TYPE_CHECKING:
    from pygments.lexer import Lexer  # type: ignore[import-untyped]

# Pygments is imported when a code view first colours text, not when the window is built:
# its lexers compile some 130 regular expressions (0.1 s of CPU here), which the first
# paint of the window does not need (issue 32: start -> interactive window <= 1 s).

PAGE_FILES = (("index.html", "HTML"), ("style.css", "CSS"), ("script.js", "JavaScript"))


@cache
def colours() -> tuple[tuple[Any, str, bool, bool], ...]:
    """Token type -> colour, bold, italic (a light theme; subtypes take their parent's
    look)."""
    from pygments.token import (  # type: ignore[import-untyped]
        Comment,
        Keyword,
        Name,
        Number,
        Operator,
        Punctuation,
        String,
    )
    return (
        (Comment, "#6a737d", False, True),
        (Name.Tag, "#22863a", True, False),
        (Name.Attribute, "#6f42c1", False, False),
        (Name.Builtin, "#005cc5", False, False),
        (Name.Function, "#6f42c1", False, False),
        (Name.Class, "#b31d28", False, False),
        (Keyword, "#d73a49", True, False),
        (String, "#032f62", False, False),
        (Number, "#005cc5", False, False),
        (Operator, "#d73a49", False, False),
        (Punctuation, "#24292e", False, False),
        (Name.Variable, "#e36209", False, False),
    )


def lexer_for(filename: str) -> Lexer:
    """The Pygments lexer for a page file by its extension."""
    from pygments.lexers import (  # type: ignore[import-untyped]
        CssLexer,
        HtmlLexer,
        JavascriptLexer,
    )
    if filename.endswith((".css",)):
        return CssLexer()
    if filename.endswith((".js",)):
        return JavascriptLexer()
    return HtmlLexer()


def _format(colour: str, bold: bool, italic: bool) -> QTextCharFormat:
    fmt = QTextCharFormat()
    fmt.setForeground(QColor(colour))
    if bold:
        fmt.setFontWeight(QFont.Weight.Bold)
    fmt.setFontItalic(italic)
    return fmt


class PygmentsHighlighter(QSyntaxHighlighter):
    """Colours a document with a Pygments lexer's tokens (see the module docstring).

    ``lexer`` is a lexer, or a file name whose lexer is made when the document first has text
    to colour (an empty editor never loads Pygments)."""

    def __init__(self, document: QTextDocument, lexer: Lexer | str) -> None:
        super().__init__(document)
        self._lexer = lexer
        self._formats: list[tuple[Any, QTextCharFormat]] | None = None
        self._spans: list[tuple[int, int, QTextCharFormat]] = []
        self._revision = -1

    @property
    def lexer(self) -> Lexer:
        """The lexer, made from the file name on first use."""
        if isinstance(self._lexer, str):
            self._lexer = lexer_for(self._lexer)
        return self._lexer

    def _format_of(self, token: Any) -> QTextCharFormat | None:
        if self._formats is None:
            self._formats = [(tok, _format(c, b, i)) for tok, c, b, i in colours()]
        for kind, fmt in self._formats:
            if token in kind:
                return fmt
        return None

    def spans(self) -> list[tuple[int, int, QTextCharFormat]]:
        """(start, length, format) of every coloured token in the whole document."""
        document = self.document()
        if document is not None and document.revision() != self._revision:
            self._revision = document.revision()
            text = document.toPlainText()
            spans: list[tuple[int, int, QTextCharFormat]] = []
            if not text:  # nothing to colour: Pygments stays unloaded
                self._spans = spans
                return spans
            from pygments.token import Token
            for start, token, value in self.lexer.get_tokens_unprocessed(text):
                fmt = self._format_of(token) if token is not Token.Text else None
                if fmt is not None and value:
                    spans.append((start, len(value), fmt))
            self._spans = spans
        return self._spans

    def highlightBlock(self, text: str) -> None:  # noqa: N802 - Qt's hook
        start = self.currentBlock().position()
        end = start + len(text)
        for s, length, fmt in self.spans():
            if s + length <= start or s >= end:
                continue
            a, b = max(s, start), min(s + length, end)
            self.setFormat(a - start, b - a, fmt)


class CodeEditor(QPlainTextEdit):
    """A plain-text editor with Pygments highlighting for one file (``filename`` picks the
    language). ``edited`` fires on edits of the text (not on re-colouring)."""

    edited = Signal()

    def __init__(self, filename: str = "index.html", parent: QWidget | None = None,
                 read_only: bool = False) -> None:
        super().__init__(parent)
        self.filename = filename
        self.setFont(monospace())
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.setTabStopDistance(self.fontMetrics().horizontalAdvance(" ") * 2)
        self.setReadOnly(read_only)
        self.setPlaceholderText(f"{filename}…")
        self.highlighter = PygmentsHighlighter(self.document(), filename)
        # An edit can change how earlier lines lex (closing a <style> or a comment): the
        # whole text is coloured again shortly after typing stops.
        self._recolour = QTimer(self)
        self._recolour.setSingleShot(True)
        self._recolour.setInterval(250)
        self._recolour.timeout.connect(self.highlighter.rehighlight)
        self.document().contentsChange.connect(self._contents_changed)

    def _contents_changed(self, position: int, removed: int, added: int) -> None:
        """Only real edits count: re-colouring itself reports a change of nothing."""
        if removed or added:
            self._recolour.start()
            self.edited.emit()

    def code(self) -> str:
        return self.toPlainText()

    def set_code(self, text: str) -> None:
        self.setPlainText(text)


class PageEditor(QWidget):
    """One :class:`CodeEditor` per page file, in tabs. ``changed`` fires on every edit."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tabs = QTabWidget()
        self.editors: dict[str, CodeEditor] = {}
        for name, language in PAGE_FILES:
            editor = CodeEditor(name)
            editor.setAccessibleName(f"{language} editor ({name})")
            editor.edited.connect(self.changed.emit)
            self.editors[name] = editor
            self.tabs.addTab(editor, name)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.tabs)

    def files(self) -> dict[str, str]:
        """The files with any text in them (index.html always)."""
        out = {"index.html": self.editors["index.html"].code()}
        for name in ("style.css", "script.js"):
            text = self.editors[name].code()
            if text.strip():
                out[name] = text
        return out

    def set_files(self, files: dict[str, str]) -> None:
        for name, editor in self.editors.items():
            editor.set_code(files.get(name, ""))

    def set_read_only(self, on: bool) -> None:
        for editor in self.editors.values():
            editor.setReadOnly(on)


__all__ = ["CodeEditor", "PAGE_FILES", "PageEditor", "PygmentsHighlighter", "lexer_for"]
