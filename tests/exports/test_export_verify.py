"""``export --verify``: in every format, episodes whose record was altered in the database (a
state hash, a score) are refused and counted, and the rest are written."""

from __future__ import annotations

import csv
import json
import sqlite3

import pyarrow.parquet as pq
import pytest

from playbench.app.exports.verify import verify_episodes
from playbench.db.engine import open_database
from playbench.db.store import Store
from tests.exports.mixed import build_mixed, copy_database
from tests.studies.helpers import run_cli


@pytest.fixture(scope="module")
def tampered(tmp_path_factory):
    """A copy of the mixed recording with two episodes altered behind PlayBench's back: one
    step's state hash, and one score. Returns (url, store, uids of the altered ones)."""
    directory = tmp_path_factory.mktemp("tampered")
    source = build_mixed(directory)
    source.store.db.dispose()
    url = copy_database(source.path, directory / "tampered.sqlite3")
    store = Store(open_database(url))
    rows = [r for r in store.episodes(newest_first=False)
            if r.episode.n_steps >= 3 and r.episode.study_id is not None]
    hashed, scored = rows[0].episode, rows[-1].episode
    store.db.dispose()
    with sqlite3.connect(directory / "tampered.sqlite3") as conn:
        conn.execute('UPDATE steps SET state_hash = ? WHERE episode_id = ? AND "index" = 2',
                     ("0" * 16, hashed.id))
        conn.execute("UPDATE scores SET value = value + 1 WHERE episode_id = ? AND "
                     "name = 'steps'", (scored.id,))
    store = Store(open_database(url))
    yield url, store, {hashed.uid, scored.uid}, {hashed.id, scored.id}
    store.db.dispose()


def written_uids(fmt: str, out) -> set[str]:
    if fmt == "jsonl":
        return {json.loads(x)["id"] for x in (out / "episodes.jsonl").read_text().splitlines()}
    if fmt == "csv":
        with open(out / "episodes.csv", newline="", encoding="utf-8") as f:
            return {r["uid"] for r in csv.DictReader(f)}
    if fmt == "chat":
        return {json.loads(x)["episode"] for x in (out / "chat.jsonl").read_text().splitlines()}
    if fmt == "hf":
        return set(pq.read_table(out / "data").column("episode").to_pylist())
    return {p.stem for p in out.glob("*.json") if p.name != "manifest.json"}


def test_the_check_sorts_the_altered_out(tampered):
    url, store, _, bad = tampered
    ids = store.all_episode_ids()
    result = verify_episodes(store, ids)
    assert set(result.refused) == bad and result.kept == [i for i in ids if i not in bad]
    assert "refused 2 episode(s)" in result.note() and "state_hash" in result.note()


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "chat", "hf", "atif"])
def test_every_format_writes_only_what_replays(tampered, tmp_path, fmt):
    url, store, bad_uids, bad_ids = tampered
    r = run_cli(["export", "--format", fmt, "--out", "out", "--verify"], db=url, cwd=tmp_path)
    assert r.code == 0, r.err
    total = len(store.all_episode_ids())
    assert f"verified {total} episode(s): {total - 2} replay to their records, 2 refused" \
        in r.out
    assert "refused 2 episode(s)" in r.err
    assert all(str(i) in r.err for i in bad_ids)
    uids = written_uids(fmt, tmp_path / "out")
    assert uids and not uids & bad_uids
    if fmt in ("jsonl", "hf", "atif"):  # every kept episode is written
        assert len(uids) == total - 2


def test_without_verify_the_altered_are_written(tampered, tmp_path):
    url, _, bad_uids, _ = tampered
    r = run_cli(["export", "--format", "jsonl", "--out", "out"], db=url, cwd=tmp_path)
    assert r.code == 0 and bad_uids <= written_uids("jsonl", tmp_path / "out")


def test_when_nothing_replays_nothing_is_written(tampered, tmp_path):
    url, _, _, bad_ids = tampered
    args = ["export", "--format", "atif", "--out", "out", "--verify"]
    for eid in sorted(bad_ids):
        args += ["--episode", str(eid)]
    r = run_cli(args, db=url, cwd=tmp_path)
    assert r.code == 1 and "nothing exported" in r.err
    assert not (tmp_path / "out").exists()
