"""The recording proxy in front of serve-model: answers and faults (429, 500, a broken body)
pass through unchanged - compared byte for byte with a twin serve-model asked directly - and
every exchange is recorded as a step with the upstream model as participant."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import openai
import pytest

from playbench.app.agents.serve import ModelServer, ServeOptions
from playbench.app.harness.hub import ProxyPlayer
from tests.external.helpers import running

FAULTS = "429@2,500@3,malformed@4"


def post(url: str, body: dict, headers: dict[str, str]) -> tuple[int, bytes, dict[str, str]]:
    request = urllib.request.Request(f"{url}/chat/completions", json.dumps(body).encode(),
                                     {"Content-Type": "application/json", **headers})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read(), dict(response.headers)
    except urllib.error.HTTPError as err:
        return err.code, err.read(), dict(err.headers)


def body(n: int) -> dict:
    return {"model": "playbench-oracle",
            "messages": [{"role": "system", "content": "Be brief."},
                         {"role": "user", "content": "Which way?"},
                         *([{"role": "assistant", "content": "left"},
                            {"role": "user", "content": f"and now ({n})?"}] if n else [])]}


@pytest.fixture
def upstreams():
    proxied = ModelServer(ServeOptions(faults=FAULTS, port=0)).start()
    twin = ModelServer(ServeOptions(faults=FAULTS, port=0)).start()
    yield proxied, twin
    proxied.stop()
    twin.stop()


def test_faults_pass_through_unchanged_and_are_recorded(db_url, upstreams):
    proxied, twin = upstreams

    def maker(_queue):
        return lambda _ex: ProxyPlayer(proxied.url, "playbench-oracle")

    headers = {"X-PlayBench-Harness": "faulty", "X-PlayBench-Task": "t1"}
    with running(db_url, make_player=maker, via="proxy") as srv:
        got, direct = [], []
        for n in range(5):
            last = {"X-PlayBench-End": "1"} if n == 4 else {}
            got.append(post(srv.url, body(n), {**headers, **last}))
            direct.append(post(twin.url, body(n), {}))
        srv.wait_idle()
        (episode,) = srv.hub.episodes
        row = srv.store.episode(episode)
        steps = srv.store.steps(episode)
    statuses = [g[0] for g in got]
    assert statuses == [d[0] for d in direct] == [200, 429, 500, 200, 200]
    for (status, data, _), (_, twin_data, _) in zip(got, direct, strict=True):
        if status != 200 or data.startswith(b'{"id": "chatcmpl-broken"'):
            assert data == twin_data  # errors and broken bodies byte for byte
        else:
            mine, theirs = json.loads(data), json.loads(twin_data)
            assert mine["choices"][0]["message"] == theirs["choices"][0]["message"]
    assert got[1][2]["Retry-After"] == direct[1][2]["Retry-After"]
    assert got[1][2]["retry-after-ms"] == direct[1][2]["retry-after-ms"]
    assert got[3][1] == direct[3][1] and got[3][0] == 200  # the broken body, unchanged
    assert row.participant.kind == "model" and row.participant.name == "playbench-oracle"
    assert row.episode.meta["via"] == "proxy" and row.episode.end_reason == "harness_ended"
    assert [s.valid for s in steps] == [True, False, False, False, True]
    assert [s.invalid_kind for s in steps] == [None, "no_action", "no_action", "malformed", None]
    assert [s.info["http_status"] for s in steps] == statuses
    assert "429" in steps[1].invalid_reason and steps[1].raw == got[1][1].decode()
    assert steps[0].prompt_tokens > 0 and steps[0].latency_ms > 0
    assert steps[4].info["request"]["messages"][-1]["content"] == "and now (4)?"


def test_openai_client_sees_the_upstream_errors(db_url, upstreams):
    proxied, _ = upstreams

    def maker(_queue):
        return lambda _ex: ProxyPlayer(proxied.url, "playbench-oracle")

    with running(db_url, make_player=maker, via="proxy") as srv:
        client = openai.OpenAI(base_url=srv.url, api_key="x", max_retries=0)
        first = client.chat.completions.create(model="m", messages=body(0)["messages"])
        with pytest.raises(openai.RateLimitError):
            client.chat.completions.create(model="m", messages=body(1)["messages"])
        with pytest.raises(openai.InternalServerError):
            client.chat.completions.create(model="m", messages=body(2)["messages"])
        srv.hub.end("harness", srv.hub._latest_of["harness"][1])
        srv.wait_idle()
        steps = srv.store.steps(srv.hub.episodes[0])
    assert first.choices[0].message.content
    assert [s.info["http_status"] for s in steps] == [200, 429, 500]


def test_streamed_answers_pass_through_and_the_key_is_never_recorded(db_url, tmp_path,
                                                                     caplog):
    from tests.external.test_serve_human import HARNESS

    key = "sk-proxy-test-0123456789abcdefXYZ"
    upstream = ModelServer(ServeOptions(port=0, faults="auth@3")).start()
    try:
        def maker(_queue):
            return lambda _ex: ProxyPlayer(upstream.url, "playbench-oracle", key=key,
                                           override_model=True)

        with caplog.at_level("DEBUG"), running(db_url, make_player=maker, via="proxy") as srv:
            outcome = HARNESS.run(srv.url, colour="red", stream=True, task="streamed")
            with pytest.raises(openai.AuthenticationError):  # the upstream's 401, passed on
                client = openai.OpenAI(base_url=srv.url, api_key="x", max_retries=0)
                client.chat.completions.create(model="m", messages=body(0)["messages"])
            srv.hub.end("harness", srv.hub._latest_of["harness"][1])
            srv.wait_idle()
            first = srv.store.steps(outcome.report["episode"])
    finally:
        upstream.stop()
    assert outcome.remark and first[0].valid and first[0].info["request"]["stream"] is True
    assert "data:" in first[0].raw  # the event stream as the upstream sent it
    database = db_url.removeprefix("sqlite:///")
    stored = b"".join(p.read_bytes() for p in tmp_path.glob("playbench.sqlite3*"))
    assert stored and key.encode() not in stored, database
    assert key not in caplog.text
