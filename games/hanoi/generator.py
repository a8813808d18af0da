"""Seeded Tower of Hanoi positions at an exact distance from the goal.

ING-VP (docs/reference/puzzles.md) uses 4 rods and 5 disks, each start exactly 8 moves from
having every disk on rod D. A breadth-first sweep out of the goal lists every position by its
distance (moves are reversible, so that distance is the optimal solution length); each attempt
then draws one position from the wanted layers with its own
``random.Random(f"hanoi:{seed}:{attempt}")``. Layers are sorted by their text before drawing, so
nothing depends on set or dict order and a seed reproduces a pack bit for bit.
"""

from __future__ import annotations

import random

from playbench.games.base import Level
from playbench.games.hanoi.rules import DEFAULT_ORDER, MAX_DISKS, ORDERS, HanoiRules, encode, goal
from playbench.games.hanoi.solver import SweepTooBig, layers, solve

SWEEP_LIMIT = 4 ** 8
"""The most positions the generator lists around the goal (every position of 8 disks). Listing
all 4^d positions of d disks costs about 1 KB each: 12 disks would need 17 million of them and
gigabytes; with ``optimal`` (or ``max_optimal``) only the positions that near the goal are
listed, so every disk count the rules play (up to 12) can be generated that way."""


def generate(count: int, seed: int, optimal: int | None = None, *, disks: int = 5,
             disk_order: str = DEFAULT_ORDER, min_optimal: int = 1,
             max_optimal: int | None = None, max_attempts: int | None = None,
             title: str = "Hanoi {seed}-{attempt}") -> list[Level]:
    """``count`` distinct positions from ``seed``, numbered 1..count.

    ``optimal`` asks for exactly that many moves to the goal (ING-VP's pack: 8); otherwise the
    distance lies in ``min_optimal..max_optimal``. Meta holds ``optimal``, ``solution`` (the
    optimal moves separated by single spaces, e.g. ``"AC AD CD"``), ``disks`` and ``disk_order``.
    """
    if not 1 <= disks <= MAX_DISKS:
        raise ValueError(f"disks must be 1..{MAX_DISKS}, got {disks}")
    if disk_order not in ORDERS:
        raise ValueError(f"disk_order must be one of {', '.join(ORDERS)}, got {disk_order!r}")
    lo = optimal if optimal is not None else min_optimal
    hi = optimal if optimal is not None else max_optimal
    if lo < 1:
        raise ValueError(f"optimal must be at least 1, got {lo}")
    if hi is None and 4 ** disks > SWEEP_LIMIT:
        raise ValueError(f"{disks} disks have {4 ** disks:,} positions, more than the "
                         f"{SWEEP_LIMIT:,} the generator lists; ask for an exact distance "
                         "(optimal) or a max_optimal")
    try:
        by_depth = layers(goal(disks, disk_order), disk_order,
                          hi if hi is not None else 10_000, SWEEP_LIMIT)
    except SweepTooBig:
        raise ValueError(f"the positions of {disks} disks up to {hi} moves from the goal are "
                         f"more than the {SWEEP_LIMIT:,} the generator lists; ask for a "
                         "smaller optimal or max_optimal") from None
    pool = sorted((encode(s), s) for k, layer in enumerate(by_depth) if k >= lo for s in layer)
    if len(pool) < count:
        raise RuntimeError(f"only {len(pool)} positions of {disks} disks lie {lo}..{hi} moves "
                           f"from the goal; {count} were asked for")
    rules = HanoiRules(disk_order)
    allowed = max_attempts if max_attempts is not None else max(1000, 50 * count)
    levels: list[Level] = []
    seen: set[str] = set()
    attempt = 0
    while len(levels) < count:
        if attempt >= allowed:
            raise RuntimeError(f"only {len(levels)} of {count} positions drawn in {allowed} "
                               f"attempts (disks {disks}, optimal {lo}..{hi})")
        rng = random.Random(f"hanoi:{seed}:{attempt}")
        attempt += 1
        text, state = pool[rng.randrange(len(pool))]
        if text in seen:
            continue
        plan = solve(rules, state, hi)
        if plan is None or len(plan) < lo:  # cannot happen: the pool holds exact distances
            continue
        seen.add(text)
        levels.append(Level("hanoi", text, len(levels) + 1,
                            title.format(seed=seed, attempt=attempt - 1, n=len(levels) + 1),
                            {"optimal": len(plan), "solution": " ".join(plan),
                             "disks": disks, "disk_order": disk_order}))
    return levels
