"""Quality checks of a study (issue 29, item 3): check (gold) tasks mixed into the order and
never scored, exclusion rules declared in the file or added post hoc, and results that apply
them, list who was excluded by which rule and count what was left out."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from playbench.app.players.human import HumanPlayer
from playbench.app.results.data import Scope
from playbench.app.results.leaderboard import leaderboard
from playbench.app.studies import StudyFileError, StudyQueue, load_protocol
from playbench.app.studies.quality import CheckRule, ExclusionRule, QualityRuleError
from playbench.app.studies.spec import parse_study
from playbench.db.engine import open_database
from playbench.db.store import Store
from tests.studies.helpers import give_up_after, input_layer, optimal, run_cli, study_yaml

TASKS = [{"game": "sokoban", "levels": "rooms.xsb:2-4"},
         {"game": "maze", "levels": "mazes.txt:1", "check": "solved"},
         {"game": "maze", "levels": "mazes.txt:2", "check": "completion >= 100"}]
"""t1-t3 Sokoban, t4 and t5 maze checks."""


@pytest.mark.parametrize(("value", "text"), [
    ("solved", "solved"), ("completion >= 80", "completion >= 80"),
    ("steps_over_optimal <= 1.5", "steps_over_optimal <= 1.5"),
    ({"answer": "Paris"}, "answer 'Paris'")])
def test_check_rules_read_back_as_written(value, text):
    rule = CheckRule.parse(value)
    assert rule.text() == text
    assert CheckRule.parse(rule.record()) == rule


def test_check_rules_pass_and_fail():
    assert CheckRule.parse("solved").passed({"solved": 1.0}, None)
    assert not CheckRule.parse("solved").passed({"solved": 0.0}, None)
    assert not CheckRule.parse("completion >= 80").passed({"completion": 79.9}, None)
    assert not CheckRule.parse("completion >= 80").passed({}, None)  # no score: not passed
    answer = CheckRule.parse({"answer": "Paris"})
    assert answer.passed({}, "stop [ paris ]")
    assert not answer.passed({}, "stop [Lyon]")
    assert not answer.passed({}, "click [12]")


@given(st.one_of(st.text(max_size=40), st.integers(), st.none(),
                 st.dictionaries(st.text(max_size=8), st.text(max_size=8), max_size=2)))
def test_any_check_value_is_read_or_refused_clearly(value):
    try:
        CheckRule.parse(value)
    except QualityRuleError as err:
        assert "solved" in str(err) or "answer" in str(err)


@given(st.text(max_size=40))
def test_any_exclusion_text_is_read_or_refused_clearly(text):
    try:
        rule = ExclusionRule.parse(text)
    except QualityRuleError as err:
        assert "MEASURE OP NUMBER" in str(err)
    else:
        assert ExclusionRule.parse(rule.text()) == rule


def test_the_study_file_names_each_bad_check_and_rule(tmp_path):
    path = study_yaml(tmp_path, tasks=TASKS + [{"game": "maze", "levels": "mazes.txt:3",
                                                "check": "solved!"}],
                      practice=[{"game": "sokoban", "levels": "rooms.xsb:1",
                                 "check": "solved"}],
                      exclusions=["failed_checks >= 1", "speed > 3", 7])
    with pytest.raises(StudyFileError) as err:
        parse_study(path.read_text(), base=tmp_path, source=str(path))
    text = str(err.value)
    assert f"{path}: tasks[3].check: 'solved!'" in text
    assert "practice[0].check: practice tasks are never scored" in text
    assert "exclusions[1]: 'speed > 3'" in text and "exclusions[2]: an exclusion rule" in text
    assert "exclusions[0]" not in text
    only_checks = study_yaml(tmp_path, name="c", tasks=[TASKS[1]])
    with pytest.raises(StudyFileError, match="every scored task is a check"):
        parse_study(only_checks.read_text(), base=tmp_path)


def test_old_studies_keep_their_fingerprint(tmp_path, db_url):
    """A study without checks or rules stores exactly what it stored before (its fingerprint
    decides whether two annotators' copies are the same study)."""
    store = Store(open_database(db_url))
    plain = parse_study(study_yaml(tmp_path).read_text(), base=tmp_path)
    from playbench.app.studies.protocol import protocol_dict
    data = protocol_dict(plain)
    assert "exclusions" not in data and all("check" not in t for t in data["tasks"])
    checked = parse_study(study_yaml(tmp_path, tasks=TASKS).read_text(), base=tmp_path)
    assert protocol_dict(checked)["fingerprint"] != protocol_dict(
        parse_study(study_yaml(tmp_path, tasks=[{k: v for k, v in t.items() if k != "check"}
                                                for t in TASKS]).read_text(),
                    base=tmp_path))["fingerprint"]
    store.db.dispose()


async def play_all(db_url: str, name: str, policies: dict) -> list[str]:
    """Play every task of ``name``'s queue; returns the keys in the order shown."""
    store = Store(open_database(db_url))
    queue = StudyQueue(store, "pilot", name)
    order = []
    while (item := queue.next()) is not None:
        order.append(item.key)
        human = HumanPlayer(name)
        await queue.play(item, human, listeners=[input_layer(human, policies.get(item.key,
                                                                                 optimal))])
    store.db.dispose()
    return order


async def test_checks_are_mixed_in_never_scored_and_rules_exclude(tmp_path, db_url):
    def cli(*args):
        r = run_cli(list(args), db=db_url, cwd=tmp_path)
        assert r.code == 0, r.err
        return r

    cli("study", "create", str(study_yaml(
        tmp_path, tasks=TASKS, exclusions=["failed_checks >= 1"])))
    store = Store(open_database(db_url))
    protocol = load_protocol(store, "pilot")
    assert [t.key for t in protocol.checks] == ["t4", "t5"]

    # alice passes both checks; bob gives up on a check (fails it); carol fails the other
    # check by giving up, and plays the Sokoban tasks badly.
    orders = [await play_all(db_url, "alice", {}),
              await play_all(db_url, "bob", {"t4": give_up_after(0)}),
              await play_all(db_url, "carol", {"t5": give_up_after(1),
                                               "t1": give_up_after(0)})]
    scored = [[k for k in order if k != "p1"] for order in orders]
    assert all(sorted(o) == ["t1", "t2", "t3", "t4", "t5"] for o in scored)
    assert any(o.index("t4") < 4 or o.index("t5") < 4 for o in scored)  # mixed in, not last

    board = leaderboard(store, Scope(study="pilot"))
    assert board.screening is not None
    assert {e.person: [r.label() for r in e.rules] for e in board.screening.excluded} == {
        "bob": ["failed_checks >= 1"], "carol": ["failed_checks >= 1"]}
    assert {r.participant for r in board.rows} == {"alice"}
    assert {r.game for r in board.rows} == {"sokoban"}  # the maze tasks were all checks
    assert len(board.screening.check_episodes) == 6
    assert len(board.screening.excluded_episodes) == 2 * (1 + 3)  # practice + 3 tasks each
    everything = leaderboard(store, Scope())  # checks never count, in any scope
    assert {r.game for r in everything.rows} == {"sokoban"}
    assert everything.dropped == board.screening.check_episodes

    # A rule added afterwards is marked post hoc everywhere it is used.
    cli("study", "exclude", "pilot", "finished < 4")
    out = cli("results", "--study", "pilot").out
    assert "finished < 4 (post hoc)" in out
    assert "excluded 3 of 3 people" in out
    assert "check tasks: 6 episode(s) left out of the scores" in out
    json_out = cli("results", "--study", "pilot", "--format", "json").json()
    assert json_out["rows"] == []
    assert [r["post_hoc"] for r in json_out["screening"]["rules"]] == [False, True]
    assert {e["person"] for e in json_out["screening"]["excluded"]} == {"alice", "bob", "carol"}
    bad = run_cli(["study", "exclude", "pilot", "finished << 4"], db=db_url, cwd=tmp_path)
    assert bad.code != 0 and "MEASURE OP NUMBER" in bad.err
    assert load_protocol(store, "pilot").exclusions[-1].text() == "finished < 4"  # unchanged
    store.db.dispose()
