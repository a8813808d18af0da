"""PlayBench's Sokoban generator against gym-sokoban's, tier by tier (docs/fidelity.md, MageBench).

Two steps, two Pythons, because gym-sokoban 0.0.6 needs the old ``gym`` and NumPy 1:

1. ``sample`` runs where gym-sokoban is installed (``pip install gym-sokoban==0.0.6
   "numpy<2"`` in a venv of its own) and writes one JSON line per room made by its
   ``generate_room`` with each MageBench tier's settings (size, boxes, room-walk steps), with
   the CPU seconds the room took (retries included, as a reset pays them)::

       GYM_PYTHON benchmarks/gym_sokoban_rooms.py sample rooms.jsonl --rooms 20

2. ``compare`` runs in PlayBench's venv: it solves those rooms and as many of our own
   (``search`` style, the tier's walk length) with the same solver and budgets - the tier's
   budget first, then ``--settle`` push states for the rooms that did not settle - and prints
   the optimal-length distribution of both, the median ratio, and the generation CPU time::

       .venv/bin/python benchmarks/gym_sokoban_rooms.py compare rooms.jsonl [--ours 20]
           [--settle 300000] [--tiers Sokoban-v1,...]

Rooms are unfiltered (no 50-move cap), so the table shows the generators themselves.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

TIERS = {
    # MageBench tier: (rows, columns, boxes, room-walk steps; None = gym's 1.7 x (w + h))
    "Sokoban-v1": (10, 10, 4, None),
    "Sokoban-v2": (10, 10, 5, 40),
    "Sokoban-large-v1": (11, 13, 4, 43),
    "Sokoban-huge-v0": (13, 13, 5, 50),
}
"""The four- and five-box tiers (the others were sampled by the hundred earlier); the same
settings as ``playbench.games.sokoban.packs`` (width 13 x height 11 for the large tiers)."""


def gym_xsb(fixed: Any, state: Any) -> str:
    """A gym-sokoban room as XSB text: ``fixed`` holds walls (0), floor (1) and targets (2);
    ``state`` adds boxes (3 or 4) and the worker (5)."""
    rows = []
    for frow, srow in zip(fixed, state, strict=True):
        line = []
        for f, s in zip(frow, srow, strict=True):
            target = int(f) == 2
            s = int(s)
            if s == 0:
                line.append("#")
            elif s == 5:
                line.append("+" if target else "@")
            elif s in (3, 4):
                line.append("*" if target else "$")
            else:
                line.append("." if target else " ")
        rows.append("".join(line))
    return "\n".join(rows)


def sample(out: Path, rooms: int, first: int, tiers: list[str]) -> None:
    import numpy as np
    from gym_sokoban.envs.room_utils import generate_room

    with out.open("a", encoding="utf-8") as fh:
        for k in range(first, first + rooms):
            for tier in tiers:
                h, w, boxes, steps = TIERS[tier]
                random.seed(f"gym-sample:{tier}:{k}")
                np.random.seed(k * 7919 + len(tier))
                start = time.process_time()
                retries = 0
                while True:  # a reset retries until a room comes out, so we do too
                    try:
                        fixed, state, _ = generate_room(
                            dim=(h, w), num_steps=steps or int(1.7 * (w + h)), num_boxes=boxes)
                        break
                    except (RuntimeError, RuntimeWarning):
                        retries += 1
                cpu = time.process_time() - start
                fh.write(json.dumps({"tier": tier, "k": k, "cpu": round(cpu, 3),
                                     "retries": retries, "xsb": gym_xsb(fixed, state)}) + "\n")
                fh.flush()
                print(f"{tier} room {k}: {cpu:.1f} s", flush=True)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def lengths(states: list[Any], first_budget: int, settle: int) -> tuple[list[int], int]:
    """Optimal lengths of the rooms that settle within ``settle`` push states (tried at the
    tier's budget first, which settles most quickly), and how many did not."""
    from playbench.games.sokoban.solver import solve
    found, unsettled = [], 0
    for state in states:
        plan = solve(None, state, None, first_budget)
        if plan is None and settle > first_budget:
            plan = solve(None, state, None, settle)
        if plan is None:
            unsettled += 1
        else:
            found.append(len(plan))
    return found, unsettled


def row(name: str, found: list[int], unsettled: int, gen: list[float]) -> list[str]:
    if not found:
        return [name, str(unsettled), "-", "-", "-", "-", "-", str(unsettled), "-"]
    return [name, str(len(found) + unsettled), f"{pct(found, 0.1):g}",
            f"{statistics.median(found):g}", f"{pct(found, 0.9):g}", f"{max(found):g}",
            f"{min(found):g}", str(unsettled), f"{statistics.median(gen):.3f}"]


def compare(path: Path, ours: int, settle: int, tiers: list[str]) -> None:
    from playbench.games.sokoban import packs
    from playbench.games.sokoban.generator import RoomSpec, generate_state_search
    from playbench.games.sokoban.rules import parse_board

    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
               if line.strip()]
    headers = ["tier / generator", "rooms", "p10", "median", "p90", "max", "min",
               "unsettled", "gen CPU s median"]
    rows = []
    for tier in tiers:
        h, w, boxes, _ = TIERS[tier]
        budget = packs.solve_nodes_for(tier)
        mine = [r for r in records if r["tier"] == tier]
        gym_found, gym_left = lengths([parse_board(r["xsb"]) for r in mine], budget, settle)
        rows.append(row(f"{tier} gym-sokoban", gym_found, gym_left, [r["cpu"] for r in mine]))
        states, gen = [], []
        attempt = 0
        while len(states) < ours:
            rng = random.Random(f"bench:{tier}:{attempt}")
            attempt += 1
            start = time.process_time()
            state = generate_state_search(rng, RoomSpec(w, h, boxes),
                                          packs.GYM_WALK_STEPS.get(tier))
            gen.append(time.process_time() - start)
            if state is not None:
                states.append(state)
        our_found, our_left = lengths(states, budget, settle)
        rows.append(row(f"{tier} PlayBench", our_found, our_left, gen))
        if gym_found and our_found:
            ratio = statistics.median(our_found) / statistics.median(gym_found)
            print(f"{tier}: median ratio PlayBench / gym-sokoban {ratio:.2f}", flush=True)
    print(f"\nOptimal lengths (moves) of unfiltered rooms; unsettled = not solved within "
          f"{settle:,} push states\n")
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    print("  ".join(h.ljust(n) for h, n in zip(headers, widths, strict=True)))
    for r in rows:
        print("  ".join(c.rjust(n) if i else c.ljust(n)
                        for i, (c, n) in enumerate(zip(r, widths, strict=True))))


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    s = sub.add_parser("sample", help="make gym-sokoban rooms (run with gym-sokoban's Python)")
    s.add_argument("out", type=Path)
    s.add_argument("--rooms", type=int, default=20, help="rooms per tier")
    s.add_argument("--first", type=int, default=0, help="first room number (to add more)")
    s.add_argument("--tiers", default=",".join(TIERS))
    c = sub.add_parser("compare", help="solve gym-sokoban's rooms and ours")
    c.add_argument("rooms", type=Path)
    c.add_argument("--ours", type=int, default=20, help="our rooms per tier")
    c.add_argument("--settle", type=int, default=300_000,
                   help="push states for rooms the tier's budget does not settle")
    c.add_argument("--tiers", default=",".join(TIERS))
    args = ap.parse_args(argv)
    if args.command == "sample":
        sample(args.out, args.rooms, args.first, args.tiers.split(","))
    else:
        compare(args.rooms, args.ours, args.settle, args.tiers.split(","))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
