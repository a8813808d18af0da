"""Evaluating one web task from outside an episode: a given answer, final URL and page HTML.

``playbench web evaluate`` uses this to let anyone check PlayBench's scoring against VWA's on
their own inputs. It calls the very function episodes are scored with
(:func:`playbench.games.web.scoring.score_task`), handing it a session over the given page instead
of a live browser, so the two cannot drift apart:

- ``string_match`` and ``url_match`` need only the answer and the URL;
- ``program_html`` checks whose ``url`` is ``last`` (or the given URL) and whose locator is
  empty read the given HTML as the page;
- a CSS selector, a ``document.`` / ``func:`` locator, ``prep_actions`` and every
  ``page_image_query`` need a page that runs: without ``browser=True`` those checks are reported
  as not evaluated (null) with the reason; with it, the HTML is served at the URL in Chromium
  (or the live URL is loaded when no HTML is given) and every check runs as in an episode;
- ``fuzzy_match`` and ``eval_vqa`` need a judge model, which this does not call (null).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from playbench.games.web.probe import ProbeError
from playbench.games.web.scoring import score_task
from playbench.games.web.tasks import PLACEHOLDER, WebTask

NEEDS_BROWSER = "needs a browser (rerun with --browser)"


def _same(a: str, b: str) -> bool:
    return a.rstrip("/") == b.rstrip("/")


@dataclass
class StaticPage:
    """A page that is only its HTML: enough for VWA's empty locator (the page's HTML) and for
    the final URL; anything that would run in the page raises :class:`ProbeError`."""

    url: str
    html: str | None

    async def goto(self, url: str, **_: Any) -> None:
        if self.html is None or not _same(url, self.url):
            raise ProbeError(f"{url} is not the given page; opening it {NEEDS_BROWSER}")

    async def content(self) -> str:
        if self.html is None:
            raise ProbeError(f"the page's HTML was not given (--page-html), or it {NEEDS_BROWSER}")
        return self.html

    async def evaluate(self, script: str, *args: Any) -> Any:
        raise ProbeError(f"this locator runs in the page and {NEEDS_BROWSER}")

    async def close(self) -> None:
        return None


@dataclass
class StaticContext:
    """New pages of a :class:`StaticSession`: the same given page."""

    url: str
    html: str | None

    async def new_page(self) -> StaticPage:
        return StaticPage(self.url, self.html)

    @property
    def request(self) -> Any:
        raise ProbeError(f"fetching images {NEEDS_BROWSER}")


@dataclass
class StaticSession:
    """What :func:`score_task` reads of a browser session, over a given page."""

    page: StaticPage
    context: StaticContext
    pages: list[StaticPage] = field(default_factory=list)


class _Notes(logging.Handler):
    """Collects the warnings scoring logs (why a check could not be evaluated)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


@contextmanager
def _collect(logger: str) -> Iterator[_Notes]:
    notes = _Notes()
    log = logging.getLogger(logger)
    log.addHandler(notes)
    try:
        yield notes
    finally:
        log.removeHandler(notes)


def place(text: str, sites: Mapping[str, str]) -> str:
    """``text`` with the placeholders ``sites`` knows replaced by their addresses."""
    return PLACEHOLDER.sub(lambda m: sites[m.group(1)].rstrip("/") if m.group(1) in sites
                           else m.group(0), text)


async def evaluate_task(task: WebTask, sites: Mapping[str, str], answer: str, url: str,
                        html: str | None = None, *, browser: bool = False,
                        load_timeout_ms: float = 30_000) -> dict[str, Any]:
    """Every check of ``task`` on ``answer`` and the final page (``url``, ``html``):
    ``{"task", "url", "answer", "checks": {kind: result or null}, "score", "notes"}``.
    Placeholders in the task and in ``url`` are replaced where ``sites`` gives an address
    (the others stay as written, so a URL may be given with placeholders too)."""
    resolved = json.loads(place(json.dumps(dict(task.config)), sites))
    final = place(url, sites)
    with _collect("playbench.games.web.scoring") as notes:
        if browser:
            parts = await _in_browser(resolved, task.base_dir, final, html, answer,
                                      load_timeout_ms)
        else:
            page = StaticPage(final, html)
            session = StaticSession(page, StaticContext(final, html), [page])
            parts = await score_task(resolved, session, answer, task.base_dir)  # type: ignore[arg-type]
    checks = {k: v for k, v in parts.items() if k != "score"}
    lines = list(notes.lines)
    if "fuzzy_match" in json.dumps(task.eval) or "eval_vqa" in json.dumps(task.eval):
        lines.append("fuzzy_match and eval_vqa need a judge model, which is not called here "
                     "(those parts are null)")
    return {"task": task.task_id, "url": final, "answer": answer, "browser": browser,
            "checks": checks, "score": parts.get("score"), "notes": lines}


async def _in_browser(config: Mapping[str, Any], base_dir: str, url: str, html: str | None,
                      answer: str, load_timeout_ms: float) -> dict[str, float | None]:
    """:func:`score_task` in a real Chromium session whose active tab shows ``url`` (served
    from ``html`` when given). Only the URL's host (and the task's sites) are reachable."""
    from playbench.games.browser.browser import Browser
    from playbench.games.browser.session import SessionOptions, host_of
    hosts = {host_of(url)}
    async with Browser() as chromium:
        session = await chromium.new_session(SessionOptions(frozenset(hosts),
                                                            load_timeout_ms=load_timeout_ms))
        try:
            if html is not None:
                body = html

                async def serve(route: Any) -> None:
                    await route.fulfill(status=200, body=body,
                                        content_type="text/html; charset=utf-8")

                await session.context.route(url, serve)
            await session.open_tabs([url])
            return await score_task(config, session, answer, base_dir)
        finally:
            await session.close()


__all__ = ["evaluate_task", "StaticPage", "StaticSession", "place", "NEEDS_BROWSER"]
