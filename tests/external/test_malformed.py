"""Malformed requests get HTTP 400 with an OpenAI error body naming the field - never a
traceback and a dropped connection - and nothing of them is queued or recorded; whatever a
harness says is shown to a person with its control characters spelled out."""

from __future__ import annotations

import http.client
import json
import threading
from urllib.parse import urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from playbench.app.cli.external import answer_on_terminal
from playbench.app.harness.queue import PendingRequest, Reply, RequestQueue
from tests.external.helpers import answering, running


def post(url: str, body: bytes, headers: dict[str, str | bytes] | None = None,
         path: str = "/v1/chat/completions") -> tuple[int, dict]:
    """POST ``body`` as given (headers too, bytes allowed); the status and the JSON answer.
    A connection dropped without an answer raises."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        conn.putrequest("POST", path)
        sent = {"Content-Type": "application/json", "Content-Length": str(len(body)),
                **(headers or {})}
        for name, value in sent.items():
            conn.putheader(name, value)
        conn.endheaders(body)
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()


def chat(messages: object, **extra: object) -> bytes:
    return json.dumps({"model": "m", "messages": messages, **extra}).encode()


USER = [{"role": "user", "content": "hello"}]

MALFORMED = [
    (chat(USER, tools=5), "tools", "must be an array"),
    (chat(USER, tools=True), "tools", "not a boolean"),
    (chat(USER, tools=[5]), "tools[0]", "a tool object"),
    (chat(USER, tools=[{"type": "function", "function": {"name": 3}}]),
     "tools[0].function.name", "a string"),
    (b'{"messages": ' + b"[" * 200_000 + b"]" * 200_000 + b"}", None, "nested deeper"),
    (b'{"messages": ' + b"[" * 100 + b"]" * 100 + b"}", "messages[0][0]", "nested deeper"),
    (b'{"model": "m", "messages": [{"role": "user", "content": "a\\ud800b"}]}',
     "messages[0].content", "lone surrogate"),
    (b"not json at all", None, "not JSON"),
    (b"\xff\xfe{}", None, "not UTF-8"),
    (b'{"messages": [{"role": "user", "content": NaN}]}', None, "NaN"),
    (b"[1, 2]", None, "must be a JSON object"),
    (chat("hello"), "messages", "array of message objects, not a string"),
    (chat([]), "messages", "non-empty"),
    (chat(["hi"]), "messages[0]", "message object"),
    (chat([{"content": "no role"}]), "messages[0].role", "a string"),
    (chat([{"role": "user", "content": 5}]), "messages[0].content", "not a number"),
    (chat([{"role": "user", "content": [{"type": "text", "text": 7}]}]),
     "messages[0].content[0].text", "a string"),
    (chat([{"role": "user", "content": [{"type": "image_url", "image_url": {"url": 1}}]}]),
     "messages[0].content[0].image_url.url", "a string"),
    (chat([{"role": "assistant", "tool_calls": [{"function": "f"}]}]),
     "messages[0].tool_calls[0].function", "an object"),
    (chat(USER, stream="yes"), "stream", "true or false"),
    (chat(USER, model=5), "model", "a string"),
    (chat([{"role": "user", "content": "x"}] * 4097), "messages", "the limit is 4096"),
    (chat([{"role": "user", "content": [{"type": "image_url", "image_url": {
        "url": "data:image/png;base64,AAAA"}}] * 257}]), "messages", "carry more than 256 images"),
]


@pytest.fixture
def endpoint(db_url):
    with running(db_url) as srv:
        yield srv


@pytest.mark.parametrize(("body", "param", "reason"), MALFORMED,
                         ids=[f"{i}-{m[1]}" for i, m in enumerate(MALFORMED)])
def test_each_malformed_body_gets_400_naming_the_field(endpoint, body, param, reason):
    status, answer = post(endpoint.url, body)
    assert status == 400, answer
    error = answer["error"]
    assert error["type"] == "invalid_request_error" and error["code"] == 400
    assert reason in error["message"]
    assert (error["param"] or "").startswith(param or "")
    if param is not None:
        assert param in error["message"]
    assert len(endpoint.queue) == 0 and endpoint.hub.episodes == []


@pytest.mark.parametrize("length", [b"\xb2", b"-1", b"1e3", b"12 34", b"99999999999999999999"])
def test_a_content_length_that_is_no_number_gets_400(endpoint, length):
    status, answer = post(endpoint.url, chat(USER), {"Content-Length": length})
    assert status == 400 and answer["error"]["param"] == "Content-Length"


@pytest.mark.parametrize(("body", "reason"), [
    (b'{"score": NaN}', "NaN"),
    (b'{"score": Infinity}', "Infinity"),
    (b'{"score": -1e308}', "finite number within"),
    (b'{"score": 1e999}', "finite"),
    (b'{"score": "1"}', "a number"),
    (b'{"success": 1}', "true or false"),
    (b'{"task": ["a"], "score": 1}', "task must be a string"),
    (b"[" * 100_000, "nested deeper"),
])
def test_scores_must_be_finite_and_in_range(endpoint, body, reason):
    status, answer = post(endpoint.url, body, path="/v1/playbench/score")
    assert status == 400, answer
    assert reason in answer["error"]["message"]


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=20)
FIELDS = st.sampled_from(["role", "content", "tools", "messages", "type", "text", "image_url",
                          "url", "function", "name", "tool_calls", "stream", "model"])
CHATTY = st.recursive(
    JSON, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(FIELDS, inner, max_size=4),
    max_leaves=25)
BODIES = (st.dictionaries(FIELDS, CHATTY, max_size=5) | JSON
          | st.builds(lambda m: {"model": "m", "messages": m}, CHATTY)
          | st.builds(lambda c, t: {"model": "m", "messages": [{"role": "user", "content": c}],
                                    "tools": t}, CHATTY, CHATTY))


def test_any_json_body_gets_an_answer_or_400(db_url):
    with running(db_url) as srv, answering(srv.queue, lambda _r: Reply("ok")):
        @settings(max_examples=150, deadline=None,
                  suppress_health_check=[HealthCheck.too_slow])
        @given(BODIES)
        def check(body: object) -> None:
            status, answer = post(srv.url, json.dumps(body).encode())
            if status == 200:
                assert answer["choices"][0]["message"]["content"] == "ok"
            else:
                assert status == 400, answer
                assert answer["error"]["message"]

        check()


def test_the_terminal_shows_control_characters_spelled_out_and_survives_bad_text():
    queue = RequestQueue()
    hostile = PendingRequest(harness="h\x1b[31m", task_id="t", messages=[
        {"role": "user", "content": "look\x1b]0;pwned\x07\x1b[2J\r\u202eevil\nnext\tline"}])
    broken = PendingRequest(harness="h", task_id="u", messages=[
        {"role": "user", "content": "half a character: \ud800"}])
    after = PendingRequest(harness="h", task_id="v", messages=[
        {"role": "user", "content": "still there?"}])
    for request in (hostile, broken, after):
        queue.put(request)
    shown: list[bytes] = []
    replies = ["one", "two", "three"]
    stop = threading.Event()

    def read(_prompt: str) -> str:
        reply = replies.pop(0)
        if not replies:
            stop.set()  # the loop ends after this answer
        return reply

    # a real terminal takes UTF-8 bytes: text it cannot encode raises, as print() would
    answer_on_terminal(queue, stop, read, lambda text: shown.append(text.encode("utf-8")))
    screen = b"\n".join(shown)
    assert b"\x1b" not in screen and b"\x07" not in screen and b"\r" not in screen
    assert b"\xe2\x80\xae" not in screen  # the right-to-left override
    assert b"look\\x1b]0;pwned\\x07\\x1b[2J\\x0d\\u202eevil\nnext\tline" in screen
    assert b"h\\x1b[31m / t" in screen and b"half a character: \\ud800" in screen
    assert [r.result(0) for r in (hostile, broken, after)] == [Reply("one"), Reply("two"),
                                                               Reply("three")]
