"""The endpoint's limits: many clients connecting at once are all taken into the backlog,
connections are served by a bounded number of threads (the rest wait their turn, none is
reset), connections that trickle or send nothing are closed after the read time-out, and a
body over the cap gets 413 unread."""

from __future__ import annotations

import socket
import threading
import time
from urllib.parse import urlsplit

import openai

from playbench.app.harness.httpd import Limits
from playbench.app.harness.queue import Reply
from playbench.app.harness.server import ExternalServer, ServerOptions
from tests.external.helpers import answering, running


class _NoHub:
    def submit(self, exchange):
        raise AssertionError("nothing should be submitted")

    def model_ids(self):
        return ["m"]


def test_two_hundred_clients_connecting_at_once_all_get_in():
    # The server is not accepting yet: every connection has to wait in the listen backlog.
    server = ExternalServer(_NoHub(), ServerOptions())
    sockets = []
    try:
        for _ in range(200):
            s = socket.socket()
            s.settimeout(3)
            s.connect(("127.0.0.1", server.port))  # a full backlog drops the SYN: times out
            sockets.append(s)
        server.start()
        for s in sockets:
            s.sendall(f"GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                      "Connection: close\r\n\r\n".encode())
        answers = [s.makefile("rb").readline() for s in sockets]
    finally:
        for s in sockets:
            s.close()
        server.stop()
    assert answers == [b"HTTP/1.1 200 OK\r\n"] * 200


def http_threads() -> int:
    return sum(1 for t in threading.enumerate() if t.name.startswith("external-http"))


def test_silent_and_trickling_connections_are_closed_with_bounded_threads(db_url):
    limits = Limits(workers=4, queued=100, header_seconds=0.5, body_seconds=0.5)
    with running(db_url, limits=limits) as srv:
        port = urlsplit(srv.url).port
        idle = []
        for n in range(40):
            s = socket.create_connection(("127.0.0.1", port))
            s.settimeout(20)
            if n % 2:  # half send the start of a request and stop there
                s.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x")
            idle.append(s)
        trickle = socket.create_connection(("127.0.0.1", port))
        trickle.settimeout(20)
        trickle.sendall(f"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                        "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
                        .encode())
        assert http_threads() <= 4
        closed = [s.recv(4096) for s in idle]  # each returns once the server closes it
        late = trickle.recv(4096)
        for s in [*idle, trickle]:
            s.close()
        # the endpoint still serves
        client = openai.OpenAI(base_url=srv.url, api_key="x", max_retries=0)
        assert [m.id for m in client.models.list()] == ["playbench-human"]
    assert all(data == b"" or data.startswith(b"HTTP/1.1 408") for data in closed)
    assert late.startswith(b"HTTP/1.1 408")
    assert http_threads() <= 4


def test_more_waiting_requests_than_workers_wait_their_turn(db_url):
    limits = Limits(workers=3, queued=50)
    with running(db_url, limits=limits) as srv:
        results: dict[int, str] = {}

        def ask(n: int) -> None:
            client = openai.OpenAI(base_url=srv.url, api_key="x", max_retries=0, timeout=60,
                                   default_headers={"X-PlayBench-Task": f"t{n}"})
            reply = client.chat.completions.create(
                model="m", messages=[{"role": "user", "content": f"q{n}"}])
            results[n] = reply.choices[0].message.content or ""

        threads = [threading.Thread(target=ask, args=(n,)) for n in range(12)]
        for t in threads:
            t.start()
        deadline = time.monotonic() + 20
        while len(srv.queue) < 3 and time.monotonic() < deadline:
            time.sleep(0.01)
        # three workers: three requests waiting for a person, the others wait for a worker
        assert len(srv.queue) == 3 and http_threads() == 3
        with answering(srv.queue, lambda r: Reply(f"a {r.task_id}")):
            for t in threads:
                t.join(60)
    assert results == {n: f"a t{n}" for n in range(12)}


def test_a_full_server_answers_503_at_once(db_url):
    limits = Limits(workers=1, queued=0)
    with running(db_url, limits=limits) as srv:
        port = urlsplit(srv.url).port
        holder = socket.create_connection(("127.0.0.1", port))  # takes the only worker
        deadline = time.monotonic() + 20
        while srv.server.httpd.open_connections < 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        other = socket.create_connection(("127.0.0.1", port))
        other.settimeout(20)
        answer = other.recv(4096)
        holder.close()
        other.close()
    assert answer.startswith(b"HTTP/1.1 503") and b"too many connections" in answer


def test_a_body_over_the_cap_gets_413_unread(db_url):
    with running(db_url) as srv:
        port = urlsplit(srv.url).port
        s = socket.create_connection(("127.0.0.1", port))
        s.settimeout(20)
        s.sendall(f"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                  f"Content-Type: application/json\r\nContent-Length: {16 * 2**20 + 1}\r\n\r\n"
                  .encode())
        answer = b"".join(iter(lambda: s.recv(4096), b""))  # to the server's close
        s.close()
    assert answer.startswith(b"HTTP/1.1 413") and b"the limit is 16777216" in answer
