"""The key never goes back toward the harness, nor into the record: an upstream that repeats
the key it was sent - in a 401's body, in an ``X-Debug-Auth`` header and a cookie, in the text
and the tool call of a 200 answer, streamed or not - is proxied with only safe headers passed
back and the key masked in every body; the database file, its WAL and a JSONL export hold no
trace of it. (``tests/cli/test_secrets_in_answers.py``: the same upstream behind the ordinary
model client.)"""

from __future__ import annotations

import http.client
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from playbench.app.agents.redact import MASK
from playbench.app.harness.hub import ProxyPlayer
from tests.external.helpers import running

KEY = "sk-echoed-KEY-5e1f0b9d77a2"


class HostileUpstream:
    """An OpenAI-style endpoint that repeats the key it got everywhere it can: the request's
    model id picks the answer (``echo-200``, ``echo-stream``, ``echo-401``)."""

    def __init__(self) -> None:
        self.keys: list[str] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:  # noqa: N802 - the stdlib's naming
                self._answer(200, json.dumps({"object": "list", "data": [
                    {"id": "echo-200", "object": "model"}]}).encode())

            def do_POST(self) -> None:  # noqa: N802
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                body = json.loads(raw or b"{}")
                key = self.headers.get("Authorization", "").removeprefix("Bearer ")
                owner.keys.append(key)
                model = str(body.get("model"))
                if model == "echo-401":
                    data = json.dumps({"error": {"message": f"Incorrect API key provided: "
                                                            f"{key}", "code": "invalid_api_key"}})
                    self._answer(401, data.encode())
                    return
                text = f"Your key is {key}. Move: R"
                call = {"id": f"call-{key}", "type": "function",
                        "function": {"name": "act", "arguments": json.dumps({"key": key})}}
                if model == "echo-stream" or body.get("stream"):
                    chunks = [{"choices": [{"index": 0, "delta": {"role": "assistant",
                                                                  "content": text}}]},
                              {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}]
                    events = "".join(f"data: {json.dumps({'id': 'x', 'object': 'chat.completion.chunk', 'created': 0, 'model': model, **c})}\n\n"  # noqa: E501
                                     for c in chunks) + "data: [DONE]\n\n"
                    self._answer(200, events.encode(), "text/event-stream")
                    return
                message = {"role": "assistant", "content": text}
                if body.get("tools"):
                    message["tool_calls"] = [call]
                data = {"id": "chatcmpl-1", "object": "chat.completion", "created": 0,
                        "model": f"echo-of-{key}",
                        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
                        "usage": {"prompt_tokens": 5, "completion_tokens": 5,
                                  "total_tokens": 10}}
                self._answer(200, json.dumps(data).encode())

            def _answer(self, status: int, data: bytes,
                        kind: str = "application/json") -> None:
                key = self.headers.get("Authorization", "-")
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.send_header("X-Debug-Auth", key)
                self.send_header("Set-Cookie", f"session={key.removeprefix('Bearer ')}")
                self.send_header("X-Request-Id", "req-hostile-1")
                self.send_header("Retry-After", "1")
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def hostile() -> Iterator[HostileUpstream]:
    upstream = HostileUpstream()
    yield upstream
    upstream.close()


def ask(url: str, model: str, task: str, *, stream: bool = False,
        tools: bool = False) -> tuple[int, dict[str, str], bytes]:
    body: dict = {"model": model, "stream": stream,
                  "messages": [{"role": "user", "content": f"what is my key? ({task})"}]}
    if tools:
        body["tools"] = [{"type": "function", "function": {"name": "act", "parameters": {}}}]
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        conn.request("POST", "/v1/chat/completions", json.dumps(body).encode(),
                     {"Content-Type": "application/json", "X-PlayBench-Task": task,
                      "X-PlayBench-End": "1"})
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


def stored(path: Path) -> bytes:
    return b"".join(p.read_bytes() for p in path.parent.glob(path.name + "*") if p.is_file())


def test_the_proxy_passes_back_safe_headers_and_no_key(db_url, tmp_path, hostile):
    from playbench.app.exports.jsonl import export_jsonl

    def maker(_queue):
        return lambda _ex: ProxyPlayer(hostile.url, "echo", key=KEY)

    with running(db_url, make_player=maker, via="proxy") as srv:
        answers = [ask(srv.url, "echo-401", "a"), ask(srv.url, "echo-200", "b", tools=True),
                   ask(srv.url, "echo-stream", "c", stream=True)]
        srv.wait_idle()
        steps = [s for e in srv.hub.episodes for s in srv.store.steps(e)]
        export_jsonl(srv.store, tmp_path / "jsonl", srv.hub.episodes)
    assert hostile.keys == [KEY] * 3  # the upstream got the key, and echoed it
    assert [status for status, _, _ in answers] == [401, 200, 200]
    for _, headers, body in answers:
        names = {name.lower() for name in headers}
        assert "x-debug-auth" not in names and "set-cookie" not in names
        assert headers["X-Request-Id"] == "req-hostile-1" and headers["Retry-After"] == "1"
        assert KEY not in json.dumps(headers) and KEY.encode() not in body
        assert MASK.encode() in body
    answer = json.loads(answers[1][2])["choices"][0]["message"]
    assert answer["content"] == f"Your key is {MASK}. Move: R"
    assert json.loads(answer["tool_calls"][0]["function"]["arguments"]) == {"key": MASK}
    assert len(steps) == 3 and all(MASK in s.raw for s in steps)
    assert steps[1].action == f'act {{"key": "{MASK}"}}'
    assert steps[2].action == f"Your key is {MASK}. Move: R"
    assert KEY.encode() not in stored(Path(db_url.removeprefix("sqlite:///")))
    exported = b"".join(p.read_bytes() for p in (tmp_path / "jsonl").rglob("*") if p.is_file())
    assert exported and KEY.encode() not in exported and MASK.encode() in exported
