"""The CSS-repair environment: a broken project, VAB-CSS's tools, a screenshot after each edit.

Facts (docs/reference/web.md, "VAB CSS"): the player sees the target screenshot, the current
screenshot, the current HTML and a hint; it uses the four tools and ends by saying the CSS is
fixed; every edit is followed by a new screenshot; ten rounds; success is a final SSIM to the
target above 0.9, and "improved" a final SSIM above the start's.

Every rendering goes through the shared sandbox (:mod:`playbench.games.coding.sandbox`): a fresh
Chromium context per render, only the in-memory resource server reachable, each call into the
page bounded. The state is the list of edits made, so a snapshot, a replay and a state hash
need no browser; only screenshots and element look-ups do.

The frame a player sees is the target (left) and the current rendering (right) side by side,
so that one picture carries both, as VAB's agent gets both in each round.
"""

from __future__ import annotations

import hashlib
import io
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
from PIL import Image, ImageDraw

from playbench.games.base import MoveError
from playbench.games.coding.sandbox import Limits, RenderFailed, Sandbox, SiteServer
from playbench.games.css_repair.css import Sheet, find_rules
from playbench.games.css_repair.plans import Edit, apply_edits, edit_for, reference_plan
from playbench.games.css_repair.project import (
    GAME,
    Breakage,
    Project,
    breakage_from_text,
    broken_sheets,
    load_project,
)
from playbench.games.css_repair.ssim import ssim
from playbench.games.css_repair.tools import (
    EDIT_RULE,
    FIXED,
    GET_SELECTORS,
    REVERT,
    SELECT_RULE,
    Call,
    parse_call,
)
from playbench.games.frame import as_frame
from playbench.games.types import Action, Observation, Setting, Task, Transition

VIEWPORT = (1024, 768)
"""The page size every screenshot is taken at (the target's and the player's)."""
SUCCESS = 0.9
"""VAB-CSS's success threshold on the final SSIM (web.md)."""
GAP = 16
LABEL = 28
MAX_ELEMENTS = 8
"""How many matching elements ``get_selectors_by_html_elements`` reports."""

SELECTORS_JS = """([query, most]) => {
  let found;
  try { found = Array.from(document.querySelectorAll(query)); }
  catch (e) { return {error: String(e.message || e)}; }
  const rules = [];
  const walk = (list) => { for (const r of list) {
    if (r.selectorText !== undefined) rules.push(r.selectorText);
    else if (r.cssRules && (!r.media || window.matchMedia(r.media.mediaText).matches))
      walk(r.cssRules);
  } };
  for (const sheet of document.styleSheets) { try { walk(sheet.cssRules); } catch (e) {} }
  return {count: found.length, elements: found.slice(0, most).map((el) => ({
    tag: el.tagName.toLowerCase(), id: el.id || "",
    classes: Array.from(el.classList),
    text: (el.textContent || "").trim().replace(/\\s+/g, " ").slice(0, 40),
    selectors: [...new Set(rules.filter((s) => {
      try { return el.matches(s); } catch (e) { return false; } }))],
  }))};
}"""


def png_to_rgb(data: bytes) -> np.ndarray:
    with Image.open(io.BytesIO(data)) as im:
        return np.asarray(im.convert("RGB"), dtype=np.uint8)


def side_by_side(target: np.ndarray, current: np.ndarray) -> np.ndarray:
    """The target and the current rendering next to each other, each under its label."""
    h, w = target.shape[:2]
    canvas = Image.new("RGB", (2 * w + GAP, h + LABEL), (40, 40, 40))
    canvas.paste(Image.fromarray(target), (0, LABEL))
    canvas.paste(Image.fromarray(current), (w + GAP, LABEL))
    draw = ImageDraw.Draw(canvas)
    draw.text((8, 7), "Target", fill=(255, 255, 255))
    draw.text((w + GAP + 8, 7), "Current", fill=(255, 255, 255))
    return np.asarray(canvas, dtype=np.uint8)


class CssRepairEnv:
    """One CSS-repair episode (see the module docstring).

    ``browser`` and ``server`` given: shared with other episodes and never closed here;
    otherwise the environment starts its own on reset and closes them in :meth:`close`.
    ``targets``: a cache of target screenshots shared by episodes (see the attribute).
    ``render`` False (replays, checks): no browser at all; the state (the edits) is kept, no
    screenshots are taken, element look-ups answer that they were not made."""

    game = GAME

    def __init__(self, browser: Any = None, server: SiteServer | None = None,
                 limits: Limits | None = None, render: bool = True,
                 targets: dict[str, np.ndarray] | None = None) -> None:
        self._shared_browser = browser
        self._shared_server = server
        self.browser = browser
        self.server = server
        self.limits = limits or Limits()
        self.render_frames = render
        self.targets = targets
        """Target screenshots by project name, shared by the episodes of a sweep (a project's
        target is the same for all its tasks); None renders every target."""
        self.task: Task | None = None
        self.breakage: Breakage | None = None
        self.project: Project | None = None
        self.start_sheets: tuple[Sheet, ...] = ()
        self.edits: list[Edit] = []
        self.target: np.ndarray | None = None
        self.current: np.ndarray | None = None
        self.start_ssim: float | None = None
        self.current_ssim: float | None = None
        self.result = ""
        self.fixed = False
        self.timings: list[tuple[float, float]] = []
        """(render seconds, SSIM seconds) of every screenshot taken after an edit."""
        self.blocked: list[dict[str, str]] = []
        """What the renders since the last step tried and the sandbox refused."""

    # -- state -----------------------------------------------------------------------------

    def sheets(self) -> tuple[Sheet, ...]:
        """The project's style sheets as they are now (the start with every edit applied)."""
        return apply_edits(self.start_sheets, self.edits)

    def files(self, sheets: Sequence[Sheet] | None = None) -> dict[str, str]:
        assert self.project is not None
        return self.project.files(self.sheets() if sheets is None else sheets)

    def state_hash(self) -> str:
        text = "\n".join(f"/* {s.path} */\n{s.text()}" for s in self.sheets())
        return hashlib.sha256(f"{text}\nfixed={self.fixed}".encode()).hexdigest()

    def snapshot(self) -> Any:
        return (tuple(self.edits), self.fixed)

    async def restore(self, snapshot: Any) -> Observation:
        edits, fixed = snapshot
        self.edits, self.fixed = list(edits), bool(fixed)
        self.result = "Restored an earlier state."
        await self._shoot()
        return self._observe()

    # -- rendering -------------------------------------------------------------------------

    async def _sandbox(self) -> Sandbox:
        if self.browser is None:
            from playbench.games.browser.browser import Browser
            self.browser = Browser()
        if self.server is None:
            self.server = SiteServer()
        self.server.start()
        return Sandbox(self.browser, self.server, self.limits)

    async def screenshot(self, sheets: Sequence[Sheet] | None = None) -> np.ndarray:
        """The page with ``sheets`` (default: the current ones) rendered at :data:`VIEWPORT`;
        a page that fails to render is a blank white page (it scores as one)."""
        box = await self._sandbox()
        for attempt in range(2):
            try:
                async with box.open(self.files(sheets), viewport=VIEWPORT) as page:
                    return png_to_rgb(await page.screenshot())
            except RenderFailed:
                break
            except Exception:  # Chromium refused one capture (seen under heavy load): once more
                if attempt:
                    raise
            finally:
                self.blocked.extend(box.take_blocked())
        return np.full((VIEWPORT[1], VIEWPORT[0], 3), 255, dtype=np.uint8)

    async def _shoot(self) -> None:
        if not self.render_frames:
            return
        t0 = time.perf_counter()
        self.current = await self.screenshot()
        t1 = time.perf_counter()
        assert self.target is not None
        self.current_ssim = ssim(self.target, self.current)
        self.timings.append((t1 - t0, time.perf_counter() - t1))

    async def element_rules(self, query: str) -> dict[str, Any]:
        """What ``get_selectors_by_html_elements`` reports for the elements matching ``query``
        in the current page: their count, and for each of the first few its tag, id, classes,
        text and the selectors of the rules that match it."""
        box = await self._sandbox()
        try:
            async with box.open(self.files(), viewport=VIEWPORT) as page:
                found: dict[str, Any] = await page.evaluate(SELECTORS_JS, [query, MAX_ELEMENTS])
                return found
        except RenderFailed as err:
            return {"error": str(err)}
        finally:
            self.blocked.extend(box.take_blocked())

    # -- the loop's protocol ---------------------------------------------------------------

    async def reset(self, task: Task, seed: int) -> Observation:
        self.task = task
        self.breakage = breakage_from_text(task.level.text)
        self.project = load_project(self.breakage.project)
        self.start_sheets = broken_sheets(self.breakage)
        self.edits, self.fixed, self.timings = [], False, []
        self.result = "The page as it is now is on the right; the target is on the left."
        if not self.render_frames:  # replays and checks: the edits alone, no browser
            self.target = self.current = None
            self.start_ssim = self.current_ssim = None
            return self._observe()
        cached = None if self.targets is None else self.targets.get(self.project.name)
        self.target = cached if cached is not None else await self.screenshot(
            self.project.sheets)
        if self.targets is not None:
            self.targets[self.project.name] = self.target
        self.current = await self.screenshot()
        self.start_ssim = self.current_ssim = ssim(self.target, self.current)
        return self._observe()

    def _observe(self) -> Observation:
        assert self.project is not None and self.breakage is not None
        frame = None
        if self.render_frames and self.target is not None and self.current is not None:
            frame = as_frame(side_by_side(self.target, self.current))
        text = (f"Hint: {self.breakage.hint}\n\n"
                f"Result of your last action:\n{self.result}\n\n"
                f"Edits in effect: {len(self.edits)}\n\n"
                f"Current HTML (index.html):\n{self.project.html}")
        info = {"ssim": self.current_ssim, "start_ssim": self.start_ssim,
                "edits": len(self.edits), "solved": self.solved(), "result": self.result}
        return Observation(frame, text, (), info)

    def solved(self) -> bool:
        return self.current_ssim is not None and self.current_ssim > SUCCESS

    def _done(self, valid: bool, changed: bool, *, reason: str | None = None,
              terminated: bool = False, invalid: str | None = None) -> Transition:
        info: dict[str, Any] = {"tool": self.result}
        if self.blocked:
            info["blocked"], self.blocked = self.blocked, []
        if changed and self.edits:
            e = self.edits[-1]
            info["edit"] = {"selector": e.selector, "property": e.property, "value": e.value,
                            "before": e.before}
        return Transition(self._observe(), valid, changed, 0.0, terminated, reason, info,
                          invalid_kind=invalid)

    def _refuse(self, reason: str) -> Transition:
        self.result = f"Error: {reason}"
        return self._done(False, False, reason=reason, invalid="illegal")

    async def step(self, action: Action) -> Transition:
        call = action.move if isinstance(action.move, Call) else parse_call(action.text)
        if call.name == GET_SELECTORS:
            return await self._get_selectors(call.args[0])
        if call.name == SELECT_RULE:
            found = find_rules(self.sheets(), call.args[0])
            if not found:
                return self._refuse(f"no rule has the selector {call.args[0]!r}")
            self.result = "\n".join(f"/* {self.sheets()[i].path} */\n{r.text()}"
                                    for i, r in found)
            return self._done(True, False)
        if call.name == EDIT_RULE:
            return await self._edit(*call.args)
        if call.name == REVERT:
            if not self.edits:
                return self._refuse("there is no edit to revert")
            e = self.edits.pop()
            await self._shoot()
            self.result = (f"Reverted {e.property}: {e.value} in {e.selector!r}. The page was "
                           f"rendered again.")
            return self._done(True, True)
        self.fixed = True
        self.result = "You said the page is fixed."
        return self._done(True, True, terminated=True, reason="fixed")

    async def _get_selectors(self, query: str) -> Transition:
        if not self.render_frames:
            self.result = "(not looked up: this episode is replayed without a browser)"
            return self._done(True, False)
        found = await self.element_rules(query)
        if "error" in found:
            return self._refuse(f"cannot look up {query!r}: {found['error']}")
        if not found["count"]:
            return self._refuse(f"no element matches {query!r}")
        lines = [f"{found['count']} element(s) match {query!r}"
                 + (f"; the first {MAX_ELEMENTS}:" if found["count"] > MAX_ELEMENTS else ":")]
        for el in found["elements"]:
            name = el["tag"] + (f"#{el['id']}" if el["id"] else "") + "".join(
                f".{c}" for c in el["classes"])
            rules = ", ".join(repr(s) for s in el["selectors"]) or "(no rule)"
            lines.append(f"- <{name}> {el['text']!r}: {rules}")
        self.result = "\n".join(lines)
        return self._done(True, False)

    async def _edit(self, selector: str, prop: str, value: str) -> Transition:
        sheets = self.sheets()
        if not find_rules(sheets, selector):
            return self._refuse(f"no rule has the selector {selector!r}")
        edit = edit_for(sheets, selector, prop, value)
        if edit is None:
            self.result = f"{selector!r} already has {prop}: {value}; nothing changed."
            return self._done(True, False)
        self.edits.append(edit)
        await self._shoot()
        was = "(not set)" if edit.before is None else edit.before
        self.result = (f"Set {prop}: {value} in {edit.selector!r} "
                       f"({sheets[edit.sheet].path}; was {was}). The page was rendered again.")
        return self._done(True, True)

    def parse_action(self, text: str) -> Action:
        return parse_call(text).action()

    def vocabulary(self) -> list[str]:
        """Calls a random player may make (the tools' arguments are free text, so this is a
        sample): show each rule, set each rule's first property to ``inherit``, look up a few
        elements, revert, and say it is fixed."""
        out = [Call(GET_SELECTORS, (tag,)).text() for tag in ("h1", "p", "div")]
        for sheet in self.sheets():
            for rule in sheet.rules():
                out.append(Call(SELECT_RULE, (rule.selector,)).text())
                if rule.declarations:
                    out.append(Call(EDIT_RULE, (rule.selector, rule.declarations[0][0],
                                                "inherit")).text())
        return [*out, Call(REVERT).text(), Call(FIXED).text()]

    def legal_actions(self) -> list[str]:
        return []

    def oracle(self) -> list[str] | None:
        """Undo every edit, set the broken property back, say it is fixed."""
        if self.breakage is None or self.fixed:
            return None
        return reference_plan(self.breakage, self.edits)

    async def score(self, steps: Sequence[Any], setting: Setting,
                    end_reason: str | None = None) -> dict[str, float | None]:
        """``solved``: final SSIM above 0.9 (VAB's success); ``improved``: final SSIM above
        the start's (VAB's improve rate); the two SSIMs; the steps taken."""
        final, start = self.current_ssim, self.start_ssim
        if final is None or start is None:
            return {"solved": None, "improved": None, "ssim": None, "start_ssim": None,
                    "steps": float(len(steps))}
        return {"solved": float(final > SUCCESS), "improved": float(final > start),
                "ssim": final, "start_ssim": start, "steps": float(len(steps)),
                "edits": float(len(self.edits))}

    async def close(self) -> None:
        if self.server is not None and self.server is not self._shared_server:
            self.server.stop()
        self.server = self._shared_server
        if self.browser is not None and self.browser is not self._shared_browser:
            await self.browser.close()
        self.browser = self._shared_browser


__all__ = ["CssRepairEnv", "Edit", "VIEWPORT", "SUCCESS", "side_by_side", "MoveError"]
