"""Chromium through Playwright (async API): one browser, one isolated context per episode.

:class:`Browser` launches Chromium: Playwright's own build when it is installed, otherwise the
executable named by ``PLAYBENCH_CHROMIUM`` or Debian's ``/usr/bin/chromium``, and opens one
:class:`playbench.games.browser.session.PageSession` per episode (a fresh context whose
traffic all goes through its own :class:`playbench.games.browser.fence.NetworkFence`; see that
module for what a session lets through and records).

Chromium runs with its own sandbox where the platform allows it; where it cannot start so
(as root, or without user namespaces) it is started with ``--no-sandbox`` and the reason is
logged and kept on :attr:`Browser.sandbox_note` (docs/security.md).
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import secrets
import sys
from collections import deque
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from playwright.async_api import Browser as PwBrowser
from playwright.async_api import BrowserContext, Playwright, async_playwright
from playwright.async_api import Error as PlaywrightError

if TYPE_CHECKING:
    from playwright.async_api import Geolocation

from playbench.games.browser import memory
from playbench.games.browser.fence import NetworkFence
from playbench.games.browser.session import BrowserError, PageSession, SessionOptions, short_error
from playbench.games.browser.webrtc import WEBRTC_LAUNCH_ARGS

log = logging.getLogger(__name__)

LAUNCH_ARGS = ("--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync",
               # WebRTC may only use TCP through the proxy (the fence), never its own UDP.
               *WEBRTC_LAUNCH_ARGS)
MARKER = "--playbench-browser"
"""A switch Chromium ignores, given a fresh value per launch, by which the browser's process
is found to bound its page processes' memory (:mod:`playbench.games.browser.memory`)."""
NO_SANDBOX = "--no-sandbox"
SYSTEM_CHROMIUM = "/usr/bin/chromium"

def chromium_executable(system: str = SYSTEM_CHROMIUM) -> str | None:
    """The Chromium to launch: ``$PLAYBENCH_CHROMIUM``, else None (Playwright's own build) when
    that is installed (in a desktop bundle built with it, the bundle's copy), else the system
    Chromium ``system`` if present. None with no Playwright build means there is no browser:
    :meth:`Browser.start` then says how to get one (:func:`missing_chromium_advice`)."""
    forced = os.environ.get("PLAYBENCH_CHROMIUM")
    if forced:
        return forced
    return None if _playwright_chromium_present() else (
        system if Path(system).exists() else None)


def _playwright_chromium_present() -> bool:
    """Whether ``playwright install chromium`` put a build where Playwright looks for it: its
    ``PLAYWRIGHT_BROWSERS_PATH`` ("0": inside the playwright package) or the platform's cache."""
    chosen = os.environ.get("PLAYWRIGHT_BROWSERS_PATH")
    if chosen == "0":
        import playwright

        root = Path(playwright.__file__).parent / "driver" / "package" / ".local-browsers"
    elif chosen:
        root = Path(chosen)
    elif sys.platform == "win32":
        root = Path(os.environ.get("LOCALAPPDATA", Path.home())) / "ms-playwright"
    elif sys.platform == "darwin":
        root = Path.home() / "Library" / "Caches" / "ms-playwright"
    else:
        root = Path.home() / ".cache" / "ms-playwright"
    return root.is_dir() and any(p.name.startswith("chromium") for p in root.iterdir())


def missing_chromium_advice(frozen: bool | None = None) -> str:
    """What a person can do when no Chromium is found, for the way PlayBench was installed:
    a desktop bundle (``frozen``, PyInstaller's ``sys.frozen``) has no ``playwright`` command
    and no Python to run one, so it points at the system's package manager instead."""
    if frozen is None:
        frozen = bool(getattr(sys, "frozen", False))
    system = (f"install Chromium with your system's package manager (Debian and Ubuntu: "
              f"`sudo apt install chromium`, found at {SYSTEM_CHROMIUM})")
    named = ("or set PLAYBENCH_CHROMIUM to the path of a Chromium or Google Chrome executable, "
             "then restart PlayBench")
    if frozen:
        return f"This PlayBench bundle carries no browser: {system}, {named}."
    return f"Run `playwright install chromium`, or {system}, {named}."


class Browser:
    """A running Chromium. Use as ``async with Browser() as b`` or start()/close().

    ``sandbox`` True (the default) first tries Chromium's own sandbox and falls back to
    ``--no-sandbox`` with a logged reason when the platform refuses it; False goes straight to
    ``--no-sandbox``. After start(), :attr:`sandboxed` says which one runs and
    :attr:`sandbox_note` why the sandbox is off (empty when it is on)."""

    answer_seconds = 20.0
    """How long a new context may take before Chromium counts as no longer answering (one
    takes 10-50 ms on an idle machine, under a second on a loaded one)."""

    def __init__(self, headless: bool = True, executable: str | None = None,
                 sandbox: bool = True, memory_mb: int | None = None) -> None:
        self.headless = headless
        self.executable = executable or chromium_executable()
        self.sandbox = sandbox
        try:
            limit = memory.page_memory_mb(memory_mb)
        except ValueError as err:
            raise BrowserError(str(err)) from None
        self.memory_mb = limit
        """MiB each page process may use, None for no limit (``memory_mb``: a number, 0 for
        none, left out: ``$PLAYBENCH_PAGE_MEMORY_MB`` or 1024; :mod:`.memory`)."""
        self.memory_note = ""
        """Why the page memory limit is only partly in force (empty when it is fully)."""
        self.sandboxed: bool | None = None
        self.sandbox_note = ""
        self._pw: Playwright | None = None
        self._browser: PwBrowser | None = None

    async def start(self) -> Browser:
        if self._browser is not None:
            return self
        forced = os.environ.get("PLAYBENCH_CHROMIUM")
        if forced and self.executable == forced and not Path(forced).exists():
            raise BrowserError(f"no Chromium at PLAYBENCH_CHROMIUM={forced}. "
                               + missing_chromium_advice())
        if self.executable is None and not _playwright_chromium_present():
            raise BrowserError("no Chromium found. " + missing_chromium_advice())
        self._pw = await async_playwright().start()
        try:
            self._browser = await self._launch(self._pw)
        except Exception as err:
            await self._pw.stop()
            self._pw = None
            where = self.executable or "Playwright's Chromium"
            raise BrowserError(f"could not start Chromium ({where}): {short_error(err)}. "
                               + missing_chromium_advice()) from err
        return self

    def _args(self, marker: str) -> list[str]:
        args = [*LAUNCH_ARGS, f"{MARKER}={marker}"]
        if self.memory_mb is not None:
            args.append(memory.js_flags(self.memory_mb))
        return args

    async def _launch(self, pw: Playwright) -> PwBrowser:
        """Chromium (see :meth:`_launch_once`) with its page processes' memory bounded."""
        marker = secrets.token_hex(8)
        browser = await self._launch_once(pw, marker)
        if self.memory_mb is not None:
            self.memory_note = memory.limit_children(f"{MARKER}={marker}", self.memory_mb)
            if self.memory_note:
                log.warning("page memory limit: %s", self.memory_note)
        return browser

    async def _launch_once(self, pw: Playwright, marker: str) -> PwBrowser:
        """Chromium with its sandbox if it starts so, else without it (reason logged)."""
        if self.sandbox:
            try:
                browser = await pw.chromium.launch(
                    headless=self.headless, executable_path=self.executable,
                    args=self._args(marker), chromium_sandbox=True)
            except Exception as err:
                self.sandbox_note = sandbox_refusal(err)
                log.warning("Chromium's sandbox is not available here (%s); running Chromium "
                            "with --no-sandbox. The network fence still applies; see "
                            "docs/security.md", self.sandbox_note)
            else:
                self.sandboxed, self.sandbox_note = True, ""
                return browser
        else:
            self.sandbox_note = "the sandbox was turned off by the caller"
        browser = await pw.chromium.launch(
            headless=self.headless, executable_path=self.executable,
            args=[*self._args(marker), NO_SANDBOX], chromium_sandbox=False)
        self.sandboxed = False
        return browser

    async def close(self) -> None:
        """Close Chromium and stop Playwright's driver. The driver is stopped even when the
        close is cancelled midway (a window's shutdown cancels episodes that may be closing
        their browser): a driver left running outlives its event loop."""
        browser, self._browser = self._browser, None
        pw, self._pw = self._pw, None
        try:
            if browser is not None:
                await browser.close()
        finally:
            if pw is not None:
                await pw.stop()

    async def _relaunch(self, why: str) -> None:
        """Drop the current Chromium (closed if it still answers within a few seconds) and
        launch a new one with the same executable and sandbox choice."""
        log.warning("%s; starting it again", why)
        old, self._browser = self._browser, None
        if old is not None:
            try:
                await asyncio.wait_for(old.close(), 5.0)
            except Exception as err:  # gone already, or hung: the new one does not need it
                log.info("the old Chromium did not close cleanly: %s", short_error(err))
        assert self._pw is not None
        try:
            self._browser = await self._launch(self._pw)
        except Exception as err:
            where = self.executable or "Playwright's Chromium"
            raise BrowserError(f"could not start Chromium again ({where}): "
                               f"{short_error(err)}") from err

    async def __aenter__(self) -> Browser:
        return await self.start()

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    async def new_session(self, options: SessionOptions) -> PageSession:
        """A fresh context whose traffic all goes through a new :class:`NetworkFence` that
        lets through only ``options.hosts``.

        A Chromium that died (killed from outside, crashed) or stopped answering is started
        again first, so one lost browser costs the episode that was using it, not the rest of
        a run or study."""
        await self.start()
        w, h = options.viewport
        hits: deque[tuple[str, str]] = deque()
        fence = NetworkFence(options.hosts, lambda what, kind: hits.append((what, kind)))
        address = fence.start()

        async def open_context() -> BrowserContext:
            assert self._browser is not None
            return await asyncio.wait_for(self._browser.new_context(
                viewport={"width": w, "height": h}, storage_state=options.storage_state,
                geolocation=cast("Geolocation | None", options.geolocation),  # checked on load
                permissions=["geolocation"] if options.geolocation else None,
                service_workers="block", device_scale_factor=1,
                proxy={"server": address, "bypass": "<-loopback>"}), self.answer_seconds)

        try:
            if self._browser is None or not self._browser.is_connected():
                await self._relaunch("Chromium is gone (killed or crashed)")
            try:
                ctx = await open_context()
            except (TimeoutError, PlaywrightError) as err:
                assert self._browser is not None
                if self._browser.is_connected() and not isinstance(err, TimeoutError) \
                        and "closed" not in str(err):
                    raise  # Chromium answered: the request itself was refused
                await self._relaunch("Chromium stopped answering" if isinstance(err, TimeoutError)
                                     else f"Chromium went away ({short_error(err)})")
                ctx = await open_context()
        except Exception:
            fence.stop()
            raise
        session = PageSession(ctx, options, fence=fence, fence_hits=hits,
                              memory_mb=self.memory_mb)
        await session.setup()
        return session


def sandbox_refusal(err: BaseException) -> str:
    """The line of a failed sandboxed launch that says why (Chromium's own words when it gave
    them), for the log and :attr:`Browser.sandbox_note`."""
    lines = str(err).splitlines()
    boilerplate = ("sandboxing failed", "sandboxing issue", "chromiumsandbox", "call log")
    for line in [x for x in lines if "[err]" in x] + lines:
        low = line.lower()
        if any(b in low for b in boilerplate):
            continue
        if "sandbox" in low or "as root" in low or "namespace" in low:
            return re.sub(r"^\s*-?\s*(\[[^\]]*\]\s*)+", "", line)[:300].strip() or short_error(err)
    root = " (running as root)" if hasattr(os, "geteuid") and os.geteuid() == 0 else ""
    return f"Chromium did not start with its sandbox{root}: {short_error(err)}"
