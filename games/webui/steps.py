"""Replaying a MageBench step (ops read from ``actions.py``) on a sandboxed page.

The ops come from :mod:`playbench.games.webui.actions_file`; here each one becomes Playwright
calls on a :class:`playbench.games.coding.sandbox.SandboxPage`, every call bounded by the
sandbox's script limit. The same ops run on the reference page and on a submission, so both
pages see the same clicks, keys and mouse paths. Locators follow Selenium's own translation
(``By.ID`` -> ``[id="..."]``, ``By.CLASS_NAME`` -> ``.name``, ``By.NAME`` -> ``[name="..."]``,
``By.TAG_NAME`` and ``By.CSS_SELECTOR`` as CSS, ``By.XPATH`` as XPath, link texts as an ``a``
with that text). Anything the page does not allow - no element found, an element hidden or
covered, a form that is not there - raises :class:`RenderFailed` (``interaction``): that state
of the page failed, as a Selenium exception fails the step in MageBench's harness.

``sleep`` and ``pause`` are game time (:meth:`SandboxPage.pause`): a one-second sleep costs no
wall-clock second and ends in the same state every time.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from playbench.games.coding.sandbox import RenderFailed, SandboxPage

MAX_OPS = 2000
"""Ops one step may run (loops included), so a step over a huge list cannot run for long."""

CARET_TO_END = """(el) => { el.focus();
  try { if (typeof el.selectionStart === 'number') {
    const n = (el.value || '').length; el.setSelectionRange(n, n); } } catch (e) {} }"""
"""Selenium's ``send_keys`` types at the end of a field's text."""

SUBMIT = """(el) => { const f = el.form || el.closest('form');
  if (!f) throw new Error('the element is not in a form');
  const e = new Event('submit', {bubbles: true, cancelable: true});
  if (f.dispatchEvent(e)) f.submit(); }"""
"""Selenium's ``submit()``: a cancellable submit event, then the form's own submit."""


class _Break(Exception):
    """Leaves the innermost ``each`` (a ``break`` in the file)."""


def selector(by: str, value: str) -> str:
    """The Playwright selector for a Selenium locator."""
    quoted = json.dumps(value)
    if by == "id":
        return f"css=[id={quoted}]"
    if by == "name":
        return f"css=[name={quoted}]"
    if by == "class":
        return f"css=.{value}"
    if by in ("tag", "css"):
        return f"css={value}"
    if by == "xpath":
        return f"xpath={value}"
    if by == "link":
        return f"css=a:text-is({quoted})"
    if by == "partial_link":
        return f"css=a:has-text({quoted})"
    raise RenderFailed("interaction", f"unknown locator kind {by!r}")


@dataclass
class _Run:
    """One step's replay: the page, the names found so far, where the mouse is."""

    page: SandboxPage
    names: dict[str, Any] = field(default_factory=dict)
    mouse: tuple[float, float] = (0.0, 0.0)
    count: int = 0
    held: set[str] = field(default_factory=set)
    """Keys held down by ``key_down``: while one is, text is pressed key by key so that the
    modifier applies (Shift + w gives W, as Selenium's does)."""

    @property
    def ms(self) -> float:
        """Playwright's own timeout for an action: under the sandbox's bound, so a stuck
        action is the page's fault (an interaction failure), not a hung browser."""
        return self.page.limits.script_seconds * 500

    async def call(self, aw: Any, what: str) -> Any:
        try:
            return await self.page.call(aw, what)
        except RenderFailed:
            raise
        except Exception as err:  # hidden, covered, detached, not editable ...
            first = (str(err).splitlines() or [type(err).__name__])[0][:200]
            raise RenderFailed("interaction", f"{what} failed: {first}") from err

    def element(self, name: str) -> Any:
        found = self.names.get(name)
        if found is None:
            raise RenderFailed("interaction", f"{name!r} was not found")
        return found

    async def centre(self, loc: Any, op: Mapping[str, Any]) -> tuple[float, float]:
        box = await self.call(loc.bounding_box(timeout=self.ms), "measuring an element")
        if box is None:
            raise RenderFailed("interaction", "the element is not displayed")
        return (box["x"] + box["width"] / 2 + float(op.get("dx") or 0),
                box["y"] + box["height"] / 2 + float(op.get("dy") or 0))

    async def move(self, x: float, y: float) -> None:
        await self.call(self.page.page.mouse.move(x, y, steps=4), "moving the mouse")
        self.mouse = (x, y)

    async def find(self, op: Mapping[str, Any]) -> None:
        sel = selector(str(op["by"]), str(op["value"]))
        within = op.get("within")
        base = self.element(within) if within else self.page.page
        loc = base.locator(sel)
        if op.get("wait"):
            try:
                await self.page.call(loc.first.wait_for(
                    state="attached", timeout=min(float(op["wait"]) * 1000, self.ms)),
                    "waiting for " + sel)
            except RenderFailed:
                raise
            except Exception:  # noqa: BLE001 - not there in time: the count below says so
                pass
        if op.get("many"):
            self.names[str(op["as"])] = loc
            return
        n = await self.call(loc.count(), "finding " + sel)
        index = int(op.get("index") or 0)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise RenderFailed("interaction", f"no element {sel} #{index + 1} on the page "
                                              f"({n} found)")
        self.names[str(op["as"])] = loc.nth(index)

    async def keys(self, items: Sequence[Mapping[str, str]]) -> None:
        kb = self.page.page.keyboard
        for item in items:
            if "key" in item:
                await self.call(kb.press(item["key"]), "pressing " + item["key"])
            else:
                text = item["text"] if "text" in item else str(self.names.get(item["var"], ""))
                if self.held:
                    for ch in text:
                        ch = ch.upper() if "Shift" in self.held else ch
                        await self.call(kb.press(ch), "pressing " + ch)
                else:
                    await self.call(kb.type(text), "typing")

    async def run(self, ops: Sequence[Mapping[str, Any]]) -> None:
        for op in ops:
            self.count += 1
            if self.count > MAX_OPS:
                raise RenderFailed("interaction", f"the step runs more than {MAX_OPS} ops")
            await self.one(op)

    async def one(self, op: Mapping[str, Any]) -> None:  # noqa: C901 - one branch per op
        kind = op.get("op")
        page = self.page.page
        if kind == "find":
            await self.find(op)
        elif kind == "text":
            loc = self.element(str(op["el"]))
            self.names[str(op["as"])] = (await self.call(loc.inner_text(timeout=self.ms),
                                                         "reading a text")).strip()
        elif kind in ("click", "double_click", "context_click", "hover"):
            name = op.get("el")
            if name is None:
                x, y = self.mouse
                if kind == "hover":
                    return
                clicks, button = (2, "left") if kind == "double_click" else (
                    1, "right" if kind == "context_click" else "left")
                await self.call(page.mouse.click(x, y, click_count=clicks, button=button),
                                kind.replace("_", " "))
                return
            loc = self.element(str(name))
            if "dx" in op or "dy" in op or kind == "hover":
                await self.call(loc.scroll_into_view_if_needed(timeout=self.ms), "scrolling")
                x, y = await self.centre(loc, op)
                await self.move(x, y)
                if kind != "hover":
                    clicks = 2 if kind == "double_click" else 1
                    button = "right" if kind == "context_click" else "left"
                    await self.call(page.mouse.click(x, y, click_count=clicks, button=button),
                                    kind.replace("_", " "))
                return
            if kind == "double_click":
                await self.call(loc.dblclick(timeout=self.ms), "a double click")
            elif kind == "context_click":
                await self.call(loc.click(button="right", timeout=self.ms), "a right click")
            else:
                await self.call(loc.click(timeout=self.ms), "a click")
        elif kind == "submit":
            await self.call(self.element(str(op["el"])).evaluate(SUBMIT), "submitting a form")
        elif kind == "clear":
            await self.call(self.element(str(op["el"])).fill("", timeout=self.ms), "clearing")
        elif kind == "js_click":
            await self.call(self.element(str(op["el"])).evaluate("(el) => el.click()"),
                            "a script click")
        elif kind == "scroll_into_view":
            await self.call(self.element(str(op["el"])).evaluate(
                "(el) => el.scrollIntoView()"), "scrolling an element into view")
        elif kind == "keys":
            name = op.get("el")
            if name is not None:
                await self.call(self.element(str(name)).evaluate(CARET_TO_END),
                                "focusing a field")
            await self.keys(op.get("keys") or [])
        elif kind in ("key_down", "key_up"):
            kb, key = page.keyboard, str(op["key"])
            await self.call((kb.down if kind == "key_down" else kb.up)(key),
                            kind.replace("_", " "))
            (self.held.add if kind == "key_down" else self.held.discard)(key)
        elif kind in ("mouse_down", "mouse_up"):
            await self.call((page.mouse.down if kind == "mouse_down" else page.mouse.up)(),
                            kind.replace("_", " "))
        elif kind == "move_by":
            x, y = self.mouse
            await self.move(x + float(op["dx"]), y + float(op["dy"]))
        elif kind == "drag":
            src = self.element(str(op["el"]))
            x, y = await self.centre(src, {})
            await self.move(x, y)
            await self.call(page.mouse.down(), "pressing the mouse")
            if op.get("to") is not None:
                tx, ty = await self.centre(self.element(str(op["to"])), {})
            else:
                tx, ty = x + float(op.get("dx") or 0), y + float(op.get("dy") or 0)
            await self.move(tx, ty)
            await self.call(page.mouse.up(), "releasing the mouse")
        elif kind == "scroll":
            if op.get("to") == "bottom":
                target = "document.body.scrollHeight"
                arg = None
            elif "by" in op:
                target, arg = "window.scrollY + v", int(op["by"])
            else:
                target, arg = "v", int(op.get("to") or 0)
            # The page's scroll listeners run when the browser dispatches the scroll event (a
            # rendering frame later), which the game clock does not wait for: the step ends
            # once that event has reached them, or at once when the page did not move.
            await self.page.evaluate(SCROLL_AND_SETTLE.replace("TARGET", target), arg)
        elif kind == "wait":
            await self.page.pause(int(float(op.get("seconds") or 0) * 1000))
        elif kind == "each":
            loc = self.element(str(op["el"]))
            n = await self.call(loc.count(), "counting elements")
            try:
                for i in range(n):
                    self.names[str(op["as"])] = loc.nth(i)
                    await self.run(op.get("ops") or [])
            except _Break:
                pass
        elif kind == "if_text":
            loc = self.element(str(op["el"]))
            text = (await self.call(loc.inner_text(timeout=self.ms), "reading a text")).strip()
            if text == str(op.get("equals")):
                await self.run(op.get("ops") or [])
        elif kind == "break":
            raise _Break
        elif kind == "call":
            inner = _Run(self.page, mouse=self.mouse, count=self.count, held=self.held)
            await inner.run(op.get("ops") or [])
            self.mouse, self.count = inner.mouse, inner.count
        else:
            raise RenderFailed("interaction", f"unknown step op {kind!r}")


SCROLL_AND_SETTLE = """(v) => new Promise((done) => {
  const before = window.scrollY;
  window.addEventListener('scroll', () => done(), {once: true});
  window.scrollTo(0, TARGET);
  if (window.scrollY === before) done();
})"""
"""Scroll to ``TARGET`` (a JavaScript expression of ``v``) and resolve once the page's own scroll
listeners have run (they were added first, so they are called first)."""


async def run_steps(page: SandboxPage, ops: Sequence[Mapping[str, Any]]) -> None:
    """Replay one step's ops on ``page`` (raises :class:`RenderFailed`)."""
    try:
        await _Run(page).run(ops)
    except _Break:
        raise RenderFailed("interaction", "`break` outside a loop") from None


OPS = frozenset({"find", "text", "click", "double_click", "context_click", "hover", "submit",
                 "clear", "js_click", "scroll_into_view", "keys", "key_down", "key_up",
                 "mouse_down", "mouse_up", "move_by", "drag", "scroll", "wait", "each",
                 "if_text", "break", "call"})
"""Every op :func:`run_steps` knows."""


def check_ops(ops: Any, where: str) -> None:
    """Raise ``ValueError`` naming ``where`` unless ``ops`` is a list of known ops (nested
    lists checked too) - a hand-written task record is checked before it is played."""
    if not isinstance(ops, list):
        raise ValueError(f"{where}: 'ops' must be a list")
    for i, op in enumerate(ops, start=1):
        if not isinstance(op, dict) or op.get("op") not in OPS:
            raise ValueError(f"{where}, op {i}: unknown op "
                             f"{op.get('op') if isinstance(op, dict) else op!r}")
        if "ops" in op:
            check_ops(op["ops"], f"{where}, op {i}")


__all__ = ["MAX_OPS", "OPS", "check_ops", "run_steps", "selector"]
