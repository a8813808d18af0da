"""Optimal Tower of Hanoi solver: breadth-first search over positions, from any position.

Four rods and five disks give only 4^5 = 1024 positions, so plain BFS is exact and instant; it
also copes with the generator's other disk counts (8 disks: 65,536 positions). Moves are tried in
the order AB, AC, AD, BA, ... which makes the returned plan deterministic.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator

from playbench.games.hanoi.rules import DEFAULT_ORDER, RODS, HanoiRules, HanoiState, size

_PAIRS = tuple((a, b) for a in range(4) for b in range(4) if a != b)


def neighbours(state: HanoiState, order: str) -> Iterator[tuple[str, HanoiState]]:
    """Every legal move from ``state`` with the position it leads to."""
    rods = state.rods
    for a, b in _PAIRS:
        if not rods[a]:
            continue
        disk = rods[a][-1]
        if rods[b] and size(rods[b][-1], order) < size(disk, order):
            continue
        new = list(rods)
        new[a] = rods[a][:-1]
        new[b] = rods[b] + (disk,)
        yield RODS[a] + RODS[b], HanoiState(tuple(new))


class SweepTooBig(ValueError):
    """:func:`layers` met more positions than it was allowed to list."""


def layers(start: HanoiState, order: str, depth: int,
           limit: int | None = None) -> list[list[HanoiState]]:
    """Positions by their distance from ``start``: ``layers[k]`` are those exactly k moves away,
    up to ``depth``. Moves are reversible, so distance from the goal equals distance to it.
    Raises :class:`SweepTooBig` as soon as more than ``limit`` positions are found."""
    seen = {start}
    out = [[start]]
    while len(out) <= depth and out[-1]:
        nxt: list[HanoiState] = []
        for s in out[-1]:
            for _, t in neighbours(s, order):
                if t not in seen:
                    seen.add(t)
                    nxt.append(t)
            if limit is not None and len(seen) > limit:
                raise SweepTooBig(f"more than {limit:,} positions")
        out.append(nxt)
    return out[: depth + 1]


def solve(rules: HanoiRules | None, state: HanoiState,
          max_moves: int | None = None) -> list[str] | None:
    """Fewest moves to put every disk on rod D, or None if none of at most ``max_moves``."""
    order = rules.order if rules is not None else DEFAULT_ORDER
    if not any(state.rods[:3]):
        return []
    parent: dict[HanoiState, tuple[HanoiState | None, str, int]] = {state: (None, "", 0)}
    todo = deque([state])
    while todo:
        s = todo.popleft()
        depth = parent[s][2]
        if max_moves is not None and depth >= max_moves:
            continue
        for move, t in neighbours(s, order):
            if t in parent:
                continue
            parent[t] = (s, move, depth + 1)
            if not any(t.rods[:3]):
                return _path(parent, t)
            todo.append(t)
    return None


def _path(parent: dict[HanoiState, tuple[HanoiState | None, str, int]], end: HanoiState
          ) -> list[str]:
    moves: list[str] = []
    node: HanoiState | None = end
    while node is not None:
        prev, move, _ = parent[node]
        if prev is not None:
            moves.append(move)
        node = prev
    return moves[::-1]
