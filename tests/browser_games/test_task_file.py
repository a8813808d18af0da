"""Issue 31: a GameWorld task YAML is held to a typed model (games/browser_games/task_file.py).
Any value in any field gives a task or a CatalogError naming the file and the field by its
whole path (``evaluator_config.score_field``, not a bare ``score_field``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from playbench.games.browser_games.catalog import CatalogError, parse_task
from playbench.games.browser_games.task_file import EvaluatorConfig, TaskFile

WHERE = Path("/cat/catalog/tasks/07_test/07_01.yaml")
GOOD = {"task_id": "07_01", "game_id": "07_test", "task_target_score_field": 10,
        "evaluator_config": {"score_field": "game_state.score"}}
VALUES = st.none() | st.booleans() | st.integers(-5, 10 ** 6) | st.floats() | \
    st.text(max_size=8) | st.lists(st.integers() | st.text(max_size=3), max_size=3) | \
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([*TaskFile.model_fields,
                        *(f"evaluator_config.{f}" for f in EvaluatorConfig.model_fields)]),
       VALUES)
def test_any_value_in_any_field_gives_a_task_or_names_file_and_field(field, value):
    data = {**GOOD, "evaluator_config": dict(GOOD["evaluator_config"])}
    if field.startswith("evaluator_config."):
        data["evaluator_config"][field.split(".", 1)[1]] = value
    else:
        data[field] = value
    try:
        task = parse_task(data, WHERE)
    except CatalogError as err:
        assert str(err).startswith(f"{WHERE}: field '{field.split('.')[0]}"), str(err)
        return
    assert task.max_steps >= 1 and task.target == task.target  # a whole count, finite scores


@pytest.mark.parametrize("config,message", [
    ({}, "field 'evaluator_config.score_field' is missing"),
    ({"score_field": "s", "metrics_fields": ["a", {"b": 1}]},
     "field 'evaluator_config.metrics_fields[1]' must be text"),
])
def test_a_nested_field_is_named_by_its_whole_path(config, message):
    with pytest.raises(CatalogError) as err:
        parse_task({**GOOD, "evaluator_config": config}, WHERE)
    assert str(err.value).startswith(f"{WHERE}: {message}"), str(err.value)
