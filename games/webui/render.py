"""Rendering a WebUI page and reading its elements, state by state, in the sandbox.

A run loads the files in :class:`playbench.games.coding.sandbox.Sandbox` at 1920 x 1080, reads
the page's elements, then performs each scripted interaction (click, type, scroll) followed by
one second of game time (MageBench's 1 s pause, ``docs/reference/web.md``) and reads them again;
a step read from MageBench's ``actions.py`` (``do: steps``) is replayed op by op
(:mod:`playbench.games.webui.steps`) and waits only as long as its own sleeps say, as in
MageBench's harness. A stylesheet or script the page links that is not among the files is noted
(the page renders without it, as a browser does).
The reference page is read in *truth* mode (only annotated elements, every property AES knows);
a submission is read in full (every displayed element of the body, the properties the truth
needs). Boxes are in page coordinates, so a scroll moves only fixed elements.
"""

from __future__ import annotations

import posixpath
import time
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlsplit

from playbench.games.coding.sandbox import RenderFailed, Sandbox, SandboxPage
from playbench.games.webui.aes import PROPERTIES, Element
from playbench.games.webui.steps import run_steps

VIEWPORT = (1920, 1080)
PAUSE_MS = 1000

READ = """([props, truthOnly]) => {
  const base = location.href.replace(/[^/]*$/, '');
  const clean = (v) => (v == null ? null : String(v).split(base).join(''));
  const value = (el, cs, name) => {
    if (name === 'text' || name === 'has_text') return el.innerText || '';
    if (name === 'src') return el.getAttribute('src');
    if (name === 'type') return el.type !== undefined ? el.type : el.getAttribute('type');
    if (name === 'placeholder') return el.getAttribute('placeholder');
    if (name === 'value') return el.value !== undefined ? String(el.value) : null;
    return cs.getPropertyValue(name);
  };
  const out = [];
  for (const el of document.body ? document.body.querySelectorAll('*') : []) {
    if (truthOnly && !el.hasAttribute('data-evalby')) continue;
    if (['SCRIPT', 'STYLE', 'LINK', 'META', 'TITLE'].includes(el.tagName)) continue;
    const r = el.getBoundingClientRect();
    if (r.width * r.height <= 0.1) continue;
    if (el.checkVisibility && !el.checkVisibility({visibilityProperty: true})) continue;
    const cs = getComputedStyle(el);
    const values = {};
    for (const name of props) values[name] = clean(value(el, cs, name));
    out.push({box: [r.left + scrollX, r.top + scrollY, r.right + scrollX, r.bottom + scrollY],
              descendants: el.getElementsByTagName('*').length, values,
              filter: el.getAttribute('data-filter-by') || '',
              evalby: el.getAttribute('data-evalby') || '',
              html: truthOnly ? el.outerHTML : ''});
  }
  return out;
}"""

TRUTH_PROPERTIES = (*PROPERTIES, "background")
"""Every property read from the reference page (``background``: the computed shorthand, which
tells whether a gradient is drawn)."""


class _Links(HTMLParser):
    """The stylesheets and scripts a page links."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "link" and "stylesheet" in a.get("rel", "").lower().split() and a.get("href"):
            self.links.append(a["href"])
        elif tag == "script" and a.get("src"):
            self.links.append(a["src"])


def missing_links(html: str, files: Collection[str]) -> list[str]:
    """The local stylesheets and scripts ``html`` links that are not among ``files`` (links
    to other hosts are the sandbox's business, not this check's)."""
    parser = _Links()
    parser.feed(html)
    parser.close()
    out = []
    for link in parser.links:
        parts = urlsplit(link.strip())
        if parts.scheme or parts.netloc or not parts.path:
            continue
        path = posixpath.normpath(parts.path.lstrip("/"))
        if path not in files and path not in out:
            out.append(path)
    return out


@dataclass
class PageRun:
    """What one run of a page gave: per state (0: loaded, then one per interaction) the
    elements (None: that interaction failed) and the screenshot (PNG; None when not taken or
    failed); ``failure`` names why the whole page failed (then it scores 0) and ``notes``
    says what went wrong with single interactions."""

    states: list[list[Element] | None] = field(default_factory=list)
    shots: list[bytes | None] = field(default_factory=list)
    failure: str | None = None
    failure_reason: str | None = None
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0


def to_elements(raw: Sequence[Mapping[str, Any]]) -> list[Element]:
    out = []
    for r in raw:
        box = tuple(float(x) for x in r["box"])
        values = {k: str(v) for k, v in (r.get("values") or {}).items() if v is not None}
        out.append(Element((box[0], box[1], box[2], box[3]), int(r.get("descendants", 0)),
                           values, str(r.get("filter") or ""),
                           tuple(x for x in str(r.get("evalby") or "").split("|") if x),
                           str(r.get("html") or "")))
    return out


async def read_elements(page: SandboxPage, props: Sequence[str], truth: bool) -> list[Element]:
    raw = await page.evaluate(READ, [list(props), truth])
    return to_elements(raw)


async def interact(page: SandboxPage, step: Mapping[str, Any]) -> None:
    """Perform one scripted interaction (raises ``RenderFailed``)."""
    how = step.get("do")
    if how == "steps":
        await run_steps(page, step.get("ops") or [])
    elif how == "click":
        await page.click(str(step["selector"]), int(step.get("index", 0)))
    elif how == "type":
        await page.type(str(step["selector"]), str(step.get("text", "")),
                        int(step.get("index", 0)))
    elif how == "scroll":
        await page.scroll(int(step.get("dy", 600)))
    else:
        raise RenderFailed("interaction", f"unknown interaction {how!r}")


async def run_page(sandbox: Sandbox, files: Mapping[str, str | bytes],
                   interactions: Sequence[Mapping[str, Any]], *,
                   resources: Mapping[str, str | bytes] | None = None,
                   props: Sequence[str] | None = None, shots: bool = True) -> PageRun:
    """Render ``files`` (served beside ``resources``, which do not count against the code
    limit) and read every state (see the module docstring). ``props`` None reads the truth
    (annotated elements, every property); otherwise those properties of every element. Never
    raises for the page's own faults: they are in the result."""
    run = PageRun()
    truth = props is None
    names = list(TRUTH_PROPERTIES if props is None else props)
    served = {**(resources or {}), **files}
    html = served.get("index.html", "")
    for path in missing_links(html if isinstance(html, str) else "", served):
        run.notes.append(f"index.html links {path}, which is not there: the page renders "
                         "without it")
    start = time.perf_counter()
    try:
        async with sandbox.open(files, viewport=VIEWPORT, resources=resources) as page:
            run.states.append(await read_elements(page, names, truth))
            run.shots.append(await page.screenshot() if shots else None)
            for step in interactions:
                try:
                    await interact(page, step)
                    await page.pause(0 if step.get("do") == "steps" else PAUSE_MS)
                except RenderFailed as err:
                    if err.reason != "interaction":
                        raise
                    run.notes.append(f"{step.get('name') or step.get('do')}: {err}")
                    run.states.append(None)
                    run.shots.append(None)
                    continue
                run.states.append(await read_elements(page, names, truth))
                run.shots.append(await page.screenshot() if shots else None)
    except RenderFailed as err:
        run.failure, run.failure_reason = str(err), err.reason
    run.seconds = time.perf_counter() - start
    return run


__all__ = ["PAUSE_MS", "PageRun", "TRUTH_PROPERTIES", "VIEWPORT", "interact", "missing_links",
           "read_elements", "run_page", "to_elements"]
