"""Human-baseline definitions on a hand-computed example (issue 29, item 4).

Two levels, four people, one model (actions in brackets, S = solved, U = not):

    A: L1 S(10)            L2 U(7)        accuracy 50
    B: L1 U(3), S(6) later L2 U(4)        accuracy (0.5 + 0) / 2 = 25; first runs 0
    C: L1 S(14)            L2 S(30)       accuracy 100
    D: L1 S(20)            L2 U(5)        accuracy 50 (ranks after A: more actions)
    M: L1 S(20)            L2 S(60)

pooled accuracy: L1 4/5, L2 1/4 -> 52.5; person mean (50+25+100+50)/4 = 56.25; median person
50; best person C 100; second-best on first runs: C 100, then A 50 (A and D tie on accuracy,
A used fewer actions) -> 50; levels solved by >= 2 people: L1 only -> 50.

Per-level human action counts: pooled L1 median(10, 6, 14, 20) = 12, L2 30; person mean L1
12.5; best person (C) L1 14; second-best first run (A) L1 10, no L2; solved-by-2 L1 12, no L2.
"""

from __future__ import annotations

import pytest

from playbench.app.results.baselines import (
    BaselineError,
    HumanBaseline,
    action_baselines,
    person_rank,
)
from playbench.app.results.data import EpisodeFacts
from playbench.app.results.leaderboard import compute_leaderboard

PLAYS = [  # id, participant, kind, level, solved, actions
    (1, "A", "human", "L1", 1.0, 10), (2, "A", "human", "L2", 0.0, 7),
    (3, "B", "human", "L1", 0.0, 3), (9, "B", "human", "L1", 1.0, 6),
    (4, "B", "human", "L2", 0.0, 4),
    (5, "C", "human", "L1", 1.0, 14), (6, "C", "human", "L2", 1.0, 30),
    (7, "D", "human", "L1", 1.0, 20), (8, "D", "human", "L2", 0.0, 5),
    (10, "M", "model", "L1", 1.0, 20), (11, "M", "model", "L2", 1.0, 60),
]


def facts(plays=PLAYS, practice: frozenset[int] = frozenset()) -> list[EpisodeFacts]:
    return [EpisodeFacts(id=i, uid=f"u{i}", kind=kind, participant=who, game="g",
                         level_hash=level, level_number=int(level[1]), setting="s",
                         study=None, practice=i in practice, status="done", actions=actions,
                         solved=solved, completion=None, efficiency=None, magebench=None,
                         steps_over_optimal=None, level_key=f"g:{level}")
            for i, who, kind, level, solved, actions in plays]


def board(rule: str, resample: str = "levels", plays=PLAYS):
    rows = compute_leaderboard(facts(plays), baseline=HumanBaseline.parse(rule, resample),
                               resamples=400)
    return {r.participant: r for r in rows}


@pytest.mark.parametrize(("rule", "accuracy"), [
    ("pooled", 52.5), ("person-mean", 56.25), ("median-person", 50.0), ("best-person", 100.0),
    ("second-best-first-run", 50.0), ("solved-by-2", 50.0), ("solved-by-1", 100.0),
    ("solved-by-5", 0.0)])
def test_each_definition_on_the_hand_computed_example(rule, accuracy):
    rows = board(rule)
    human = rows[HumanBaseline.parse(rule).label]
    assert human.kind == "human"
    assert human.accuracy.value == pytest.approx(accuracy)
    assert set(rows) == {human.participant, "M"}  # the people's own rows are replaced


@pytest.mark.parametrize(("rule", "expected"), [
    ("pooled", {"L1": 12.0, "L2": 30.0}),
    ("person-mean", {"L1": 12.5, "L2": 30.0}),
    ("median-person", {"L1": 12.0, "L2": 30.0}),
    ("best-person", {"L1": 14.0, "L2": 30.0}),
    ("second-best-first-run", {"L1": 10.0}),
    ("solved-by-2", {"L1": 12.0}),
])
def test_action_counts_follow_the_definition(rule, expected):
    got = action_baselines(facts(), HumanBaseline.parse(rule))
    assert got == {(f"g:{lv}", "s"): v for lv, v in expected.items()}


@pytest.mark.parametrize(("rule", "hre", "levels"), [
    ("pooled", (0.36 + 0.25) / 2, 2),
    ("person-mean", ((12.5 / 20) ** 2 + 0.25) / 2, 2),
    ("best-person", ((14 / 20) ** 2 + 0.25) / 2, 2),
    ("second-best-first-run", (10 / 20) ** 2, 1),
])
def test_model_efficiency_follows_the_definition(rule, hre, levels):
    model = board(rule)["M"]
    assert model.human_relative.value == pytest.approx(100 * hre)
    assert model.baseline_levels == levels


def test_ranking_breaks_ties_by_actions_then_name():
    assert person_rank([e for e in facts() if e.kind == "human"]) == ["C", "A", "D", "B"]
    twins = [(1, "Y", "human", "L1", 1.0, 5), (2, "X", "human", "L1", 1.0, 5)]
    assert person_rank(facts(twins)) == ["X", "Y"]


def test_second_best_uses_first_runs_only():
    # B's second L1 run solves it with 2 actions; on first runs B still solved nothing
    plays = [p for p in PLAYS if p[0] != 9] + [(9, "B", "human", "L1", 1.0, 2)]
    assert action_baselines(facts(plays), HumanBaseline.parse("second-best-first-run")) == \
        {("g:L1", "s"): 10.0}
    rows = board("second-best-first-run", plays=plays)
    assert rows["humans (second-best-first-run)"].episodes == 2  # A's two first runs


def test_practice_never_counts_towards_a_baseline():
    everyone_practised = facts(practice=frozenset({1, 2, 3, 4, 5, 6, 7, 8, 9}))
    assert action_baselines(everyone_practised, HumanBaseline()) == {}
    rows = compute_leaderboard(everyone_practised, baseline=HumanBaseline(), resamples=50)
    assert [r.participant for r in rows] == ["M"]


@pytest.mark.parametrize("resample", ["levels", "people"])
@pytest.mark.parametrize("rule", ["pooled", "person-mean", "median-person", "best-person",
                                  "second-best-first-run", "solved-by-2"])
def test_intervals_bracket_the_value_and_repeat(rule, resample):
    plays = PLAYS + [(20 + i, p, "human", f"L{3 + i % 3}", float(i % 2), 5 + i)
                     for i, p in enumerate("ABCDABCDABCD")]
    first = board(rule, resample, plays)
    again = board(rule, resample, plays)
    label = HumanBaseline.parse(rule).label
    est = first[label].accuracy
    assert est == again[label].accuracy
    assert est.low is not None and est.high is not None
    assert est.low <= est.value + 1e-9 and est.value <= est.high + 1e-9


def test_people_resampling_of_identical_people_has_no_spread():
    same = [(i * 10 + j, p, "human", f"L{j}", float(j % 2), 4) for i, p in enumerate("PQRS")
            for j in (1, 2, 3)]
    est = board("person-mean", "people", same)["humans (person-mean)"].accuracy
    assert est.value == est.low == est.high == pytest.approx(200 / 3)
    spread = board("person-mean", "levels", same)["humans (person-mean)"].accuracy
    assert spread.low < spread.value < spread.high  # levels do differ


@pytest.mark.parametrize("text", ["median", "solved-by-x", "solved-by-0", "best"])
def test_unknown_definitions_are_refused_with_the_choices(text):
    with pytest.raises(BaselineError, match="solved-by|pooled|k >= 1"):
        HumanBaseline.parse(text)
