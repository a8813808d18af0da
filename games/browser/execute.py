"""Carrying out one web action on a browser session.

VWA's semantics (docs/reference/web.md): element actions act at the centre of the
element's box; ``type`` presses Enter after the text unless told ``[0]``; ``scroll`` moves one
viewport; an action naming an id that is not on the page fails, and the failure is told to the
player while the episode goes on. ``type`` clicks the element's centre and types, as VWA does:
what the field held stays (the text goes in at the caret). The rule option ``type_field``
(:data:`playbench.games.browser.actions.TYPE_RULE`; ``--rule type_field=clear``, recorded with the
episode) selects the field's content first instead, so the field ends up holding exactly the typed
text. On a ``<select>`` ``type`` picks the option with that label (VWA's keyboard typing
cannot choose an option).

``clear [id]`` (VWA's reader has it, its prompt does not offer it) clicks the element's centre,
selects all and presses Backspace, as VWA does. ``upload [id] [path]`` gives the file to the
file input at the element's centre (what the chooser VWA's click opens would do: the page sees
the same change event); on anything else it clicks there and waits up to 2 s for the chooser
the click opens, as VWA does. PlayBench gives only a file the task itself offers - one of its
own input images (``image``), named as the task writes it or by its file name - so a player
cannot send any other file of this machine to a site.
"""

from __future__ import annotations

from collections.abc import Mapping

from playwright.async_api import Error as PlaywrightError

from playbench.games.browser.actions import WebAction
from playbench.games.browser.session import BrowserError, PageSession
from playbench.games.browser.som import SetOfMarks

SCROLL_JS = "(down) => window.scrollBy(0, (down ? 1 : -1) * window.innerHeight)"
SELECT_JS = """([x, y, label]) => {
  const el = document.elementFromPoint(x, y);
  const sel = el && el.closest('select');
  if (!sel) return 'no list there';
  const want = label.trim().toLowerCase();
  const opt = [...sel.options].find((o) => o.text.trim().toLowerCase() === want ||
                                            o.value.toLowerCase() === want);
  if (!opt) return 'no option ' + JSON.stringify(label) + ' (options: ' +
    [...sel.options].map((o) => o.text.trim()).join(', ') + ')';
  sel.value = opt.value;
  sel.dispatchEvent(new Event('input', {bubbles: true}));
  sel.dispatchEvent(new Event('change', {bubbles: true}));
  return '';
}"""


UPLOAD_WAIT_MS = 2000
"""How long ``upload`` waits for a file chooser after its click (VWA's wait)."""


async def execute(session: PageSession, action: WebAction, marks: SetOfMarks,
                  clear_field: bool = False,
                  uploads: Mapping[str, str] | None = None) -> str | None:
    """Apply ``action``; return None on success or the reason it failed (fed back to the
    player). ``stop`` does nothing here: ending the episode is the caller's business.
    ``clear_field``: ``type`` empties the field before typing (not VWA's behaviour; see
    :data:`playbench.games.browser.actions.TYPE_RULE`). ``uploads`` maps the paths ``upload`` may
    name to the files given (the task's input images)."""
    name = action.name
    if name in ("click", "hover", "type", "clear", "upload"):
        assert action.element is not None
        item = marks.element(action.element)
        if item is None:
            n = len(marks.elements)
            span = f"ids 1..{n}" if n else "no marked elements"
            return f"there is no element [{action.element}] on this page ({span})"
        x, y = item.centre
        page = session.page
        try:
            if name == "hover":
                await page.mouse.move(x, y)
                return None
            if name == "upload":
                return await _upload(session, action, x, y, uploads or {})
            if name == "clear":
                await page.mouse.click(x, y)
                await page.keyboard.press("ControlOrMeta+A")
                await page.keyboard.press("Backspace")
            elif name == "click":
                await page.mouse.click(x, y)
            elif item.select:
                why = await session.answer(page.evaluate(SELECT_JS, [x, y, action.text]),
                                           "choosing an option")
                if why:
                    return f"[{action.element}] {why}"
                if action.enter:
                    await page.keyboard.press("Enter")
            else:
                await page.mouse.click(x, y)
                if clear_field:
                    await page.keyboard.press("ControlOrMeta+A")
                    await page.keyboard.press("Delete")
                await page.keyboard.type(action.text)
                if action.enter:
                    await page.keyboard.press("Enter")
        except (PlaywrightError, BrowserError) as err:
            return f"{name} [{action.element}] failed: {_first_line(err)}"
        await session.settle()
        return None
    return await _page_action(session, action)


_FILE_INPUT_AT = """([x, y]) => {
  const el = document.elementFromPoint(x, y);
  return el && el.tagName === "INPUT" && el.type === "file" ? el : null;
}"""
"""The file input at a point, or null. Clicking one only opens a chooser when headless Chromium
grants the click a user activation, which it does not reliably; setting the input's files is
what the chooser would do, and fires the same change event."""


async def _upload(session: PageSession, action: WebAction, x: float, y: float,
                  uploads: Mapping[str, str]) -> str | None:
    """``upload``: the named file must be one the task offers; the click must open a file
    chooser within :data:`UPLOAD_WAIT_MS`."""
    path = uploads.get(action.text.strip())
    if path is None:
        offered = ", ".join(sorted(uploads)) or "none"
        return (f"upload [{action.element}]: {action.text.strip()[:80]!r} is not a file this "
                f"task offers (offered: {offered})")
    page = session.page
    try:
        target = (await page.evaluate_handle(_FILE_INPUT_AT, [x, y])).as_element()
        if target is not None:  # a file input under the point: set it as its chooser would
            await target.set_input_files(path)
        else:  # something else that opens a chooser when clicked (a styled button)
            async with page.expect_file_chooser(timeout=UPLOAD_WAIT_MS) as chooser:
                await page.mouse.click(x, y)
            await (await chooser.value).set_files(path)
    except PlaywrightError as err:
        return f"upload [{action.element}] failed: {_first_line(err)}"
    await session.settle()
    return None


async def _page_action(session: PageSession, action: WebAction) -> str | None:
    name, page = action.name, session.page
    try:
        if name == "click_at":
            assert action.x is not None and action.y is not None  # parse_action sets both
            await page.mouse.click(action.x, action.y)
        elif name == "press":
            await page.keyboard.press(action.text)
        elif name == "scroll":
            await session.answer(page.evaluate(SCROLL_JS, action.direction == "down"),
                                 "a scroll")
            return None
        elif name == "new_tab":
            await session.new_tab()
            return None
        elif name == "tab_focus":
            assert action.index is not None
            if not 0 <= action.index < len(session.pages):
                return (f"there is no tab {action.index} "
                        f"(open tabs: 0..{len(session.pages) - 1})")
            session.active = action.index
            await session.page.bring_to_front()
            return None
        elif name == "close_tab":
            await session.close_tab()
            return None
        elif name == "goto":
            try:
                await session.goto(page, action.text)
            except BrowserError as err:
                return str(err)
            return None
        elif name == "go_back":
            await page.go_back(wait_until="load")
            return None
        elif name == "go_forward":
            await page.go_forward(wait_until="load")
            return None
        elif name == "stop":
            return None
        else:
            return f"{name} is not a web action"
    except (PlaywrightError, BrowserError) as err:
        return f"{name} failed: {_first_line(err)}"
    await session.settle()
    return None


def _first_line(err: BaseException) -> str:
    lines = str(err).strip().splitlines()
    return lines[0][:240] if lines else type(err).__name__
