"""The leaderboard on a database with known episodes: per-level averaging, human-relative
efficiency against the median solving human, what is left out, pooled humans, the CLI."""

from __future__ import annotations

import csv
import io
import json

import pytest

from playbench.app.results import leaderboard
from playbench.app.results.data import Scope
from playbench.db.engine import open_database
from playbench.db.steps import StepRecord
from playbench.db.store import Store
from tests.studies.helpers import run_cli


def record(store: Store, who: tuple[str, str], level: str, actions: int, solved: bool, *,
           setting: str = "default", game: str = "sokoban", status: str = "done",
           efficiency: float = 100.0, practice: bool = False, optimal: int = 10) -> int:
    pid = store.participant(*who)
    tid = store.task(game, level * 8, f"board {level}", number=ord(level) - 96)
    eid = store.begin_episode(participant_id=pid, task_id=tid, setting=setting, player=who[1],
                              budget={}, rules={}, seed=0, owner="", start_state="s",
                              start_frame=None, meta={"practice": practice})
    for i in range(actions):
        store.add_step(eid, StepRecord(index=i, decision=i, action="U", raw="U", valid=True,
                                       invalid_kind=None, invalid_reason=None, changed=True,
                                       reward=0.0, state_hash=f"{i}"), None)
    store.finish_episode(eid, status=status, end_reason="x", scores={
        "solved": float(solved), "completion": 100.0 if solved else 50.0,
        "efficiency": efficiency, "steps": float(actions),
        "steps_over_optimal": actions / optimal if solved else None,
        "magebench": 100.0 if solved else 60.0})
    return eid


H1, H2, M = ("human", "h1"), ("human", "h2"), ("model", "m")


@pytest.fixture
def store(db_url):
    s = Store(open_database(db_url))
    record(s, H1, "a", 10, True)
    record(s, H1, "b", 20, True)
    record(s, H2, "a", 14, True)
    record(s, H2, "b", 40, False)
    record(s, M, "a", 12, True, efficiency=50.0)
    record(s, M, "a", 50, False, efficiency=100.0)
    record(s, M, "b", 40, True, efficiency=80.0)
    record(s, M, "b", 3, True, practice=True)        # practice: left out
    record(s, M, "b", 1, False, status="error")      # infrastructure failure: left out
    record(s, H1, "a", 2, True, setting="ingvp:text-multi")  # another setting, another row
    yield s
    s.db.dispose()


def rows(board):
    return {(r.setting, r.participant): r for r in board.rows}


def test_known_values(store):
    board = leaderboard(store)
    assert board.excluded == {"error": 1}
    r = rows(board)
    m = r[("default", "m")]
    assert (m.episodes, m.levels, m.repeats) == (3, 2, 2)
    assert m.accuracy.value == 75.0          # level a: 50, level b: 100
    assert m.completion.value == 87.5        # a: (100 + 50)/2, b: 100
    assert m.efficiency.value == 77.5        # a: 75, b: 80
    assert m.efficiency_pooled == pytest.approx((50 * 12 + 100 * 50 + 80 * 40) / 102)
    assert m.steps_over_optimal.value == pytest.approx((1.2 + 4.0) / 2)
    assert m.magebench.value == pytest.approx(((100 + 60) / 2 + 100) / 2)
    # medians of solving humans: a -> (10 + 14) / 2 = 12, b -> 20 (h2 did not solve it)
    assert m.human_relative.value == pytest.approx(((100 + 0) / 2 + 100 * 0.25) / 2)
    h2 = r[("default", "h2")]
    assert h2.human_relative.value == pytest.approx((100 * (12 / 14) ** 2 + 0) / 2)
    assert r[("default", "h1")].human_relative.value == 100.0
    assert m.baseline_levels == 2
    # a setting with one solving human is its own baseline
    assert r[("ingvp:text-multi", "h1")].human_relative.value == 100.0


def test_intervals_are_reproducible_and_bracket_the_value(store):
    a, b = leaderboard(store).records(), leaderboard(store).records()
    assert a == b
    for rec in a:
        for name in ("accuracy", "completion", "human_relative"):
            if rec[f"{name}_low"] is not None:
                assert rec[f"{name}_low"] <= rec[name] <= rec[f"{name}_high"]


def test_scope_and_pooling(store):
    pooled = rows(leaderboard(store, Scope(setting="default"), pool_humans=True))
    assert set(pooled) == {("default", "humans (pooled)"), ("default", "m")}
    assert pooled[("default", "humans (pooled)")].episodes == 4
    assert pooled[("default", "humans (pooled)")].accuracy.value == 75.0
    with_practice = rows(leaderboard(store, Scope(include_practice=True)))
    assert with_practice[("default", "m")].episodes == 4
    models = leaderboard(store, Scope(kind="model"))
    assert [r.participant for r in models.rows] == ["m"]
    assert leaderboard(store, Scope(game="maze")).rows == []


def test_results_command_formats(store, db_url, tmp_path):
    as_json = run_cli(["results", "--format", "json"], db=db_url, cwd=tmp_path)
    assert as_json.code == 0, as_json.err
    data = json.loads(as_json.out)
    assert data["excluded"] == {"error": 1} and len(data["rows"]) == 4
    assert data["rows"] == leaderboard(store).records()
    as_csv = run_cli(["results", "--format", "csv", "--setting", "default"], db=db_url,
                     cwd=tmp_path)
    table = list(csv.DictReader(io.StringIO(as_csv.out)))
    assert [t["participant"] for t in table] == ["h1", "h2", "m"]
    assert float(table[2]["accuracy"]) == 75.0 and table[0]["magebench_low"] != ""
    text = run_cli(["results", "--plot", "board.svg", "--metric", "human_relative"],
                   db=db_url, cwd=tmp_path)
    assert text.code == 0 and "human:h2" in text.out and "left out: 1 error" in text.out
    assert (tmp_path / "board.svg").read_text().lstrip().startswith("<?xml")
    missing = run_cli(["results", "--study", "nope"], db=db_url, cwd=tmp_path)
    assert missing.code == 1 and "no study named 'nope'" in missing.err
    bad = run_cli(["results", "--confidence", "2"], db=db_url, cwd=tmp_path)
    assert bad.code == 2


def test_results_command_names_the_definition(store, db_url, tmp_path):
    text = run_cli(["results", "--human-baseline", "median-person", "--resample", "people"],
                   db=db_url, cwd=tmp_path)
    assert text.code == 0, text.err
    assert "humans (median-person)" in text.out
    human = next(line for line in text.out.splitlines() if "humans (median-person)" in line)
    assert "75 [50, 100]" in human  # h1 100, h2 50: the median of two people, resampled
    assert "human baseline: median person" in text.out
    assert "person-level bootstrap" in text.out
    data = json.loads(run_cli(["results", "--human-baseline", "solved-by-2", "--format",
                               "json"], db=db_url, cwd=tmp_path).out)
    assert data["human_baseline"]["rule"] == "solved-by-k"
    assert data["human_baseline"]["k"] == 2
    bad = run_cli(["results", "--human-baseline", "median"], db=db_url, cwd=tmp_path)
    assert bad.code != 0 and "--human-baseline" in bad.err and "median-person" in bad.err
