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
from collections.abc import Sequence
from dataclasses import dataclass

from playbench.games.base import Level
from playbench.games.packs import MAX_BOARD_SIDE
from playbench.games.sokoban.rules import Board, SokobanState, encode, solution_reward
from playbench.games.sokoban.solver import solve

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
        if not (4 <= self.width <= MAX_BOARD_SIDE and 4 <= self.height <= MAX_BOARD_SIDE):
            raise ValueError(f"room sides must be from 4 to {MAX_BOARD_SIDE} (4x4 to "
                             f"{MAX_BOARD_SIDE}x{MAX_BOARD_SIDE}, the largest board PlayBench "
                             f"plays), got {self.width}x{self.height}")
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
    """One random solvable position made by a few short reverse walks (style ``walks``), or
    None when this attempt produced a degenerate room."""
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


# --- gym-sokoban-style rooms: a brush walk for the room, a depth-first reverse search ---------

# Brushes stamped around the walker, as (dy, dx) offsets from its square: a bar across, a bar
# down, two corner pieces and a 2x2 block (the shapes gym-sokoban's room walk uses).
_GYM_BRUSHES = (
    ((0, -1), (0, 0), (0, 1)),
    ((-1, 0), (0, 0), (1, 0)),
    ((0, -1), (0, 0), (1, 0)),
    ((0, -1), (0, 0), (1, -1), (1, 0)),
    ((0, 0), (0, 1), (1, 0)),
)


def walk_steps_for(width: int, height: int) -> int:
    """gym-sokoban's default length of the room walk, 1.7 x (width + height) steps; its named
    environments override it for some sizes (see ``games/sokoban/packs.py``)."""
    return int(1.7 * (width + height))


def _carve_gym(rng: random.Random, spec: RoomSpec, steps: int) -> set[tuple[int, int]]:
    """Floor cells of a room made the way gym-sokoban makes them: a walker that keeps its
    heading but turns with probability 0.35, clamped one square inside the grid, stamps a random
    brush at every step; the outer ring is wall whatever the brushes covered."""
    w, h = spec.width, spec.height
    y, x = rng.randint(1, h - 1), rng.randint(1, w - 1)
    dy, dx = rng.choice(_DIRS)
    floor: set[tuple[int, int]] = set()
    for _ in range(steps):
        if rng.random() < 0.35:
            dy, dx = rng.choice(_DIRS)
        y = min(max(y + dy, 1), h - 2)
        x = min(max(x + dx, 1), w - 2)
        for by, bx in rng.choice(_GYM_BRUSHES):
            cy, cx = y + by, x + bx
            if 0 < cy < h - 1 and 0 < cx < w - 1:
                floor.add((cy, cx))
    return floor


def _reverse_search(board: Board, player: int, targets: Sequence[int], max_nodes: int,
                    max_depth: int) -> tuple[int, int, frozenset[int]]:
    """Depth-first search of the positions reachable by pulling boxes off their targets.

    A node is a box placement plus the area the worker can walk to (so walking needs no node of
    its own); its children are the pulls the worker can make from that area. The search stops
    after ``max_nodes`` expansions and never goes deeper than ``max_depth`` pulls. Every node
    with no box and no worker on a target is scored as gym-sokoban scores its reverse play:
    pulls on the path from the solved position times the boxes' total Manhattan distance from
    their own targets. Returns (score, worker square, boxes) of the first best node, or a score
    of 0 when no pull leaves every target free.
    """
    w = board.width
    floor = board.floor
    tset = board.targets
    dirs = (-w, w, -1, 1)
    near = {c: tuple(c + d for d in dirs if c + d in floor) for c in floor}
    homes = tuple(targets)

    def area(boxes: frozenset[int], start: int) -> set[int]:
        seen = {start}
        todo = [start]
        while todo:
            c = todo.pop()
            for n in near[c]:
                if n not in seen and n not in boxes:
                    seen.add(n)
                    todo.append(n)
        return seen

    best = (0, player, frozenset(homes))
    # Every (boxes, square) pair already inside an expanded node's walking area: a node is
    # known again as soon as its worker square is, without walking the area a second time.
    covered: set[tuple[frozenset[int], int]] = set()
    # (boxes by identity, worker square, pulls so far)
    stack: list[tuple[tuple[int, ...], int, int]] = [(homes, player, 0)]
    expanded = 0
    while stack and expanded < max_nodes:
        where, p, depth = stack.pop()
        boxes = frozenset(where)
        if (boxes, p) in covered:
            continue
        reach = area(boxes, p)
        covered.update((boxes, c) for c in reach)
        expanded += 1
        if depth and p not in tset and not (boxes & tset):
            moved = 0
            for home, cur in zip(homes, where, strict=True):
                moved += abs(cur // w - home // w) + abs(cur % w - home % w)
            score = depth * moved
            if score > best[0]:
                best = (score, p, boxes)
        if depth >= max_depth:
            continue
        children = []
        for i, b in enumerate(where):
            for d in dirs:
                stand = b + d
                back = stand + d
                if stand in reach and back in floor and back not in boxes:
                    children.append((where[:i] + (stand,) + where[i + 1:], back, depth + 1))
        stack.extend(reversed(children))
    return best


SEARCH_NODES = 1500
"""How many reverse-play nodes the ``search`` style expands per room (our budget; see
``_reverse_search``). Enough for gym-sokoban's optimal lengths in every MageBench tier; ten
times more lengthens the biggest tier's rooms by a few moves at ten times the cost
(docs/fidelity.md, MageBench)."""
SEARCH_DEPTH = 300
"""Deepest reverse-play path, in pulls; gym-sokoban stops its depth-first play at 300 actions."""


def generate_state_search(rng: random.Random, spec: RoomSpec, walk_steps: int | None = None,
                          max_nodes: int = SEARCH_NODES, max_depth: int = SEARCH_DEPTH
                          ) -> SokobanState | None:
    """One solvable position in gym-sokoban's manner (style ``search``), or None when the room
    is too small or no pull frees every target.

    The worker and then the targets are dropped on random floor squares, every box starts on
    its target, and :func:`_reverse_search` picks the position to start from.
    """
    steps = walk_steps if walk_steps is not None else walk_steps_for(spec.width, spec.height)
    floor_cells = _carve_gym(rng, spec, steps)
    if len(floor_cells) <= spec.boxes + 1:
        return None
    w, h = spec.width, spec.height
    floor = frozenset(y * w + x for y, x in floor_cells)
    walls = frozenset(range(w * h)) - floor
    cells = sorted(floor)
    player = rng.choice(cells)
    targets = rng.sample([c for c in cells if c != player], spec.boxes)
    board = Board(w, h, walls, frozenset(targets), floor)
    score, where, boxes = _reverse_search(board, player, targets, max_nodes, max_depth)
    if score <= 0:
        return None
    return SokobanState(board, where, boxes)


STYLES = ("search", "walks")
"""``search``: gym-sokoban's kind of room (MageBench's levels); ``walks``: a few short random
reverse walks, which land on short solutions often enough to fill exact-length packs."""


def generate(count: int, seed: int, optimal: int | None = None, *, width: int = 10,
             height: int = 10, boxes: int = 3, min_optimal: int = 1,
             max_optimal: int | None = None, max_attempts: int | None = None,
             title: str = "Generated {seed}-{attempt}", style: str | None = None,
             walk_steps: int | None = None, solve_nodes: int | None = None) -> list[Level]:
    """``count`` solvable levels from ``seed``. ``optimal`` keeps only levels whose fewest-moves
    solution has exactly that length; ``min_optimal``/``max_optimal`` bound it otherwise.

    ``style`` (see :data:`STYLES`) defaults to ``walks`` when an exact ``optimal`` is asked for
    (a deep search rarely lands on one given short length) and to ``search`` otherwise, whose
    optimal lengths follow gym-sokoban's for the same room size and box count;
    ``walk_steps`` is the length of the ``search`` style's room walk (default
    :func:`walk_steps_for`). ``solve_nodes`` bounds the solver's work per room: a room whose
    optimum is not settled within that many expansions is skipped like one that is too long
    (big rooms with five boxes can take the solver minutes).

    Each level's meta holds ``optimal``, ``rbest`` (MageBench's R_best: the reward of the optimal
    plan), ``solution``, the seed and the attempt number that produced it.
    """
    spec = RoomSpec(width, height, boxes)
    style = style if style is not None else ("walks" if optimal is not None else "search")
    if style not in STYLES:
        raise ValueError(f"unknown room style {style!r} (valid: {', '.join(STYLES)})")
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
        attempt += 1
        if style == "walks":
            state = generate_state(random.Random(f"sokoban:{seed}:{attempt - 1}"), spec)
        else:
            state = generate_state_search(random.Random(f"sokoban-search:{seed}:{attempt - 1}"),
                                          spec, walk_steps)
        if state is None:
            continue
        text = encode(state)
        if text in seen:
            continue
        plan = solve(None, state, hi, solve_nodes)
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
