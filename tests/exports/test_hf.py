"""``export --format hf``: a dataset folder that ``datasets`` loads back row for row, images
included, written in bounded shards; without the ``hf`` extra the command names it. The
recording holds people, a model and scripts on boards and on a web task in real Chromium."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import datasets
import numpy as np
import pyarrow.parquet as pq
import pytest
from PIL import Image

from playbench.app.exports import hf
from tests.exports.mixed import COMPENSATION, POPULATION, SAMPLING, build_mixed
from tests.studies.helpers import run_cli

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    m = build_mixed(tmp_path_factory.mktemp("mixed"), web=True)
    yield m
    m.store.db.dispose()


def expected_rows(store):
    """(episode uid, participant kind, step, action, raw, valid, reward, state hash, tokens,
    reasoning, game, frame seen) per step, from the database, in export order."""
    out = []
    for eid in store.all_episode_ids():
        row = store.episode(eid)
        shown = row.episode.start_frame
        for s in store.steps(eid):
            out.append((row.episode.uid, row.participant.kind, s.index, s.action, s.raw,
                        s.valid, s.reward, s.state_hash, s.prompt_tokens, s.completion_tokens,
                        s.info.get("reasoning"), row.task.game, shown))
            shown = s.frame or shown
    return out


def pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))


def test_round_trip_through_datasets(mixed, tmp_path):
    out = tmp_path / "hf"
    r = run_cli(["export", "--format", "hf", "--out", str(out)], db=mixed.url, cwd=tmp_path)
    assert r.code == 0, r.err
    expected = expected_rows(mixed.store)
    assert f"{len(expected)} steps" in r.out
    rows = datasets.load_dataset("parquet", data_dir=str(out / "data"), split="train",
                                 cache_dir=str(tmp_path / "cache"))
    assert isinstance(rows.features["observation"], datasets.Image)
    assert len(rows) == len(expected)
    frames = mixed.store.frames({e[-1] for e in expected})
    kinds = set()
    for got, want in zip(rows, expected, strict=True):
        (uid, kind, index, action, raw, valid, reward, state, prompt, completion, why, game,
         shown) = want
        assert (got["episode"], got["participant_kind"], got["step"], got["action"],
                got["reply"], got["valid"], got["reward"], got["state_hash"],
                got["prompt_tokens"], got["completion_tokens"], got["reasoning"],
                got["game"]) == (
            uid, kind, index, action, raw, valid, reward, state, prompt, completion, why, game)
        assert got["observation_hash"] == shown
        assert np.array_equal(np.asarray(got["observation"].convert("RGB")),
                              pixels(frames[shown]))
        kinds.add((game == "web", kind))
    # people, models and scripts, each on boards and on the web task
    assert kinds == {(web, k) for web in (False, True) for k in ("human", "script", "model")}
    assert any(not r["valid"] for r in rows) and any(r["reasoning"] for r in rows)
    # The card's configs make the folder itself loadable, and it says who took part.
    again = datasets.load_dataset(str(out), split="train", cache_dir=str(tmp_path / "c2"))
    assert len(again) == len(expected)
    card = (out / "README.md").read_text()
    assert "license: unknown" in card
    for text in (POPULATION, SAMPLING, COMPENSATION):
        assert text in card
    for name, _, _ in hf.COLUMNS:
        assert f"| `{name}` |" in card


def test_shards_and_row_groups_stay_small(mixed, tmp_path, monkeypatch):
    monkeypatch.setattr(hf, "SHARD_ROWS", 100)
    monkeypatch.setattr(hf, "BATCH_ROWS", 30)
    ids = mixed.store.all_episode_ids()
    report = hf.export_hf(mixed.store, tmp_path / "hf", ids)
    total = len(expected_rows(mixed.store))
    # a shard closes once it holds 100 rows: after the fourth batch of 30
    assert report.rows == total and len(report.shards) == -(-total // 120)
    sizes = []
    for name in report.shards:
        meta = pq.ParquetFile(tmp_path / "hf" / name).metadata
        sizes.append(meta.num_rows)
        assert meta.num_rows <= 100 + 30
        assert all(meta.row_group(i).num_rows <= 30 for i in range(meta.num_row_groups))
        features = json.loads(meta.metadata[b"huggingface"])["info"]["features"]
        assert features["observation"]["_type"] == "Image"
    assert sum(sizes) == total and len(sizes) > 1
    rows = datasets.load_dataset("parquet", data_dir=str(tmp_path / "hf" / "data"),
                                 split="train", cache_dir=str(tmp_path / "cache"))
    assert [(r["episode"], r["step"]) for r in rows] == [
        (e[0], e[2]) for e in expected_rows(mixed.store)]


def test_without_the_extra_the_command_names_it(mixed, tmp_path):
    blocker = ("import sys; sys.modules['pyarrow'] = None; sys.modules['datasets'] = None; "
               "from playbench.app.cli import main; "
               "sys.exit(main(['export', '--format', 'hf', '--out', 'x']))")
    env = dict(os.environ, PLAYBENCH_DB=mixed.url, SDL_VIDEODRIVER="dummy",
               PLAYBENCH_CONFIG_DIR=str(tmp_path / "config"))
    proc = subprocess.run([sys.executable, "-c", blocker], capture_output=True, text=True,
                          env=env, cwd=tmp_path, timeout=60)
    assert proc.returncode == 1
    assert "optional extra 'hf'" in proc.stderr and "playbench[hf]" in proc.stderr
    assert not (tmp_path / "x").exists()
