"""Make the MageBench-layout Sokoban fixtures of tests/games/data/magebench with gym-sokoban itself.

MageBench publishes each Sokoban level as a pickled gym-sokoban environment
(``resources/Sokoban/<n>-Sokoban-<tier>.pkl``), lists them in ``resources/Sokoban_all.json`` and
keeps each level's best plan in ``resources/Sokoban/upper_bound.json``. We never copy their
files; this script makes our own in the same layout, once, with gym-sokoban's own environment,
so PlayBench's reader is tested against real environment pickles. The generated files are
committed; run this again only to change them.

Run it with a Python of its own (gym-sokoban 0.0.6 needs the old ``gym`` and NumPy 1)::

    python3 -m venv /tmp/gymsok && /tmp/gymsok/bin/pip install gym-sokoban==0.0.6 "numpy<2"
    /tmp/gymsok/bin/python benchmarks/magebench_sokoban_fixtures.py tests/games/data/magebench

It writes ``Sokoban/<n>-Sokoban-<tier>.pkl`` for each entry of :data:`LEVELS` (the
environment pickled right after ``reset``, as MageBench's harness loads it) and
``Sokoban/upper_bound.json``: for each level a shortest plan found by a small breadth-first
search written here, in MageBench's letters (upper case = a push, lower case = a walk), its
length and the reward gym-sokoban's own ``step`` pays for playing it (gym's scale; MageBench
multiplies differences by 5). The list file ``Sokoban_all.json`` is written by hand.
"""

from __future__ import annotations

import json
import pickle
import random
import sys
import warnings
from collections import deque
from pathlib import Path
from typing import Any

LEVELS = (
    # (MageBench-style number, gym-sokoban environment id, seed)
    (97, "Sokoban-small-v0", 3),
    (101, "Sokoban-small-v0", 11),
    (142, "Sokoban-small-v1", 5),
)
"""Small rooms only: each pickle carries the observation space's arrays (about 150 kB)."""

_MOVES = {"u": (-1, 0), "d": (1, 0), "l": (0, -1), "r": (0, 1)}
_GYM_ACTION = {"u": 1, "d": 2, "l": 3, "r": 4}
"""gym-sokoban's action numbers: 0 no-op, 1-4 push up/down/left/right (a push action walks
when there is no box), 5-8 walk only."""


def shortest_plan(fixed: Any, state: Any) -> str:
    """A fewest-moves plan as MageBench writes it, by breadth-first search over (worker, boxes)."""
    rows, cols = fixed.shape
    walls = {(y, x) for y in range(rows) for x in range(cols) if int(fixed[y, x]) == 0}
    targets = {(y, x) for y in range(rows) for x in range(cols) if int(fixed[y, x]) == 2}
    boxes = frozenset((y, x) for y in range(rows) for x in range(cols)
                      if int(state[y, x]) in (3, 4))
    worker = next((y, x) for y in range(rows) for x in range(cols) if int(state[y, x]) == 5)
    start = (worker, boxes)
    came: dict[Any, Any] = {start: None}
    todo = deque([start])
    while todo:
        node = todo.popleft()
        (wy, wx), bx = node
        if bx <= targets:
            plan = []
            while came[node] is not None:
                node, letter = came[node]
                plan.append(letter)
            return "".join(reversed(plan))
        for letter, (dy, dx) in _MOVES.items():
            to = (wy + dy, wx + dx)
            if to in walls:
                continue
            if to in bx:
                beyond = (to[0] + dy, to[1] + dx)
                if beyond in walls or beyond in bx:
                    continue
                nxt = (to, (bx - {to}) | {beyond})
                letter = letter.upper()
            else:
                nxt = (to, bx)
            if nxt not in came:
                came[nxt] = (node, letter)
                todo.append(nxt)
    raise RuntimeError("the room has no solution")


def main(out: Path) -> int:
    warnings.filterwarnings("ignore")
    import gym
    import gym_sokoban  # noqa: F401  (registers the Sokoban environments)
    import numpy as np

    folder = out / "Sokoban"
    folder.mkdir(parents=True, exist_ok=True)
    bounds = {}
    for number, env_id, seed in LEVELS:
        random.seed(seed)
        np.random.seed(seed)
        env = gym.make(env_id)
        env.reset()
        name = f"{number}-{env_id}"
        (folder / f"{name}.pkl").write_bytes(pickle.dumps(env))
        inner = env.unwrapped
        plan = shortest_plan(inner.room_fixed, inner.room_state)
        reward = 0.0
        for letter in plan:
            _, r, _, _ = inner.step(_GYM_ACTION[letter.lower()])
            reward += r
        bounds[name] = {"actions": list(plan), "steps": len(plan), "reward": round(reward, 1)}
        print(f"{name}: {len(plan)} moves, reward {reward:.1f}", flush=True)
    (folder / "upper_bound.json").write_text(json.dumps(bounds, indent=4) + "\n",
                                             encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
