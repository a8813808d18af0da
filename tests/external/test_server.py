"""The endpoint's guarantees: parallel harnesses queue oldest first, requests nobody answered
are recorded as abandoned, a person or the idle clock ends an episode, requests without the
token are refused with nothing recorded, and bodies over the limit get 413."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable

import openai
import pytest

from playbench.app.harness.queue import Reply
from playbench.app.harness.server import ExternalServer, ServerOptions
from tests.external.helpers import answering, running


def wait_for(condition: Callable[[], bool], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not reached"
        time.sleep(0.01)


def client(url: str, task: str, *, harness: str = "h", timeout: float = 60.0,
           key: str = "none") -> openai.OpenAI:
    return openai.OpenAI(base_url=url, api_key=key, timeout=timeout, max_retries=0,
                         default_headers={"X-PlayBench-Harness": harness,
                                          "X-PlayBench-Task": task})


def ask(c: openai.OpenAI, text: str, *, end: bool = False) -> str:
    reply = c.chat.completions.create(
        model="m", messages=[{"role": "user", "content": text}],
        extra_headers={"X-PlayBench-End": "1"} if end else None)
    return reply.choices[0].message.content or ""


def test_parallel_harnesses_queue_oldest_first_each_its_own_episode(db_url):
    with running(db_url) as srv:
        answers: dict[str, str] = {}
        threads = []
        for n, task in enumerate(["gamma", "alpha", "beta"]):
            t = threading.Thread(target=lambda task=task: answers.__setitem__(
                task, ask(client(srv.url, task, harness=f"harness-{task}"), f"q {task}",
                          end=True)))
            t.start()
            threads.append(t)
            wait_for(lambda n=n: len(srv.queue) == n + 1)
        waiting = srv.queue.pending()
        assert [(r.harness, r.task_id) for r in waiting] == [
            ("harness-gamma", "gamma"), ("harness-alpha", "alpha"), ("harness-beta", "beta")]
        assert [r.arrived for r in waiting] == sorted(r.arrived for r in waiting)
        assert all("q " + r.task_id in r.text() for r in waiting)
        with answering(srv.queue, lambda r: Reply(f"answer to {r.task_id}")) as seen:
            for t in threads:
                t.join(30)
            srv.wait_idle()
        assert [r.task_id for r in seen] == ["gamma", "alpha", "beta"]
        assert answers == {t: f"answer to {t}" for t in ("alpha", "beta", "gamma")}
        rows = srv.store.episodes(ids=srv.hub.episodes)
    assert sorted(json.loads(r.task.level_text)["task"] for r in rows) == [
        "alpha", "beta", "gamma"]
    assert all(r.episode.end_reason == "harness_ended" and r.episode.n_steps == 1 for r in rows)


def test_a_request_the_harness_stopped_waiting_for_is_recorded_as_abandoned(db_url):
    with running(db_url) as srv:
        impatient = client(srv.url, "t", timeout=2.0)
        failed: list[BaseException] = []

        def first_try() -> None:
            try:
                ask(impatient, "first try")
            except openai.APITimeoutError as err:
                failed.append(err)

        t = threading.Thread(target=first_try)
        t.start()
        wait_for(lambda: len(srv.queue) == 1)  # it reached the person...
        t.join(30)
        assert failed  # ...who did not answer before the harness gave up
        wait_for(lambda: len(srv.queue) == 0)  # it left the queue unanswered
        with answering(srv.queue, lambda r: Reply("second answer")):
            assert ask(client(srv.url, "t"), "second try", end=True) == "second answer"
            srv.wait_idle()
        (episode,) = srv.hub.episodes
        steps = srv.store.steps(episode)
    assert [s.valid for s in steps] == [False, True]
    assert steps[0].invalid_kind == "timeout" and steps[0].action == "(abandoned)"
    assert "closed the connection" in steps[0].invalid_reason
    assert steps[0].info["request"]["messages"][0]["content"] == "first try"
    assert steps[1].action == "second answer"


def test_answer_timeout_gives_504_and_an_abandoned_step(db_url):
    with running(db_url, answer_timeout=0.3) as srv:
        with pytest.raises(openai.InternalServerError) as err:
            ask(client(srv.url, "slow"), "anyone there?")
        assert err.value.status_code == 504
        srv.hub.end("h", "slow")
        srv.wait_idle()
        steps = srv.store.steps(srv.hub.episodes[0])
        row = srv.store.episode(srv.hub.episodes[0])
    assert len(steps) == 1 and steps[0].invalid_kind == "timeout"
    assert "0.3 s" in steps[0].invalid_reason and row.episode.end_reason == "harness_ended"


def test_the_person_ends_an_episode_and_the_idle_clock_ends_another(db_url):
    with running(db_url, idle=0.5) as srv:
        result: list[BaseException] = []

        def waiting_harness() -> None:
            try:
                ask(client(srv.url, "ended"), "will be ended")
            except openai.APIStatusError as err:
                result.append(err)

        t = threading.Thread(target=waiting_harness)
        t.start()
        wait_for(lambda: len(srv.queue) == 1)
        assert srv.queue.end_episode("h", "ended")
        t.join(30)
        with answering(srv.queue, lambda r: Reply("only answer")):
            assert ask(client(srv.url, "idle"), "one question") == "only answer"
            srv.wait_idle()
        rows = {json.loads(r.task.level_text)["task"]: r
                for r in srv.store.episodes(ids=srv.hub.episodes)}
        ended_steps = srv.store.steps(rows["ended"].episode.id)
    assert result and result[0].status_code == 504
    assert rows["ended"].episode.end_reason == "ended_by_person"
    assert ended_steps[0].invalid_kind == "timeout"
    assert "person ended" in ended_steps[0].invalid_reason
    assert rows["idle"].episode.end_reason == "idle" and rows["idle"].episode.n_steps == 1
    assert not srv.queue.end_episode("h", "ended")  # nothing runs any more


def test_requests_without_the_token_are_refused_and_nothing_is_recorded(db_url):
    with running(db_url, token="s3cret-token") as srv:
        for key in ("none", "wrong-token"):
            with pytest.raises(openai.AuthenticationError):
                ask(client(srv.url, "t", key=key), "let me in")
            with pytest.raises(openai.AuthenticationError):
                client(srv.url, "t", key=key).models.list()
        assert srv.server.refused == 4 and len(srv.queue) == 0
        assert srv.store.episodes() == [] and srv.hub.episodes == []
        with answering(srv.queue, lambda r: Reply("welcome")):
            assert ask(client(srv.url, "t", key="s3cret-token"), "hi", end=True) == "welcome"
            srv.wait_idle()
        assert len(srv.store.episodes()) == 1


def test_another_interface_needs_a_token(db_url):
    with pytest.raises(ValueError, match="needs a token"):
        ServerOptions(host="0.0.0.0").check()
    with pytest.raises(ValueError, match="needs a token"):
        ExternalServer(hub=None, options=ServerOptions(host="192.168.1.20"))  # type: ignore[arg-type]
    ServerOptions(host="0.0.0.0", token="t").check()
    ServerOptions(host="::1").check()


def test_bodies_over_the_limit_get_413_unread(db_url):
    with running(db_url, max_body=2000) as srv:
        big = json.dumps({"model": "m", "messages": [{"role": "user", "content": "x" * 3000}]})
        request = urllib.request.Request(f"{srv.url}/chat/completions", big.encode(),
                                         {"Content-Type": "application/json"})
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(request, timeout=10)
        assert err.value.code == 413 and b"2000" in err.value.read()
        assert srv.store.episodes() == [] and len(srv.queue) == 0
        with answering(srv.queue, lambda r: Reply("small is fine")):
            assert ask(client(srv.url, "t"), "short", end=True) == "small is fine"


def test_a_body_that_is_not_a_chat_request_gets_400(db_url):
    with running(db_url) as srv:
        for body in (b"not json", b'{"messages": []}',
                     b'{"messages": [{"role": "user", "content": [{"type": "image_url", '
                     b'"image_url": {"url": "https://example.org/a.png"}}]}]}'):
            request = urllib.request.Request(f"{srv.url}/chat/completions", body,
                                             {"Content-Type": "application/json"})
            with pytest.raises(urllib.error.HTTPError) as err:
                urllib.request.urlopen(request, timeout=10)
            assert err.value.code == 400
        assert srv.store.episodes() == []


def test_the_harness_is_named_by_header_key_or_user_field(db_url):
    with running(db_url) as srv, answering(srv.queue, lambda r: Reply(r.harness)):
        plain = openai.OpenAI(base_url=srv.url, api_key="harness:from-key", max_retries=0)
        named = openai.OpenAI(base_url=srv.url, api_key="sk-not-a-name-1234567890",
                              max_retries=0)
        asked = [
            plain.chat.completions.create(model="m", messages=[{"role": "user", "content": "a"}]),
            named.chat.completions.create(model="m", user="from-user",
                                          messages=[{"role": "user", "content": "b"}]),
            named.chat.completions.create(model="m", messages=[{"role": "user", "content": "c"}]),
            client(srv.url, "t", harness="from-header").chat.completions.create(
                model="m", messages=[{"role": "user", "content": "d"}]),
        ]
    assert [a.choices[0].message.content for a in asked] == [
        "from-key", "from-user", "harness", "from-header"]
