"""Where the main window goes: a size that fits the screen it opens on, and the geometry it
was closed with, brought back inside the screen (a laptop after a large monitor, a screen
that went away). Plain numbers, no Qt, so the rules are tested on their own."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

PREFERRED = (1480, 920)
"""The size the window asks for on a screen with room for it."""


@dataclass(frozen=True)
class Rect:
    x: int
    y: int
    w: int
    h: int

    def as_dict(self) -> dict[str, int]:
        return {"x": self.x, "y": self.y, "w": self.w, "h": self.h}


def saved_rect(window: Mapping[str, Any] | None) -> Rect | None:
    """The rectangle stored in the preferences' ``window`` entry, or None when there is
    none or it is not four whole numbers (a hand-edited file)."""
    if not window:
        return None
    try:
        values = [window[k] for k in ("x", "y", "w", "h")]
    except (KeyError, TypeError):
        return None
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return None
    return Rect(*values)


def fit(available: Rect, saved: Rect | None = None,
        preferred: tuple[int, int] = PREFERRED) -> Rect:
    """The window's rectangle on a screen whose free area is ``available``: ``saved`` (or
    the preferred size, centred) made no larger than the free area and moved inside it."""
    if saved is None or saved.w <= 0 or saved.h <= 0:
        w, h = min(preferred[0], available.w), min(preferred[1], available.h)
        return Rect(available.x + (available.w - w) // 2, available.y + (available.h - h) // 2,
                    w, h)
    w, h = min(saved.w, available.w), min(saved.h, available.h)
    x = min(max(saved.x, available.x), available.x + available.w - w)
    y = min(max(saved.y, available.y), available.y + available.h - h)
    return Rect(x, y, w, h)


def columns_to_hide(width: int, sections: Sequence[int], stretch: int, keep: int) -> set[int]:
    """The columns of a table ``width`` px wide to hide so that its stretching column
    (``stretch``) keeps at least ``keep`` px beside the others (``sections``: each column's
    wanted width). The last columns go first; the first column and the stretching one stay."""
    hidden: set[int] = set()
    used = sum(w for i, w in enumerate(sections) if i != stretch)
    for i in reversed(range(len(sections))):
        if width - used >= keep:
            break
        if i in (0, stretch):
            continue
        hidden.add(i)
        used -= sections[i]
    return hidden
