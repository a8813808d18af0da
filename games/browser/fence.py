"""A checking HTTP proxy that lets an episode's browser reach only the task's hosts.

Playwright's request routing sees most requests, but not the hops of an HTTP redirect, nor
WebSockets, nor anything else Chromium opens outside its fetch machinery. Every episode's
browser context therefore sends all of its traffic (loopback included) through one
:class:`NetworkFence`: plain-HTTP requests are forwarded only when their ``host:port`` is one of
the task's hosts, and ``CONNECT`` tunnels (HTTPS, WebSockets, WebRTC over TCP) are opened only
to those hosts. Everything else is refused - a plain request with a small PlayBench page
(status 403, header :data:`BLOCK_HEADER`), a tunnel with 403 - and reported through
``on_block``, so the session can record it on the step.

The proxy runs on its own thread and event loop, so it keeps answering while the episode's
loop waits on the browser. One request per client connection (``Connection: close``): every
request is checked on its own, a kept-alive connection cannot be reused for another host.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import threading
from collections.abc import Callable
from urllib.parse import urlsplit

log = logging.getLogger(__name__)

BLOCK_HEADER = "X-PlayBench-Blocked"
"""Set on the proxy's refusal of a plain-HTTP request, so the session can tell it apart."""
UNREACHABLE_HEADER = "X-PlayBench-Unreachable"
"""Set on the proxy's 502 when an allowed host cannot be reached; its value is the error in
Chromium's own words (``net::ERR_CONNECTION_REFUSED``), so messages read as without a proxy."""
MAX_HEAD = 64 * 1024
BLOCK_PAGE = (b"<!doctype html><title>Blocked</title><h1>Blocked by PlayBench</h1>"
              b"<p>This address is outside the task's sites.</p>")
_HOP_HEADERS = {b"proxy-connection", b"proxy-authorization", b"connection", b"keep-alive"}

BlockHook = Callable[[str, str], None]
"""Called (on the proxy's thread) with the refused URL or ``host:port`` and the request kind
(``http`` or ``connect``)."""


def hostport(host: str, port: int | None, scheme: str = "http") -> str:
    """``host:port`` with the port spelled out and the host lower-cased (brackets dropped)."""
    port = port or {"http": 80, "https": 443, "ws": 80, "wss": 443}.get(scheme, 0)
    return f"{host.strip('[]').lower()}:{port}"


class NetworkFence:
    """A local proxy forwarding only to ``hosts`` (``host:port`` strings). ``start()`` returns
    its address for the browser context's ``proxy`` option; ``stop()`` ends it."""

    def __init__(self, hosts: frozenset[str], on_block: BlockHook | None = None) -> None:
        self.hosts = hosts
        self.on_block = on_block
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._server: asyncio.AbstractServer | None = None
        self._ready = threading.Event()
        self.address = ""

    def start(self) -> str:
        """Start serving on a free 127.0.0.1 port; returns ``http://127.0.0.1:<port>``."""
        if self._thread is not None:
            return self.address
        self._thread = threading.Thread(target=self._run, name="playbench-fence", daemon=True)
        self._thread.start()
        if not self._ready.wait(10) or not self.address:
            raise RuntimeError("the network fence (local proxy) did not start")
        return self.address

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        try:
            self._server = loop.run_until_complete(
                asyncio.start_server(self._handle, "127.0.0.1", 0, limit=MAX_HEAD))
            port = self._server.sockets[0].getsockname()[1]
            self.address = f"http://127.0.0.1:{port}"
        finally:
            self._ready.set()
        try:
            loop.run_forever()
        finally:
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()

    def stop(self) -> None:
        """Stop accepting and end the proxy's thread (open tunnels are dropped)."""
        loop, thread = self._loop, self._thread
        if loop is None or thread is None:
            return

        async def _shutdown() -> None:
            if self._server is not None:
                self._server.close()
            for task in asyncio.all_tasks():
                if task is not asyncio.current_task():
                    task.cancel()

        def _stop() -> None:
            loop.create_task(_shutdown()).add_done_callback(lambda _t: loop.stop())

        loop.call_soon_threadsafe(_stop)
        thread.join(5)
        self._loop = self._thread = self._server = None

    def _refused(self, what: str, kind: str) -> None:
        log.info("network fence refused %s %s (outside the task's hosts)", kind, what)
        if self.on_block is not None:
            try:
                self.on_block(what, kind)
            except Exception:  # a recording hook must never take the proxy down
                log.exception("network fence: block hook failed")

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            await self._serve_one(reader, writer)
        except asyncio.CancelledError:  # stop(): the connection just ends (asyncio would
            writer.close()              # otherwise log the cancellation as an error)

    async def _serve_one(self, reader: asyncio.StreamReader,
                         writer: asyncio.StreamWriter) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
            writer.close()
            return
        lines = head.split(b"\r\n")
        parts = lines[0].split(b" ")
        if len(parts) != 3:
            await _answer(writer, 400, b"bad request line")
            return
        method, target, version = parts
        try:
            if method.upper() == b"CONNECT":
                await self._tunnel(target.decode("latin-1"), reader, writer)
            else:
                await self._forward(method, target.decode("latin-1"), version, lines[1:-2],
                                    reader, writer)
        except (ConnectionError, asyncio.IncompleteReadError, OSError) as err:
            log.debug("network fence: connection ended: %s", err)
        finally:
            writer.close()

    async def _tunnel(self, target: str, reader: asyncio.StreamReader,
                      writer: asyncio.StreamWriter) -> None:
        host, _, port = target.rpartition(":")
        key = hostport(host, int(port) if port.isdigit() else None, "https")
        if key not in self.hosts:
            self._refused(key, "connect")
            await _answer(writer, 403, b"blocked by PlayBench")
            return
        try:
            up_r, up_w = await asyncio.open_connection(host.strip("[]"), int(port))
        except OSError as err:
            await _unreachable(writer, err)
            return
        writer.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
        await writer.drain()
        await _pipe_both(reader, writer, up_r, up_w)

    async def _forward(self, method: bytes, target: str, version: bytes, headers: list[bytes],
                       reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        url = urlsplit(target)
        if url.scheme != "http" or not url.hostname:
            self._refused(target, "http")
            await _answer(writer, 403, BLOCK_PAGE, blocked=True)
            return
        key = hostport(url.hostname, url.port, "http")
        if key not in self.hosts:
            self._refused(target, "http")
            await _answer(writer, 403, BLOCK_PAGE, blocked=True)
            return
        try:
            up_r, up_w = await asyncio.open_connection(url.hostname, url.port or 80)
        except OSError as err:
            await _unreachable(writer, err)
            return
        path = (url.path or "/") + (f"?{url.query}" if url.query else "")
        kept = [h for h in headers if h.split(b":", 1)[0].strip().lower() not in _HOP_HEADERS]
        up_w.write(b" ".join([method, path.encode("latin-1"), version]) + b"\r\n"
                   + b"".join(h + b"\r\n" for h in kept) + b"Connection: close\r\n\r\n")
        await up_w.drain()
        await _pipe_both(reader, writer, up_r, up_w, closing=True)


def net_error(err: OSError) -> str:
    """Chromium's name for a failed connection."""
    if isinstance(err, ConnectionRefusedError):
        return "net::ERR_CONNECTION_REFUSED"
    if isinstance(err, TimeoutError):
        return "net::ERR_CONNECTION_TIMED_OUT"
    if isinstance(err, socket.gaierror):
        return "net::ERR_NAME_NOT_RESOLVED"
    return "net::ERR_CONNECTION_FAILED"


async def _unreachable(writer: asyncio.StreamWriter, err: OSError) -> None:
    name = net_error(err)
    await _answer(writer, 502, f"{name} ({err})".encode(), extra=f"{UNREACHABLE_HEADER}: {name}")


async def _answer(writer: asyncio.StreamWriter, status: int, body: bytes,
                  blocked: bool = False, extra: str = "") -> None:
    reason = {400: "Bad Request", 403: "Forbidden", 502: "Bad Gateway"}.get(status, "Error")
    if blocked:
        extra = f"{BLOCK_HEADER}: outside-task-hosts"
    extra = f"{extra}\r\n" if extra else ""
    writer.write(f"HTTP/1.1 {status} {reason}\r\nContent-Type: text/html; charset=utf-8\r\n"
                 f"Content-Length: {len(body)}\r\nCache-Control: no-store\r\n{extra}"
                 "Connection: close\r\n\r\n".encode() + body)
    with contextlib.suppress(ConnectionError):
        await writer.drain()


async def _close_answer(s_r: asyncio.StreamReader, c_w: asyncio.StreamWriter) -> None:
    """Pass the server's answer head on with ``Connection: close``, so the browser does not
    send its next request (perhaps for another host) down this forwarded connection."""
    try:
        head = await s_r.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError as err:  # no full head: pass on what came
        c_w.write(err.partial)
        return
    lines = head.split(b"\r\n")[:-2]
    kept = [lines[0]] + [h for h in lines[1:]
                         if h.split(b":", 1)[0].strip().lower() not in _HOP_HEADERS]
    c_w.write(b"".join(h + b"\r\n" for h in kept)
              + b"Connection: close\r\nProxy-Connection: close\r\n\r\n")
    await c_w.drain()


async def _pipe_both(c_r: asyncio.StreamReader, c_w: asyncio.StreamWriter,
                     s_r: asyncio.StreamReader, s_w: asyncio.StreamWriter,
                     closing: bool = False) -> None:
    """Copy bytes both ways until the server side ends (then the client is closed too);
    ``closing`` rewrites the server's answer head first (:func:`_close_answer`)."""
    async def copy(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
        try:
            while data := await src.read(65536):
                dst.write(data)
                await dst.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            if dst.can_write_eof():
                with contextlib.suppress(OSError, RuntimeError):
                    dst.write_eof()

    up = asyncio.ensure_future(copy(c_r, s_w))
    try:
        if closing:
            await _close_answer(s_r, c_w)
        await copy(s_r, c_w)
    finally:
        up.cancel()
        s_w.close()
