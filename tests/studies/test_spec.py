"""Study files: what a valid one becomes, and every kind of bad input named by field and
reason before anything is stored."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa
import yaml
from hypothesis import given
from hypothesis import strategies as st

from playbench.app.studies import StudyFileError, create_study, load_study_file, parse_study
from playbench.db.engine import open_database
from playbench.db.models import Study, Task
from playbench.db.store import Store, StudyExists
from tests.studies.helpers import level_files, run_cli, study_yaml


@pytest.fixture
def base(tmp_path) -> Path:
    level_files(tmp_path)
    return tmp_path


def parse(base: Path, **changes):
    return load_study_file(study_yaml(base, **changes))


def test_a_valid_file_expands_ranges_and_merges_budgets(base):
    spec = parse(base)
    assert spec.name == "pilot" and spec.order == "random" and spec.seed == 11
    assert [t.key for t in spec.tasks] == ["p1", "t1", "t2", "t3", "t4", "t5"]
    assert [t.practice for t in spec.tasks] == [True] + [False] * 5
    assert [(t.task.game, t.task.level.number) for t in spec.scored] == [
        ("sokoban", 2), ("sokoban", 3), ("sokoban", 4), ("maze", 1), ("maze", 2)]
    for t in spec.tasks:
        assert t.budget.max_actions == 40 and t.budget.seconds == 600.0
    assert spec.scored[-1].setting == "ingvp:text-multi"
    assert spec.scored[0].task.source == "rooms.xsb"


def test_per_task_time_limit_and_one_step_budget(base):
    spec = parse(base, budget={"max_actions": 30, "invalid_cost": 0}, tasks=[
        {"game": "sokoban", "levels": "rooms.xsb:2", "time_limit": 90},
        {"game": "sokoban", "levels": "rooms.xsb:3", "setting": "ingvp:image-one"}])
    a, b = spec.scored
    assert a.time_limit == 90 and a.budget.seconds == 90 and a.budget.invalid_cost == 0
    # one-step settings keep their one decision; the study's fields are added to it
    assert b.budget.max_decisions == 1 and b.budget.max_actions == 30 and b.time_limit == 600


BAD = [
    ({"tasks": [{"game": "chess", "levels": "rooms.xsb"}]}, "tasks[0].game",
     "unknown game 'chess'"),
    ({"tasks": [{"game": "sokoban", "levels": "rooms.xsb:9"}]}, "tasks[0].levels",
     "selects no level"),
    ({"tasks": [{"game": "sokoban", "levels": "rooms.xsb:3-4,99"}]}, "tasks[0].levels",
     "names levels that do not exist (99)"),
    ({"tasks": [{"game": "maze", "levels": "depth-4:3-4,99,120-130"}]}, "tasks[0].levels",
     "names levels that do not exist (99, 120-130)"),
    ({"tasks": [{"game": "sokoban", "levels": "missing.xsb"}]}, "tasks[0].levels",
     "no level file or sokoban pack named 'missing.xsb'"),
    ({"tasks": [{"game": "sokoban", "levels": "rooms.xsb:2", "setting": "ingvp:smell"}]},
     "tasks[0].setting", "unknown setting 'ingvp:smell'"),
    ({"tasks": [{"game": "maze", "levels": "mazes.txt:1", "setting": "magebench:global"}]},
     "tasks[0].setting", "unknown setting 'magebench:global' for maze"),
    ({"tasks": [{"game": "sokoban", "levels": "rooms.xsb:2-3"},
                {"game": "sokoban", "levels": "rooms.xsb:3"}]}, "tasks[1]", "duplicate task"),
    ({"tasks": [{"game": "sokoban", "levels": "rooms.xsb:1"}]}, "tasks[0]",
     "is also in practice[0]"),
    ({"budget": -5}, "budget", "must not be negative"),
    ({"budget": {"max_actions": -1}}, "budget.max_actions", "must not be negative"),
    ({"budget": {"invalid_cost": -2}}, "budget.invalid_cost", "must not be negative"),
    ({"budget": {"max_action": 3}}, "budget.max_action", "unknown budget field"),
    ({"budget": {"seconds": 30}}, "budget.seconds", "give the per-task limit once"),
    ({"time_limit": 0}, "time_limit", "above 0"),
    ({"time_limit": "soon"}, "time_limit", "must be a number of seconds"),
    ({"tasks": [{"game": "sokoban", "levels": "rooms.xsb:2", "time_limit": -3}]},
     "tasks[0].time_limit", "above 0"),
    ({"tasks": [{"game": "sokoban", "levels": "rooms.xsb:2", "rules": {"undo": "x"}}]},
     "tasks[0].rules", "unknown rule option"),
    ({"tasks": [{"game": "sokoban", "level": "rooms.xsb:2"}]}, "tasks[0].level",
     "unknown field"),
    ({"budgte": 4}, "budgte", "unknown field"),
    ({"order": "shuffled"}, "order", "must be one of fixed, random"),
    ({"blind": "sometimes"}, "blind", "must be true or false"),
    ({"seed": -1}, "seed", "whole number"),
    ({"tasks": []}, "tasks", "at least one task"),
    ({"name": ""}, "name", "is required"),
]


@pytest.mark.parametrize("changes,field,reason", BAD)
def test_bad_input_names_the_field_and_reason(base, changes, field, reason):
    with pytest.raises(StudyFileError) as caught:
        parse(base, **changes)
    problems = [(p.field, p.reason) for p in caught.value.problems]
    assert any(f == field and reason in r for f, r in problems), problems
    assert f".yaml: {field}: " in str(caught.value)


def test_every_problem_is_reported_at_once(base):
    with pytest.raises(StudyFileError) as caught:
        parse(base, budget=-1, time_limit=-2, order="x",
              tasks=[{"game": "chess", "levels": "a"}, {"game": "sokoban", "levels": "nope"}])
    fields = [p.field for p in caught.value.problems]
    assert fields == ["order", "budget", "time_limit", "tasks[0].game", "tasks[1].levels"]


def test_yaml_syntax_errors_name_the_line(tmp_path):
    with pytest.raises(StudyFileError,
                       match=r"s.yaml: line 3, column 1: not valid YAML \(found a tab"):
        parse_study("name: x\nbudget: 3\n\tfoo: 1\n", source="s.yaml")
    with pytest.raises(StudyFileError, match="must be a YAML mapping"):
        parse_study("- just a list\n")


@given(st.integers(max_value=-1), st.sampled_from(["max_actions", "max_decisions",
                                                   "invalid_cost", "stop_after_identical"]))
def test_any_negative_budget_field_is_rejected(tmp_path_factory, value, name):
    base = tmp_path_factory.getbasetemp() / "negative"
    base.mkdir(exist_ok=True)
    with pytest.raises(StudyFileError) as caught:
        parse(base, budget={name: value})
    assert [p.field for p in caught.value.problems] == [f"budget.{name}"]


def test_nothing_is_created_for_a_bad_file_and_names_are_unique(base, db_url):
    bad = study_yaml(base, name="broken", budget=-3,
                     tasks=[{"game": "sokoban", "levels": "rooms.xsb:2"}])
    r = run_cli(["study", "create", str(bad)], db=db_url, cwd=base)
    assert r.code == 1
    assert "broken.yaml: budget: must not be negative" in r.err and "nothing created" in r.err
    assert not Path(db_url.removeprefix("sqlite:///")).exists()  # not even the database file

    good = study_yaml(base)
    r = run_cli(["study", "create", str(good)], db=db_url, cwd=base)
    assert r.code == 0, r.err
    assert "created study 'pilot': 5 tasks, 1 practice, order random" in r.out
    again = run_cli(["study", "create", str(good)], db=db_url, cwd=base)
    assert again.code == 1 and "a study named 'pilot' exists already" in again.err
    db = open_database(db_url)
    with db.engine.connect() as conn:
        assert conn.scalar(sa.select(sa.func.count()).select_from(Study)) == 1
        assert conn.scalar(sa.select(sa.func.count()).select_from(Task)) == 6
    db.dispose()


def test_a_taken_name_writes_nothing_in_process(base, db_url):
    store = Store(open_database(db_url))
    create_study(store, parse(base))
    other = parse(base, tasks=[{"game": "sokoban", "levels": "rooms.xsb:5-6"}])
    with pytest.raises(StudyExists):
        create_study(store, other)
    with store.db.engine.connect() as conn:
        assert conn.scalar(sa.select(sa.func.count()).select_from(Task)) == 6  # 5, 6 not added
    store.db.dispose()


def test_protocol_names_levels_by_hash_and_keeps_the_file(base, db_url):
    store = Store(open_database(db_url))
    spec = parse(base)
    protocol = create_study(store, spec)
    stored = store.study("pilot").protocol
    assert stored["file"] == spec.source_text and yaml.safe_load(stored["file"])["seed"] == 11
    assert [t.level_hash for t in protocol.tasks] == [t.task.level_hash for t in spec.tasks]
    assert protocol.task("t4").setting == "ingvp:text-multi"
    assert stored["fingerprint"] and len(stored["fingerprint"]) == 64
    store.db.dispose()


def test_web_tasks_can_be_studied_too(tmp_path):
    spec = parse_study("name: w\ntasks:\n  - {game: web, levels: 'classifieds:1-2'}\n",
                       base=tmp_path)
    assert [(t.key, t.task.game, t.task.level.number, t.setting) for t in spec.tasks] == [
        ("t1", "web", 1, "default"), ("t2", "web", 2, "default")]
    with pytest.raises(StudyFileError, match="tasks\\[0\\].levels: no web task file"):
        parse_study("name: w\ntasks:\n  - {game: web, levels: nosuch}\n", base=tmp_path)
