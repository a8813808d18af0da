"""One harness request as the model would get it: the system prompt, the conversation with
its images in place, and the tools offered (the middle of the "Answer a harness" view).

Images are decoded off the UI thread (``playbench.app.ui.operation``) and drawn fitted to the pane's
width, never enlarged; a click opens one at full size with zoom (``playbench.app.ui.frame_zoom``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtGui import QMouseEvent

from playbench.app.harness.queue import PendingRequest, RequestImage
from playbench.app.harness.shown import safe_text
from playbench.app.ui.frame_zoom import FrameZoom, open_frame
from playbench.app.ui.models.answering import Turn, conversation, tool_schema_text, tool_summary
from playbench.app.ui.models.app_state import AppState
from playbench.app.ui.operation import Operation
from playbench.app.ui.qt import (
    QFrame,
    QImage,
    QLabel,
    QPixmap,
    QScrollArea,
    Qt,
    QVBoxLayout,
    QWidget,
    monospace,
)

ROLE_NAMES = {"user": "User", "assistant": "Assistant (the model's earlier reply)",
              "tool": "Tool result"}


def decode_images(images: Sequence[RequestImage]) -> list[QImage]:
    """The request's images as ``QImage`` (runs in a worker thread; a null image for bytes
    Qt cannot read, so the pane can say so)."""
    out = []
    for img in images:
        image = QImage()
        image.loadFromData(img.data)
        out.append(image.convertToFormat(QImage.Format.Format_RGB32) if not image.isNull()
                   else image)
    return out


class ImageThumb(QLabel):
    """One image of the request, fitted to the pane's width; a click opens it full size."""

    def __init__(self, number: int, on_open: Callable[[int], None]) -> None:
        super().__init__("decoding image…")
        self.setObjectName("request_image")
        self.number = number
        self.on_open = on_open
        self.image: QImage | None = None
        self.caption: QLabel | None = None
        """The line under the image: its size, and that a click opens it full size."""
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setToolTip("Click to open the image at full size (zoom, scrolling)")

    def show_image(self, image: QImage, width: int) -> None:
        self.image = image
        if image.isNull():
            self.setText(f"image {self.number + 1}: not a readable image")
            return
        w = min(image.width(), max(80, width))
        if self.caption is not None:
            scale = "full size" if w == image.width() else f"shown at {100 * w // image.width()} %"
            self.caption.setText(f"image {self.number + 1}: {image.width()} x {image.height()} "
                                 f"px, {scale} · click it for full size and zoom")
        self.setPixmap(QPixmap.fromImage(image.scaledToWidth(
            w, Qt.TransformationMode.SmoothTransformation)))

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton and self.image is not None:
            self.on_open(self.number)
        super().mousePressEvent(event)


def _card(title: str, body: str = "", mono: bool = False) -> tuple[QFrame, QVBoxLayout]:
    card = QFrame()
    card.setObjectName("card")
    column = QVBoxLayout(card)
    column.setContentsMargins(10, 8, 10, 8)
    head = QLabel(title)
    head.setTextFormat(Qt.TextFormat.PlainText)  # a harness's role or call id, never markup
    head.setObjectName("card_head")
    column.addWidget(head)
    if body:
        text = QLabel(body)
        text.setWordWrap(True)
        text.setTextFormat(Qt.TextFormat.PlainText)
        text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        if mono:
            text.setFont(monospace(9))
        column.addWidget(text)
    return card, column


class RequestPane(QScrollArea):
    """The selected request, top to bottom as the model reads it."""

    def __init__(self, state: AppState, on_error: Callable[[BaseException], None],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("transcript")
        self.setWidgetResizable(True)
        self.request: PendingRequest | None = None
        self.thumbs: list[ImageThumb] = []
        self.images: list[QImage] = []
        self.zoomed: FrameZoom | None = None
        self.decoding: Operation[list[QImage]] = Operation(
            self, state.jobs, state.executor, "decode request images", on_error=on_error)
        self._empty()

    def _empty(self) -> None:
        inner = QWidget()
        column = QVBoxLayout(inner)
        hint = QLabel("No request is waiting. Start the endpoint above and point a harness "
                      "at its base URL; its model calls appear on the left, oldest first.")
        hint.setObjectName("hint")
        hint.setWordWrap(True)
        column.addWidget(hint)
        column.addStretch(1)
        self.setWidget(inner)

    def show_request(self, request: PendingRequest | None) -> None:
        """Show ``request`` (None: the empty hint)."""
        if request is self.request:
            return
        self.request, self.thumbs, self.images = request, [], []
        if request is None:
            self.decoding.drop()
            self._empty()
            return
        inner = QWidget()
        column = QVBoxLayout(inner)
        column.setContentsMargins(6, 6, 6, 6)
        system = safe_text(request.system_prompt)
        column.addWidget(_card("System prompt", system or "(the request has no system "
                                                          "prompt)")[0])
        for turn in conversation(request):
            column.addWidget(self._turn(turn))
        if request.tools:
            card, tools = _card(f"Tools offered ({len(request.tools)})")
            for tool in request.tools:
                name = QLabel(tool_summary(tool))
                name.setTextFormat(Qt.TextFormat.PlainText)
                name.setWordWrap(True)
                name.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
                schema = QLabel(tool_schema_text(tool))
                schema.setTextFormat(Qt.TextFormat.PlainText)
                schema.setFont(monospace(8))
                schema.setObjectName("hint")
                schema.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
                tools.addWidget(name)
                tools.addWidget(schema)
            column.addWidget(card)
        else:
            column.addWidget(_card("Tools offered", "none: answer in text")[0])
        column.addStretch(1)
        self.setWidget(inner)
        if request.images:
            self.decoding.call(decode_images, request.images, done=self._decoded)

    def _turn(self, turn: Turn) -> QFrame:
        title = ROLE_NAMES.get(turn.role, turn.role)
        if turn.note:
            title += f" · {turn.note}"
        card, column = _card(title, turn.text)
        for n in turn.images:
            thumb = ImageThumb(n, self.open_image)
            self.thumbs.append(thumb)
            column.addWidget(thumb)
            caption = QLabel("")
            caption.setObjectName("hint")
            caption.setWordWrap(True)
            thumb.caption = caption
            column.addWidget(caption)
        for call in turn.calls:
            line = QLabel(f"called {call}")
            line.setTextFormat(Qt.TextFormat.PlainText)
            line.setFont(monospace(9))
            line.setWordWrap(True)
            column.addWidget(line)
        if not turn.text and not turn.images and not turn.calls:
            column.addWidget(QLabel("(empty message)"))
        return card

    def _room(self) -> int:
        return self.viewport().width() - 40

    def _decoded(self, images: list[QImage]) -> None:
        self.images = images
        for thumb in self.thumbs:
            if thumb.number < len(images):
                thumb.show_image(images[thumb.number], self._room())

    def open_image(self, number: int) -> None:
        """Open image ``number`` of the request at full size (zoom and scrolling)."""
        if number >= len(self.images) or self.request is None:
            return
        image = self.images[number]
        info = self.request.images[number]
        self.zoomed = open_frame(self, image, f"Image {number + 1} of request "
                                              f"#{self.request.id} · {info.mime}")

    def resizeEvent(self, event) -> None:  # noqa: ANN001 - Qt's signature
        super().resizeEvent(event)
        for thumb in self.thumbs:
            if thumb.image is not None:
                thumb.show_image(thumb.image, self._room())
