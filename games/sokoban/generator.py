"""Seeded generator of solvable Sokoban rooms in the style of DeepMind's I2A / gym-sokoban.

The idea those rooms are built on: carve a room with a random walk, put every box on a target,
then play the game backwards (the worker pulls boxes away from the targets). Any position reached
that way can be solved by undoing the pulls, so every room is solvable by construction; we keep
the reverse-play position that scores best on box swaps times box displacement (positions that
need the worker to switch between boxes and move them far are the interesting ones) and measure
its optimal length with the solver.

Everything depends only on ``random.Random(f"{seed}:{attempt}")``, so a seed reproduces a pack
bit for bit on any machine.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.base import Level
from games.sokoban.rules import Board, SokobanState, encode, solution_reward
from games.sokoban.solver import solve

# Brush shapes carved around the walker, as (dy, dx) offsets.
_BRUSHES = (
    ((0, 0),),
    ((0, 0), (0, 1)),
    ((0, 0), (1, 0)),
    ((0, 0), (0, 1), (1, 0)),
    ((0, 0), (0, 1), (1, 0), (1, 1)),
    ((0, -1), (0, 0), (0, 1)),
    ((-1, 0), (0, 0), (1, 0)),
)
_DIRS = ((-1, 0), (1, 0), (0, -1), (0, 1))


@dataclass(frozen=True)
class RoomSpec:
    """What to build: grid size (including the outer wall) and number of boxes."""

    width: int = 10
    height: int = 10
    boxes: int = 3

    def __post_init__(self) -> None:
        if self.width < 4 or self.height < 4:
            raise ValueError(f"room size {self.width}x{self.height} is too small (at least 4x4)")
        if self.boxes < 1:
            raise ValueError(f"box count must be at least 1, got {self.boxes}")
        if self.boxes > (self.width - 2) * (self.height - 2) // 3:
            raise ValueError(f"{self.boxes} boxes do not fit in a {self.width}x{self.height} room")


def _carve(rng: random.Random, spec: RoomSpec) -> set[tuple[int, int]]:
    """Floor cells of a random-walk room, never touching the outer wall."""
    w, h = spec.width, spec.height
    y, x = rng.randrange(1, h - 1), rng.randrange(1, w - 1)
    dy, dx = rng.choice(_DIRS)
    floor: set[tuple[int, int]] = set()
    steps = int(1.5 * (w + h)) + rng.randrange(0, w + h)
    for _ in range(steps):
        if rng.random() < 0.35:
            dy, dx = rng.choice(_DIRS)
        for by, bx in rng.choice(_BRUSHES):
            cy, cx = y + by, x + bx
            if 0 < cy < h - 1 and 0 < cx < w - 1:
                floor.add((cy, cx))
        ny, nx = y + dy, x + dx
        if 0 < ny < h - 1 and 0 < nx < w - 1:
            y, x = ny, nx
    return floor


def _reverse_play(rng: random.Random, board: Board, player: int, boxes: frozenset[int],
                  walks: int = 4, steps: int = 300) -> tuple[int, frozenset[int]] | None:
    """Pull boxes away from their targets; return the best-scoring position found."""
    w = board.width
    deltas = (-w, w, -1, 1)
    start_boxes = sorted(boxes)
    best: tuple[float, int, frozenset[int]] | None = None
    for _ in range(walks):
        p = player
        where = {b: b for b in start_boxes}  # box id (its target) -> current square
        at = {b: b for b in start_boxes}     # current square -> box id
        swaps, last = 0, None
        for _ in range(steps):
            d = rng.choice(deltas)
            nxt = p + d
            if nxt in board.walls or nxt in at:
                continue
            behind = p - d
            if behind in at and rng.random() < 0.5:
                box = at.pop(behind)
                at[p] = box
                where[box] = p
                if box != last:
                    swaps += 1
                    last = box
            p = nxt
            displacement = sum(
                abs(cur // w - home // w) + abs(cur % w - home % w) for home, cur in where.items()
            )
            score = swaps * displacement
            if score > 0 and (best is None or score > best[0]):
                best = (score, p, frozenset(at))
    return None if best is None else (best[1], best[2])


def generate_state(rng: random.Random, spec: RoomSpec) -> SokobanState | None:
    """One random solvable position, or None when this attempt produced a degenerate room."""
    floor_cells = _carve(rng, spec)
    if len(floor_cells) < spec.boxes + 3:
        return None
    w, h = spec.width, spec.height
    floor = frozenset(y * w + x for y, x in floor_cells)
    walls = frozenset(range(w * h)) - floor
    cells = sorted(floor)
    picks = rng.sample(cells, spec.boxes + 1)
    targets = frozenset(picks[:-1])
    board = Board(w, h, walls, targets, floor)
    found = _reverse_play(rng, board, picks[-1], targets)
    if found is None:
        return None
    player, boxes = found
    return SokobanState(board, player, boxes)


def generate(count: int, seed: int, optimal: int | None = None, *, width: int = 10,
             height: int = 10, boxes: int = 3, min_optimal: int = 1,
             max_optimal: int | None = None, max_attempts: int | None = None,
             title: str = "Generated {seed}-{attempt}") -> list[Level]:
    """``count`` solvable levels from ``seed``. ``optimal`` keeps only levels whose fewest-moves
    solution has exactly that length; ``min_optimal``/``max_optimal`` bound it otherwise.

    Each level's meta holds ``optimal``, ``rbest`` (MageBench's R_best: the reward of the optimal
    plan), ``solution``, the seed and the attempt number that produced it.
    """
    spec = RoomSpec(width, height, boxes)
    lo = optimal if optimal is not None else min_optimal
    hi = optimal if optimal is not None else max_optimal
    attempts_allowed = max_attempts if max_attempts is not None else max(2000, count * 2000)
    levels: list[Level] = []
    seen: set[str] = set()
    attempt = 0
    while len(levels) < count:
        if attempt >= attempts_allowed:
            raise RuntimeError(
                f"only {len(levels)} of {count} levels found in {attempts_allowed} attempts "
                f"(size {width}x{height}, {boxes} boxes, optimal {lo}..{hi}); widen the limits"
            )
        rng = random.Random(f"sokoban:{seed}:{attempt}")
        attempt += 1
        state = generate_state(rng, spec)
        if state is None:
            continue
        text = encode(state)
        if text in seen:
            continue
        plan = solve(None, state, hi)
        if plan is None or len(plan) < lo:
            continue
        seen.add(text)
        levels.append(Level(
            "sokoban", text, len(levels) + 1,
            title.format(seed=seed, attempt=attempt - 1, n=len(levels) + 1),
            {"optimal": len(plan), "rbest": solution_reward(state, plan),
             "solution": "".join(plan), "boxes": boxes},
        ))
    return levels
