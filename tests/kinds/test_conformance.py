"""Conformance of every registered task kind, in the spirit of Gymnasium's ``check_env``.

Parametrized over ``playbench.games.kind.default_registry()``: the bundled kinds and the Lights
Out plugin installed from ``tests/plugins/lightsout`` (and any kind installed later). Every kind
is checked here for the protocol, its entry-point name, settings with budgets, bundled sources
that load, and plans that split what they join; its replay and resume claims are checked on
real records in ``test_conformance_replay.py``. Kinds on the board view get more checks in
``test_conformance_boards.py``; the other views play one bundled task each in
``test_conformance_views.py``. A kind on a view this suite does not know fails
:func:`test_every_kind_is_on_a_view_this_suite_checks`, so nothing
is left unchecked silently. Shared helpers: ``tests/kinds/conformance.py``.
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Mapping

import pytest

from playbench.games.base import Level, RuleOption
from playbench.games.kind import (
    ENTRY_POINT_GROUP,
    TaskKind,
)
from playbench.games.replay_spec import ReplaySpec
from playbench.games.types import Budget, Setting
from tests.kinds.conformance import (
    NAMES,
    PLAYABLE,
    REGISTRY,
    VIEWS,
    board_env,
    is_board,
    params,
)

# --- every kind -----------------------------------------------------------------------------

def test_the_registry_holds_the_bundled_kinds_and_the_plugin():
    assert {"sokoban", "maze", "sudoku", "queens", "hanoi", "npuzzle", "web",
            "lightsout"} <= set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_every_kind_is_on_a_view_this_suite_checks(name):
    """Board games are checked as boards whatever surface a person plays them on (a plugin
    may bring its own); every other kind must be on a view this suite plays."""
    kind = REGISTRY.get(name)
    assert is_board(kind) or kind.view in VIEWS


@pytest.mark.parametrize("name", NAMES)
def test_kind_satisfies_the_protocol_under_its_entry_point_name(name):
    points = {ep.name: ep for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)}
    kind = REGISTRY.get(name)
    assert isinstance(kind, TaskKind)
    assert kind.name == name and points[name].load() is kind
    assert kind.title.strip() and kind.help.strip()
    assert isinstance(kind.replay, ReplaySpec) and isinstance(kind.undo, bool)
    assert all(isinstance(o, RuleOption) and o.default in o.choices for o in kind.rule_options)
    assert kind.gym_actions is None or (
        kind.gym_actions and all(isinstance(a, str) for a in kind.gym_actions))
    if is_board(kind):
        assert kind.answers is not None and kind.input_map() is not None
        assert kind.input_map() is not kind.input_map()  # a fresh map per play view
    else:
        assert kind.input_map() is None  # people act in the browser pane


@pytest.mark.parametrize("name", NAMES)
def test_settings_carry_budgets_and_include_default(name):
    found = REGISTRY.get(name).settings()
    assert "default" in found
    for key, setting in found.items():
        assert isinstance(setting, Setting) and setting.name == key
        assert isinstance(setting.budget, Budget)
        assert setting.observation in ("image", "text", "both")
        assert setting.budget.max_actions or setting.budget.max_decisions, key
        assert setting.description.strip(), key


@pytest.mark.parametrize("name", NAMES)
def test_bundled_sources_load_levels_of_this_kind(name):
    kind = REGISTRY.get(name)
    for source in kind.sources():
        levels = kind.load(source.name)
        assert levels and all(isinstance(lv, Level) and lv.game == name for lv in levels)
        assert source.count is None or source.count == len(levels), source.name
        assert len({lv.number for lv in levels}) == len(levels), source.name
        assert isinstance(kind.describe(levels[0]), Mapping), source.name
        if len(levels) > 1:
            number = levels[1].number
            assert kind.load(f"{source.name}:{number}") == [levels[1]], source.name


@pytest.mark.parametrize("name", NAMES)
def test_check_level_accepts_bundled_levels_and_refuses_a_broken_one(name):
    """``check_level`` is what an import asks before writing anything: it must pass every
    bundled level and refuse a level whose text is not this kind's."""
    kind = REGISTRY.get(name)
    for source in kind.sources():
        for level in kind.load(source.name)[:3]:
            kind.check_level(level)
    broken = Level(name, "this is not a level of any kind", 1)
    with pytest.raises(Exception):  # noqa: B017 - each kind refuses with its own error type
        kind.check_level(broken)

@pytest.mark.parametrize("name", params(PLAYABLE, browser=False))
def test_plans_split_what_join_writes(name):
    kind = REGISTRY.get(name)
    if is_board(kind):
        env = board_env(kind)
        moves = env.vocabulary()[:5]
    else:
        moves = ["click [12]", "type [5] [blue guitar]", "scroll [down]", "stop [a b c]"]
    assert kind.split_plan(kind.join_plan(moves)) == moves
    assert kind.split_plan("   ") == []
