"""The leaderboard's fast rows (numpy columns, ``leaderboard.fast_row``) equal the rows of the
definition (``leaderboard.build_row``, one episode at a time) to the last bit: on random
episodes (hypothesis), and through ``leaderboard()`` on a random small SQLite database (whose
rows ``leaderboard.definition_rows`` makes one episode at a time)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from playbench.app.results.baselines import HumanBaseline
from playbench.app.results.data import EpisodeFacts, Scope, load_episodes
from playbench.app.results.leaderboard import (
    Leaderboard,
    build_row,
    definition_rows,
    fast_row,
    leaderboard,
)
from playbench.db.engine import open_database
from playbench.db.steps import StepRecord
from playbench.db.store import Store

RESAMPLES = 60
"""Few bootstrap draws: the draws are the same on both sides; what differs is the means."""

maybe = st.one_of(st.none(), st.just(float("nan")),
                  st.floats(min_value=0, max_value=100, allow_nan=False))


@st.composite
def episodes(draw: st.DrawFn) -> list[EpisodeFacts]:
    """One row's worth of episodes: one game, setting, kind and participant, several levels
    and repeats, values missing or NaN now and then."""
    n = draw(st.integers(1, 25))
    levels = draw(st.lists(st.sampled_from("abcdefg"), min_size=n, max_size=n))
    out = []
    for i, level in enumerate(levels):
        solved = draw(st.one_of(st.none(), st.sampled_from([0.0, 1.0])))
        out.append(EpisodeFacts(
            id=i, uid=f"u{i:03d}", kind="model", participant="m", game="sokoban",
            level_hash=level * 8, level_number=1, setting="default", study=None,
            practice=False, status="done", actions=draw(st.integers(0, 60)),
            solved=solved, completion=draw(maybe), efficiency=draw(maybe),
            magebench=draw(maybe), steps_over_optimal=draw(maybe),
            level_key=f"sokoban:{level * 8}"))
    return out


@given(episodes(), st.dictionaries(st.sampled_from("abcdefg"),
                                   st.floats(min_value=1, max_value=80), max_size=7))
@settings(max_examples=80, deadline=None)
def test_a_fast_row_is_the_definitions_row(eps, humans):
    baselines = {(f"sokoban:{lv * 8}", "default"): h for lv, h in humans.items()}
    key = ("sokoban", "default", "model", "m")
    fast = fast_row(key, eps, baselines, resamples=RESAMPLES)
    slow = build_row(key, eps, baselines, resamples=RESAMPLES)
    # repr: every float to the last bit, and NaN equal to NaN
    assert repr(fast) == repr(slow)


def random_database(store: Store, rng: random.Random, n: int) -> None:
    """``n`` finished episodes of people and models on a few levels, settings and outcomes."""
    people = [("human", "h1"), ("human", "h2"), ("human", "h3"), ("model", "m1"),
              ("model", "m2")]
    for _ in range(n):
        who = rng.choice(people)
        level = rng.choice("abcd")
        setting = rng.choice(["default", "ingvp:text-multi"])
        pid = store.participant(*who)
        tid = store.task("sokoban", level * 8, f"board {level}", number=ord(level) - 96)
        eid = store.begin_episode(participant_id=pid, task_id=tid, setting=setting,
                                  player=who[1], budget={}, rules={}, seed=0, owner="",
                                  start_state="s", start_frame=None, meta={})
        actions = rng.randint(1, 6)
        for i in range(actions):
            store.add_step(eid, StepRecord(index=i, decision=i, action="U", raw="U",
                                           valid=True, invalid_kind=None,
                                           invalid_reason=None, changed=True, reward=0.0,
                                           state_hash=f"{i}"), None)
        solved = rng.random() < 0.6
        store.finish_episode(eid, status="done", end_reason="x", scores={
            "solved": float(solved), "completion": rng.uniform(0, 100),
            "efficiency": rng.uniform(20, 100), "steps": float(actions),
            "steps_over_optimal": actions / 3 if solved else None,
            "magebench": rng.uniform(40, 100) if rng.random() < 0.7 else None})


def test_the_leaderboard_of_a_random_database_is_the_definitions(tmp_path):
    store = Store(open_database(f"sqlite:///{tmp_path / 'random.sqlite3'}"))
    random_database(store, random.Random(32), 80)
    for baseline in (None, HumanBaseline("pooled"), HumanBaseline("person-mean")):
        fast = leaderboard(store, baseline=baseline, resamples=RESAMPLES)
        slow = Leaderboard(definition_rows(load_episodes(store).episodes, baseline=baseline,
                                           resamples=RESAMPLES), Scope())
        assert len(fast.rows) >= 5
        assert repr(fast.rows) == repr(slow.rows)
    # levels have solving humans, so human-relative efficiency is compared too
    assert any(r.human_relative.value is not None for r in fast.rows)
    store.db.dispose()
