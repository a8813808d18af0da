"""The leaderboard read and computed as columns (issue 32) gives what the definition gives, to
the last bit: the column load equals the old pivot load (``reference_load``) on a database of
varied episodes, for each scope; the rows equal ``definition_rows`` (one episode at a time,
``build_row`` per row) for every human-baseline rule, on that database and on random episode
lists (hypothesis: several games, settings, kinds, people, sub-groups, missing and NaN
values); the batched intervals equal one interval at a time."""

from __future__ import annotations

import gc
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from playbench.app.results.baselines import RULES, HumanBaseline, action_baselines
from playbench.app.results.board_rows import column_action_baselines
from playbench.app.results.data import Scope, load_episodes
from playbench.app.results.episode_columns import EpisodeColumns
from playbench.app.results.episode_facts import EpisodeFacts
from playbench.app.results.leaderboard import compute_leaderboard, definition_rows, leaderboard
from playbench.app.results.stats import Resampler, bootstrap_interval, bootstrap_intervals
from playbench.db.engine import open_database
from playbench.db.store import Store
from tests.results.reference_load import (
    reference_load,
    rescored_between_reads,
    varied_database,
)

RESAMPLES = 60
BASELINES = [None, *(HumanBaseline(rule) for rule in RULES), HumanBaseline("solved-by-k", 1),
             HumanBaseline("pooled", resample="people")]


@pytest.fixture
def varied(tmp_path):
    store = Store(open_database(f"sqlite:///{tmp_path / 'varied.sqlite3'}"))
    varied_database(store, random.Random(40), 400)
    yield store
    store.db.dispose()


def scopes(store: Store) -> list[Scope]:
    some = frozenset(range(1, 400, 3))
    return [Scope(), Scope(game="maze"), Scope(setting=""), Scope(kind="human"),
            Scope(include_practice=True), Scope(statuses=("done", "error")),
            Scope(episodes=some), Scope(game="hanoi", kind="model", include_practice=True,
                                        statuses=("done", "interrupted", "running"))]


def test_the_column_load_is_the_old_pivot_load(varied):
    for scope in scopes(varied):
        loaded = load_episodes(varied, scope)
        episodes, excluded = reference_load(varied, scope)
        assert len(episodes) > 10
        assert repr(loaded.episodes) == repr(episodes), scope
        assert loaded.excluded == excluded, scope
    # every kind of fact occurs: a study's name, practice, missing scores, a scoreless episode
    every = load_episodes(varied, Scope(include_practice=True)).episodes
    assert {e.study for e in every} == {None, "varied"}
    assert any(e.practice for e in every)
    assert any(e.solved is None for e in every) and any(e.magebench is None for e in every)
    assert any(all(getattr(e, s) is None for s in ("solved", "completion", "efficiency"))
               for e in every)


def test_the_leaderboard_is_the_definitions_rows(varied):
    facts, _ = reference_load(varied)
    for baseline in BASELINES:
        fast = leaderboard(varied, baseline=baseline, resamples=RESAMPLES).rows
        slow = definition_rows(facts, baseline=baseline, resamples=RESAMPLES)
        assert len(fast) >= 10, baseline
        assert repr(fast) == repr(slow), baseline
    assert gc.isenabled()  # the collector's pause ends with the leaderboard


maybe = st.one_of(st.none(), st.just(float("nan")),
                  st.floats(min_value=0, max_value=100, allow_nan=False))


@st.composite
def many_rows(draw: st.DrawFn) -> list[EpisodeFacts]:
    """Episodes of a few games, settings, kinds, people and sub-groups, in load order."""
    out = []
    for i in range(draw(st.integers(0, 60))):
        kind = draw(st.sampled_from(["human", "model", "script"]))
        level = draw(st.sampled_from("abcde"))
        game = draw(st.sampled_from(["sokoban", "maze"]))
        solved = draw(st.one_of(st.none(), st.sampled_from([0.0, 1.0, float("nan")])))
        out.append(EpisodeFacts(
            id=draw(st.integers(1, 10_000)), uid=f"u{i:03d}", kind=kind,
            participant=draw(st.sampled_from(["p", "q", "r"])), game=game,
            level_hash=level * 4, level_number=1,
            setting=draw(st.sampled_from(["default", "text"])), study=None,
            practice=draw(st.booleans()), status="done", actions=draw(st.integers(0, 30)),
            solved=solved, completion=draw(maybe), efficiency=draw(maybe),
            magebench=draw(maybe), steps_over_optimal=draw(maybe),
            level_key=f"{game}:{level * 4}",
            group=draw(st.sampled_from(["", "", "g1", "g2"]))))
    return sorted(out, key=lambda e: (e.game, e.level_hash, e.setting, e.uid))


@given(many_rows(), st.sampled_from(BASELINES))
@settings(max_examples=50, deadline=None)
def test_rows_from_columns_are_the_definitions_rows(episodes, baseline):
    fast = compute_leaderboard(episodes, baseline=baseline, resamples=RESAMPLES)
    slow = definition_rows(episodes, baseline=baseline, resamples=RESAMPLES)
    assert repr(fast) == repr(slow)
    # and the columns give the facts back unchanged
    assert repr(EpisodeColumns.of(episodes).facts()) == repr(episodes)


@given(many_rows(), st.sampled_from([b for b in BASELINES if b is not None]))
@settings(max_examples=60, deadline=None)
def test_action_baselines_from_columns_are_the_definitions(episodes, baseline):
    assert (column_action_baselines(EpisodeColumns.of(episodes), baseline)
            == action_baselines(episodes, baseline))


samples = st.lists(st.lists(st.one_of(st.floats(0, 100), st.sampled_from([1.0, 2.0])),
                            min_size=0, max_size=12), min_size=1, max_size=7)


class ChunkedResampler(Resampler):
    """A resampler whose index matrices count as too large from 9 values on: the chunked
    draws, one sample at a time."""

    MAX_CELLS = 400


@given(samples, st.integers(0, 2**32 - 1), st.sampled_from([0.9, 0.95]),
       st.sampled_from([Resampler, ChunkedResampler]))
@settings(max_examples=100, deadline=None)
def test_intervals_together_are_intervals_one_at_a_time(values, seed, confidence, kind):
    arrays = [np.asarray(v, dtype=float) for v in values]
    together = bootstrap_intervals(arrays, kind(seed, 50), confidence=confidence)
    alone = [bootstrap_interval(v, seed, resamples=50, confidence=confidence,
                                resampler=kind(seed, 50)) for v in values]
    assert repr(together) == repr(alone)


def test_the_reads_see_one_snapshot(tmp_path, monkeypatch):
    """Several queries read what one query did: a rescoring committed between them is not
    half seen (SQLite's driver begins no transaction for a SELECT by itself)."""
    url = f"sqlite:///{tmp_path / 'snapshot.sqlite3'}"
    store = Store(open_database(url))
    varied_database(store, random.Random(3), 50)
    seen = rescored_between_reads(store, url, monkeypatch)
    assert seen and 12345.0 not in seen
    store.db.dispose()
