"""The shared page sandbox (issue 16 item 7): a submitted page reaches only the task's resource
server, cannot read files, is refused over the size limit, and a page whose script hangs fails
with ``timeout`` within the limit while the next render in the same browser works.

One Chromium and one resource server per module; an outside server on another port counts
every request it gets (any count above zero is an escape)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import pytest_asyncio

from playbench.games.browser.browser import Browser
from playbench.games.coding.sandbox import Limits, RenderFailed, Sandbox, SiteServer

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.browser]

LIMIT = 2.0


@pytest.fixture(scope="module")
def outside() -> Iterator[list[str]]:
    hits: list[str] = []

    class Counter(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            hits.append(self.path)
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Counter)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    hits.append(f"port:{server.server_address[1]}")
    yield hits
    server.shutdown()
    server.server_close()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def sandbox():
    with SiteServer() as server:
        async with Browser() as browser:
            yield Sandbox(browser, server, Limits(code_bytes=4000, script_seconds=LIMIT))


async def test_page_sees_its_files_and_resources(sandbox):
    files = {"index.html": '<link rel="stylesheet" href="style.css"><h1 id="t">Title</h1>'
                           '<script src="script.js"></script>',
             "style.css": "h1 { color: rgb(10, 20, 30); }",
             "script.js": "document.getElementById('t').dataset.ran = 'yes';",
             "images/a.txt": "resource"}
    async with sandbox.open(files) as page:
        got = await page.evaluate("() => [getComputedStyle(document.getElementById('t')).color,"
                                  " document.getElementById('t').dataset.ran]")
        text = await page.evaluate("async () => (await fetch('images/a.txt')).text()")
    assert got == ["rgb(10, 20, 30)", "yes"]
    assert text == "resource"


async def test_other_hosts_and_files_are_refused(sandbox, outside):
    port = outside[0].split(":")[1]
    code = (f'<img src="http://127.0.0.1:{port}/img.png"><img src="file:///etc/hostname">'
            f'<script>fetch("http://127.0.0.1:{port}/x").catch(() => 0);</script>')
    async with sandbox.open({"index.html": code}) as page:
        await page.pause(500)
        blocked = list(page.session.blocked)
    assert outside[1:] == []
    assert any(u.startswith("file:") for u in blocked)
    assert any(f":{port}/" in u for u in blocked)


async def test_code_over_the_limit_is_refused_before_rendering(sandbox):
    with pytest.raises(RenderFailed) as err:
        async with sandbox.open({"index.html": "<p>" + "x" * 5000}):
            pass
    assert err.value.reason == "too_large"


@pytest.mark.parametrize("code", [
    "<script>while (true) {}</script>",
    "<button id='b' onclick='for(;;){}'>go</button>",
    "<script>setTimeout(() => { while (1) {} }, 100)</script>",
])
async def test_hanging_script_fails_within_the_limit(sandbox, code):
    start = time.monotonic()
    with pytest.raises(RenderFailed) as err:
        async with sandbox.open({"index.html": code}) as page:
            if "button" in code:
                await page.click("#b")
            await page.pause(1000)
    assert err.value.reason == "timeout"
    assert time.monotonic() - start < 2 * LIMIT + 3
    async with sandbox.open({"index.html": "<p id='p'>after</p>"}) as page:
        assert await page.evaluate("() => document.getElementById('p').textContent") == "after"


async def test_game_time_fires_timers_and_finishes_transitions(sandbox):
    code = ("<style>#b{width:10px;transition:width 30s}#b.wide{width:300px}</style>"
            "<div id='b'>x</div><script>setTimeout(() => b.classList.add('wide'), 900)</script>")
    async with sandbox.open({"index.html": code}) as page:
        before = await page.evaluate("() => b.getBoundingClientRect().width")
        await page.pause(1000)
        after = await page.evaluate("() => b.getBoundingClientRect().width")
    assert (before, after) == (10, 300)


async def test_missing_element_is_an_interaction_failure(sandbox):
    with pytest.raises(RenderFailed) as err:
        async with sandbox.open({"index.html": "<p>no buttons</p>"}) as page:
            await page.click(".go")
    assert err.value.reason == "interaction"
