"""The offline endpoint's HTTP server: ``POST /v1/chat/completions`` and ``GET /v1/models``.

A threaded stdlib HTTP/1.1 server (keep-alive, one thread per connection), so it needs no extra
package and runs in-process for the demo profile and the tests or in the foreground for
``playbench serve-model``. Requests may carry image parts and tools; they are accepted and
ignored, since the answer comes from the state hint (``playbench.app.agents.hints``). Without a hint
the server replies with a short text saying so (what ``playbench models test`` sees).
"""

from __future__ import annotations

import contextlib
import json
import logging
import random
import socket
import threading
import time
import uuid
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from playbench.app.agents.hints import HEADER, Hint, HintError, decode_hint
from playbench.app.agents.protocols import family_of, make_protocols
from playbench.app.agents.protocols.base import Reply
from playbench.app.agents.serve.faults import FaultRule, parse_faults, pick_fault
from playbench.app.agents.serve.noise import noisy
from playbench.app.agents.serve.policies import Policy, make_policy
from playbench.app.agents.serve.position import Position, PositionError, random_moves, rebuild
from playbench.app.agents.serve.web import random_web_action
from playbench.app.core.settings import Setting, UnknownSetting, get_setting
from playbench.games.kind import default_registry, demo_moves

log = logging.getLogger(__name__)


@dataclass
class ServeOptions:
    policy: str = "oracle"
    noise: float = 0.0
    latency_ms: float = 0.0
    faults: str = ""
    seed: int = 0
    host: str = "127.0.0.1"
    port: int = 0
    hold_seconds: float = 30.0
    """How long a ``timeout`` fault holds the request before dropping it."""
    retry_after_ms: int = 200
    """What a ``429`` fault asks the client to wait."""
    streaming: bool = True
    """Whether ``stream: true`` requests are answered with server-sent events; False answers
    them with HTTP 400, as some OpenAI-compatible servers do."""


@dataclass
class Stats:
    requests: int = 0
    replies: int = 0
    noisy: int = 0
    faults: dict[str, int] = field(default_factory=dict)
    arrivals: list[float] = field(default_factory=list)
    """When each request arrived (``time.time()``), so a rate can be measured at the server."""


def estimate_usage(body: dict[str, Any], content: str) -> tuple[int, int]:
    """Token counts to report (4 characters a token; 85 per image), so accounting is exercised."""
    chars, images = 0, 0
    for m in body.get("messages", []):
        c = m.get("content") if isinstance(m, dict) else None
        if isinstance(c, str):
            chars += len(c)
        elif isinstance(c, list):
            for part in c:
                if isinstance(part, dict) and part.get("type") == "text":
                    chars += len(str(part.get("text", "")))
                else:
                    images += 1
    if body.get("tools"):
        chars += len(json.dumps(body["tools"]))
    return chars // 4 + 85 * images + 1, len(content) // 4 + 1


def completion_json(model: str, reply: Reply, usage: tuple[int, int]) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": reply.content or None}
    if reply.tool_calls:
        message["tool_calls"] = [{"id": c.id, "type": "function",
                                  "function": {"name": c.name, "arguments": c.arguments}}
                                 for c in reply.tool_calls]
    if message["content"] is None and not reply.tool_calls:
        message["content"] = ""
    return {"id": f"chatcmpl-{uuid.uuid4().hex[:12]}", "object": "chat.completion",
            "created": int(time.time()), "model": model,
            "choices": [{"index": 0, "message": message,
                         "finish_reason": "tool_calls" if reply.tool_calls else "stop"}],
            "usage": {"prompt_tokens": usage[0], "completion_tokens": usage[1],
                      "total_tokens": usage[0] + usage[1]}}


def stream_pieces(text: str, size: int = 12) -> list[str]:
    """The reply text cut into pieces of about ``size`` characters, at spaces when it can."""
    pieces: list[str] = []
    rest = text
    while rest:
        cut = len(rest) if len(rest) <= size else (rest.rfind(" ", 1, size + 1) + 1 or size)
        pieces.append(rest[:cut])
        rest = rest[cut:]
    return pieces


def chunk_events(model: str, reply: Reply, pieces: list[str],
                 usage: tuple[int, int] | None) -> list[dict[str, Any]]:
    """The chat.completion.chunk objects of a streamed reply, in order."""
    base = {"id": f"chatcmpl-{uuid.uuid4().hex[:12]}", "object": "chat.completion.chunk",
            "created": int(time.time()), "model": model}

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    events = [chunk({"role": "assistant", "content": ""})]
    events += [chunk({"content": p}) for p in pieces]
    if reply.tool_calls:
        events.append(chunk({"tool_calls": [
            {"index": i, "id": c.id, "type": "function",
             "function": {"name": c.name, "arguments": c.arguments}}
            for i, c in enumerate(reply.tool_calls)]}))
    events.append(chunk({}, "tool_calls" if reply.tool_calls else "stop"))
    if usage is not None:
        events.append({**base, "choices": [], "usage": {
            "prompt_tokens": usage[0], "completion_tokens": usage[1],
            "total_tokens": usage[0] + usage[1]}})
    return events


class ModelServer:
    """Start with :meth:`start` (background thread) or :meth:`serve_forever`; stop with
    :meth:`stop`. ``url`` is the base URL to give an OpenAI client."""

    def __init__(self, options: ServeOptions | None = None, policy: Policy | None = None
                 ) -> None:
        self.options = options or ServeOptions()
        if not 0.0 <= self.options.noise <= 1.0:
            raise ValueError(f"--noise must be between 0 and 1, got {self.options.noise}")
        if self.options.latency_ms < 0:
            raise ValueError(f"--latency must not be negative, got {self.options.latency_ms}")
        self.policy = policy or make_policy(self.options.policy)
        self.rules: tuple[FaultRule, ...] = parse_faults(self.options.faults)
        self.protocols = make_protocols()
        self.stats = Stats()
        self.stopping = threading.Event()
        self._lock = threading.Lock()
        self._fault_rng = random.Random(f"faults:{self.options.seed}")
        self._thread: threading.Thread | None = None
        self.httpd = _Server((self.options.host, self.options.port), _Handler)
        self.httpd.owner = self

    @property
    def url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def start(self) -> ModelServer:
        self._thread = threading.Thread(target=self.httpd.serve_forever, name="serve-model",
                                        daemon=True)
        self._thread.start()
        return self

    def serve_forever(self) -> None:
        self.httpd.serve_forever()

    def stop(self) -> None:
        self.stopping.set()
        if self._thread is not None:
            self.httpd.shutdown()
            self._thread.join(timeout=5)
        self.httpd.server_close()

    def __enter__(self) -> ModelServer:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    # -- answering ------------------------------------------------------------------------

    def next_fault(self) -> str | None:
        with self._lock:
            self.stats.requests += 1
            self.stats.arrivals.append(time.time())
            kind = pick_fault(self.rules, self.stats.requests, self._fault_rng)
            if kind:
                self.stats.faults[kind] = self.stats.faults.get(kind, 0) + 1
            return kind

    def answer(self, hint_text: str | None) -> Reply:
        """The reply for a request carrying ``hint_text`` (the raw header) or none."""
        if not hint_text:
            return Reply(f"serve-model ({self.policy.name}) is up. It answers game requests "
                         f"that carry the {HEADER} header (profiles with state_hints).")
        hint = decode_hint(hint_text)
        rng = random.Random(f"{self.options.seed}:{hint.level_hash}:{hint.seed}:"
                            f"{hint.decision}:{len(hint.steps)}")
        family = family_of(hint.setting, hint.game)
        protocol = self.protocols[family]
        own = kind_demo_moves(hint, self.policy.name, rng)
        if own is not None:  # a kind whose positions are not rebuilt here (browser games)
            if not own:
                return Reply("There is no move to make here.")
            return protocol.format_answer(own, hint.game, _setting(hint, None))
        # Web hints carry the page facts themselves; board positions are rebuilt.
        pos = rebuild(hint) if hint.web is None and (
            self.policy.needs_position or self.options.noise) else None
        if self.options.noise and rng.random() < self.options.noise:
            with self._lock:
                self.stats.noisy += 1
            guess = ([random_web_action(hint.web, rng)] if hint.web is not None
                     else random_moves(pos, rng, 1) if pos is not None else [])
            return noisy(protocol, hint.game, _setting(hint, pos), guess, rng)
        answer = self.policy.answer(pos, hint, rng)
        if isinstance(answer, Reply):
            return answer
        if not answer:
            return Reply("There is no move to make here.")
        return protocol.format_answer(answer, hint.game, _setting(hint, pos))


def kind_demo_moves(hint: Hint, policy: str, rng: random.Random) -> list[str] | None:
    """The next action(s) the hint's kind itself gives for ``policy`` (a kind implementing
    ``playbench.games.capabilities.DemoMoves``), or None when it gives none."""
    if hint.web is not None or not hint.game:
        return None
    kinds = default_registry()
    if hint.game not in kinds:
        return None
    return demo_moves(kinds.get(hint.game), hint.level, hint.setting,
                      [a for a, _ in hint.steps], policy, rng)


def _setting(hint: Hint, pos: Position | None) -> Setting:
    """The setting a reply is formatted for: the rebuilt position's, else the hint's."""
    if pos is not None:
        return pos.setting
    try:
        return get_setting(hint.setting, hint.game or None)
    except (UnknownSetting, KeyError):  # KeyError: an unknown kind
        raise PositionError(f"unknown setting {hint.setting!r}") from None


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    allow_reuse_address = True
    # socketserver's default listen backlog is 5: a burst of concurrent episodes opening their
    # connections at once overflowed it, and the dropped SYNs were retried a second later.
    request_queue_size = 1024
    owner: ModelServer

    def handle_error(self, request: Any, client_address: Any) -> None:
        log.debug("serve-model: connection from %s failed", client_address, exc_info=True)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def setup(self) -> None:
        super().setup()
        # Headers and body go out in separate writes; without this, Nagle's algorithm and the
        # client's delayed ACK add ~40 ms to every keep-alive reply.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, fmt: str, *args: Any) -> None:
        log.debug("serve-model: " + fmt, *args)

    def _send(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def _error(self, status: int, message: str, code: str, kind: str = "invalid_request_error",
               headers: dict[str, str] | None = None) -> None:
        self._send(status, {"error": {"message": message, "type": kind, "code": code}}, headers)

    def do_GET(self) -> None:  # noqa: N802 - the stdlib's naming
        owner = self.server.owner
        if self.path.rstrip("/") in ("/v1/models", "/models"):
            self._send(200, {"object": "list", "data": [
                {"id": f"playbench-{owner.policy.name}", "object": "model",
                 "owned_by": "playbench"}]})
        elif self.path.rstrip("/") in ("", "/health", "/v1"):
            self._send(200, {"status": "ok", "policy": owner.policy.name})
        else:
            self._error(404, f"no route {self.path}", "not_found")

    def do_POST(self) -> None:  # noqa: N802
        owner = self.server.owner
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if self.path.rstrip("/") not in ("/v1/chat/completions", "/chat/completions"):
            self._error(404, f"no route {self.path}", "not_found")
            return
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            self._error(400, "the request body is not JSON", "invalid_json")
            return
        if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
            self._error(400, "a chat completion needs a list of messages", "invalid_request")
            return
        fault = owner.next_fault()
        if fault and self._fault(fault):
            return
        try:
            reply = owner.answer(self.headers.get(HEADER))
        except (HintError, PositionError) as err:
            self._error(400, str(err), "bad_hint")
            return
        model = str(body.get("model") or f"playbench-{owner.policy.name}")
        usage = estimate_usage(body, reply.raw)
        if body.get("stream") and not owner.options.streaming:
            self._error(400, "streaming is not supported by this endpoint", "unsupported")
            return
        if body.get("stream"):
            include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
            self._stream(model, reply, usage if include_usage else None)
            return
        if owner.options.latency_ms and owner.stopping.wait(owner.options.latency_ms / 1000.0):
            return
        with owner._lock:
            owner.stats.replies += 1
        self._send(200, completion_json(model, reply, usage))

    def _stream(self, model: str, reply: Reply, usage: tuple[int, int] | None) -> None:
        """Answer as server-sent events, the reply text in small pieces spread over the
        latency (half before the first piece, half across the rest), so a client sees the
        answer arrive the way a real model's does."""
        owner = self.server.owner
        pieces = stream_pieces(reply.content)
        wait = owner.options.latency_ms / 1000.0
        if wait and owner.stopping.wait(wait / 2):
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for i, event in enumerate(chunk_events(model, reply, pieces, usage)):
            self._chunk(f"data: {json.dumps(event)}\n\n".encode())
            if wait and 0 < i <= len(pieces) and owner.stopping.wait(wait / 2 / len(pieces)):
                return
        self._chunk(b"data: [DONE]\n\n")
        self._chunk(b"")
        with owner._lock:
            owner.stats.replies += 1

    def _chunk(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):x}\r\n".encode("ascii") + data + b"\r\n")
        self.wfile.flush()

    def _fault(self, kind: str) -> bool:
        """Act out an injected fault; True when the request has been dealt with."""
        owner = self.server.owner
        if kind == "429":
            ms = owner.options.retry_after_ms
            self._error(429, "rate limit reached (injected)", "rate_limit_exceeded",
                        "rate_limit_error", {"Retry-After": str(max(1, -(-ms // 1000))),
                                             "retry-after-ms": str(ms)})
        elif kind in ("500", "503"):
            self._error(int(kind), f"server error {kind} (injected)", "server_error",
                        "server_error")
        elif kind == "context":
            self._error(400, "This request is longer than the model's maximum context length "
                             "(injected).", "context_length_exceeded")
        elif kind == "auth":
            self._error(401, "invalid API key (injected)", "invalid_api_key")
        elif kind == "malformed":
            self._send(200, b'{"id": "chatcmpl-broken", "choices": [{"message": ')
        elif kind == "cut":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "400")
            self.end_headers()
            self.wfile.write(b'{"id": "chatcmpl-cut", "choi')
            self.wfile.flush()
            self._drop()
        elif kind == "timeout":
            owner.stopping.wait(owner.options.hold_seconds)
            self._drop()
        return True

    def _drop(self) -> None:
        self.close_connection = True
        with contextlib.suppress(OSError):
            self.connection.shutdown(socket.SHUT_RDWR)
