"""WebRTC in sandboxed pages (issue 27): a page's STUN binding request and TURN allocation (with
a username the page chose) never leave Chromium, and the attempt is recorded as blocked.

A UDP listener on 127.0.0.1 stands for the outside: any datagram it receives is an escape. The
shared layer (:class:`PageSession`, used by web tasks, WebUI, CSS repair and browser games) is
tested here; each kind's own step record is tested beside the kind."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import pytest_asyncio
from playwright.async_api import async_playwright

from playbench.games.browser.browser import LAUNCH_ARGS, NO_SANDBOX, Browser, chromium_executable
from playbench.games.browser.session import SessionOptions
from playbench.games.browser.webrtc import MAX_URLS, attempt_records
from tests.web.probes import UdpListener, webrtc_script

in_module_loop = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser():
    async with Browser() as b:
        yield b


@pytest.fixture
def udp() -> Iterator[UdpListener]:
    with UdpListener() as listener:
        yield listener


def serve(html: str) -> ThreadingHTTPServer:
    """One page at every path, on 127.0.0.1."""
    body = html.encode()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def page_with(port: int) -> str:
    return f"<!doctype html><title>rtc</title><script>{webrtc_script(port)}</script>"


@pytest.mark.browser
@in_module_loop
async def test_a_page_gets_no_webrtc_and_its_attempt_is_recorded(browser, udp):
    server = serve(page_with(udp.port))
    url = f"http://127.0.0.1:{server.server_address[1]}/game.html"
    session = await browser.new_session(SessionOptions(frozenset({f"127.0.0.1:"
                                                                  f"{server.server_address[1]}"})))
    try:
        await session.open_tabs([url])
        tries = await session.page.evaluate("window.__rtcDone")
        blocked = session.take_blocked()
    finally:
        await session.close()
        server.shutdown()
    assert udp.received == []
    assert tries == ["page: NotAllowedError", "webkit: NotAllowedError",
                     "iframe: NotAllowedError"]
    webrtc = [b for b in blocked if b["type"] == "webrtc"]
    stun, turn = f"stun:127.0.0.1:{udp.port}", f"turn:127.0.0.1:{udp.port}?transport=udp"
    assert [b["url"] for b in webrtc] == [stun, turn] * 3
    assert {(b["via"], b["page"]) for b in webrtc} == {("webrtc", url)}
    assert "PAGE-CHOSEN-DATA" not in json.dumps(blocked)  # the TURN username is not kept


@pytest.mark.browser
@in_module_loop
async def test_chromium_itself_sends_no_webrtc_udp_even_with_the_api_left_in(udp):
    """The second layer alone: PlayBench's launch switches, a page whose WebRTC API is intact."""
    server = serve(page_with(udp.port))
    async with async_playwright() as pw:
        chromium = await pw.chromium.launch(executable_path=chromium_executable(),
                                            args=[*LAUNCH_ARGS, NO_SANDBOX],
                                            chromium_sandbox=False)
        try:
            page = await (await chromium.new_context()).new_page()
            await page.goto(f"http://127.0.0.1:{server.server_address[1]}/")
            tries = await page.evaluate("window.__rtcDone")
        finally:
            await chromium.close()
            server.shutdown()
    assert tries == ["page: gathered", "webkit: gathered", "iframe: gathered"]
    assert udp.received == []


def test_what_a_page_reports_is_held_to_text_and_cut():
    assert attempt_records("RTCPeerConnection", []) == [("webrtc:RTCPeerConnection",
                                                         "RTCPeerConnection")]
    assert attempt_records(None, "stun:x") == [("webrtc:RTCPeerConnection", "RTCPeerConnection")]
    many = attempt_records("webkitRTCPeerConnection", [f"stun:h{i}" * 100 for i in range(50)]
                           + [7, None, {"a": 1}])
    assert len(many) == MAX_URLS and all(len(u) <= 300 for u, _ in many)
    assert {api for _, api in many} == {"webkitRTCPeerConnection"}
