"""Blinding that holds (issue 29, item 2): a blind study created with a researcher passphrase
or key file shows scores, other participants' episodes and its leaderboard only to whoever
gives the credential - on the command line here, in the app in tests/ui/test_sealed_views.py.
Nothing stores the credential in plain text."""

from __future__ import annotations

import json
import stat

import pytest

from playbench.app.studies.credential import (
    CredentialError,
    make_verifier,
    read_key_file,
    verify,
)
from playbench.db.engine import open_database
from playbench.db.store import Store
from playbench.db.studies import study_protocol
from tests.studies.helpers import run_cli, study_yaml
from tests.studies.test_quality import play_all

PASS = "correct horse battery"


def test_a_verifier_checks_the_secret_and_holds_no_plain_text():
    v = make_verifier(PASS)
    assert verify(v, PASS)
    assert not verify(v, PASS + " ")
    assert not verify({**v, "salt": "zz"}, PASS)  # a damaged verifier refuses, never raises
    assert PASS not in json.dumps(v)
    assert make_verifier(PASS)["salt"] != v["salt"]
    with pytest.raises(CredentialError, match="at least 8"):
        make_verifier("short")


def test_a_key_file_is_made_private_and_read_back(tmp_path):
    path = tmp_path / "keys" / "pilot.key"
    secret = read_key_file(path, create=True)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert read_key_file(path) == secret and len(secret) >= 32
    (tmp_path / "bad.key").write_text("abc")
    with pytest.raises(CredentialError, match="bad.key"):
        read_key_file(tmp_path / "bad.key")


@pytest.fixture
def sealed(tmp_path, db_url):
    """A sealed blind study with a key file, played by one annotator and one scripted
    player."""
    key = tmp_path / "pilot.key"
    r = run_cli(["study", "create", str(study_yaml(tmp_path, blind=True)), "--researcher-key",
                 str(key)], db=db_url, cwd=tmp_path)
    assert r.code == 0, r.err
    assert "sealed" in r.out and key.exists()
    return key


def cli(args, db_url, tmp_path, **env):
    import os
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        return run_cli(args, db=db_url, cwd=tmp_path)
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


async def test_every_command_shows_counts_only_without_the_key(sealed, tmp_path, db_url):
    await play_all(db_url, "alice", {})
    r = run_cli(["study", "run", "pilot", "--player", "solver", "--no-progress"], db=db_url,
                cwd=tmp_path)
    assert r.code == 0, r.err
    assert "scores not shown" in r.out and "solved" not in r.out
    key = ["--researcher-key", str(sealed)]

    locked = run_cli(["results", "--study", "pilot"], db=db_url, cwd=tmp_path)
    assert locked.code == 0, locked.err
    assert "Counts only: 6 human episode(s) finished, 5 script episode(s) finished; " \
           "1 people took part" in locked.out
    assert "alice" not in locked.out and "accuracy" not in locked.out
    opened = run_cli(["results", "--study", "pilot", *key], db=db_url, cwd=tmp_path)
    assert "human:alice" in opened.out and "accuracy" in opened.out

    everything = run_cli(["results", "--format", "json"], db=db_url, cwd=tmp_path).json()
    assert everything["rows"] == []  # the sealed study's episodes are all there is
    wrong = cli(["results", "--study", "pilot"], db_url, tmp_path,
                PLAYBENCH_RESEARCHER_PASSPHRASE="not the key at all")
    assert "Counts only" in wrong.out

    status = run_cli(["study", "status", "pilot"], db=db_url, cwd=tmp_path)
    assert "counts only" in status.out and "alice" not in status.out \
        and "solved" not in status.out
    assert "solved" in run_cli(["study", "status", "pilot", *key], db=db_url,
                               cwd=tmp_path).out

    listed = run_cli(["episodes"], db=db_url, cwd=tmp_path)
    assert "alice" not in listed.out and "sealed blind study not listed" in listed.out
    assert "human:alice" in run_cli(["episodes", *key], db=db_url, cwd=tmp_path).out

    store = Store(open_database(db_url))
    first = store.all_episode_ids()[0]
    store.db.dispose()
    replay = run_cli(["replay", str(first)], db=db_url, cwd=tmp_path)
    assert replay.code == 2 and "sealed blind study" in replay.err
    assert run_cli(["replay", str(first), *key], db=db_url, cwd=tmp_path).code == 0

    for fmt in ("jsonl", "csv"):
        out = tmp_path / f"out-{fmt}"
        refused = run_cli(["export", "--format", fmt, "--study", "pilot", "--out", str(out)],
                          db=db_url, cwd=tmp_path)
        assert refused.code == 2 and "researcher" in refused.err, refused
        done = run_cli(["export", "--format", fmt, "--study", "pilot", "--out", str(out),
                        *key], db=db_url, cwd=tmp_path)
        assert done.code == 0, done.err
    everything = run_cli(["export", "--out", str(tmp_path / "all")], db=db_url, cwd=tmp_path)
    assert everything.code == 0 and "11 episode(s) of sealed blind studies not exported" \
        in everything.err


def test_a_passphrase_seals_too_and_is_never_stored(tmp_path, db_url):
    r = cli(["study", "create", str(study_yaml(tmp_path, blind=True)),
             "--researcher-passphrase"], db_url, tmp_path,
            PLAYBENCH_RESEARCHER_PASSPHRASE=PASS)
    assert r.code == 0, r.err
    store = Store(open_database(db_url))
    protocol = study_protocol(store.db, "pilot")
    store.db.dispose()
    assert protocol is not None and verify(protocol["researcher"], PASS)
    assert PASS not in json.dumps(protocol)

    open_study = study_yaml(tmp_path, name="open", blind=False)
    refused = run_cli(["study", "create", str(open_study), "--researcher-key",
                       str(tmp_path / "k")], db=db_url, cwd=tmp_path)
    assert refused.code == 2 and "only a blind study" in refused.err
    assert not (tmp_path / "k").exists()  # refused before anything was made


def test_no_terminal_for_the_passphrase_is_a_plain_refusal(tmp_path, db_url):
    """``--researcher-passphrase`` with no terminal to ask on (a script, CI) and no
    passphrase variable: a one-line refusal naming both ways to give it, nothing created."""
    import os
    import subprocess
    import sys
    env = {k: v for k, v in os.environ.items() if k != "PLAYBENCH_RESEARCHER_PASSPHRASE"}
    env.update(PLAYBENCH_DB=db_url, PLAYBENCH_CONFIG_DIR=str(tmp_path / "config"))
    done = subprocess.run([sys.executable, "-m", "playbench", "study", "create",
                           str(study_yaml(tmp_path, blind=True)), "--researcher-passphrase"],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=300, start_new_session=True)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert "PLAYBENCH_RESEARCHER_PASSPHRASE" in done.stderr and "--researcher-key" in done.stderr
    store = Store(open_database(db_url))
    try:
        assert study_protocol(store.db, "pilot") is None
    finally:
        store.db.dispose()
