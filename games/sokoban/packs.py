"""Sokoban's shipped packs (facts: docs/reference/puzzles.md, docs/levels.md).

- ``ingvp`` (50 levels): ING-VP's construction, optimal solution exactly 8 moves. ING-VP's boards
  run from 3x5 to 12x8 with 2-6 boxes; ours mix five small room shapes (10 levels each) so that
  8 moves stays a natural length.
- ``depth-4`` .. ``depth-16``: 8x8 rooms with 3 boxes at optimal 4, 8, 12 and 16 moves.
- ``magebench`` (182 levels) and its 20-level ``magebench-mini`` subset: MageBench's eight tiers
  of gym-sokoban room size and box count in MageBench's own mix (50/20/15/24/22/14/18/19), rooms
  made as gym-sokoban makes them (the generator's ``search`` style), every level solvable in at
  most 50 moves. ``magebench-even``: the same tiers split evenly (22-23 levels each).

The ingvp and depth packs ask for one exact length, which the generator's ``walks`` style serves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from playbench.games.level_packs import Pack, Part, depth_packs

GAME = "sokoban"

_ROOMS = ((6, 6, 2), (7, 7, 2), (8, 6, 3), (8, 8, 3), (9, 7, 4))
"""(width, height, boxes) of the five room shapes in the ingvp pack, 10 levels each; within
ING-VP's range of 3x5..12x8 boards and 2-6 boxes."""

INGVP = Pack(GAME, "ingvp", "ING-VP Sokoban: optimal exactly 8 moves, five small room shapes",
             tuple(Part(10, 8100 + i, 8, {"width": w, "height": h, "boxes": b},
                        f"ingvp {{number}}: {w}x{h} room, {b} boxes")
                   for i, (w, h, b) in enumerate(_ROOMS)))

DEPTH = depth_packs(GAME, "8x8 rooms with 3 boxes", 9100, {"width": 8, "height": 8, "boxes": 3})

MAGEBENCH_MAX_OPTIMAL = 50
"""MageBench keeps only levels solvable in at most 50 steps."""
MAGEBENCH_MIN_OPTIMAL = 5
"""Our choice: reverse play now and then leaves a room one or two pushes from solved; such
levels measure nothing, so the pack starts at 5 moves."""

MAGEBENCH_SOLVE_NODES = {"Sokoban-v1": 20_000, "Sokoban-large-v1": 20_000,
                         "Sokoban-v2": 40_000, "Sokoban-huge-v0": 40_000}
"""Our choice: a room whose optimum the solver has not settled after this many push states is
skipped, as MageBench skips rooms over 50 moves; without a bound the big five-box tiers take many
minutes to build. Tiers not named here use :data:`SOLVE_NODES_DEFAULT`. The four- and five-box
tiers get more, because at 5,000 states the solver gave up on some of their long rooms (35 to
42 moves), which left the pack leaning short (docs/fidelity.md, MageBench)."""
SOLVE_NODES_DEFAULT = 5_000
"""The solver budget of the two- and three-box tiers, which settles nearly all their rooms."""


def solve_nodes_for(tier: str) -> int:
    """The magebench pack's solver budget for one tier (push states per room)."""
    return MAGEBENCH_SOLVE_NODES.get(tier, SOLVE_NODES_DEFAULT)


class Tier(NamedTuple):
    """One MageBench tier: the gym-sokoban environment, its room and box count, and how many
    levels each pack takes from it."""

    name: str
    width: int
    height: int
    boxes: int
    mix: int
    """Levels in MageBench's own mix (the ``magebench`` pack)."""
    even: int
    """Levels in the even split (``magebench-even``)."""
    mini: int
    """Levels in ``magebench-mini``."""


MAGEBENCH_TIERS = (
    Tier("Sokoban-small-v0", 7, 7, 2, 50, 22, 2),
    Tier("Sokoban-small-v1", 7, 7, 3, 20, 22, 2),
    Tier("Sokoban-v0", 10, 10, 3, 15, 23, 3),
    Tier("Sokoban-v1", 10, 10, 4, 24, 23, 3),
    Tier("Sokoban-v2", 10, 10, 5, 22, 23, 3),
    Tier("Sokoban-large-v0", 13, 11, 3, 14, 23, 3),
    Tier("Sokoban-large-v1", 13, 11, 4, 18, 23, 2),
    Tier("Sokoban-huge-v0", 13, 13, 5, 19, 23, 2),
)
"""MageBench's eight tiers (182 levels) by grid size and box count, named after the
gym-sokoban environments whose room settings they use, in the order MageBench numbers its
files (``Sokoban_all.json`` names ``90-139`` small-v0, ``140-159`` small-v1, ``25-39`` v0,
``40-64`` v1, ``65-89`` v2, ``160-174`` large-v0, ``175-199`` large-v1, ``0-20`` huge-v0, some
numbers left out). MageBench's list holds 50/20/15/24/22/14/18/19 of them; the even split
22-23 each was PlayBench's first mix and stays as ``magebench-even``."""

GYM_WALK_STEPS = {"Sokoban-v2": 40, "Sokoban-large-v0": 43, "Sokoban-large-v1": 43,
                  "Sokoban-huge-v0": 50}
"""Room-walk lengths the named gym-sokoban environments set instead of the default
1.7 x (width + height) (read in gym-sokoban's environment variations; puzzles.md names the
repository). The magebench pack's rooms use the ``search`` style with these lengths, so their
optimal lengths follow gym-sokoban's per tier (docs/fidelity.md, MageBench)."""


def magebench_parts(name: str, counts: Callable[[Tier], int]) -> tuple[Part, ...]:
    """One part per tier of :data:`MAGEBENCH_TIERS`, ``counts`` giving its level count. Both
    mixes draw each tier from the same seed, so a tier's levels in the smaller mix are the first
    ones of the larger (the generator walks the same attempts and stops earlier)."""
    return tuple(Part(counts(t), 9300 + i, None,
                      {"width": t.width, "height": t.height, "boxes": t.boxes, "style": "search",
                       "walk_steps": GYM_WALK_STEPS.get(t.name),
                       "solve_nodes": solve_nodes_for(t.name),
                       "min_optimal": MAGEBENCH_MIN_OPTIMAL,
                       "max_optimal": MAGEBENCH_MAX_OPTIMAL},
                      f"{name} {{number}}: {t.name} {t.width}x{t.height}, {t.boxes} boxes",
                      {"tier": t.name})
                 for i, t in enumerate(MAGEBENCH_TIERS))


MAGEBENCH = (
    Pack(GAME, "magebench",
         "MageBench Sokoban: 182 levels in MageBench's tier mix (50/20/15/24/22/14/18/19), "
         "optimal 5..50 moves",
         magebench_parts("magebench", lambda t: t.mix)),
    Pack(GAME, "magebench-even",
         "MageBench Sokoban, even split: 182 levels, 22-23 in each of the 8 tiers",
         magebench_parts("magebench-even", lambda t: t.even)),
    Pack(GAME, "magebench-mini",
         "MageBench mini: 20 levels, the first 2-3 of each magebench tier",
         subset_of="magebench",
         picks=tuple((t.name, t.mini) for t in MAGEBENCH_TIERS)),
)

PACKS: tuple[Pack, ...] = (INGVP, *DEPTH, *MAGEBENCH)
