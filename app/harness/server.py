"""The HTTP endpoint outside harnesses talk to: OpenAI's chat API plus two PlayBench calls.

- ``POST /v1/chat/completions``: text, image parts (data URLs), tools, ``stream`` true or false;
  the request waits until its episode's player answers (a person, or the upstream model the
  proxy forwards to) and gets the reply back as the OpenAI client expects it.
- ``GET /v1/models``: the model ids this endpoint answers as.
- ``POST /v1/playbench/score``: ``{"score": 0.5, "success": true, "task": ..., "harness": ...}``
  - the harness's own result for its latest episode of that task (ends it if it still runs).
- ``POST /v1/playbench/end``: ``{"task": ..., "harness": ...}`` ends an episode without a score.

Requests are told apart by harness and task (``playbench.app.harness.wire.task_key``); each pair
is one episode at a time, and pairs run in parallel. A request whose harness disconnects, or that
waits longer than ``answer_timeout``, is abandoned (recorded as such by the env) and, in the
second case, answered with HTTP 504.

Security (docs/security.md, "Harness endpoints"): the server listens on 127.0.0.1 unless told
otherwise, and any other address needs a token, which harnesses send as their API key
(``Authorization: Bearer TOKEN``). Before a body is read, a request must pass the guard
(``playbench.app.harness.guard``: its Host is this address, no other site's Origin, a JSON
content type) and the token check (401); bodies over ``max_body`` bytes get 413 unread, and a
body that is not what the endpoint takes gets 400 naming the field
(``playbench.app.harness.checks``). Connections are served by a bounded pool of threads
with read time-outs (``playbench.app.harness.httpd``); the episodes run on the event loop
the hub was given.
"""

from __future__ import annotations

import hmac
import ipaddress
import itertools
import json
import logging
import select
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from playbench.app.harness.checks import BodyError
from playbench.app.harness.env import Exchange
from playbench.app.harness.guard import allowed_hosts, refusal
from playbench.app.harness.httpd import BoundedHTTPServer, Limits, TimedHandler
from playbench.app.harness.report import read_report
from playbench.app.harness.wire import (
    END_HEADER,
    TASK_FROM,
    HttpAnswer,
    WireError,
    error_answer,
    parse_body,
    pending_request,
    task_key,
)

log = logging.getLogger(__name__)

MAX_BODY = 16 * 1024 * 1024
"""Largest request body accepted, in bytes (16 MiB: a long conversation with several
full-size screenshots as base64 stays well under it); larger ones get HTTP 413 unread."""


class Hub(Protocol):
    """What the server hands requests to (``playbench.app.harness.hub.ExternalHub``)."""

    def submit(self, exchange: Exchange) -> None:
        """Route a request to its episode, starting one if needed; thread-safe."""

    def report(self, harness: str, task_id: str | None, scores: dict[str, float | None],
               ) -> dict[str, Any] | None:
        """Store a harness's scores for its latest episode of the task (ending it if it
        runs) and return ``{"episode": id, ...}``; None when there is no such episode.
        Called on a server thread; may block until the episode is recorded."""

    def end(self, harness: str, task_id: str) -> bool:
        """End the running episode of the pair as its harness asked; thread-safe."""

    def model_ids(self) -> list[str]:
        """The model ids ``GET /v1/models`` lists."""


@dataclass
class ServerOptions:
    host: str = "127.0.0.1"
    port: int = 0
    token: str | None = None
    max_body: int = MAX_BODY
    answer_timeout: float | None = None
    """Seconds a request may wait for its answer before it is abandoned (None: as long as
    the harness keeps the connection open)."""
    task_from: str = "first-user"
    limits: Limits = field(default_factory=Limits)
    """Worker threads, queue, backlog and read time-outs (``playbench.app.harness.httpd``)."""

    def check(self) -> None:
        """Refuse options that would expose an unauthenticated endpoint or make no sense."""
        if self.task_from not in TASK_FROM:
            raise ValueError(f"task_from must be one of {', '.join(TASK_FROM)}")
        if self.max_body <= 0:
            raise ValueError("max_body must be positive")
        self.limits.check()
        if not is_loopback(self.host) and not self.token:
            raise ValueError(f"listening on {self.host} needs a token (--token); harnesses "
                             "send it as their API key")


def is_loopback(host: str) -> bool:
    """True for addresses only this machine can reach (127.0.0.0/8, ::1, localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _closed(conn: socket.socket) -> bool:
    """Whether the peer has closed the connection (a readable socket with nothing to read)."""
    try:
        readable, _, _ = select.select([conn], [], [], 0)
        if not readable:
            return False
        return conn.recv(1, socket.MSG_PEEK) == b""
    except (OSError, ValueError):
        return True


class ExternalServer:
    """Start with :meth:`start` (a background thread) and stop with :meth:`stop`; ``url`` is
    the base URL to give a harness (``.../v1``)."""

    def __init__(self, hub: Hub, options: ServerOptions | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.hub = hub
        self.options = options or ServerOptions()
        self.options.check()
        self._clock = clock
        self._ids = itertools.count(1)
        self._ids_lock = threading.Lock()
        self.refused = 0
        """Requests refused for a missing or wrong token (nothing of them was recorded)."""
        self._httpd = BoundedHTTPServer((self.options.host, self.options.port),
                                        self._handler_class(), self.options.limits)
        self.allowed_hosts = allowed_hosts(self.options.host, self.port)
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    @property
    def url(self) -> str:
        host = self.options.host
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{self.port}/v1"

    @property
    def httpd(self) -> BoundedHTTPServer:
        """The HTTP server underneath (its open connections, the limits)."""
        return self._httpd

    def start(self) -> ExternalServer:
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True,
                                        name="external-server")
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(5)

    def _next_id(self) -> int:
        with self._ids_lock:
            return next(self._ids)

    # -- the request handler --------------------------------------------------------------

    def _handler_class(self) -> type[TimedHandler]:
        server = self

        class Handler(TimedHandler):
            answered = False

            def log_message(self, format: str, *args: Any) -> None:
                log.debug("%s %s", self.address_string(), format % args)

            def send_error(self, code: int, message: str | None = None,
                           explain: str | None = None) -> None:
                """The stdlib's own refusals (a bad request line, headers too long, an
                unknown method) in OpenAI's JSON error shape rather than an HTML page."""
                self.close_connection = True
                self._send(error_answer(code, message or explain or "bad request"))

            def _send(self, answer: HttpAnswer) -> None:
                self.answered = True
                self.writing()
                self.send_response(answer.status)
                self.send_header("Content-Type", answer.content_type)
                self.send_header("Content-Length", str(len(answer.body)))
                for name, value in answer.headers:
                    self.send_header(name, value)
                if self.close_connection:
                    self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(answer.body)

            def _refuse(self, answer: HttpAnswer) -> None:
                self.close_connection = True  # any body is left unread
                self._send(answer)

            def _admitted(self, method: str) -> bool:
                """The guard (``playbench.app.harness.guard``), then the token."""
                refused = refusal(method, self.headers, server.allowed_hosts)
                if refused is not None:
                    self._refuse(refused)
                    return False
                token = server.options.token
                if not token:
                    return True
                given = self.headers.get("Authorization", "")
                ok = given.startswith("Bearer ") and hmac.compare_digest(
                    given[7:].strip().encode(), token.encode())
                if not ok:
                    server.refused += 1
                    self._refuse(error_answer(401, "a valid API key (the server's token) is "
                                                   "required", "authentication_error"))
                return ok

            def _body(self) -> bytes | None:
                length = self.headers.get("Content-Length")
                if length is None:
                    self._refuse(error_answer(411, "a Content-Length header is required"))
                    return None
                length = length.strip()
                if not (length.isascii() and length.isdigit()) or len(length) > 18:
                    self._refuse(error_answer(400, f"Content-Length {length!r} is not a "
                                                   "number of bytes", param="Content-Length"))
                    return None
                size = int(length)
                if size > server.options.max_body:
                    self._refuse(error_answer(413, f"the body is {size} bytes; the limit is "
                                                   f"{server.options.max_body}"))
                    return None
                try:
                    return self.read_body(size)
                except TimeoutError:
                    self._refuse(error_answer(408, f"the body did not arrive within "
                                                   f"{server.options.limits.body_seconds:g} s",
                                              "timeout"))
                    return None

            def _guarded(self, work: Callable[[], None]) -> None:
                """Run ``work``; a failure nobody foresaw still gets an answer (HTTP 500)
                and never a dropped connection."""
                self.answered = False
                try:
                    work()
                except (TimeoutError, ConnectionError):
                    self.close_connection = True
                except Exception:
                    log.exception("request %s %s failed", self.command, self.path)
                    if not self.answered:
                        self._refuse(error_answer(500, "the endpoint failed on this request "
                                                       "(see its log)", "server_error"))
                    else:
                        self.close_connection = True

            def do_GET(self) -> None:
                self._guarded(self._get)

            def do_POST(self) -> None:
                self._guarded(self._post)

            def _get(self) -> None:
                if not self._admitted("GET"):
                    return
                if self.path.rstrip("/") in ("/v1/models", "/models"):
                    data = [{"id": m, "object": "model", "owned_by": "playbench"}
                            for m in server.hub.model_ids()]
                    self._send(HttpAnswer(200, json.dumps({"object": "list", "data": data})
                                          .encode()))
                else:
                    self._send(error_answer(404, f"no such path: {self.path[:200]}"))

            def _post(self) -> None:
                if not self._admitted("POST"):
                    return
                path = self.path.rstrip("/")
                body = self._body()
                if body is None:
                    return
                if path in ("/v1/chat/completions", "/chat/completions"):
                    self._chat(body)
                elif path == "/v1/playbench/score":
                    self._score(body, end_only=False)
                elif path == "/v1/playbench/end":
                    self._score(body, end_only=True)
                else:
                    self._send(error_answer(404, f"no such path: {self.path[:200]}"))

            def _chat(self, raw: bytes) -> None:
                try:
                    request = parse_body(raw)
                except WireError as err:
                    self._send(error_answer(400, str(err), param=err.param))
                    return
                headers = {k: v for k, v in self.headers.items()}
                harness, task_id = task_key(request, headers, server.options.task_from)
                end = self.headers.get(END_HEADER, "").strip().lower() in ("1", "true", "yes")
                exchange = Exchange(request, pending_request(request, harness, task_id,
                                                             server._next_id()), end=end)
                server.hub.submit(exchange)
                answer = self._wait(exchange)
                if answer is not None:
                    self._send(answer)

            def _wait(self, exchange: Exchange) -> HttpAnswer | None:
                limit = server.options.answer_timeout
                start = server._clock()
                while True:
                    try:
                        return exchange.response(0.1)
                    except TimeoutError:
                        pass
                    if _closed(self.connection):
                        exchange.pending.abandon("the harness closed the connection")
                        self.close_connection = True
                        return None  # the env records the abandoned step
                    if limit is not None and server._clock() - start > limit and \
                            exchange.pending.abandon(f"not answered within {limit:g} s"):
                        exchange.complete(error_answer(
                            504, f"no answer within {limit:g} s", "timeout"))

            def _score(self, raw: bytes, *, end_only: bool) -> None:
                try:
                    report = read_report(raw, self.headers, end_only=end_only)
                except BodyError as err:
                    self._send(error_answer(400, str(err), param=err.param))
                    return
                if end_only:
                    if report.task is None or not server.hub.end(report.harness, report.task):
                        self._send(error_answer(404, "no running episode for that harness "
                                                     "and task"))
                        return
                    self._send(HttpAnswer(200, b'{"ended": true}'))
                    return
                found = server.hub.report(report.harness, report.task, report.scores)
                if found is None:
                    self._send(error_answer(404, "no episode of that harness and task"))
                    return
                self._send(HttpAnswer(200, json.dumps(found).encode()))

        return Handler


__all__ = ["MAX_BODY", "ExternalServer", "Hub", "ServerOptions", "is_loopback"]
