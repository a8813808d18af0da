"""The page widget of the browser pane: the live page, the Set-of-Marks overlay, and input.

:class:`PageView` is a scroll area holding a :class:`PageCanvas`. The canvas shows the page's
viewport (the task's, VWA's 1280 x 2048 by default) scaled to the pane's width - never above
its natural size - so text stays readable; the vertical scroll bar beside it moves over the
viewport locally and costs no action (the wheel over the page is the page's ``scroll``).

The canvas maps widget points to page CSS pixels and reports clicks, wheel notches, keys and
the pointer position; it draws, on top of the frame, the marks the model's observation carries
(when shown), the element under the pointer, and the text being typed into a field (which
reaches the page only when committed). Screencast JPEGs are decoded by a :class:`FrameDecoder`
on its own thread (libjpeg-turbo through Pillow), newest first: a frame that arrives while
another is being decoded replaces the waiting one. The decoded frame comes back as a queued Qt
signal and is painted at once (``repaint``), not at the next scheduled update: people play
real-time games through this widget (``benchmarks/bench_game_pane.py``).
"""

from __future__ import annotations

import io
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from PIL import Image
from PySide6.QtGui import QKeyEvent, QMouseEvent, QPaintEvent, QResizeEvent, QWheelEvent

from playbench.app.ui.qt import (
    QColor,
    QFont,
    QImage,
    QObject,
    QPainter,
    QPen,
    QPointF,
    QRectF,
    QScrollArea,
    Qt,
    QWidget,
    Signal,
    frame_image,
)
from playbench.games.browser.som import COLOURS, MIN_DRAWN, SomItem

BACKGROUND = QColor(233, 236, 241)
HINT_INK = QColor(93, 102, 117)
HOVER = QColor(255, 176, 0)
TYPING = QColor(37, 99, 235)
MAX_SCALE = 1.0
DEFAULT_PAGE = (1280, 2048)
WHEEL_NOTCH = 120.0

_SPECIAL = {
    Qt.Key.Key_Return: "Enter", Qt.Key.Key_Enter: "Enter", Qt.Key.Key_Backspace: "Backspace",
    Qt.Key.Key_Tab: "Tab", Qt.Key.Key_Backtab: "Tab", Qt.Key.Key_Escape: "Escape",
    Qt.Key.Key_Delete: "Delete", Qt.Key.Key_Insert: "Insert", Qt.Key.Key_Home: "Home",
    Qt.Key.Key_End: "End", Qt.Key.Key_PageUp: "PageUp", Qt.Key.Key_PageDown: "PageDown",
    Qt.Key.Key_Left: "ArrowLeft", Qt.Key.Key_Right: "ArrowRight", Qt.Key.Key_Up: "ArrowUp",
    Qt.Key.Key_Down: "ArrowDown", Qt.Key.Key_Space: "Space"}
_MODIFIER_KEYS = {Qt.Key.Key_Control: "Control", Qt.Key.Key_Shift: "Shift",
                  Qt.Key.Key_Alt: "Alt", Qt.Key.Key_Meta: "Meta"}
_MODIFIERS = ((Qt.KeyboardModifier.ControlModifier, "Control"),
              (Qt.KeyboardModifier.AltModifier, "Alt"),
              (Qt.KeyboardModifier.ShiftModifier, "Shift"),
              (Qt.KeyboardModifier.MetaModifier, "Meta"))


def playwright_key(event: QKeyEvent) -> tuple[str, str, list[str]] | None:
    """A Qt key press as (Playwright key name, typed text, held modifiers), or None for keys
    that have no name here. A printable character typed with Shift alone is the shifted
    character (``A``, ``$``), without ``Shift``."""
    key = Qt.Key(event.key())
    mods = [name for flag, name in _MODIFIERS if event.modifiers() & flag]
    if key in _MODIFIER_KEYS:
        return _MODIFIER_KEYS[key], "", mods
    command = [m for m in mods if m != "Shift"]
    if key == Qt.Key.Key_Space:
        return "Space", "" if command else " ", mods
    if key in _SPECIAL:
        return _SPECIAL[key], "", mods
    if Qt.Key.Key_F1 <= key <= Qt.Key.Key_F12:
        return f"F{key - Qt.Key.Key_F1 + 1}", "", mods
    text = event.text()
    if text and text.isprintable() and not command:
        return text, text, []
    code = int(key)
    if 32 < code < 127:  # a combination: the key's own character, letters in lower case
        return chr(code).lower(), "", mods
    return None


def decode_jpeg(data: bytes, size: tuple[int, int] | None = None) -> tuple[QImage, QImage]:
    """A screencast frame, and the same frame smoothly scaled to ``size`` (device pixels) for
    painting. Meant for a worker thread (QImage is not tied to the GUI thread), so that the UI
    thread only copies finished pixels to the screen. Pillow's libjpeg-turbo decodes about
    a third faster than Qt's JPEG plugin; a frame Pillow cannot read gives a null image."""
    try:
        with Image.open(io.BytesIO(data)) as pil:
            pil.load()
            raw = pil.convert("RGB").tobytes("raw", "BGRX")  # = Format_RGB32 in memory
            w, h = pil.size
    except (OSError, ValueError, Image.DecompressionBombError):
        return QImage(), QImage()
    image = QImage(raw, w, h, w * 4, QImage.Format.Format_RGB32).copy()  # own its pixels
    return image, fitted(image, size)


def fitted(image: QImage, size: tuple[int, int] | None) -> QImage:
    """``image`` smoothly scaled to ``size`` (itself when that is its size within two pixels -
    a frame Chromium already sized for the widget - or None)."""
    if (size is None or min(size) < 1
            or (abs(size[0] - image.width()) <= 2 and abs(size[1] - image.height()) <= 2)):
        return image
    return image.scaled(size[0], size[1], Qt.AspectRatioMode.IgnoreAspectRatio,
                        Qt.TransformationMode.SmoothTransformation)


class FrameDecoder(QObject):
    """Decodes screencast JPEGs on a thread of its own and hands each result back to the GUI
    thread through :attr:`decoded` (a queued signal: one event, no polling). Only the newest
    waiting frame is decoded; older waiting ones are dropped. The thread starts with the first
    frame and ends after ``idle`` seconds without one, so nothing needs closing."""

    decoded = Signal(object, object, object)
    """(image, page size in CSS pixels, image scaled for painting)"""

    def __init__(self, target_size: Callable[[], tuple[int, int]], idle: float = 5.0,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.target_size = target_size
        self.idle = idle
        self._wake = threading.Condition()
        self._latest: tuple[bytes, Mapping[str, Any], tuple[int, int]] | None = None
        self._running = False

    def push(self, data: bytes, meta: Mapping[str, Any]) -> None:
        """Queue a frame (replacing one still waiting); called on the GUI thread."""
        with self._wake:
            self._latest = (data, meta, self.target_size())
            self._wake.notify()
            if not self._running:
                self._running = True
                threading.Thread(target=self._work, name="screencast-decoder",
                                 daemon=True).start()

    def _work(self) -> None:
        while True:
            with self._wake:
                if self._latest is None:
                    self._wake.wait(self.idle)
                if self._latest is None:
                    self._running = False
                    return
                (data, meta, size), self._latest = self._latest, None
            image, scaled = decode_jpeg(data, size)
            if image.isNull():
                continue
            page = (int(meta.get("deviceWidth") or image.width()),
                    int(meta.get("deviceHeight") or image.height()))
            try:
                self.decoded.emit(image, page, scaled)
            except RuntimeError:  # the widget (and this object) went away meanwhile
                with self._wake:
                    self._running = False
                return


class PageCanvas(QWidget):
    """The page at the pane's scale; reports input in page CSS pixels."""

    clicked = Signal(float, float)
    wheeled = Signal(float)
    key_pressed = Signal(str, str, object)
    key_changed = Signal(str, bool, bool, int)
    """(Playwright key name, pressed, auto-repeat, the window system's event time in ms, 0 when
    unknown) for every press and release: the game pane holds keys (a held key is one
    action), where the web pane only needs presses."""
    hovered = Signal(object)
    painted = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMouseTracking(True)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        self.image: QImage | None = None
        self.scaled: QImage | None = None
        """``image`` at the canvas's size in device pixels (made in the decoding worker, or
        on the first paint after a resize)."""
        self.page_size: tuple[int, int] = DEFAULT_PAGE
        self.marks: list[SomItem] = []
        self.show_marks = False
        self.hover_box: tuple[float, float, float, float] | None = None
        self.typing: tuple[tuple[float, float, float, float], str] | None = None
        self.placeholder = ""
        self.accepts_input = True
        self.frames_painted = 0
        """Paints that showed a frame not painted before (benchmarks count these)."""
        self.last_paint_at = 0.0
        self.generation = 0
        """Bumped with every new frame; a paint of a new generation counts as a new frame."""
        self._painted_generation = 0
        self._press: QPointF | None = None

    # -- geometry -----------------------------------------------------------------------------

    def device_size(self) -> tuple[int, int]:
        dpr = self.devicePixelRatioF()
        return round(self.width() * dpr), round(self.height() * dpr)

    @property
    def scale(self) -> float:
        return self.width() / self.page_size[0] if self.page_size[0] else 1.0

    def to_page(self, pos: QPointF) -> tuple[float, float]:
        s = self.scale or 1.0
        return pos.x() / s, pos.y() / s

    def from_page(self, x: float, y: float) -> QPointF:
        """Page CSS pixel -> widget point (tests click through this)."""
        return QPointF(x * self.scale, y * self.scale)

    # -- painting -----------------------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.fillRect(self.rect(), BACKGROUND)
        if self.image is None:
            p.setPen(HINT_INK)
            p.drawText(self.rect().adjusted(24, 24, -24, -24),
                       Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop
                       | Qt.TextFlag.TextWordWrap, self.placeholder)
            p.end()
            return
        size = self.device_size()
        if self.scaled is None or (self.scaled.width(), self.scaled.height()) != size:
            self.scaled = fitted(self.image, size)
        p.drawImage(QRectF(0, 0, self.width(), self.height()), self.scaled)
        s = self.scale
        if self.show_marks:
            self._paint_marks(p, s)
        if self.hover_box is not None:
            x, y, w, h = (v * s for v in self.hover_box)
            fill = QColor(HOVER)
            fill.setAlpha(45)
            p.fillRect(QRectF(x, y, w, h), fill)
            p.setPen(QPen(HOVER, 2))
            p.drawRect(QRectF(x + 1, y + 1, w - 2, h - 2))
        if self.typing is not None:
            self._paint_typing(p, s)
        p.end()
        if self.generation != self._painted_generation:
            self._painted_generation = self.generation
            self.frames_painted += 1
            self.last_paint_at = time.perf_counter()
        self.painted.emit()

    def _paint_marks(self, p: QPainter, s: float) -> None:
        font = QFont(self.font())
        font.setPixelSize(max(9, round(12 * max(s, 0.75))))
        font.setBold(True)
        p.setFont(font)
        metrics = p.fontMetrics()
        for n, item in enumerate(self.marks):
            bx, by, bw, bh = item.box
            if bw < MIN_DRAWN or bh < MIN_DRAWN:
                continue
            colour = QColor(*COLOURS[n % len(COLOURS)])
            p.setPen(QPen(colour, 2))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRect(QRectF(bx * s + 1, by * s + 1, bw * s - 2, bh * s - 2))
            label = str(item.id)
            lw, lh = metrics.horizontalAdvance(label) + 6, metrics.height() + 2
            ly = by * s - lh if by * s - lh >= 0 else by * s
            rect = QRectF(bx * s, ly, lw, lh)
            p.fillRect(rect, colour)
            p.setPen(QColor(255, 255, 255))
            p.drawText(rect, Qt.AlignmentFlag.AlignCenter, label)

    def _paint_typing(self, p: QPainter, s: float) -> None:
        assert self.typing is not None  # painted only while typing
        (bx, by, bw, bh), text = self.typing
        rect = QRectF(bx * s, by * s, bw * s, bh * s)
        p.fillRect(rect, QColor(255, 255, 255))
        p.setPen(QPen(TYPING, 2))
        p.drawRect(rect.adjusted(1, 1, -1, -1))
        font = QFont(self.font())
        font.setPixelSize(max(10, min(int(rect.height() * 0.6), 18)))
        p.setFont(font)
        inner = rect.adjusted(6, 2, -6, -2)
        shown = p.fontMetrics().elidedText(text + "|", Qt.TextElideMode.ElideLeft,
                                           int(inner.width()))
        p.setPen(QColor(20, 24, 32))
        p.drawText(inner, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, shown)

    # -- input --------------------------------------------------------------------------------

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self.setFocus()
        if event.button() == Qt.MouseButton.LeftButton:
            self._press = event.position()
        event.accept()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        # A click is a press and a release at (nearly) the same spot, as in a browser; a drag
        # (text selection) has no VWA action and is ignored.
        start, self._press = self._press, None
        if (event.button() != Qt.MouseButton.LeftButton or start is None
                or not self.accepts_input or self.image is None):
            return
        if (event.position() - start).manhattanLength() <= 6:
            self.clicked.emit(*self.to_page(event.position()))
        event.accept()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self.accepts_input and self.image is not None:
            self.hovered.emit(self.to_page(event.position()))

    def leaveEvent(self, event: Any) -> None:
        self.hovered.emit(None)
        super().leaveEvent(event)

    def wheelEvent(self, event: QWheelEvent) -> None:
        event.accept()  # the page scrolls (a recorded action), not the pane
        if self.accepts_input and event.angleDelta().y():
            self.wheeled.emit(-event.angleDelta().y() / WHEEL_NOTCH)

    def focusNextPrevChild(self, next: bool) -> bool:  # noqa: A002 - Qt's name
        return False  # Tab belongs to the page (it leaves a field, or is pressed)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        named = playwright_key(event) if self.accepts_input else None
        if named is None:
            super().keyPressEvent(event)
            return
        self.key_changed.emit(named[0], True, event.isAutoRepeat(), int(event.timestamp()))
        self.key_pressed.emit(*named)
        event.accept()

    def keyReleaseEvent(self, event: QKeyEvent) -> None:
        named = playwright_key(event) if self.accepts_input else None
        if named is None:
            super().keyReleaseEvent(event)
            return
        self.key_changed.emit(named[0], False, event.isAutoRepeat(), int(event.timestamp()))
        event.accept()


class PageView(QScrollArea):
    """The canvas, fitted to the pane's width, plus the frame sources: screencast JPEGs
    (:meth:`show_jpeg`), observation frames (:meth:`set_frame`) and recorded PNGs.
    :attr:`refitted` fires when the canvas changed size (a stream sized for it restarts)."""

    refitted = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("page")
        self.canvas = PageCanvas()
        self.setWidget(self.canvas)
        self.setFocusProxy(self.canvas)  # a click beside the page still gives it the keys
        self.setWidgetResizable(False)
        self.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setMinimumSize(320, 240)
        self.frames_received = 0
        self.decoder = FrameDecoder(self.canvas.device_size, parent=self)
        self.decoder.decoded.connect(self._decoded)
        self._frame_ref: Any = None
        self._fit()

    # -- the board-widget interface the demo view uses ---------------------------------------

    @property
    def accepts_input(self) -> bool:
        return self.canvas.accepts_input

    @accepts_input.setter
    def accepts_input(self, on: bool) -> None:
        self.canvas.accepts_input = on

    def set_frame(self, frame: np.ndarray | None) -> None:
        """Show an observation frame (H x W x 3); its size is the page's viewport."""
        if frame is None:
            self.set_image(None)
            return
        held = frame_image(frame)
        self._frame_ref = held
        self.set_image(held.image.convertToFormat(QImage.Format.Format_RGB32))

    def set_placeholder(self, text: str) -> None:
        self.canvas.placeholder = text
        self.canvas.update()

    # -- frames -------------------------------------------------------------------------------

    def set_image(self, image: QImage | None, page_size: tuple[int, int] | None = None,
                  scaled: QImage | None = None) -> None:
        self.canvas.image = image if image is not None and not image.isNull() else None
        self.canvas.scaled = scaled if self.canvas.image is not None else None
        self.canvas.generation += 1
        if page_size is None and self.canvas.image is not None:
            page_size = (self.canvas.image.width(), self.canvas.image.height())
        if page_size is not None and page_size != self.canvas.page_size:
            self.canvas.page_size = page_size
            self._fit()
        self.canvas.update()

    def show_jpeg(self, data: bytes, meta: Mapping[str, Any]) -> None:
        """A screencast frame: decoded off the UI thread, the newest one wins."""
        self.frames_received += 1
        self.decoder.push(data, meta)

    def _decoded(self, image: QImage, page: tuple[int, int], scaled: QImage) -> None:
        self.set_image(image, page, scaled)
        if self.canvas.isVisible():
            self.canvas.repaint()  # now: the frame is as fresh as it will ever be

    # -- overlays -----------------------------------------------------------------------------

    def set_marks(self, marks: Sequence[SomItem]) -> None:
        self.canvas.marks = [m for m in marks if m.id is not None]
        self.canvas.update()

    def set_show_marks(self, on: bool) -> None:
        self.canvas.show_marks = on
        self.canvas.update()

    def set_hover(self, box: tuple[float, float, float, float] | None) -> None:
        if box != self.canvas.hover_box:
            self.canvas.hover_box = box
            self.canvas.update()

    def set_typing(self, box: tuple[float, float, float, float] | None, text: str = "") -> None:
        typing = None if box is None else (box, text)
        if typing != self.canvas.typing:
            self.canvas.typing = typing
            self.canvas.update()

    # -- layout -------------------------------------------------------------------------------

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        pw, ph = self.canvas.page_size
        avail = max(100, self.viewport().width())
        w = min(float(avail), pw * MAX_SCALE)
        size = (int(w), max(1, round(w * ph / pw)))
        if size != (self.canvas.width(), self.canvas.height()):
            self.canvas.setFixedSize(*size)
            self.refitted.emit()
