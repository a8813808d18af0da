"""Issue 31: a GameWorld game YAML is held to a typed model (games/browser_games/game_file.py).
Any value in any field, however deep, gives a game or a CatalogError naming the file and the
field by its whole path (``game_roles[0].semantic_controls[0].binding.duration``), never a
traceback."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from playbench.games.browser_games import game_file
from playbench.games.browser_games.catalog import CatalogError, parse_game

WHERE = Path("/cat/catalog/games/07_test.yaml")
GOOD = {"game_name": "07_test", "game_rules": "Reach the flag.", "width": 800, "height": 600,
        "cell_bindings": {"a1": {"x": 10, "y": 20}},
        "game_roles": [{
            "name": "player",
            "prompt": {"role_section": "You play.", "computer_use_controls_section": "Keys."},
            "computer_use_controls": {"allowed_keys": ["ArrowUp"], "allow_clicks": True,
                                      "hold_duration": 0.2, "key_durations": {"ArrowUp": 0.1}},
            "semantic_controls": [{
                "id": "go", "description": "move up", "parameters": {"n": {"type": "int"}},
                "required": [],
                "binding": {"action": "press_key", "key": "ArrowUp", "duration": 0.1,
                            "button": "left"}}]}]}
ROLE = "game_roles[0]"
CONTROL = f"{ROLE}.semantic_controls[0]"
FIELDS = [
    *game_file.GameFile.model_fields, "cell_bindings.a1.x", "cell_bindings.a1.y",
    *(f"{ROLE}.{f}" for f in game_file.RoleFile.model_fields),
    *(f"{ROLE}.prompt.{f}" for f in game_file.PromptFile.model_fields),
    *(f"{ROLE}.computer_use_controls.{f}" for f in game_file.ComputerUseFile.model_fields),
    *(f"{CONTROL}.{f}" for f in game_file.SemanticControlFile.model_fields),
    *(f"{CONTROL}.binding.{f}" for f in game_file.BindingFile.model_fields),
]
VALUES = st.none() | st.booleans() | st.integers(-5, 10 ** 6) | st.floats() | \
    st.text(max_size=8) | st.lists(st.integers() | st.text(max_size=3), max_size=3) | \
    st.dictionaries(st.text(max_size=4), st.integers() | st.text(max_size=3), max_size=2) | \
    st.lists(st.dictionaries(st.text(max_size=3), st.integers(), max_size=2), max_size=2)


def put(data: dict, path: str, value: Any) -> None:
    """Set the value at a dotted path (``game_roles[0].prompt.role_section``)."""
    parts = re.findall(r"[^.\[\]]+|\[\d+\]", path)
    here: Any = data
    for part in parts[:-1]:
        here = here[int(part[1:-1])] if part.startswith("[") else here[part]
    here[parts[-1]] = value


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(FIELDS), VALUES)
def test_any_value_in_any_field_gives_a_game_or_names_file_and_field(field, value):
    data = copy.deepcopy(GOOD)
    put(data, field, value)
    try:
        spec = parse_game(data, WHERE)
    except CatalogError as err:
        named = re.match(rf"{re.escape(str(WHERE))}: field '([^']+)'", str(err))
        assert named, str(err)
        said = named.group(1)
        # the field itself, a part of its value, the field a binding's keys stand for, or the
        # other half of a binding's point (x given without y)
        assert said.startswith(field) or field.startswith(said) or (
            said[-2:] in (".x", ".y") and said[:-2] == field[:-2]), str(err)
        return
    assert spec.roles and spec.width >= 1 and spec.height >= 1 and spec.speed_multiplier > 0
    assert all(isinstance(k, str) for k in spec.role.computer_use.allowed_keys)


@pytest.mark.parametrize("field,value,message", [
    (f"{CONTROL}.binding.duration", -1, f"field '{CONTROL}.binding.duration' must not be "
                                        "negative, got -1"),
    (f"{ROLE}.computer_use_controls.key_durations", {"ArrowUp": "long"},
     f"field '{ROLE}.computer_use_controls.key_durations.ArrowUp' must be a number"),
    (f"{CONTROL}.binding.action", "jump", f"field '{CONTROL}.binding.action' must be one of "
                                          "press_key, press_keys, wait,"),
    ("cell_bindings.a1.y", None, "field 'cell_bindings.a1.y' is missing"),
    ("speed_multiplier", True, "field 'speed_multiplier' must be a number, got True"),
])
def test_a_nested_field_is_named_by_its_whole_path(field, value, message):
    data = copy.deepcopy(GOOD)
    put(data, field, value)
    with pytest.raises(CatalogError) as err:
        parse_game(data, WHERE)
    assert str(err.value).startswith(f"{WHERE}: {message}"), str(err.value)


def test_empty_sections_left_as_null_read_as_empty():
    data = copy.deepcopy(GOOD)
    data["cell_bindings"] = None
    data["demo_policy"] = None
    put(data, f"{ROLE}.computer_use_controls", None)
    put(data, f"{CONTROL}.required", None)
    spec = parse_game(data, WHERE)
    assert spec.cell_bindings == {} and spec.demo_policy == ()
    assert spec.role.computer_use.hold_duration == game_file.DEFAULT_HOLD


def test_keys_written_as_numbers_are_text():
    data = copy.deepcopy(GOOD)
    put(data, f"{ROLE}.computer_use_controls.key_durations", {1: 0.5})
    data["cell_bindings"] = {7: {"x": 1, "y": 2}}
    spec = parse_game(data, WHERE)
    assert spec.role.computer_use.key_durations == {"1": 0.5}
    assert spec.cell_bindings == {"7": (1, 2)}
