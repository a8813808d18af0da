"""``playbench serve-human`` answered on its terminal and ``playbench proxy`` in front of
serve-model, as real processes; the example harness talks to both."""

from __future__ import annotations

import re
import signal
import subprocess
import sys

from playbench.app.agents.serve import ModelServer, ServeOptions
from playbench.db.engine import open_database
from playbench.db.store import Store
from tests.external.test_serve_human import HARNESS


def start(args: list[str], env: dict[str, str], cwd) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, "-m", "playbench", *args, "--port", "0"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, cwd=cwd)
    line = proc.stdout.readline()
    found = re.search(r"listening on (http://\S+/v1)", line)
    if found is None:
        proc.kill()
        raise AssertionError(f"no address in {line!r}: {proc.stderr.read()}")
    return proc, found.group(1)


def stop(proc: subprocess.Popen) -> tuple[str, str]:
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    return out, err


def test_serve_human_answered_on_the_terminal(env, tmp_path, db_url):
    proc, url = start(["serve-human", "--annotator", "terminal-person"], env, tmp_path)
    try:
        proc.stdin.write('/tool answer {"colour": "red"}\nthat was easy\n')
        proc.stdin.flush()
        outcome = HARNESS.run(url, colour="red", task="cli")
    finally:
        out, _ = stop(proc)
    assert outcome.correct and outcome.remark == "that was easy"
    assert "example-harness / cli" in out and "tool answer:" in out
    store = Store(open_database(db_url))
    row = store.episode(outcome.report["episode"])
    assert row.participant.name == "terminal-person" and row.episode.n_steps == 2
    assert row.scores["score"] == 1.0


def test_proxy_in_front_of_serve_model(env, tmp_path, db_url):
    upstream = ModelServer(ServeOptions(port=0)).start()
    try:
        proc, url = start(["proxy", "--upstream", upstream.url], env, tmp_path)
        try:
            outcome = HARNESS.run(url, colour="blue", task="cli", model="playbench-oracle")
        finally:
            stop(proc)
    finally:
        upstream.stop()
    store = Store(open_database(db_url))
    row = store.episode(outcome.report["episode"])
    assert row.participant.kind == "model" and row.participant.name == "playbench-oracle"
    assert row.episode.meta["via"] == "proxy" and row.episode.n_steps == 2
    assert row.scores["score"] == 0.0  # the stand-in cannot see the picture


def test_listening_elsewhere_without_a_token_is_refused(env, tmp_path):
    proc = subprocess.run([sys.executable, "-m", "playbench", "serve-human", "--host", "0.0.0.0"],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60)
    assert proc.returncode == 2 and "needs a token" in proc.stderr
