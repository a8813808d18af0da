"""A kind's typed description (issue 28): ``Capabilities`` fields with defaults and small
runtime-checkable protocols for optional behaviour, read by the helpers of ``games.kind``
without probing attribute names."""

from __future__ import annotations

import dataclasses
import importlib.metadata
import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pytest

from playbench.games.base import Level
from playbench.games.capabilities import (
    LAST,
    Capabilities,
    DemoMoves,
    LevelFiles,
    LibraryValues,
    LoadsWith,
    PersonInputs,
    Previews,
)
from playbench.games.kind import (
    KindError,
    Registry,
    TaskKind,
    default_registry,
    demo_moves,
    demo_policies,
    library_columns,
    library_help,
    library_values,
    move_help,
    person_input,
    play_place,
    preview,
    protocol_family,
    result_group,
    unavailable,
)

WEB = default_registry().get("web")


REQUIRED = ("name", "title", "help", "view", "replay", "undo", "rule_options", "answers",
            "gym_actions", "settings", "sources", "load", "make_env", "input_map", "split_plan",
            "join_plan", "thumbnail", "describe", "check_level")
"""The members every ``TaskKind`` has; the kinds below borrow web tasks' own."""

Bare = type("Bare", (), {**{k: getattr(WEB, k) for k in REQUIRED},
                         "capabilities": Capabilities()})
"""A kind from another package that states nothing beyond the required members."""


class Columns(Bare):
    """States columns and fills them, previews, and plays a demo policy of its own."""

    name = "columns"
    capabilities = Capabilities(order=5, library_columns=("A", "B"), play_place="the pad",
                                protocol_family="tools", library_help="<b>pad</b>")

    def library_values(self, level: Level) -> Sequence[str]:
        return ("1", "2", "3")  # one too many: the table must not shift

    def preview(self, level: Level) -> np.ndarray | None:
        return np.zeros((2, 2, 3), np.uint8)

    def demo_moves(self, level_text: str, setting: str, steps: Sequence[str | None],
                   policy: str, rng: random.Random) -> list[str] | None:
        return [f"{policy}:{len(steps)}"]

    def demo_policies(self) -> Mapping[str, Any]:
        return {"mine": object()}


LEVEL = Level("columns", "{}", 1)


def test_a_kind_that_states_nothing_gets_every_default():
    kind: Any = Bare()
    assert isinstance(kind, TaskKind)
    assert not isinstance(kind, (Previews, DemoMoves, LibraryValues, LoadsWith, PersonInputs))
    assert (library_columns(kind), library_values(kind, LEVEL), preview(kind, LEVEL)) == \
        ((), (), None)
    assert (play_place(kind), protocol_family(kind), unavailable(kind)) == \
        ("the browser pane", None, None)
    assert library_help(kind) == move_help(kind) == WEB.help  # the one-line help stands in
    assert demo_moves(kind, "{}", "default", [], "oracle", random.Random(0)) is None
    assert dict(demo_policies(kind)) == {} and result_group(kind, LEVEL) is None
    assert person_input(kind, LEVEL, "default") is None


def test_declared_fields_and_behaviours_are_what_the_helpers_give():
    kind: Any = Columns()
    assert library_columns(kind) == ("A", "B")
    assert library_values(kind, LEVEL) == ("1", "2")
    assert preview(kind, LEVEL) is not None
    assert (play_place(kind), protocol_family(kind), library_help(kind)) == \
        ("the pad", "tools", "<b>pad</b>")
    assert demo_moves(kind, "{}", "default", ["a", None], "noisy", random.Random(0)) == \
        ["noisy:2"]
    assert list(demo_policies(kind)) == ["mine"]


def test_listing_follows_the_declared_order():
    bare, first = Bare(), Columns()
    kinds = Registry(entry_points=[], kinds=[bare, first])  # type: ignore[list-item]
    assert [k.name for k in kinds.listing()] == ["columns", "web"]
    assert Capabilities().order == LAST


def test_capabilities_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Capabilities().order = 1  # type: ignore[misc]


NO_CAPABILITIES = type("Old", (), {k: getattr(WEB, k) for k in REQUIRED})()
"""A kind object without ``capabilities``: what the registry refuses, naming the entry point."""


def test_an_entry_point_without_capabilities_is_refused_by_name():
    point = importlib.metadata.EntryPoint(
        "web", f"{__name__}:NO_CAPABILITIES", "playbench.tasks")
    with pytest.raises(KindError, match="is not a task kind named 'web'"):
        Registry(entry_points=[point]).get("web")


@pytest.mark.parametrize("name", default_registry().names())
def test_every_kind_declares_what_it_states(name):
    """Conformance: every registered kind carries a ``Capabilities``; a kind stating columns
    fills them, one stating source options reads them, one with a file format writes it."""
    kind = default_registry().get(name)
    caps = kind.capabilities
    assert isinstance(caps, Capabilities)
    assert not caps.library_columns or isinstance(kind, LibraryValues)
    assert not caps.source_options or isinstance(kind, LoadsWith)
    if isinstance(kind, LevelFiles):
        assert kind.level_formats()
