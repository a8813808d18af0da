"""Issue 31: study and sweep files are held to typed models (app/studies/files.py). Values the
hand-written checks let through silently (a description that is a number, a practice list that
is a mapping, a sweep's level format that is not a name) are now named; any value in any field
gives a spec or our problem list, never another exception."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from playbench.app.studies import StudyFileError, parse_study
from playbench.app.studies.files import StudyFile, StudyTaskEntry, SweepFile, SweepTaskEntry
from playbench.app.studies.sweepfile import SweepFileError, parse_sweep
from tests.studies.helpers import level_files

GOOD_STUDY = {"name": "pilot", "budget": 40, "tasks": [{"game": "sokoban",
                                                        "levels": "rooms.xsb:1-2"}]}
GOOD_SWEEP = {"name": "s", "participants": ["solver"],
              "tasks": [{"game": "sokoban", "levels": "rooms.xsb:1"}]}


def _study(base: Path, **changes) -> list[str]:
    try:
        parse_study(yaml.safe_dump({**GOOD_STUDY, **changes}), base=base, source="s.yaml")
    except StudyFileError as err:
        return [str(p) for p in err.problems]
    return []


def _sweep(base: Path, entry: dict | None = None, **changes) -> list[str]:
    data = {**GOOD_SWEEP, **changes}
    if entry is not None:
        data["tasks"] = [{**GOOD_SWEEP["tasks"][0], **entry}]
    try:
        parse_sweep(yaml.safe_dump(data), base=base, source="w.yaml")
    except SweepFileError as err:
        return [str(p) for p in err.problems]
    return []


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    directory = tmp_path_factory.mktemp("levels")
    level_files(directory)
    return directory


def test_the_good_files_pass(base):
    assert _study(base) == [] and _sweep(base) == []


@pytest.mark.parametrize("changes,problem", [
    ({"description": 0}, "description: must be text, got 0"),
    ({"practice": {}}, "practice: must be a list of tasks, got {}"),
    ({"exclusions": {}}, "exclusions: must be a list of rules"),
    ({"seed": 1.5}, "seed: must be a whole number >= 0, got 1.5"),
    ({"name": "n" * 201}, "name: must be at most 200 characters"),
    ({"sampling": "   "}, "sampling: must be text describing the study"),
])
def test_a_study_field_of_the_wrong_shape_is_named(base, changes, problem):
    assert any(p.startswith(problem) for p in _study(base, **changes)), _study(base, **changes)


@pytest.mark.parametrize("entry,changes,problem", [
    ({"level_format": 5}, {}, "tasks[0].level_format: must be a format name, got 5"),
    (None, {"description": ["a", "list"]}, None),
    ({"settings": []}, {}, "tasks[0].settings: must be a list of setting names, got []"),
    ({"rules": "undo"}, {}, "tasks[0].rules: must be a mapping NAME: VALUE, got 'undo'"),
    (None, {"seed": True}, "seed: must be a whole number >= 0, got True"),
    (None, {"tasks": []}, "tasks: a list of at least one task is needed"),
])
def test_a_sweep_field_of_the_wrong_shape_is_named(base, entry, changes, problem):
    found = _sweep(base, entry, **changes)
    if problem is None:
        assert found == []
    else:
        assert problem in found, found


ANY = st.recursive(st.none() | st.booleans() | st.integers(-5, 10 ** 6) |
                   st.floats(allow_nan=False) | st.text(max_size=12),
                   lambda inner: st.lists(inner, max_size=3) |
                   st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=6)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(st.sampled_from([*StudyFile.model_fields, "bogus"]), ANY,
       st.sampled_from([*StudyTaskEntry.model_fields]), ANY)
def test_any_value_in_any_study_field_gives_a_spec_or_named_problems(base, top, value, key,
                                                                     inner):
    data = {**GOOD_STUDY, top: value}
    if top != "tasks":
        data["tasks"] = [{**GOOD_STUDY["tasks"][0], key: inner}]
    known = {*StudyFile.model_fields, "bogus", "file"}
    for problem in _study_data(base, data):
        field = problem.split(":", 1)[0]
        assert field.split(".")[0].split("[")[0] in known, problem


def _study_data(base: Path, data: dict) -> list[str]:
    try:
        parse_study(yaml.safe_dump(data), base=base, source="s.yaml")
    except StudyFileError as err:
        assert err.problems and all(p.reason for p in err.problems)
        return [str(p) for p in err.problems]
    return []


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(st.sampled_from([*SweepFile.model_fields]), ANY,
       st.sampled_from([*SweepTaskEntry.model_fields]), ANY)
def test_any_value_in_any_sweep_field_gives_a_spec_or_named_problems(base, top, value, key,
                                                                     inner):
    data = {**GOOD_SWEEP, top: value}
    if top != "tasks":
        data["tasks"] = [{**GOOD_SWEEP["tasks"][0], key: inner}]
    try:
        parse_sweep(yaml.safe_dump(data), base=base, source="w.yaml")
    except SweepFileError as err:
        known = {*SweepFile.model_fields, "file"}
        assert all(p.field.split(".")[0].split("[")[0] in known for p in err.problems)
