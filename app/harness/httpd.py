"""A stdlib HTTP server with limits: a bounded pool of worker threads, a real listen backlog,
and read deadlines, so that many clients, slow clients and idle connections cannot exhaust
the process.

``http.server.ThreadingHTTPServer`` starts one thread per connection and never times a read
out: 400 connections that send nothing held 400 threads for ever, and its listen backlog of 5
reset 115 of 200 clients connecting at once. Here

- connections wait in the kernel's backlog (:attr:`Limits.backlog`), then in a bounded queue
  for one of :attr:`Limits.workers` threads; past ``workers + queued`` a new connection gets
  HTTP 503 and is closed at once. While connections wait, a response closes its connection
  instead of keeping it alive idle on a worker;
- a request's line and headers must arrive within :attr:`Limits.header_seconds` of the
  connection being accepted (or of the previous response, on a kept-alive connection), its
  body within :attr:`Limits.body_seconds` of the headers, and each write to the client must
  go through within :attr:`Limits.write_seconds` - so a connection that trickles bytes is
  closed as surely as one that sends nothing. A connection that waited in the queue past its
  header deadline is still served if its request is already there.

The handler class must derive from :class:`TimedHandler`.
"""

from __future__ import annotations

import concurrent.futures
import io
import logging
import socket
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any

_BUSY_BODY = b'{"error": {"message": "too many connections", "type": "server_error", "code": 503}}'
_BUSY = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
         b"Connection: close\r\nRetry-After: 1\r\nContent-Length: %d\r\n\r\n"
         % len(_BUSY_BODY)) + _BUSY_BODY

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Limits:
    """How much one endpoint takes at once, and how long it waits for a client."""

    workers: int = 64
    """Connections served at once (each holds a thread while its request waits for its
    answer: for serve-human, until a person answers)."""
    queued: int = 512
    """Accepted connections waiting for a worker; past this they get HTTP 503."""
    backlog: int = 256
    """The listen backlog: connections the kernel holds before they are accepted."""
    header_seconds: float = 10.0
    """From accepting a connection (or the end of the previous response) to the end of the
    request's headers."""
    body_seconds: float = 60.0
    """From the end of the headers to the end of the body."""
    write_seconds: float = 60.0
    """Longest wait for the client to take a piece of the response."""

    def check(self) -> None:
        """Refuse limits that would serve nobody or never time out."""
        if self.workers < 1 or self.queued < 0 or self.backlog < 1:
            raise ValueError("workers and backlog must be at least 1, queued at least 0")
        if min(self.header_seconds, self.body_seconds, self.write_seconds) <= 0:
            raise ValueError("the time-outs must be positive")


class _DeadlineReader(io.RawIOBase):
    """The connection's socket as a raw stream whose reads fail with ``TimeoutError`` once
    the handler's deadline has passed (data already received is still read)."""

    def __init__(self, handler: TimedHandler) -> None:
        self._handler = handler
        self._sock: socket.socket = handler.connection

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        left = self._handler.deadline - time.monotonic()
        if left <= 0:
            self._sock.settimeout(0)  # what has already arrived, nothing more
            try:
                return self._sock.recv_into(buffer)
            except BlockingIOError:
                raise TimeoutError("the client was too slow") from None
        self._sock.settimeout(left)
        return self._sock.recv_into(buffer)


class TimedHandler(BaseHTTPRequestHandler):
    """A request handler whose reads keep to the server's :class:`Limits` (see the module
    docstring). Read a request's body with :meth:`read_body`."""

    protocol_version = "HTTP/1.1"
    server: BoundedHTTPServer
    deadline: float

    def setup(self) -> None:
        super().setup()
        limits = self.server.limits
        self.deadline = self.server.accepted_at() + limits.header_seconds
        plain, self.rfile = self.rfile, io.BufferedReader(_DeadlineReader(self), 64 * 1024)
        plain.close()  # (the socket's own reader, replaced)

    def handle_one_request(self) -> None:
        super().handle_one_request()
        self.deadline = time.monotonic() + self.server.limits.header_seconds

    def read_body(self, size: int) -> bytes:
        """``size`` bytes of body; raises ``TimeoutError`` when they do not come in time."""
        self.deadline = time.monotonic() + self.server.limits.body_seconds
        data = self.rfile.read(size)
        if len(data) < size:
            raise TimeoutError("the client closed the connection inside the body")
        return data

    def writing(self) -> None:
        """Call before writing a response: each write may take up to ``write_seconds``, and
        while other connections wait for a worker this one is closed after the response
        (``close_connection``), rather than kept alive idle on a worker they need."""
        self.connection.settimeout(self.server.limits.write_seconds)
        if self.server.crowded:
            self.close_connection = True


class BoundedHTTPServer(HTTPServer):
    """An HTTP server serving each connection on a bounded pool of threads (see the module
    docstring); :meth:`server_close` stops the pool."""

    def __init__(self, address: tuple[str, int], handler: type[TimedHandler],
                 limits: Limits | None = None) -> None:
        self.limits = limits or Limits()
        self.limits.check()
        self.request_queue_size = self.limits.backlog  # read by server_activate (listen)
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        self._pool = concurrent.futures.ThreadPoolExecutor(
            self.limits.workers, thread_name_prefix="external-http")
        self._lock = threading.Lock()
        self._open = 0
        self._sockets: set[Any] = set()
        self._local = threading.local()
        self.busy_refused = 0
        """Connections refused because every worker and queue place was taken."""
        super().__init__(address, handler)

    @property
    def open_connections(self) -> int:
        """Connections being served or waiting for a worker."""
        return self._open

    @property
    def crowded(self) -> bool:
        """Whether connections are waiting for a worker."""
        return self._open > self.limits.workers

    def accepted_at(self) -> float:
        """When the connection the calling worker serves was accepted (monotonic)."""
        return float(getattr(self._local, "accepted", time.monotonic()))

    def process_request(self, request: Any, client_address: Any) -> None:
        with self._lock:
            full = self._open >= self.limits.workers + self.limits.queued
            if not full:
                self._open += 1
                self._sockets.add(request)
        if full:
            self.busy_refused += 1
            try:
                request.settimeout(0)
                request.send(_BUSY)
            except OSError:
                pass
            self.shutdown_request(request)
            return
        self._pool.submit(self._serve, request, client_address, time.monotonic())

    def _serve(self, request: Any, client_address: Any, accepted: float) -> None:
        self._local.accepted = accepted
        try:
            self.finish_request(request, client_address)
        except Exception:
            self.handle_error(request, client_address)
        finally:
            self.shutdown_request(request)
            with self._lock:
                self._open -= 1
                self._sockets.discard(request)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A connection that failed (a reset, a time-out while writing) is logged at debug
        level only: it is the client's to see."""
        log.debug("connection from %s failed", client_address,
                                          exc_info=True)

    def server_close(self) -> None:
        """Stop listening, drop the connections still waiting for a worker and close the
        ones being served (their workers then end)."""
        super().server_close()
        self._pool.shutdown(wait=False, cancel_futures=True)
        with self._lock:
            left, self._sockets = list(self._sockets), set()
        for request in left:
            self.shutdown_request(request)


__all__ = ["BoundedHTTPServer", "Limits", "TimedHandler"]
