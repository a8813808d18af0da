"""Seeded maze generator in ING-VP's style: a DFS (recursive backtracker) maze on an odd grid.

ING-VP (docs/reference/puzzles.md) uses 11x11 DFS mazes whose optimal solution is exactly
8 moves. Here the room cells sit at odd coordinates; a depth-first walk from a random room knocks
down the wall to a random unvisited neighbour and backs up when stuck, which yields a perfect
maze (exactly one path between any two cells). The start is a random floor cell and the exit a
random floor cell at exactly the wanted distance, so ``optimal`` holds by construction and the
BFS solver confirms it.

Each attempt draws from its own ``random.Random(f"maze:{seed}:{attempt}")``, so a seed
reproduces a pack bit for bit, and neither sets nor the global RNG decide any order.
"""

from __future__ import annotations

import random

from playbench.games.base import Level
from playbench.games.maze.rules import MazeBoard, MazeState, encode
from playbench.games.maze.solver import distances, solve
from playbench.games.packs import MAX_BOARD_SIDE

LARGEST = MAX_BOARD_SIDE - 1 if MAX_BOARD_SIDE % 2 == 0 else MAX_BOARD_SIDE
"""The widest and tallest maze generated: the largest odd side of a board PlayBench plays
(``games.packs.MAX_BOARD_SIDE``; a bigger maze could be written but never loaded)."""

_STEPS = ((-2, 0), (2, 0), (0, -2), (0, 2))


def carve(rng: random.Random, width: int, height: int) -> frozenset[int]:
    """Wall cells of a perfect maze on a ``width`` x ``height`` grid (both odd, at least 5)."""
    floor: set[tuple[int, int]] = set()
    start = (rng.randrange(height // 2) * 2 + 1, rng.randrange(width // 2) * 2 + 1)
    floor.add(start)
    stack = [start]
    while stack:
        y, x = stack[-1]
        options = [(y + dy, x + dx) for dy, dx in _STEPS
                   if 0 < y + dy < height - 1 and 0 < x + dx < width - 1
                   and (y + dy, x + dx) not in floor]
        if not options:
            stack.pop()
            continue
        ny, nx = rng.choice(options)
        floor.add(((y + ny) // 2, (x + nx) // 2))
        floor.add((ny, nx))
        stack.append((ny, nx))
    return frozenset(y * width + x for y in range(height) for x in range(width)
                     if (y, x) not in floor)


def generate_state(rng: random.Random, width: int, height: int, lo: int,
                   hi: int | None) -> MazeState | None:
    """One maze whose start-to-exit distance lies in ``lo..hi``, or None if this draw has none."""
    walls = carve(rng, width, height)
    cells = [p for p in range(width * height) if p not in walls]
    start = rng.choice(cells)
    dist = distances(MazeBoard(width, height, walls, start), start)
    exits = sorted(p for p, d in dist.items() if d >= lo and (hi is None or d <= hi))
    if not exits:
        return None
    return MazeState(MazeBoard(width, height, walls, rng.choice(exits)), start)


def generate(count: int, seed: int, optimal: int | None = None, *, width: int = 11,
             height: int = 11, min_optimal: int = 1, max_optimal: int | None = None,
             max_attempts: int | None = None,
             title: str = "Maze {seed}-{attempt}") -> list[Level]:
    """``count`` distinct mazes from ``seed``, numbered 1..count.

    ``optimal`` asks for exactly that many moves from start to exit (ING-VP's pack: 8);
    otherwise the distance lies in ``min_optimal..max_optimal``. Meta holds ``optimal`` and
    ``solution``, the optimal moves as one string such as ``"RRDDLU"`` (ING-VP's one-step form).
    """
    if not (5 <= width <= LARGEST and 5 <= height <= LARGEST) or width % 2 == 0 \
            or height % 2 == 0:
        raise ValueError(f"maze sides must be odd, from 5 to {LARGEST} (5x5 to "
                         f"{LARGEST}x{LARGEST}: PlayBench plays boards of up to "
                         f"{MAX_BOARD_SIDE}x{MAX_BOARD_SIDE}), got {width}x{height}")
    lo = optimal if optimal is not None else min_optimal
    hi = optimal if optimal is not None else max_optimal
    if lo < 1:
        raise ValueError(f"optimal must be at least 1, got {lo}")
    allowed = max_attempts if max_attempts is not None else max(1000, 200 * count)
    levels: list[Level] = []
    seen: set[str] = set()
    attempt = 0
    while len(levels) < count:
        if attempt >= allowed:
            raise RuntimeError(f"only {len(levels)} of {count} mazes found in {allowed} attempts "
                               f"(size {width}x{height}, optimal {lo}..{hi})")
        rng = random.Random(f"maze:{seed}:{attempt}")
        attempt += 1
        state = generate_state(rng, width, height, lo, hi)
        if state is None:
            continue
        text = encode(state)
        if text in seen:
            continue
        plan = solve(None, state, hi)
        if plan is None or len(plan) < lo:  # cannot happen: the exit was chosen by distance
            continue
        seen.add(text)
        levels.append(Level("maze", text, len(levels) + 1,
                            title.format(seed=seed, attempt=attempt - 1, n=len(levels) + 1),
                            {"optimal": len(plan), "solution": "".join(plan)}))
    return levels
