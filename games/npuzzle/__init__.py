"""The 15-puzzle: slide tiles into the blank until they are in order (ING-VP, see puzzles.md)."""

import json
from collections.abc import Mapping
from typing import Any

from playbench.games.base import GameSpec, Level
from playbench.games.npuzzle.formats import INGVP, PACK
from playbench.games.npuzzle.generator import generate
from playbench.games.npuzzle.render import make_renderer
from playbench.games.npuzzle.rules import NPuzzleRules
from playbench.games.npuzzle.solver import solve

BOARD = 4
"""The side of the board this kind plays: the 15-puzzle (its rules are built for 4x4)."""


def generate_played(count: int, seed: int, optimal: int | None = None, *, n: int = BOARD,
                    **params: Any) -> list[Level]:
    """The generator as this kind uses it: boards it can play only (the generator itself goes
    up to :data:`~playbench.games.npuzzle.rules.MAX_SIZE`)."""
    if n != BOARD:
        raise ValueError(f"this kind plays the 15-puzzle's {BOARD}x{BOARD} board only, got "
                         f"{n}x{n}")
    return generate(count, seed, optimal, n=n, **params)


def describe(level: Level) -> Mapping[str, Any]:
    """Board size for level listings."""
    n = len(json.loads(level.text))
    return {"size": f"{n}x{n}"}


SPEC = GameSpec(
    name="npuzzle",
    title="15-puzzle",
    make_rules=lambda options: NPuzzleRules(BOARD),
    make_renderer=make_renderer,
    solve=solve,
    formats={"pack": PACK, "ingvp": INGVP},
    generate=generate_played,
    completion_unit=12.5,
    move_help="A tile number, e.g. 7: that tile must touch the blank and slides into it; "
              "sort 1-15 with the blank last.",
    default_format="pack",
    describe=describe,
)
