"""One observation of a browser session: screenshot, Set-of-Marks, accessibility tree, URL, tabs.

What VWA shows an agent (docs/reference/web.md): the URL, the open tabs and the focused
tab's content, as Set-of-Marks (boxes on the screenshot plus the ``[id] [tag] [text]`` list) or
as an accessibility tree.
"""

from __future__ import annotations

import io
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from PIL import Image

from playbench.games.browser.session import PageSession
from playbench.games.browser.som import SetOfMarks, collect, draw_marks


@dataclass(frozen=True)
class PageSnapshot:
    """What was on screen after a step. ``frame`` has the marks drawn; ``raw`` does not."""

    url: str
    frame: np.ndarray
    raw: np.ndarray
    marks: SetOfMarks
    tabs: list[dict[str, Any]]
    axtree: str
    target_ids: list[int | None] = field(default_factory=list)
    timings_ms: dict[str, float] = field(default_factory=dict)

    @property
    def som_text(self) -> str:
        return self.marks.text()


def decode_png(data: bytes) -> np.ndarray:
    with Image.open(io.BytesIO(data)) as img:
        return np.asarray(img.convert("RGB"))


async def observe(session: PageSession, targets: Sequence[str] = (),
                  axtree: bool = True) -> PageSnapshot:
    """Look at the active tab. ``targets`` are Playwright selectors whose Set-of-Marks ids are
    wanted too (None where the selector matches nothing marked)."""
    page = session.page
    t0 = time.perf_counter()
    handles = []
    for sel in targets:
        loc = page.locator(sel)
        handles.append(await loc.first.element_handle(timeout=2_000)
                       if await loc.count() else None)
    marks, ids = await session.answer(collect(page, handles), "collecting the page's marks")
    for h in handles:
        if h is not None:
            await h.dispose()
    t1 = time.perf_counter()
    raw = decode_png(await session.screenshot())
    t2 = time.perf_counter()
    frame = draw_marks(raw, marks)
    t3 = time.perf_counter()
    tree = await _axtree(page) if axtree else ""
    t4 = time.perf_counter()
    timings = {"som": (t1 - t0) * 1e3, "screenshot": (t2 - t1) * 1e3,
               "draw": (t3 - t2) * 1e3, "axtree": (t4 - t3) * 1e3}
    return PageSnapshot(page.url, frame, raw, marks, await session.tabs(), tree, ids, timings)


async def _axtree(page: Any) -> str:
    """The page's accessibility tree as Playwright's ARIA snapshot text."""
    try:
        return str(await page.locator("body").aria_snapshot(timeout=5_000))
    except Exception as err:  # a page without a body (blank tab, PDF) has no tree to show
        return f"(no accessibility tree: {type(err).__name__})"
