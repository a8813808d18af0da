"""An answered exchange is a step the moment its answer is out: a real ``playbench proxy``
process in front of serve-model, five one-message chats with the openai client, then SIGTERM -
every exchange is in the SQLite file, none waits for a next request that never comes."""

from __future__ import annotations

import signal
import sqlite3
import time

import openai

from playbench.app.agents.serve import ModelServer, ServeOptions
from tests.external.test_cli import start


def steps_in(path: str) -> int:
    with sqlite3.connect(path) as db:
        return int(db.execute("select count(*) from steps").fetchone()[0])


def test_sigterm_keeps_every_answered_exchange(env, tmp_path, db_url):
    path = db_url.removeprefix("sqlite:///")
    upstream = ModelServer(ServeOptions(policy="random", port=0)).start()
    try:
        proc, url = start(["proxy", "--upstream", upstream.url], env, tmp_path)
        try:
            client = openai.OpenAI(base_url=url, api_key="x", max_retries=0)
            for n in range(5):
                reply = client.chat.completions.create(
                    model="m", messages=[{"role": "user", "content": f"chat {n}: which way?"}])
                assert reply.choices[0].message.content
            # The proxy still runs and no conversation went on: the steps must be committed
            # already (before, they waited for each chat's next request or the 300 s idle).
            deadline = time.monotonic() + 20
            while steps_in(path) < 5 and time.monotonic() < deadline:
                time.sleep(0.05)
            committed_while_running = steps_in(path)
        finally:
            proc.send_signal(signal.SIGTERM)
            _, err = proc.communicate(timeout=60)
    finally:
        upstream.stop()
    assert committed_while_running == 5
    assert proc.returncode == 0, err
    with sqlite3.connect(path) as db:
        episodes = db.execute("select id, status from episodes order by id").fetchall()
        per_episode = db.execute("select episode_id, count(*) from steps group by episode_id "
                                 "order by episode_id").fetchall()
    assert len(episodes) == 5
    assert [n for _, n in per_episode] == [1] * 5
    # SIGTERM stops like Ctrl-C: the episodes are ended, not left running
    assert {status for _, status in episodes} == {"done"}


def test_serve_human_records_an_answer_before_the_next_request(env, tmp_path, db_url):
    path = db_url.removeprefix("sqlite:///")
    proc, url = start(["serve-human", "--annotator", "p"], env, tmp_path)
    try:
        proc.stdin.write("first answer\nsecond answer\n")
        proc.stdin.flush()
        client = openai.OpenAI(base_url=url, api_key="x", max_retries=0)
        for n in range(2):
            client.chat.completions.create(
                model="m", messages=[{"role": "user", "content": f"question {n}"}])
        deadline = time.monotonic() + 20
        while steps_in(path) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        committed_while_running = steps_in(path)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=60)
    assert committed_while_running == 2
    with sqlite3.connect(path) as db:
        actions = [a for (a,) in db.execute("select action from steps order by id")]
    assert actions == ["first answer", "second answer"]
