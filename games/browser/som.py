"""Set-of-Marks: numbered boxes on the screenshot and the matching text list.

The rules are VisualWebArena's (docs/reference/web.md, "SoM details"):

- interactable elements are ``a[href]``, ``button``, ``input:not([type=hidden])``, ``textarea``,
  ``select``, ``[tabindex]`` (not -1), ``[contenteditable=true]``, the roles button, link,
  checkbox, menuitem and tab, and ``[draggable=true]``; text holders are p, span, leaf div,
  h1-h6, li and article (plus table cells, labels and captions) outside interactables;
- boxes of zero size or covering more than 80 % of the viewport are skipped; only what lies in
  the viewport is marked (the screenshot is of the viewport); a box is drawn only when it is at
  least 8 x 8 px, with a 2 px outline in a colour cycle and the id at a free corner;
- ids are 1..N in DOM order and are re-assigned on every observation, so they are not stable;
- the text list has one line per item, ``[id] [TAG] [text]`` for marked elements and
  ``[] [StaticText] [text]`` for text, each text cut at 200 characters;
- actions act at the centre of the element's (visible) box.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageFont

MAX_TEXT = 200
SKIP_RATIO = 0.8
MIN_DRAWN = 8
OUTLINE = 2
COLOURS = ((230, 25, 75), (60, 180, 75), (0, 130, 200), (245, 130, 48), (145, 30, 180),
           (70, 160, 160), (240, 50, 230), (128, 128, 0), (0, 0, 128), (170, 110, 40))


@dataclass(frozen=True)
class SomItem:
    """One line of the Set-of-Marks list. ``id`` is None for static text.

    The box is in viewport pixels (x, y, width, height), clipped to the viewport.
    """

    id: int | None
    tag: str
    text: str
    box: tuple[float, float, float, float]
    editable: bool = False
    select: bool = False
    value: str = ""
    options: tuple[str, ...] = ()

    @property
    def centre(self) -> tuple[float, float]:
        x, y, w, h = self.box
        return (x + w / 2, y + h / 2)

    def contains(self, x: float, y: float) -> bool:
        bx, by, bw, bh = self.box
        return bx <= x < bx + bw and by <= y < by + bh

    def line(self) -> str:
        return f"[{'' if self.id is None else self.id}] [{self.tag}] [{self.text}]"

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "tag": self.tag, "text": self.text, "box": list(self.box),
                "editable": self.editable, "select": self.select, "value": self.value,
                "options": list(self.options)}

    @staticmethod
    def from_dict(d: dict[str, Any]) -> SomItem:
        return SomItem(d.get("id"), d["tag"], d.get("text", ""), tuple(d["box"]),
                       bool(d.get("editable")), bool(d.get("select")), d.get("value", ""),
                       tuple(d.get("options") or ()))


@dataclass(frozen=True)
class SetOfMarks:
    """The marks of one observation."""

    items: tuple[SomItem, ...]
    viewport: tuple[int, int]
    scroll_y: float = 0.0
    page_height: float = 0.0

    @property
    def elements(self) -> tuple[SomItem, ...]:
        """The marked (interactable) items, ids 1..N."""
        return tuple(i for i in self.items if i.id is not None)

    def element(self, som_id: int) -> SomItem | None:
        els = self.elements
        return els[som_id - 1] if 1 <= som_id <= len(els) else None

    def text(self) -> str:
        return "\n".join(i.line() for i in self.items)

    def digest(self) -> str:
        return hashlib.sha256(self.text().encode()).hexdigest()[:16]


@lru_cache(maxsize=1)
def _script() -> str:
    return (Path(__file__).with_name("som.js")).read_text(encoding="utf-8")


async def collect(page: Any, targets: Sequence[Any] = ()) -> tuple[SetOfMarks, list[int | None]]:
    """Collect the marks of a Playwright page's viewport.

    ``targets`` are element handles whose Set-of-Marks id is wanted as well (the element
    itself, else its nearest marked ancestor, else its first marked descendant): this is how
    reference steps written with selectors are turned into this observation's ids.
    """
    raw = await page.evaluate(_script(), {"maxText": MAX_TEXT, "skipRatio": SKIP_RATIO,
                                          "targets": list(targets)})
    items: list[SomItem] = []
    next_id = 1
    for it in raw["items"]:
        som_id = None
        if it["mark"]:
            som_id, next_id = next_id, next_id + 1
        items.append(SomItem(som_id, it["tag"], it["text"],
                             (float(it["x"]), float(it["y"]), float(it["w"]), float(it["h"])),
                             bool(it["editable"]), bool(it["select"]), it["value"] or "",
                             tuple(it["options"])))
    ids = [t + 1 if t >= 0 else None for t in raw["targets"]]
    vw, vh = raw["viewport"]
    return SetOfMarks(tuple(items), (int(vw), int(vh)), float(raw["scrollY"]),
                      float(raw["pageHeight"])), ids


@lru_cache(maxsize=4)
def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow without FreeType: the fixed bitmap font
        return ImageFont.load_default()


def draw_marks(frame: np.ndarray, marks: SetOfMarks, font_size: int = 13) -> np.ndarray:
    """A copy of the screenshot with every marked element boxed and numbered."""
    img = Image.fromarray(frame)
    draw = ImageDraw.Draw(img)
    font = _font(font_size)
    width, height = img.size
    taken: list[tuple[float, float, float, float]] = []
    for n, item in enumerate(marks.elements):
        x, y, w, h = item.box
        if w < MIN_DRAWN or h < MIN_DRAWN:
            continue
        colour = COLOURS[n % len(COLOURS)]
        draw.rectangle([x, y, x + w - 1, y + h - 1], outline=colour, width=OUTLINE)
        label = str(item.id)
        left, top, right, bottom = draw.textbbox((0, 0), label, font=font)
        lw, lh = right - left + 4, bottom - top + 4
        spot = _free_corner((x, y, w, h), (lw, lh), taken, (width, height))
        taken.append((spot[0], spot[1], lw, lh))
        draw.rectangle([spot[0], spot[1], spot[0] + lw, spot[1] + lh], fill=colour)
        draw.text((spot[0] + 2 - left, spot[1] + 2 - top), label, fill=(255, 255, 255), font=font)
    return np.asarray(img)


_Box = tuple[float, float, float, float]


def _free_corner(box: _Box, size: tuple[float, float], taken: Sequence[_Box],
                 bounds: tuple[float, float]) -> tuple[float, float]:
    """A label position at one of the box's corners that overlaps no earlier label: above the
    top-left corner first, then inside the top-left, top-right, bottom-left, bottom-right."""
    x, y, w, h = box
    lw, lh = size
    candidates = [(x, y - lh), (x, y), (x + w - lw, y), (x, y + h - lh), (x + w - lw, y + h - lh)]
    for cx, cy in candidates:
        if cx < 0 or cy < 0 or cx + lw > bounds[0] or cy + lh > bounds[1]:
            continue
        if not any(_overlap((cx, cy, lw, lh), t) for t in taken):
            return cx, cy
    return max(0.0, min(x, bounds[0] - lw)), max(0.0, min(y, bounds[1] - lh))


def _overlap(a: _Box, b: _Box) -> bool:
    return (a[0] < b[0] + b[2] and b[0] < a[0] + a[2]
            and a[1] < b[1] + b[3] and b[1] < a[1] + a[3])
