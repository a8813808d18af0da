"""Chromium through Playwright (async API): one browser, one isolated context per episode.

:class:`Browser` launches Chromium: Playwright's own build when it is installed, otherwise the
executable named by ``PLAYBENCH_CHROMIUM`` or Debian's ``/usr/bin/chromium``. Each episode gets a
:class:`PageSession` - a fresh context (no shared cookies or cache) with the task's viewport,
whose network is limited to the task's hosts: every other request is aborted and logged in
``PageSession.blocked``.
"""

from __future__ import annotations

import base64
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable
from urllib.parse import urlsplit

from playwright.async_api import Browser as PwBrowser
from playwright.async_api import BrowserContext, Page, Playwright, async_playwright

log = logging.getLogger(__name__)

LAUNCH_ARGS = ("--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync")
SYSTEM_CHROMIUM = "/usr/bin/chromium"
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


class BrowserError(RuntimeError):
    """The browser could not be started or a page could not be opened."""


def chromium_executable() -> str | None:
    """The Chromium to launch: ``$PLAYBENCH_CHROMIUM``, else None (Playwright's own build) when
    that is installed, else the system Chromium if present."""
    forced = os.environ.get("PLAYBENCH_CHROMIUM")
    if forced:
        return forced
    return None if _playwright_chromium_present() else (
        SYSTEM_CHROMIUM if Path(SYSTEM_CHROMIUM).exists() else None)


def _playwright_chromium_present() -> bool:
    root = Path(os.environ.get("PLAYWRIGHT_BROWSERS_PATH") or Path.home() / ".cache/ms-playwright")
    return root.is_dir() and any(p.name.startswith("chromium") for p in root.iterdir())


def host_of(url: str) -> str:
    """``host:port`` of a URL (the port spelled out), the unit the network filter allows."""
    parts = urlsplit(url)
    port = parts.port or {"http": 80, "https": 443}.get(parts.scheme, 0)
    return f"{(parts.hostname or '').lower()}:{port}"


def allowed_url(url: str, hosts: frozenset[str]) -> bool:
    scheme = urlsplit(url).scheme
    if scheme in ("data", "blob", "about", "chrome-error"):
        return True
    return scheme in ("http", "https") and host_of(url) in hosts


@dataclass(frozen=True)
class SessionOptions:
    """What a new episode context needs: the hosts it may reach and how it looks."""

    hosts: frozenset[str]
    viewport: tuple[int, int] = DEFAULT_VIEWPORT
    storage_state: str | None = None
    geolocation: dict[str, float] | None = None
    load_timeout_ms: float = 30_000
    action_timeout_ms: float = 10_000


class Browser:
    """A running Chromium. Use as ``async with Browser() as b`` or start()/close()."""

    def __init__(self, headless: bool = True, executable: str | None = None) -> None:
        self.headless = headless
        self.executable = executable or chromium_executable()
        self._pw: Playwright | None = None
        self._browser: PwBrowser | None = None

    async def start(self) -> "Browser":
        if self._browser is not None:
            return self
        self._pw = await async_playwright().start()
        try:
            self._browser = await self._pw.chromium.launch(
                headless=self.headless, executable_path=self.executable, args=list(LAUNCH_ARGS))
        except Exception as err:
            await self._pw.stop()
            self._pw = None
            where = self.executable or "Playwright's Chromium"
            raise BrowserError(f"could not start Chromium ({where}): {err}. Install it with "
                               "`playwright install chromium` or set PLAYBENCH_CHROMIUM") from err
        return self

    async def close(self) -> None:
        if self._browser is not None:
            await self._browser.close()
            self._browser = None
        if self._pw is not None:
            await self._pw.stop()
            self._pw = None

    async def __aenter__(self) -> "Browser":
        return await self.start()

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    async def new_session(self, options: SessionOptions) -> "PageSession":
        await self.start()
        assert self._browser is not None
        w, h = options.viewport
        ctx = await self._browser.new_context(
            viewport={"width": w, "height": h}, storage_state=options.storage_state,
            geolocation=options.geolocation,
            permissions=["geolocation"] if options.geolocation else None,
            service_workers="block", device_scale_factor=1)
        session = PageSession(ctx, options)
        await session.setup()
        return session


@dataclass
class PageSession:
    """One episode's browser context: its tabs, the active tab, and the blocked requests."""

    context: BrowserContext
    options: SessionOptions
    pages: list[Page] = field(default_factory=list)
    active: int = 0
    blocked: list[str] = field(default_factory=list)
    _cdp: dict[Page, Any] = field(default_factory=dict)

    async def setup(self) -> None:
        self.context.set_default_timeout(self.options.action_timeout_ms)
        self.context.set_default_navigation_timeout(self.options.load_timeout_ms)
        await self.context.add_init_script(NAV_WATCH)
        await self.context.route("**/*", self._filter)
        self.context.on("page", self._opened)

    async def _filter(self, route: Any) -> None:
        url = route.request.url
        if allowed_url(url, self.options.hosts):
            await route.fallback()
            return
        self.blocked.append(url)
        log.info("blocked a request outside the task's hosts: %s", url)
        await route.abort("blockedbyclient")

    async def _opened(self, page: Page) -> None:
        # Pages the site opens (target=_blank, window.open) become the active tab, as in a
        # browser. Pages opened through the session (tabs, evaluation pages) have no opener
        # and are listed, or not, by the code that opened them.
        if page not in self.pages and await page.opener() is not None:
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
        if not allowed_url(url, self.options.hosts):
            self.blocked.append(url)
            raise BrowserError(f"{url} is outside the task's hosts "
                               f"({', '.join(sorted(self.options.hosts))})")
        try:
            response = await page.goto(url, wait_until="load")
        except Exception as err:
            raise BrowserError(f"{url} did not load: {_short(err)}") from err
        if response is not None and response.status >= 500:
            raise BrowserError(f"{url} answered HTTP {response.status}")

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
            pending = await page.evaluate(NAV_PENDING)
        except Exception:  # the document went away under us: a navigation is under way
            pending = True
        if pending:
            try:
                await page.wait_for_function(NAV_DONE, timeout=self.options.load_timeout_ms,
                                             polling=20)
            except Exception as err:
                log.warning("page did not finish loading: %s", _short(err))
        elif page.url != "about:blank":
            await page.wait_for_load_state("load")

    async def screenshot(self) -> bytes:
        """PNG of the active tab's viewport. Chromium's fast PNG path through the DevTools
        protocol takes about half the time of Playwright's screenshot; the latter is the
        fallback."""
        page = self.page
        try:
            cdp = self._cdp.get(page)
            if cdp is None:
                cdp = self._cdp[page] = await self.context.new_cdp_session(page)
            shot = await cdp.send("Page.captureScreenshot",
                                  {"format": "png", "optimizeForSpeed": True})
            return base64.b64decode(shot["data"])
        except Exception as err:
            log.debug("fast screenshot failed (%s); using Playwright's", _short(err))
            self._cdp.pop(page, None)
            return await page.screenshot(type="png")

    async def tabs(self) -> list[dict[str, Any]]:
        out = []
        for i, p in enumerate(self.pages):
            try:
                title = await p.title()
            except Exception:
                title = ""
            out.append({"index": i, "title": title, "url": p.url, "active": i == self.active})
        return out

    async def close(self) -> None:
        try:
            await self.context.close()
        except Exception as err:  # already gone with its browser
            log.debug("context close: %s", err)


def _short(err: BaseException) -> str:
    text = str(err).strip().splitlines()
    return text[0][:300] if text else type(err).__name__
