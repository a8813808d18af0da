"""A sandbox for pages that a model or a person wrote: each render in its own browser context.

Both visual coding kinds (``webui``: write a page; ``css_repair``: fix a page's CSS) render code
nobody checked. The rules, from issue 16 item 7:

- every render opens a fresh Chromium context through the existing launcher
  (:meth:`playbench.games.browser.browser.Browser.new_session`), so no cookies, storage or cache
  pass from one submission to the next;
- the only host the page may reach is the task's local resource server (:class:`SiteServer`),
  which serves the submitted files and the task's resources from memory; every other request
  (another host, ``file:``) is aborted by the session's routing and its network fence;
- the submitted code has a size limit (:class:`Limits`), refused before a browser is touched;
- every call into the page is bounded (:func:`playbench.games.browser.session.bounded`): a script
  that hangs or loops makes the render fail with :class:`RenderFailed` (``timeout``) after the
  limit, and the context is thrown away, so the app never waits on it.
- a page whose process dies (out of its memory limit, :mod:`playbench.games.browser.memory`) makes
  the render fail with :class:`RenderFailed` (``crashed``);
- every request the page's session refused (another host, WebRTC) is kept on the
  :class:`Sandbox` until its kind takes it for the step (:meth:`Sandbox.take_blocked`).

Time inside the page is game time: the context's clock is Playwright's fake clock, and
:meth:`SandboxPage.pause` advances it (firing timers) and finishes running CSS animations and
transitions, so "wait one second after the click" (MageBench's interaction pauses,
``docs/reference/web.md``) costs no wall-clock second and ends in the same state every time.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import mimetypes
import secrets
import threading
from collections.abc import AsyncIterator, Awaitable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import unquote, urlsplit

from playbench.games.browser.session import BrowserError, PageSession, SessionOptions, bounded

if TYPE_CHECKING:  # an annotation: the kinds list reads this module without Playwright
    from playbench.games.browser.browser import Browser

log = logging.getLogger(__name__)

T = TypeVar("T")

PROBE_SECONDS = 1.0
"""How long a page that timed out gets to answer a trivial evaluation before its scripts are
said to hang (a page whose thread is free answers in milliseconds)."""

FINISH_ANIMATIONS = """() => { for (const a of document.getAnimations()) {
  try { a.finish(); } catch (e) { /* an infinite animation cannot finish */ } } }"""


@dataclass(frozen=True)
class Limits:
    """How much a submission may ask of the sandbox.

    ``code_bytes``: all submitted files together (MageBench pages are a few kilobytes; a
    quarter megabyte leaves room for inline data without letting a submission flood the app);
    ``script_seconds``: any one load, interaction or look at the page."""

    code_bytes: int = 256 * 1024
    script_seconds: float = 5.0


class RenderFailed(RuntimeError):
    """A submission could not be rendered. ``reason`` is ``too_large`` (refused before
    rendering), ``timeout`` (a script hung or looped), ``load`` (the page did not open),
    ``crashed`` (the page's process died, most likely out of memory) or ``interaction`` (a
    scripted interaction found nothing to act on)."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def code_size(files: Mapping[str, str | bytes]) -> int:
    """The size in bytes of submitted files (text counted as UTF-8)."""
    return sum(len(v.encode() if isinstance(v, str) else v) for v in files.values())


class SiteServer:
    """The local resource server: an HTTP server on 127.0.0.1 serving published file sets from
    memory, each under its own unguessable prefix ``/s/<token>/``.

    One server serves every render of a sweep (its own thread); :meth:`publish` adds a file
    set and :meth:`withdraw` removes it. Nothing is read from disk."""

    def __init__(self) -> None:
        self._sites: dict[str, dict[str, bytes]] = {}
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> SiteServer:
        if self._server is not None:
            return self
        sites, lock = self._sites, self._lock

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - the http.server hook's name
                parts = unquote(urlsplit(self.path).path).split("/", 3)
                body: bytes | None = None
                if len(parts) == 4 and parts[1] == "s":
                    with lock:
                        site = sites.get(parts[2])
                        body = None if site is None else site.get(parts[3] or "index.html")
                if body is None:
                    self.send_error(404)
                    return
                kind = mimetypes.guess_type(parts[3])[0] or "application/octet-stream"
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                log.debug("site server: " + format, *args)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True,
                                        name="playbench-site-server")
        self._thread.start()
        return self

    @property
    def host(self) -> str:
        """``127.0.0.1:PORT``, the one host a sandboxed page may reach."""
        assert self._server is not None, "start() the server first"
        return f"127.0.0.1:{self._server.server_address[1]}"

    def publish(self, files: Mapping[str, str | bytes]) -> tuple[str, str]:
        """Serve ``files`` (path -> content) under a new prefix; returns (token, base URL)."""
        self.start()
        token = secrets.token_hex(8)
        data = {k.lstrip("/"): v.encode() if isinstance(v, str) else bytes(v)
                for k, v in files.items()}
        with self._lock:
            self._sites[token] = data
        return token, f"http://{self.host}/s/{token}/"

    def withdraw(self, token: str) -> None:
        with self._lock:
            self._sites.pop(token, None)

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> SiteServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class SandboxPage:
    """One rendered submission: every call into the page bounded by the script limit."""

    def __init__(self, session: PageSession, limits: Limits, url: str) -> None:
        self.session = session
        self.limits = limits
        self.url = url

    @property
    def page(self) -> Any:
        """The Playwright page (for calls not wrapped here; bound them with :meth:`call`)."""
        return self.session.page

    async def call(self, aw: Awaitable[T], what: str) -> T:
        """``await aw`` within the script limit; a page that does not answer raises
        :class:`RenderFailed` (``timeout``)."""
        try:
            return await bounded(aw, self.limits.script_seconds, what)
        except Exception as err:
            if self.session.crashed is not None:
                raise RenderFailed("crashed", self.session.crashed) from err
            if isinstance(err, BrowserError):
                raise RenderFailed("timeout", await self._why_slow(what)) from err
            raise

    async def _why_slow(self, what: str) -> str:
        """Why ``what`` took longer than the limit. Only a page whose own thread no longer
        answers a trivial evaluation has a script that hangs or loops; one that answers was
        merely slow (a loaded machine, a huge screenshot), and is not blamed on its code."""
        head = f"the page did not finish {what} within {self.limits.script_seconds:g} s"
        try:
            await bounded(self.page.evaluate("1"), PROBE_SECONDS, "a probe")
        except Exception:  # noqa: BLE001 - whatever the failure, the page did not answer
            return f"{head}: a script hangs or loops (the page no longer answers)"
        return f"{head} (the page itself still answers: the browser was slow, not its scripts)"

    async def evaluate(self, script: str, arg: Any = None) -> Any:
        return await self.call(self.page.evaluate(script, arg), "an evaluation")

    async def pause(self, ms: int = 1000) -> None:
        """Let ``ms`` of game time pass (timers fire) and finish CSS animations/transitions."""
        await self.call(self.page.clock.run_for(ms), "a pause")
        await self.evaluate(FINISH_ANIMATIONS)

    async def screenshot(self) -> bytes:
        return await self.call(self.session.screenshot(), "a screenshot")

    async def click(self, selector: str, index: int = 0) -> None:
        await self._act(selector, index, "click")

    async def type(self, selector: str, text: str, index: int = 0) -> None:
        await self._act(selector, index, "type", text)

    async def scroll(self, dy: int) -> None:
        await self.evaluate("(dy) => window.scrollBy(0, dy)", dy)

    async def _act(self, selector: str, index: int, how: str, text: str = "") -> None:
        """Click or type into the ``index``-th match of ``selector`` (no match: ``interaction``
        failure, as a failed Selenium interaction is in MageBench)."""
        ms = self.limits.script_seconds * 1000
        try:
            count = await self.call(self.page.locator(selector).count(), "finding " + selector)
        except RenderFailed:
            raise
        except Exception as err:  # a selector Playwright cannot read
            raise RenderFailed("interaction", f"{selector}: {err}") from err
        if count <= index:
            raise RenderFailed("interaction", f"no element {selector} #{index + 1} on the page "
                               f"({count} found)")
        target = self.page.locator(selector).nth(index)
        try:
            if how == "click":
                await self.call(target.click(timeout=ms), "a click on " + selector)
            else:
                await self.call(target.fill(text, timeout=ms), "typing into " + selector)
        except RenderFailed:
            raise
        except Exception as err:  # hidden, covered, not editable
            raise RenderFailed("interaction", f"{how} on {selector} failed: "
                               f"{str(err).splitlines()[0][:200]}") from err


class Sandbox:
    """Renders submissions (see the module docstring). The browser and server are passed in and
    shared by many renders; the sandbox closes neither."""

    def __init__(self, browser: Browser, server: SiteServer, limits: Limits | None = None) -> None:
        self.browser = browser
        self.server = server
        self.limits = limits or Limits()
        self.blocked: list[dict[str, str]] = []
        """What the pages rendered since the last :meth:`take_blocked` tried and were refused
        (records as in :attr:`PageSession.blocked_requests`)."""

    def take_blocked(self) -> list[dict[str, str]]:
        """The refusals of the renders since the last call (for the step that made them)."""
        out, self.blocked = self.blocked, []
        return out

    @asynccontextmanager
    async def open(self, files: Mapping[str, str | bytes], *,
                   viewport: tuple[int, int] = (1920, 1080),
                   entry: str = "index.html",
                   resources: Mapping[str, str | bytes] | None = None
                   ) -> AsyncIterator[SandboxPage]:
        """Render ``files`` (path -> content: the code, which the size limit counts) served
        beside ``resources`` (the task's own pictures and texts, not counted; a file in both
        is the code's) in a fresh context and yield the loaded page; the context is closed on
        leaving, whatever happened in it. Raises :class:`RenderFailed` (``too_large``,
        ``load``, ``timeout``)."""
        size = code_size(files)
        if size > self.limits.code_bytes:
            raise RenderFailed("too_large", f"the code is {size} bytes; the limit is "
                               f"{self.limits.code_bytes}")
        token, base = self.server.publish({**(resources or {}), **files})
        ms = self.limits.script_seconds * 1000
        session: PageSession | None = None
        try:
            try:
                session = await bounded(self.browser.new_session(SessionOptions(
                    frozenset({self.server.host}), viewport=viewport, load_timeout_ms=ms,
                    action_timeout_ms=ms)), 30, "opening a browser context")
                await session.context.clock.install()
                page = await session.context.new_page()
                session.pages.append(page)
                page.on("dialog", _dismiss)
            except BrowserError as err:
                raise RenderFailed("load", str(err)) from err
            view = SandboxPage(session, self.limits, base + entry)
            try:
                await view.call(page.goto(view.url, wait_until="load"), "loading the page")
            except RenderFailed:
                raise
            except Exception as err:
                if session.crashed is not None:
                    raise RenderFailed("crashed", session.crashed) from err
                timed_out = "timeout" in type(err).__name__.lower() or "Timeout" in str(err)
                raise RenderFailed("timeout" if timed_out else "load",
                                   f"the page did not load: {str(err).splitlines()[0][:200]}"
                                   ) from err
            await view.pause(0)
            yield view
        finally:
            self.server.withdraw(token)
            if session is not None:
                self.blocked.extend(session.take_blocked())
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(session.close(), 10)


def _dismiss(dialog: Any) -> None:
    """Alerts and prompts would stop the page for good; they are dismissed at once."""
    asyncio.ensure_future(dialog.dismiss())


__all__ = ["PROBE_SECONDS", "Limits", "RenderFailed", "Sandbox", "SandboxPage", "SiteServer",
           "code_size"]
