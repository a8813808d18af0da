"""The web sandbox (issue 13): redirects, WebSockets and self-navigating pages cannot reach a host
outside the task's, every refusal is recorded on the step that caused it, and Chromium runs with
its own sandbox wherever the platform lets it.

Each test plays against two real HTTP servers on 127.0.0.1: the task's site ("inside") and an
outside one on another port that counts every connection it gets - any count above zero is an
escape.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import logging
import os
import socket
import stat
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from playbench.app.core.episode import Episode
from playbench.app.core.recorder import DbRecorder
from playbench.app.core.settings import get_setting
from playbench.db.engine import open_database
from playbench.db.store import Store
from playbench.games.browser.browser import SYSTEM_CHROMIUM, Browser
from playbench.games.browser.fence import BLOCK_HEADER, NetworkFence
from playbench.games.web.config import WebConfig
from playbench.games.web.env import WebTaskEnv
from playbench.games.web.kind import VWA_BUDGET
from tests.web.conftest import ListPlayer, play, web_task

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.browser]
SECRET = "OUTSIDE-SECRET-7f3a"
WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class Outside:
    """A TCP listener on its own port that counts connections and answers any HTTP request
    with a page holding :data:`SECRET`."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.connections = 0
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            with conn:
                conn.settimeout(2)
                try:
                    conn.recv(65536)
                    body = f"<h1>{SECRET}</h1>".encode()
                    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
                                 b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(body)
                                 + body)
                except OSError:
                    pass

    def close(self) -> None:
        with contextlib.suppress(OSError):  # wakes the thread blocked in accept()
            self.sock.shutdown(socket.SHUT_RDWR)  # (closing alone does not, on Linux)
        self.sock.close()
        self._thread.join(timeout=5)


def inside_server(pages: Callable[[str], tuple[int, dict[str, str], str]]) -> ThreadingHTTPServer:
    """The task's site: ``pages(path)`` gives (status, headers, body) for each GET; a
    WebSocket handshake on any path is accepted and sent one message, "hello"."""
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            key = self.headers.get("Sec-WebSocket-Key")
            if key:
                digest = hashlib.sha1((key + WS_GUID).encode()).digest()
                accept = base64.b64encode(digest)
                self.wfile.write(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                                 b"Connection: Upgrade\r\nSec-WebSocket-Accept: " + accept
                                 + b"\r\n\r\n\x81\x05hello")  # one unmasked text frame
                self.wfile.flush()
                self.connection.settimeout(10)
                with contextlib.suppress(OSError):
                    self.rfile.read(1)  # until the browser closes or sends
                self.close_connection = True
                return
            status, headers, body = pages(self.path)
            data = body.encode()
            self.send_response(status)
            for k, v in {"Content-Type": "text/html; charset=utf-8", **headers}.items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@pytest.fixture
def outside() -> Iterator[Outside]:
    out = Outside()
    yield out
    out.close()


@pytest.fixture
def inside(outside: Outside) -> Iterator[str]:
    """The task's site, whose pages try every way out towards ``outside``."""
    out = outside.url
    ws = out.replace("http://", "ws://")
    pages = {
        "/": (200, {}, "<title>home</title><a href='/redirect'>go</a><p>inside home</p>"),
        "/redirect": (302, {"Location": f"{out}/page"}, ""),
        "/img-redirect": (302, {"Location": f"{out}/pixel.png"}, ""),
        "/with-image": (200, {}, "<title>pic</title><img src='/img-redirect'><p>inside pic</p>"),
        "/socket": (200, {}, "<title>socket</title><p>inside socket</p><script>"
                             f"const s = new WebSocket('{ws}/live');"
                             "s.onclose = () => { document.title = 'socket closed'; };"
                             "</script>"),
        "/socket-home": (200, {}, "<title>socket home</title><p>inside socket home</p><script>"
                                  "const s = new WebSocket("
                                  "location.origin.replace('http', 'ws') + '/live');"
                                  "s.onmessage = (e) => { document.title = 'got ' + e.data; };"
                                  "</script>"),
        "/refresh": (200, {}, f"<meta http-equiv='refresh' content='0;url={out}/meta'>"
                              "<p>inside refresh</p>"),
        "/script-nav": (200, {}, "<p>inside script</p><script>"
                                 f"setTimeout(() => {{ location.href = '{out}/js'; }}, 30);"
                                 "</script>"),
    }
    server = inside_server(lambda path: pages.get(path, (404, {}, "no such page")))
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def env_on(browser: Browser, base: str) -> WebTaskEnv:
    return WebTaskEnv(browser=browser, config=WebConfig(), sites={"CLASSIFIEDS": (base, None)},
                      axtree=False)


def blocked_of(result) -> list[dict[str, str]]:
    return [b for step in result.steps for b in step.info.get("blocked", [])]


async def test_a_redirect_to_another_port_is_refused_and_recorded(browser, inside, outside,
                                                                 db_url):
    player = ListPlayer([f"goto [{inside}/redirect]", f"goto [{inside}/with-image]", "stop [ok]"])
    store = Store(open_database(db_url))
    env = env_on(browser, inside)
    try:
        result = await Episode(env, player, web_task(), setting=get_setting("default"),
                               budget=VWA_BUDGET, recorder=DbRecorder(store)).run()
    finally:
        await env.close()
    assert outside.connections == 0
    assert result.status == "done" and result.end_reason == "stopped"
    hop, image, stop = store.steps(result.episode_id)  # as stored in the database
    assert not hop.valid and hop.invalid_reason is not None
    assert f"{inside}/redirect redirected to {outside.url}/page" in hop.invalid_reason
    assert {"url": f"{outside.url}/page", "type": "document", "page": f"{inside}/",
            "via": "proxy", "redirected_from": f"{inside}/redirect"} in hop.info["blocked"]
    shown = player.seen[1][0]  # what the player saw after the redirect
    assert SECRET not in shown.text and "Blocked by PlayBench" in shown.text
    assert image.valid
    assert [(b["url"], b["type"], b["page"]) for b in image.info["blocked"]] == [
        (f"{outside.url}/pixel.png", "image", f"{inside}/with-image")]
    assert "blocked" not in stop.info


async def test_a_websocket_to_another_host_is_refused_and_recorded(browser, inside, outside):
    env = env_on(browser, inside)
    try:
        await env.reset(web_task(), 0)
        first = await env.step(env.parse_action(f"goto [{inside}/socket]"))
        await env.session.page.wait_for_function("document.title === 'socket closed'")
        assert first.valid and outside.connections == 0
        ws = f"{outside.url.replace('http://', 'ws://')}/live"
        second = await env.step(env.parse_action("scroll [down]"))
        # recorded on the step during which the page opened it (or the next one)
        seen = first.info.get("blocked", []) + second.info.get("blocked", [])
        assert [(b["url"], b["type"], b["page"]) for b in seen] == [
            (ws, "websocket", f"{inside}/socket")]
        assert ws in env.session.blocked
    finally:
        await env.close()


async def test_a_websocket_to_the_tasks_own_host_still_works(browser, inside, outside):
    env = env_on(browser, inside)
    try:
        await env.reset(web_task(), 0)
        first = await env.step(env.parse_action(f"goto [{inside}/socket-home]"))
        await env.session.page.wait_for_function("document.title === 'got hello'")
        second = await env.step(env.parse_action("scroll [down]"))
        assert first.valid and second.valid
        assert "blocked" not in first.info and "blocked" not in second.info
        assert env.session.blocked == [] and outside.connections == 0
    finally:
        await env.close()


@pytest.mark.parametrize("path, target", [("/refresh", "/meta"), ("/script-nav", "/js")])
async def test_a_page_that_navigates_away_by_itself_is_a_blocked_navigation(
        browser, inside, outside, path, target):
    player = ListPlayer([f"goto [{inside}{path}]", "scroll [down]", "scroll [up]", "stop [ok]"])
    result = await play(env_on(browser, inside), web_task(), player)
    assert result.status == "done" and result.end_reason == "stopped"
    assert outside.connections == 0
    assert [s.action for s in result.steps] == [
        f"goto [{inside}{path}]", "scroll [down]", "scroll [up]", "stop [ok]"]
    navs = [b for b in blocked_of(result) if b["type"] == "document"]
    assert [(b["url"], b["page"]) for b in navs] == [(f"{outside.url}{target}", f"{inside}{path}")]
    assert all(SECRET not in obs.text for obs, _ in player.seen)


# -- the fence on its own ----------------------------------------------------------------------

def through(fence: NetworkFence, request: bytes) -> bytes:
    """Send ``request`` to the fence and read its whole answer (until it closes)."""
    port = int(fence.address.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(request)
        chunks = []
        while data := conn.recv(65536):
            chunks.append(data)
    return b"".join(chunks)


async def test_the_fence_refuses_tunnels_and_requests_to_other_hosts(inside, outside):
    refused: list[tuple[str, str]] = []
    fence = NetworkFence(frozenset({inside.split("//")[1]}),
                         lambda what, kind: refused.append((what, kind)))
    fence.start()
    try:
        host = outside.url.split("//")[1]
        tunnel = f"CONNECT {host} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode()
        answer = await asyncio.to_thread(through, fence, tunnel)
        assert answer.startswith(b"HTTP/1.1 403")
        plain = f"GET {outside.url}/x HTTP/1.1\r\nHost: {host}\r\n\r\n".encode()
        answer = await asyncio.to_thread(through, fence, plain)
        assert answer.startswith(b"HTTP/1.1 403") and BLOCK_HEADER.encode() in answer
        assert SECRET.encode() not in answer and outside.connections == 0
        assert refused == [(host, "connect"), (f"{outside.url}/x", "http")]
    finally:
        fence.stop()


async def test_a_kept_alive_connection_cannot_carry_a_second_request_elsewhere(inside, outside):
    fence = NetworkFence(frozenset({inside.split("//")[1]}))
    fence.start()
    try:
        # two requests in one go on one connection: the first to the task's host, the second
        # to the outside one; the fence answers the first with Connection: close and stops.
        two = (f"GET {inside}/ HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n"
               f"GET {outside.url}/y HTTP/1.1\r\nHost: y\r\n\r\n").encode()
        answer = await asyncio.to_thread(through, fence, two)
        assert answer.startswith(b"HTTP/1.") and b"inside home" in answer
        assert b"\r\nConnection: close\r\n" in answer and answer.count(b"HTTP/1.") == 1
        assert SECRET.encode() not in answer and outside.connections == 0
    finally:
        fence.stop()


# -- Chromium's own sandbox ------------------------------------------------------------------

def wrapper(tmp_path: Path, name: str, script: str) -> str:
    """A stand-in Chromium executable: a shell script around the real one."""
    path = tmp_path / name
    path.write_text(f"#!/bin/sh\n{script}\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


HAS_NO_SANDBOX = 'case " $* " in *" --no-sandbox "*) no=1;; *) no=0;; esac'


async def test_the_sandbox_is_used_when_the_platform_allows_it(tmp_path):
    # A platform where the sandbox works: this Chromium refuses to be asked for --no-sandbox.
    # (It adds --no-sandbox itself only so that the real binary starts on this machine.)
    exe = wrapper(tmp_path, "chromium-with-sandbox", HAS_NO_SANDBOX + "\n"
                  'if [ $no = 1 ]; then echo "asked to drop the sandbox" >&2; exit 3; fi\n'
                  f'exec {SYSTEM_CHROMIUM} --no-sandbox "$@"')
    async with Browser(executable=exe) as b:
        assert b.sandboxed is True and b.sandbox_note == ""
        page = await (await b._browser.new_context()).new_page()  # it really runs
        await page.set_content("<p>up</p>")
        assert await page.inner_text("p") == "up"


async def test_without_a_sandbox_chromium_falls_back_and_says_why(tmp_path, caplog):
    exe = wrapper(tmp_path, "chromium-no-userns", HAS_NO_SANDBOX + "\n"
                  'if [ $no = 0 ]; then echo "No usable sandbox: user namespaces are off" >&2; '
                  "exit 1; fi\n"
                  f'exec {SYSTEM_CHROMIUM} "$@"')
    with caplog.at_level(logging.WARNING, logger="playbench.games.browser.browser"):
        async with Browser(executable=exe) as b:
            assert b.sandboxed is False
            assert "user namespaces are off" in b.sandbox_note
    assert any("--no-sandbox" in r.getMessage() and "user namespaces are off" in r.getMessage()
               for r in caplog.records)


async def test_this_machine_runs_chromium_sandboxed_unless_it_cannot(caplog):
    with caplog.at_level(logging.WARNING, logger="playbench.games.browser.browser"):
        async with Browser() as b:
            if os.geteuid() == 0:  # Chromium itself refuses its sandbox to root
                assert b.sandboxed is False and "root" in b.sandbox_note.lower()
            if b.sandboxed is False:
                assert b.sandbox_note and any(b.sandbox_note in r.getMessage()
                                              for r in caplog.records)
            else:
                assert b.sandboxed is True and b.sandbox_note == ""
