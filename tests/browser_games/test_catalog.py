"""The browser-games catalog loader and action parsers, without a browser.

Property tests (hypothesis) over game and task YAML fields and over action texts: every
well-formed value loads, every ill-formed one is refused with an error naming the file and the
field; action texts parse to a canonical text that parses to itself; keys outside the role's
allowed keys and unknown semantic ids are refused with a reason.
"""

from __future__ import annotations

import string
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from playbench.evaluators import browser_games as metrics
from playbench.games.browser_games.catalog import (
    Catalog,
    CatalogError,
    lookup,
    parse_game,
    parse_task,
    read_yaml,
)
from playbench.games.browser_games.controls import (
    COMPUTER_USE,
    SEMANTIC,
    ControlError,
    Controls,
    text_to_tool,
    tool_specs,
    tool_to_text,
)
from playbench.games.browser_games.inputs import PersonInput

HERE = Path(__file__).parent / "catalog"
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

ids = st.text(string.ascii_lowercase + "_", min_size=1, max_size=12).filter(
    lambda s: s.strip("_"))
keys = st.sampled_from(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Space", "Enter",
                        "x", "z", "Shift"])


def game_data(controls: list[tuple[str, str, float | None]], allowed: list[str],
              hold: float = 0.2) -> dict:
    return {"game_name": "07_test", "game_rules": "Rules.", "speed_multiplier": 1.0,
            "game_roles": [{"name": "player", "prompt": {"role_section": "You play."},
                            "computer_use_controls": {"allowed_keys": allowed,
                                                      "allow_clicks": True,
                                                      "hold_duration": hold},
                            "semantic_controls": [
                                {"id": cid, "description": f"does {cid}",
                                 "binding": ({"action": "wait", "duration": d} if key == "wait"
                                             else {"action": "press_key", "key": key,
                                                   **({"duration": d} if d is not None
                                                      else {})})}
                                for cid, key, d in controls]}],
            "some_future_key": {"ignored": True}}


def task_data(**changes) -> dict:
    data = {"task_id": "07_01", "game_id": "07_test", "evaluator_id": "game_api_metric",
            "max_steps": 100, "task_target_score_field": 10, "task_start_score_field": 0,
            "pause_during_inference": True, "continue_on_fail": True, "task_prompt": "Go.",
            "evaluator_config": {"terminal_status": "success", "score_field": "game_state.score",
                                 "end_field": "terminal.isTerminal",
                                 "metrics_fields": ["game_state.score"]}}
    data.update(changes)
    return data


@FAST
@given(st.lists(st.tuples(ids, keys, st.one_of(st.none(), st.floats(0, 5))), min_size=1,
                max_size=6, unique_by=lambda c: c[0]),
       st.lists(keys, max_size=5), st.floats(0.01, 2.0))
def test_game_yaml_round_trips_through_text(controls, allowed, hold):
    data = game_data(controls, allowed, hold)
    spec = parse_game(yaml.safe_load(yaml.safe_dump(data)), Path("g.yaml"))
    role = spec.role
    assert [c.id for c in role.semantic] == [c[0] for c in controls]
    for (_, key, dur), control in zip(controls, role.semantic, strict=True):
        assert control.binding.keys == (() if key == "wait" else (key,))
        assert control.binding.duration == dur
    assert role.computer_use.allowed_keys == tuple(allowed)
    assert role.computer_use.hold_duration == pytest.approx(hold)


BAD_GAME = [("game_name", [1, 2]), ("game_name", {"a": 1}), ("game_roles", []),
            ("game_roles", "player"), ("game_roles", [7]), ("speed_multiplier", "fast"),
            ("speed_multiplier", -1), ("speed_multiplier", True), ("width", "wide"),
            ("width", 0), ("demo_policy", ["no_such_control"]), ("demo_policy", "go")]
BAD_TASK = [("task_target_score_field", "ten"), ("task_target_score_field", None),
            ("task_target_score_field", 0), ("max_steps", 0), ("max_steps", 2.5),
            ("continue_on_fail", "yes"), ("evaluator_config", None), ("evaluator_config", [1]),
            ("task_id", None), ("task_id", [1])]


@FAST
@given(st.sampled_from(BAD_GAME), st.sampled_from(["games/07_test.yaml", "g w/x.yaml"]))
def test_a_bad_game_field_is_refused_naming_file_and_field(bad, name):
    field, value = bad
    data = game_data([("go", "ArrowUp", None)], ["ArrowUp"])
    data[field] = value
    where = Path("/cat/catalog") / name
    with pytest.raises(CatalogError) as err:
        parse_game(data, where)
    assert str(where) in str(err.value) and field in str(err.value)


@FAST
@given(st.sampled_from(BAD_TASK))
def test_a_bad_task_field_is_refused_naming_file_and_field(bad):
    field, value = bad
    where = "/cat/catalog/tasks/07_test/07_01.yaml"
    with pytest.raises(CatalogError) as err:
        parse_task(task_data(**{field: value}), Path(where))
    assert where in str(err.value)
    assert field in str(err.value) or (field == "evaluator_config"
                                       and "evaluator_config" in str(err.value))


@FAST
@given(st.floats(-1e6, 1e6), st.floats(-1e6, 1e6), st.floats(-1e6, 1e6))
def test_progress_is_clipped_and_success_agrees_with_it(best, start, target):
    if start == target:
        return
    p = metrics.progress(best, start, target)
    assert 0.0 <= p <= 1.0
    assert metrics.success(best, start, target) == (p == 1.0 and (
        best >= target if target > start else best <= target))


def test_summary_gives_sr_and_pg_per_game_and_overall():
    rows = [metrics.TaskResult("a", True, 1.0, 0.0), metrics.TaskResult("a", False, 0.5, 0.5),
            metrics.TaskResult("b", False, 0.0, None)]
    out = metrics.summarize(rows)
    assert out["a"].sr == 50.0 and out["a"].pg == 75.0 and out["a"].invalid_rate == 0.25
    assert out[""].episodes == 3 and out[""].pg == pytest.approx(50.0)


def test_the_test_catalog_loads_and_names_missing_things():
    cat = Catalog(HERE)
    assert cat.game_ids() == ["01_probe"]
    assert cat.task_ids("01_probe") == ["01_01", "01_02"]
    assert cat.task("01_probe", "01_02").continue_on_fail is False
    with pytest.raises(CatalogError, match="no game '02_none'"):
        cat.game("02_none")
    with pytest.raises(CatalogError, match="not a catalog root"):
        Catalog(HERE / "games").game_ids()


def test_unreadable_yaml_names_the_file_and_line(tmp_path):
    bad = tmp_path / "x.yaml"
    bad.write_text("game_name: [unclosed\n  b: c\n", encoding="utf-8")
    with pytest.raises(CatalogError, match=r"x\.yaml.*line"):
        read_yaml(bad)


def test_lookup_reads_dotted_paths():
    state = {"game_state": {"score": 3, "cells": [1, 2]}, "terminal": {"isTerminal": False}}
    assert lookup(state, "game_state.score") == 3
    assert lookup(state, "game_state.cells.1") == 2
    assert lookup(state, "terminal.isTerminal") is False
    assert lookup(state, "game_state.nope") is None


# --- actions -------------------------------------------------------------------------------

ROLE = parse_game(game_data([("wait", "wait", 0.5), ("left", "ArrowLeft", None),
                             ("jump", "ArrowUp", 0.3)], ["ArrowLeft", "ArrowUp", "x"])).role


@FAST
@given(st.sampled_from([SEMANTIC, COMPUTER_USE]), st.data())
def test_every_vocabulary_action_parses_to_a_fixed_point(interface, data):
    controls = Controls(ROLE, interface)
    text = data.draw(st.sampled_from(controls.vocabulary()))
    canonical, command = controls.parse(text)
    again, command2 = controls.parse(canonical)
    assert again == canonical and command2 == command
    name, args = text_to_tool(canonical)
    assert controls.parse(tool_to_text(name, {**args, "reasoning": "r"}))[0] == canonical


@FAST
@given(st.text(min_size=1, max_size=20))
def test_unknown_semantic_ids_are_refused_with_the_registered_list(text):
    controls = Controls(ROLE, SEMANTIC)
    head = text.strip().partition(" ")[0]
    if head in ("wait", "left", "jump"):
        return
    with pytest.raises(ControlError) as err:
        controls.parse(text)
    assert err.value.kind in ("not_in_vocabulary", "no_action")
    if text.strip():
        assert "registered" in err.value.reason


@FAST
@given(st.sampled_from(["ArrowRight", "Enter", "Space", "q", "F5", "ArrowDown"]))
def test_keys_outside_allowed_keys_are_refused_with_a_reason(key):
    controls = Controls(ROLE, COMPUTER_USE)
    with pytest.raises(ControlError) as err:
        controls.parse(f"press_key {key}")
    assert err.value.kind == "not_in_vocabulary" and "not allowed" in err.value.reason
    assert controls.parse("press_key arrowleft")[0] == "press_key ArrowLeft"
    assert controls.parse("press_key X")[0] == "press_key X"  # letters: any case


def test_durations_come_from_the_binding_or_the_hold_duration():
    controls = Controls(ROLE, SEMANTIC)
    assert controls.parse("jump")[1].seconds == pytest.approx(0.3)
    assert controls.parse("left")[1].seconds == pytest.approx(0.2)
    assert controls.parse("wait")[1].op == "wait"
    cu = Controls(ROLE, COMPUTER_USE)
    assert cu.parse("press_keys ArrowUp+ArrowLeft")[1].keys == ("ArrowUp", "ArrowLeft")
    with pytest.raises(ControlError, match="outside"):
        cu.parse("click 1280 10")


def test_tool_specs_carry_a_reasoning_argument():
    for interface in (SEMANTIC, COMPUTER_USE):
        for _, _, params in tool_specs(ROLE, interface):
            assert "reasoning" in params["properties"] and "reasoning" in params["required"]


def test_person_input_gives_the_same_canonical_actions():
    sem = PersonInput(Controls(ROLE, SEMANTIC))
    assert sem.key("Left").text == "left"
    assert sem.key("Up").text == "jump"
    assert sem.key("Q") is None  # not an action under semantic controls
    cu = PersonInput(Controls(ROLE, COMPUTER_USE))
    assert cu.key("Left").text == "press_key ArrowLeft"
    assert cu.key("Q").text == "press_key q"  # recorded, then refused by the env
    assert cu.press((10, 20)).text == "click 10 20"
    assert cu.keys(["Up", "Left"]).text == "press_keys ArrowUp+ArrowLeft"


def test_person_help_names_the_game_keys_from_its_catalog_entry():
    """2048's help said "Play with the game's keys" without naming them: the keys come from
    the game's YAML, under either interface."""
    bundled = Path(__file__).parents[2] / "games/browser_games/bundled/catalog/games"
    game = parse_game(read_yaml(bundled / "01_2048.yaml"), bundled / "01_2048.yaml")
    semantic = PersonInput(Controls(game.role, SEMANTIC)).controls_help()
    for key, what in (("ArrowUp", "Slide all tiles up."), ("ArrowLeft", "Slide all tiles left.")):
        assert f"{key}: {what}" in semantic, semantic
    cu = PersonInput(Controls(game.role, COMPUTER_USE)).controls_help()
    assert cu == "Keys: ArrowUp, ArrowDown, ArrowLeft, ArrowRight; clicks are not used."
