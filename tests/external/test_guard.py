"""Web pages cannot drive the endpoints: a request through another host name (DNS rebinding),
from another origin, or with a body type a page may send without asking (text/plain, forms)
is refused before its body is read - the proxy never calls its upstream for it - while the
OpenAI client and curl-like requests (no Origin) go through."""

from __future__ import annotations

import http.client
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import openai
import pytest

from playbench.app.agents.serve import ModelServer, ServeOptions
from playbench.app.harness.guard import allowed_hosts
from playbench.app.harness.hub import ProxyPlayer
from tests.external.helpers import running

if TYPE_CHECKING:
    from playwright.sync_api import Browser

BODY = json.dumps({"model": "m", "messages": [{"role": "user", "content": "hi"}]}).encode()


def send(url: str, headers: dict[str, str], *, method: str = "POST",
         path: str = "/v1/chat/completions", body: bytes = BODY) -> tuple[int, dict]:
    """One request with exactly these headers (Host included when given)."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        conn.putrequest(method, path, skip_host="Host" in headers)
        for name, value in {"Content-Length": str(len(body)), **headers}.items():
            conn.putheader(name, value)
        conn.endheaders(body if method == "POST" else None)
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()


@pytest.fixture
def proxy(db_url) -> Iterator[tuple[object, ModelServer]]:
    upstream = ModelServer(ServeOptions(port=0)).start()
    try:
        def maker(_queue):
            return lambda _ex: ProxyPlayer(upstream.url, "playbench-oracle",
                                           key="sk-guard-test-key-0123456789")

        with running(db_url, make_player=maker, via="proxy") as srv:
            yield srv, upstream
    finally:
        upstream.stop()


JSON = {"Content-Type": "application/json"}


@pytest.mark.parametrize(("headers", "status", "reason"), [
    ({**JSON, "Host": "rebind.attacker.example"}, 403, "DNS rebinding"),
    ({**JSON, "Host": "rebind.attacker.example:{port}"}, 403, "DNS rebinding"),
    ({**JSON, "Host": "127.0.0.1:1"}, 403, "not this endpoint's address"),
    ({**JSON, "Origin": "http://127.0.0.1:9999"}, 403, "Origin"),
    ({**JSON, "Origin": "null"}, 403, "Origin"),
    ({**JSON, "Origin": "https://evil.example"}, 403, "Origin"),
    ({**JSON, "Sec-Fetch-Site": "cross-site"}, 403, "Sec-Fetch-Site"),
    ({**JSON, "Sec-Fetch-Site": "same-site"}, 403, "Sec-Fetch-Site"),
    ({"Content-Type": "text/plain;charset=UTF-8"}, 415, "application/json"),
    ({"Content-Type": "application/x-www-form-urlencoded"}, 415, "application/json"),
    ({"Content-Type": "multipart/form-data; boundary=x"}, 415, "application/json"),
    ({}, 415, "untyped"),
])
def test_browser_shaped_requests_are_refused_and_never_reach_upstream(proxy, headers, status,
                                                                      reason):
    srv, upstream = proxy
    port = urlsplit(srv.url).port
    given = {k: v.format(port=port) for k, v in headers.items()}
    got, answer = send(srv.url, given)
    assert got == status, answer
    assert reason in answer["error"]["message"]
    got, answer = send(srv.url, given, method="GET", path="/v1/models") \
        if status == 403 else (403, answer)
    assert got == 403
    assert upstream.stats.requests == 0 and srv.hub.episodes == []


def test_harness_shaped_requests_go_through(proxy):
    srv, upstream = proxy
    port = urlsplit(srv.url).port
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LOCALHOST:{port}"):
        status, answer = send(srv.url, {**JSON, "Host": host})
        assert status == 200 and answer["choices"][0]["message"]["content"], answer
    # the endpoint's own origin is not a foreign one; a typed-in request says "none"
    status, _ = send(srv.url, {**JSON, "Origin": f"http://127.0.0.1:{port}",
                               "Sec-Fetch-Site": "same-origin"})
    assert status == 200
    status, _ = send(srv.url, {"Content-Type": "application/json; charset=utf-8",
                               "Sec-Fetch-Site": "none"})
    assert status == 200
    client = openai.OpenAI(base_url=srv.url, api_key="x", max_retries=0)
    assert client.chat.completions.create(model="m", messages=[
        {"role": "user", "content": "hello"}]).choices[0].message.content
    assert upstream.stats.requests == 6


def test_allowed_hosts_follow_the_bound_address():
    assert allowed_hosts("127.0.0.1", 8767) == {"127.0.0.1:8767", "localhost:8767"}
    assert allowed_hosts("::1", 8) == {"[::1]:8", "localhost:8"}
    assert allowed_hosts("127.0.0.1", 80) == {"127.0.0.1:80", "localhost:80", "127.0.0.1",
                                              "localhost"}
    assert allowed_hosts("0.0.0.0", 8767) is None  # needs a token; any Host then
    assert allowed_hosts("192.168.1.5", 8767) is None


@pytest.fixture
def chromium() -> Iterator[Browser]:
    """Debian's Chromium (or Playwright's), for one page from another local origin."""
    from playwright.sync_api import sync_playwright

    from playbench.games.browser.browser import chromium_executable

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable() or "/usr/bin/chromium",
                                    args=["--no-sandbox"])
        try:
            yield browser
        finally:
            browser.close()


class _Page(BaseHTTPRequestHandler):
    """Serves one attacking page on another local port."""

    html = b""

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(self.html)))
        self.end_headers()
        self.wfile.write(self.html)

    def log_message(self, format: str, *args: object) -> None:
        pass


def test_a_page_on_another_local_port_cannot_make_the_proxy_call_upstream(proxy, chromium):
    srv, upstream = proxy
    target = f"{srv.url}/chat/completions"
    body = json.dumps({"model": "m", "messages": [{"role": "user", "content": "from a page"}]})
    page_html = f"""<!doctype html><html><body>
<form id="f" method="POST" action="{target}" enctype="text/plain" target="sink">
<input name='{body[:-2]}' value='"}}]}}'></form><iframe name="sink"></iframe>
<script>
window.results = [];
const body = {json.dumps(body)};
Promise.allSettled([
  fetch("{target}", {{method: "POST", mode: "no-cors", body,
                      headers: {{"Content-Type": "text/plain"}}}}),
  fetch("{target}", {{method: "POST", body, headers: {{"Content-Type": "application/json"}}}}),
]).then(r => {{ window.results = r.map(x => x.status); document.getElementById("f").submit();
                window.submitted = true; }});
</script></body></html>""".encode()
    handler = type("Page", (_Page,), {"html": page_html})
    site = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=site.serve_forever, daemon=True).start()
    try:
        page = chromium.new_page()
        responses: list[int] = []
        page.on("response", lambda r: responses.append(r.status)
                if r.url.startswith(srv.url) else None)
        page.goto(f"http://127.0.0.1:{site.server_address[1]}/")
        page.wait_for_function("window.submitted === true")
        page.wait_for_function(f"() => {{ const f = document.querySelector('iframe'); "
                               f"try {{ return f.contentWindow.location.href.startsWith("
                               f"'{target}'); }} catch (e) {{ return true; }} }}")
        page.wait_for_load_state()
        page.close()
    finally:
        site.shutdown()
        site.server_close()
    # the no-cors fetch reached the endpoint (status opaque to the page) and was refused,
    # the JSON fetch was refused in its preflight, the form was refused: nothing upstream
    assert upstream.stats.requests == 0 and srv.hub.episodes == []
    assert responses and set(responses) <= {403, 415, 501}
