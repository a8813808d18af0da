"""One episode's browser context (:class:`PageSession`) and the rules of its network.

A session is a fresh Playwright context (no shared cookies or cache) with the task's viewport,
whose network is limited to the task's hosts in two layers: Playwright's routing aborts what it
sees (and names its resource type and page), and all traffic goes through a
:class:`playbench.games.browser.fence.NetworkFence` proxy that refuses what routing does not see
(redirect
hops, WebSockets, other tunnels). Every refusal is kept in ``PageSession.blocked`` (URLs) and
``PageSession.blocked_requests`` (what, which resource type, from which page), and handed to the
step that caused it by :meth:`PageSession.take_blocked`. Calls Playwright does not bound itself
(evaluations, DevTools) go through :meth:`PageSession.answer`. Sessions are made by
:meth:`playbench.games.browser.browser.Browser.new_session`.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import logging
import weakref
from collections import deque
from collections.abc import Awaitable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlsplit

if TYPE_CHECKING:  # annotations only: Playwright loads with a browser, not with the kinds
    from playwright.async_api import BrowserContext, Page

from playbench.games.browser import webrtc
from playbench.games.browser.fence import BLOCK_HEADER, UNREACHABLE_HEADER, NetworkFence

log = logging.getLogger(__name__)

DEFAULT_VIEWPORT = (1280, 2048)
"""VWA's viewport (web.md); tasks may ask for another (1280 x 720 for short-context models)."""


# Marks cross-document navigations as they start (Navigation API), so that after an input event
# the session knows whether to wait for a new document instead of sleeping for a guessed time.
NAV_WATCH = """
(() => {
  if (window.__pbNav) return;
  window.__pbNav = {pending: false};
  if (window.navigation) {
    window.navigation.addEventListener('navigate', (e) => {
      if (!e.destination.sameDocument && !e.downloadRequest) window.__pbNav.pending = true;
    });
  }
})();
"""
NAV_PENDING = """() => new Promise((done) => setTimeout(
  () => done(!!(window.__pbNav && window.__pbNav.pending)), 0))"""
NAV_DONE = "() => document.readyState === 'complete' && !(window.__pbNav && window.__pbNav.pending)"


T = TypeVar("T")


class BrowserError(RuntimeError):
    """The browser could not be started or a page could not be opened."""


async def bounded(aw: Awaitable[T], seconds: float, what: str) -> T:
    """``await aw``, for at most ``seconds``.

    Playwright bounds its actions and waits by its own timeouts, but not page evaluations or
    raw DevTools calls: a renderer caught between two documents (a page that navigates away by
    itself to a blocked host) can leave one of those unanswered for good, and the episode would
    hang with it. Raises :class:`BrowserError` naming ``what`` instead."""
    try:
        return await asyncio.wait_for(aw, seconds)
    except TimeoutError as err:
        raise BrowserError(f"the browser stopped answering ({what}; waited {seconds:g} s)"
                           ) from err


def host_of(url: str) -> str:
    """``host:port`` of a URL (the port spelled out), the unit the network filter allows."""
    parts = urlsplit(url)
    port = parts.port or {"http": 80, "https": 443, "ws": 80, "wss": 443}.get(parts.scheme, 0)
    return f"{(parts.hostname or '').lower()}:{port}"


def allowed_url(url: str, hosts: frozenset[str]) -> bool:
    """Whether ``url`` may be fetched: http(s) and ws(s) to one of ``hosts``, or a URL that
    names no network place (data:, blob:, about:, Chromium's error page)."""
    scheme = urlsplit(url).scheme
    if scheme in ("data", "blob", "about", "chrome-error"):
        return True
    return scheme in ("http", "https", "ws", "wss") and host_of(url) in hosts


@dataclass(frozen=True)
class SessionOptions:
    """What a new episode context needs: the hosts it may reach and how it looks."""

    hosts: frozenset[str]
    viewport: tuple[int, int] = DEFAULT_VIEWPORT
    storage_state: str | None = None
    geolocation: dict[str, float] | None = None
    load_timeout_ms: float = 30_000
    action_timeout_ms: float = 10_000


NAV_GRACE_MS = 2000
"""How long a screenshot waits for a tab caught mid-navigation to load before it tries again."""


@dataclass
class PageSession:
    """One episode's browser context: its tabs, the active tab, and the blocked requests.

    ``blocked`` lists every refused URL; ``blocked_requests`` the same refusals as records
    (``url``, resource ``type``, the ``page`` it came from, ``via`` route or proxy, and
    ``redirected_from`` for a redirect hop)."""

    context: BrowserContext
    options: SessionOptions
    pages: list[Page] = field(default_factory=list)
    active: int = 0
    blocked: list[str] = field(default_factory=list)
    blocked_requests: list[dict[str, str]] = field(default_factory=list)
    fence: NetworkFence | None = None
    fence_hits: deque[tuple[str, str]] = field(default_factory=deque)
    unattributed: list[str] = field(default_factory=list)
    memory_mb: int | None = None
    """The memory each of the browser's page processes may use (None: not bounded)."""
    crashed: str | None = None
    """Why a page of this session crashed (its renderer died), once one has."""
    _webrtc_reports: int = 0
    _cdp: dict[Page, Any] = field(default_factory=dict)
    _taken: int = 0
    _events_seen: weakref.WeakSet[Any] = field(default_factory=weakref.WeakSet)

    async def answer(self, aw: Awaitable[T], what: str) -> T:
        """``aw`` bounded by the action timeout (see :func:`bounded`): for evaluations and
        DevTools calls, which Playwright's own timeouts do not cover. A page that crashed
        (see :meth:`note_crash`) raises :class:`BrowserError` saying so."""
        try:
            return await bounded(aw, self.options.action_timeout_ms / 1000, what)
        except Exception as err:
            if self.crashed is not None:
                raise BrowserError(f"{what}: {self.crashed}") from err
            raise

    async def setup(self) -> None:
        self.context.set_default_timeout(self.options.action_timeout_ms)
        self.context.set_default_navigation_timeout(self.options.load_timeout_ms)
        # The binding first: the WebRTC script keeps a reference to it from its first line.
        await self.context.expose_binding(webrtc.BINDING, self._webrtc)
        await self.context.add_init_script(webrtc.NO_WEBRTC)
        await self.context.add_init_script(NAV_WATCH)
        await self.context.route("**/*", self._filter)
        self.context.on("page", self._opened)
        self.context.on("response", self._answered)
        self.context.on("requestfailed", self._failed)

    def _webrtc(self, source: Any, api: Any = None, urls: Any = None) -> None:
        """A page tried WebRTC (reported by :data:`webrtc.NO_WEBRTC`): recorded as blocked,
        up to :data:`webrtc.MAX_REPORTS` attempts per session."""
        self._webrtc_reports += 1
        if self._webrtc_reports > webrtc.MAX_REPORTS:
            return
        try:
            page = str(source["page"].url)
        except Exception:  # the page closed meanwhile
            page = ""
        for url, name in webrtc.attempt_records(api, urls):
            self._record(url, "webrtc", page, "webrtc")
            log.info("blocked a WebRTC connection (%s) from %s", name, page or "a page")

    def note_crash(self, page: Page) -> None:
        """A page's renderer died (out of memory, most often): later calls into the session
        raise :class:`BrowserError` with this reason instead of Playwright's own."""
        if self.crashed is None:
            limit = (f"; a page may use {self.memory_mb} MiB" if self.memory_mb else "")
            self.crashed = (f"the page {page.url} crashed (its process ended, most likely out "
                            f"of memory{limit})")
            log.warning("%s", self.crashed)

    def _record(self, url: str, kind: str, page: str, via: str,
                redirected_from: str | None = None) -> None:
        entry = {"url": url, "type": kind, "page": page, "via": via}
        if redirected_from:
            entry["redirected_from"] = redirected_from
        self.blocked.append(url)
        self.blocked_requests.append(entry)
        log.info("blocked a %s request outside the task's hosts: %s (from %s, by the %s)",
                 kind, url, page or "no page", via)

    async def _filter(self, route: Any) -> None:
        request = route.request
        if allowed_url(request.url, self.options.hosts):
            await route.fallback()
            return
        self._record(request.url, request.resource_type, _page_of(request), "route")
        await route.abort("blockedbyclient")

    def _answered(self, response: Any) -> None:
        """A plain-HTTP request the fence refused (it marks its answer): a redirect hop or
        anything else routing did not see."""
        if BLOCK_HEADER.lower() in response.headers:
            self._refused(response.request)

    def _failed(self, request: Any) -> None:
        """A request outside the hosts that failed without passing the route filter (which
        aborts with ERR_BLOCKED_BY_CLIENT and records it itself): a refused tunnel (HTTPS),
        or a refused redirect hop whose notice Chromium dropped (an image, a script)."""
        if ("BLOCKED_BY_CLIENT" not in (request.failure or "")
                and not allowed_url(request.url, self.options.hosts)):
            self._refused(request)

    def _refused(self, request: Any) -> None:
        if request in self._events_seen:  # a notice that was answered and then failed
            return
        self._events_seen.add(request)
        before = request.redirected_from
        self._record(request.url, request.resource_type, _page_of(request), "proxy",
                     before.url if before is not None else None)

    def _socket(self, page: Page, ws: Any) -> None:
        if not allowed_url(ws.url, self.options.hosts):
            self._record(ws.url, "websocket", page.url, "proxy")

    def take_blocked(self) -> list[dict[str, str]]:
        """The refusals recorded since the last call (for the step that caused them).

        The fence's refusals that no page event accounts for are Chromium's own background
        requests (autofill, safe browsing) or connections no page can be named for: they are
        refused all the same, logged and kept in ``unattributed``, not put on a step."""
        while self.fence_hits:
            what, kind = self.fence_hits.popleft()
            known_urls = {e["url"] for e in self.blocked_requests}
            known_hosts = {host_of(u) for u in known_urls if "://" in u}
            if what in known_urls or (kind == "connect" and what in known_hosts):
                continue
            self.unattributed.append(what)
            log.info("the network fence refused %s (no page named for it)", what)
        fresh = self.blocked_requests[self._taken:]
        self._taken = len(self.blocked_requests)
        return [dict(e) for e in fresh]

    async def _opened(self, page: Page) -> None:
        page.on("websocket", lambda ws: self._socket(page, ws))
        page.on("crash", self.note_crash)
        # Pages the site opens (target=_blank, window.open) become the active tab, as in a
        # browser. Pages opened through the session (tabs, evaluation pages) have no opener
        # and are listed, or not, by the code that opened them.
        try:
            opener = await self.answer(page.opener(), "the new page's opener")
        except Exception as err:  # closed at once, or the browser stopped answering
            log.info("a new page's opener could not be read: %s", short_error(err))
            return
        if page not in self.pages and opener is not None:
            self.pages.append(page)
            self.active = len(self.pages) - 1

    @property
    def page(self) -> Page:
        return self.pages[self.active]

    async def open_tabs(self, urls: Iterable[str]) -> None:
        """Open one tab per URL (VWA joins several start pages with `` |AND| ``); the first
        becomes active. Raises BrowserError naming the URL when a page cannot be loaded."""
        for url in urls:
            page = await self.context.new_page()
            if page not in self.pages:
                self.pages.append(page)
            await self.goto(page, url)
        self.active = 0
        await self.page.bring_to_front()

    async def goto(self, page: Page, url: str) -> None:
        """Load ``url`` in ``page``. Raises BrowserError when it is outside the task's hosts,
        when it redirects outside them (the hop is refused, the page shows PlayBench's
        notice), when it does not load or answers a server error."""
        if not allowed_url(url, self.options.hosts):
            self._record(url, "document", page.url, "goto")
            raise BrowserError(f"{url} is outside the task's hosts "
                               f"({', '.join(sorted(self.options.hosts))})")
        mark = len(self.blocked_requests)
        try:
            response = await page.goto(url, wait_until="load")
        except Exception as err:
            hop = self._blocked_document(mark)
            if hop is not None:
                raise BrowserError(hop) from err
            raise BrowserError(f"{url} did not load: {short_error(err)}") from err
        hop = self._blocked_document(mark)
        if hop is not None:
            raise BrowserError(hop)
        unreachable = response.headers.get(UNREACHABLE_HEADER.lower()) if response else None
        if unreachable:
            raise BrowserError(f"{url} did not load: {unreachable}")
        if response is not None and response.status >= 500:
            raise BrowserError(f"{url} answered HTTP {response.status}")

    def _blocked_document(self, mark: int) -> str | None:
        """Why a navigation since record ``mark`` was stopped, if one of its documents was."""
        for entry in self.blocked_requests[mark:]:
            if entry["type"] == "document":
                origin = entry.get("redirected_from")
                how = f"{origin} redirected to" if origin else "the page went to"
                return (f"{how} {entry['url']}, outside the task's hosts "
                        f"({', '.join(sorted(self.options.hosts))}): blocked")
        return None

    async def new_tab(self) -> None:
        page = await self.context.new_page()
        if page not in self.pages:
            self.pages.append(page)
        self.active = self.pages.index(page)

    async def close_tab(self) -> None:
        page = self.pages.pop(self.active)
        await page.close()
        if not self.pages:
            await self.new_tab()
        self.active = len(self.pages) - 1
        await self.page.bring_to_front()

    async def settle(self) -> None:
        """Wait until a navigation started by the last input has loaded (no fixed sleep: the
        page reports navigations as they begin, see NAV_WATCH)."""
        self.pages = [p for p in self.pages if not p.is_closed()] or self.pages
        self.active = min(self.active, len(self.pages) - 1)
        page = self.page
        try:
            pending = await self.answer(page.evaluate(NAV_PENDING), "a navigation check")
        except Exception:  # the document went away under us: a navigation is under way
            pending = True
        if pending:
            try:
                await page.wait_for_function(NAV_DONE, timeout=self.options.load_timeout_ms,
                                             polling=20)
            except Exception as err:
                log.warning("page did not finish loading: %s", short_error(err))
        elif page.url != "about:blank":
            await page.wait_for_load_state("load")

    async def devtools(self) -> Any:
        """The active tab's DevTools (CDP) session, opened once per tab."""
        page = self.page
        cdp = self._cdp.get(page)
        if cdp is None:
            cdp = self._cdp[page] = await self.answer(
                self.context.new_cdp_session(page), "a DevTools session")
        return cdp

    async def screenshot(self, fmt: str = "png", quality: int = 90) -> bytes:
        """The active tab's viewport as PNG (or JPEG at ``quality``). Chromium's fast path
        through the DevTools protocol takes about half the time of Playwright's screenshot;
        the latter is the fallback, once the tab has finished any navigation under way."""
        params: dict[str, Any] = {"format": fmt, "optimizeForSpeed": True}
        if fmt == "jpeg":
            params["quality"] = quality
        try:
            cdp = await self.devtools()
            shot = await self.answer(cdp.send("Page.captureScreenshot", params), "a screenshot")
            return base64.b64decode(shot["data"])
        except Exception as err:
            log.debug("fast screenshot failed (%s); using Playwright's", short_error(err))
            self._cdp.pop(self.page, None)
            # Chromium cannot capture a tab in the middle of a navigation (a page that sends
            # itself elsewhere): give the new document a moment to load first.
            with contextlib.suppress(Exception):  # the capture below reports what went wrong
                await self.page.wait_for_load_state("load", timeout=NAV_GRACE_MS)
            if fmt == "jpeg":
                return await self.page.screenshot(type="jpeg", quality=quality)
            return await self.page.screenshot(type="png")

    async def tabs(self) -> list[dict[str, Any]]:
        out = []
        for i, p in enumerate(self.pages):
            try:
                title = await self.answer(p.title(), "a tab's title")
            except Exception:
                title = ""
            out.append({"index": i, "title": title, "url": p.url, "active": i == self.active})
        return out

    async def close(self) -> None:
        try:
            await self.context.close()
        except Exception as err:  # already gone with its browser
            log.debug("context close: %s", err)
        if self.fence is not None:
            self.fence.stop()
            self.fence = None


def _page_of(request: Any) -> str:
    """The URL of the page a request came from ("" when it has none, e.g. a worker)."""
    try:
        return str(request.frame.page.url)
    except Exception:
        return ""


def short_error(err: BaseException) -> str:
    text = str(err).strip().splitlines()
    return text[0][:300] if text else type(err).__name__
