"""An optimal Sokoban solver: fewest moves (walks plus pushes), from any state.

Search runs over push states - the box set and the worker's square right after a push - with an
edge cost of the walk to the pushing square plus one. Any solution is a sequence of such
walk-then-push segments, and walks between pushes are shortest paths, so A* over these nodes with
an admissible heuristic returns a move-optimal plan while visiting far fewer nodes than a search
over single steps.

Pruning that never removes an optimal solution:
- dead squares: a box pushed onto a square from which no target can be reached by pushes
  (computed by pulling from every target) can never be solved;
- freeze deadlocks: a 2x2 block made of walls and boxes with a box off target cannot move again.

Heuristic: the pushes of the cheapest assignment of boxes to distinct targets, each box costing
its fewest pushes to its target with the other boxes ignored, plus the walk to the nearest box
that is off target, minus one. Every box ends on a target of its own and needs at least that many
pushes to get there, so both parts are lower bounds on moves. Matching boxes to distinct targets
(rather than each to its nearest) is what lets the solver settle rooms with four and five boxes:
two boxes near one target no longer both count as almost home.
"""

from __future__ import annotations

import heapq
from collections import deque
from itertools import count

from playbench.games.sokoban.rules import Board, SokobanRules, SokobanState

_INF = 1 << 30


class _Tables:
    """Per-board facts computed once: neighbours, push distances to targets, dead squares."""

    def __init__(self, board: Board) -> None:
        self.board = board
        w = board.width
        self.dirs = (("U", -w), ("D", w), ("L", -1), ("R", 1))
        floor = board.floor
        # Fewest pushes from each square to each target, found by pulling the box from the target.
        self.targets = tuple(sorted(board.targets))
        self.to_target: list[dict[int, int]] = []
        for t in self.targets:
            dist = {t: 0}
            todo = deque([t])
            while todo:
                cell = todo.popleft()
                for _, d in self.dirs:
                    prev, stand = cell - d, cell - 2 * d
                    if prev in floor and stand in floor and prev not in dist:
                        dist[prev] = dist[cell] + 1
                        todo.append(prev)
            self.to_target.append(dist)
        self.live = frozenset(cell for dist in self.to_target for cell in dist)
        # The three other squares of each 2x2 block a square belongs to.
        self.blocks: dict[int, tuple[tuple[int, int, int], ...]] = {}
        for cell in floor:
            found = []
            for corner in (cell, cell - 1, cell - w, cell - w - 1):
                block = (corner, corner + 1, corner + w, corner + w + 1)
                a, b, c = (x for x in block if x != cell)
                found.append((a, b, c))
            self.blocks[cell] = tuple(found)
        self._pushes: dict[frozenset[int], int] = {}

    def pushes(self, boxes: frozenset[int]) -> int:
        """Fewest pushes left for ``boxes``: the cheapest assignment of boxes to distinct targets
        (dynamic programming over the sets of targets taken; rooms hold a handful of boxes)."""
        known = self._pushes.get(boxes)
        if known is not None:
            return known
        n = len(self.targets)
        best = {0: 0}
        for b in boxes:
            row = [dist.get(b, _INF) for dist in self.to_target]
            nxt: dict[int, int] = {}
            for taken, cost in best.items():
                for i in range(n):
                    bit = 1 << i
                    if not taken & bit and row[i] < _INF:
                        key, total = taken | bit, cost + row[i]
                        if total < nxt.get(key, _INF):
                            nxt[key] = total
            best = nxt
        result = min(best.values(), default=_INF)
        if len(self._pushes) > 200_000:
            self._pushes.clear()
        self._pushes[boxes] = result
        return result


_TABLE_CACHE: dict[int, _Tables] = {}


def _tables(board: Board) -> _Tables:
    tab = _TABLE_CACHE.get(id(board))
    if tab is None or tab.board is not board:
        if len(_TABLE_CACHE) > 256:
            _TABLE_CACHE.clear()
        tab = _Tables(board)
        _TABLE_CACHE[id(board)] = tab
    return tab


def _frozen(tab: _Tables, boxes: frozenset[int], pos: int) -> bool:
    """Whether the box at ``pos`` completes a 2x2 block of walls and boxes with a box off target."""
    walls = tab.board.walls
    targets = tab.board.targets
    for a, b, c in tab.blocks[pos]:
        if ((a in walls or a in boxes) and (b in walls or b in boxes)
                and (c in walls or c in boxes)
                and (pos not in targets or (a in boxes and a not in targets)
                     or (b in boxes and b not in targets) or (c in boxes and c not in targets))):
            return True
    return False


def _heuristic(tab: _Tables, boxes: frozenset[int], player: int) -> int:
    board = tab.board
    h = tab.pushes(boxes)
    nearest = _INF
    w = board.width
    py, px = divmod(player, w)
    for b in boxes:
        if b not in board.targets:
            by, bx = divmod(b, w)
            nearest = min(nearest, abs(by - py) + abs(bx - px))
    if nearest < _INF:
        h += nearest - 1
    return h


def _walks(board: Board, boxes: frozenset[int], start: int) -> dict[int, int]:
    """Walking distance from ``start`` to every square reachable without pushing."""
    dist = {start: 0}
    todo = deque([start])
    w = board.width
    walls = board.walls
    while todo:
        cell = todo.popleft()
        nd = dist[cell] + 1
        for nxt in (cell - w, cell + w, cell - 1, cell + 1):
            if nxt not in walls and nxt not in boxes and nxt not in dist:
                dist[nxt] = nd
                todo.append(nxt)
    return dist


def _walk_path(board: Board, boxes: frozenset[int], start: int, goal: int) -> list[str]:
    """A shortest walk from ``start`` to ``goal`` as moves (deterministic: U, D, L, R order)."""
    if start == goal:
        return []
    w = board.width
    steps = (("U", -w), ("D", w), ("L", -1), ("R", 1))
    prev: dict[int, tuple[int, str]] = {start: (start, "")}
    todo = deque([start])
    while todo:
        cell = todo.popleft()
        if cell == goal:
            break
        for name, d in steps:
            nxt = cell + d
            if nxt not in board.walls and nxt not in boxes and nxt not in prev:
                prev[nxt] = (cell, name)
                todo.append(nxt)
    path: list[str] = []
    cell = goal
    while cell != start:
        cell, name = prev[cell]
        path.append(name)
    path.reverse()
    return path


def solve(rules: SokobanRules | None, state: SokobanState, max_moves: int | None = None,
          max_nodes: int | None = None) -> list[str] | None:
    """Fewest-moves solution from ``state`` as ``U/D/L/R`` moves; None if none within
    ``max_moves`` (or none at all), or if ``max_nodes`` push states were expanded without
    finding one (a bound on work, used by the generator to skip rooms that are slow to prove)."""
    board = state.board
    if state.boxes <= board.targets:
        return []
    tab = _tables(board)
    if any(b not in tab.live for b in state.boxes):
        return None
    limit = _INF if max_moves is None else max_moves
    start = (state.player, state.boxes)
    h0 = _heuristic(tab, state.boxes, state.player)
    if h0 > limit:
        return None
    best_g = {start: 0}
    parent: dict[tuple[int, frozenset[int]], tuple[tuple[int, frozenset[int]], int, str]] = {}
    tie = count()
    # Entries are (f, -g, ...): among equal f the deeper node goes first, which reaches the goal
    # after far fewer expansions and changes nothing about optimality.
    heap = [(h0, 0, next(tie), start)]
    targets = board.targets
    budget = _INF if max_nodes is None else max_nodes
    while heap:
        f, neg_g, _, node = heapq.heappop(heap)
        g = -neg_g
        if g != best_g.get(node):
            continue
        budget -= 1
        if budget < 0:
            return None
        player, boxes = node
        if boxes <= targets:
            return _rebuild(board, start, node, parent)
        walk = _walks(board, boxes, player)
        for b in boxes:
            for name, d in tab.dirs:
                stand = b - d
                steps = walk.get(stand)
                if steps is None:
                    continue
                dest = b + d
                if dest in board.walls or dest in boxes or dest not in tab.live:
                    continue
                nboxes = (boxes - {b}) | {dest}
                if _frozen(tab, nboxes, dest):
                    continue
                ng = g + steps + 1
                child = (b, nboxes)
                if ng >= best_g.get(child, _INF):
                    continue
                nf = ng + _heuristic(tab, nboxes, b)
                if nf > limit:
                    continue
                best_g[child] = ng
                parent[child] = (node, stand, name)
                heapq.heappush(heap, (nf, -ng, next(tie), child))
    return None


_Node = tuple[int, frozenset[int]]


def _rebuild(board: Board, start: _Node, goal: _Node,
             parent: dict[_Node, tuple[_Node, int, str]]) -> list[str]:
    segments: list[list[str]] = []
    node = goal
    while node != start:
        prev, stand, name = parent[node]
        segments.append(_walk_path(board, prev[1], prev[0], stand) + [name])
        node = prev
    return [m for seg in reversed(segments) for m in seg]


def moves_left(state: SokobanState, max_moves: int | None = None) -> int | None:
    plan = solve(None, state, max_moves)
    return None if plan is None else len(plan)
