"""The one place the desktop shell imports Qt names from, plus image conversions.

Frames are numpy arrays (H x W x 3, uint8). :func:`frame_image` wraps one in a ``QImage``
without copying: the image points at the array's buffer, and the returned holder keeps the
array alive for as long as the image is used.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import (  # noqa: F401  (re-exported)
    QEvent,
    QObject,
    QPoint,
    QPointF,
    QRect,
    QRectF,
    QSize,
    QSizeF,
    Qt,
    QTimer,
    Signal,
    Slot,
)
from PySide6.QtGui import (  # noqa: F401
    QAction,
    QColor,
    QFont,
    QFontDatabase,
    QIcon,
    QImage,
    QKeySequence,
    QPainter,
    QPalette,
    QPen,
    QPixmap,
    QShortcut,
    QStandardItem,
    QStandardItemModel,
)
from PySide6.QtWidgets import (  # noqa: F401
    QAbstractItemView,
    QApplication,
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMenu,
    QMessageBox,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QSizePolicy,
    QSlider,
    QSpinBox,
    QSplitter,
    QStackedWidget,
    QStatusBar,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QTextBrowser,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)


@dataclass(frozen=True)
class FrameImage:
    """A ``QImage`` over a numpy frame's own memory, and the frame it must outlive."""

    image: QImage
    array: np.ndarray


def frame_image(frame: np.ndarray) -> FrameImage:
    """Wrap an RGB frame as a ``QImage`` sharing its buffer (a copy is made only when the
    array is not C-contiguous, which the renderers never produce)."""
    if frame.dtype != np.uint8 or frame.ndim != 3 or frame.shape[2] != 3:
        raise ValueError(f"expected an H x W x 3 uint8 frame, got {frame.shape} {frame.dtype}")
    arr = frame if frame.flags["C_CONTIGUOUS"] else np.ascontiguousarray(frame)
    h, w, _ = arr.shape
    image = QImage(arr.data, w, h, arr.strides[0], QImage.Format.Format_RGB888)
    return FrameImage(image, arr)


def png_image(data: bytes) -> QImage:
    """A PNG (a recorded frame) as an image."""
    image = QImage()
    image.loadFromData(data, "PNG")
    return image


def monospace(point_size: int | None = None) -> QFont:
    font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    if point_size:
        font.setPointSize(point_size)
    return font


def restyle(widget: QWidget, name: str, value: object) -> None:
    """Set a dynamic property the style sheet selects on (``[kind="good"]``) and re-apply the
    sheet: Qt does not re-evaluate property selectors by itself."""
    widget.setProperty(name, value)
    widget.style().unpolish(widget)
    widget.style().polish(widget)
