"""Puzzle-suite figures: how long each shipped pack takes to build from its seeds, how long the
game's solver takes per level of it, and how long one frame takes to render per game at its
default size (target: at most 5 ms), and the Sokoban room generator's optimal-length
distribution and generation time per MageBench tier.

    SDL_VIDEODRIVER=dummy .venv/bin/python benchmarks/bench_puzzles.py [--quick] [--rooms N]
    .venv/bin/python benchmarks/bench_puzzles.py --rooms-only [--rooms N]

``--quick`` skips the MageBench and depth packs in the build and solve table. ``--rooms N``
(default 30) is how many rooms per tier the generator table samples; those rooms are not
filtered by length, so the table shows the generator itself, to put next to gym-sokoban's
(docs/fidelity.md, MageBench; ``benchmarks/gym_sokoban_rooms.py`` solves gym-sokoban's own
rooms beside ours). ``--rooms-only`` prints just that table.

Times are CPU time of this process (``time.process_time``), so a busy machine does not inflate
them; the build table also shows wall-clock seconds.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time

from playbench.games import build_packs
from playbench.games.base import BoardEnv
from playbench.games.level_packs import Pack
from playbench.games.packs import list_packs, resolve
from playbench.games.registry import available, get
from playbench.games.sokoban import packs as sokoban_packs
from playbench.games.sokoban.generator import RoomSpec, generate_state_search
from playbench.games.sokoban.solver import solve

# pygame reads this when a display is first initialised: no window for a script.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

RENDER_TARGET_MS = 5.0


def build_seconds(pack: Pack) -> tuple[float, float]:
    """(CPU, wall) seconds to build the pack from its seeds."""
    cpu, wall = time.process_time(), time.perf_counter()
    build_packs.build(pack)
    return time.process_time() - cpu, time.perf_counter() - wall


def solve_ms(pack: Pack) -> list[float]:
    """Milliseconds the game's solver takes from each level's start, one entry per level."""
    spec = get(pack.game)
    env = BoardEnv(spec)
    times = []
    for level in resolve(spec, pack.name).levels:
        state = env.reset(level)
        start = time.process_time()
        plan = spec.solve(env.rules, state, None)
        times.append(1000 * (time.process_time() - start))
        assert plan is not None and len(plan) == level.meta["optimal"], (pack.key, level.number)
    return times


def render_ms(game: str, levels: int = 10, repeat: int = 5) -> tuple[float, tuple[int, int]]:
    """Mean CPU milliseconds per frame over every state along the optimal solutions of the
    first ``levels`` levels of the game's ingvp pack (each drawn ``repeat`` times, so the
    clock's resolution does not matter), and the frame size."""
    spec = get(game)
    env = BoardEnv(spec)
    total, frames = 0.0, 0
    shape = (0, 0)
    for level in resolve(spec, "ingvp").levels[:levels]:
        env.reset(level)
        env.render()  # warm the renderer's caches (fonts, sprites, the board's background)
        for move in spec.solve(env.rules, env.state, None):
            env.step(move)
            start = time.process_time()
            for _ in range(repeat):
                frame = env.render()
            total += time.process_time() - start
            frames += repeat
            shape = frame.shape[:2]
    return 1000 * total / frames, shape


def percentile(values: list[float], fraction: float) -> float:
    """The value at ``fraction`` of the sorted list (nearest rank, no interpolation)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def room_rows(rooms: int) -> list[list[str]]:
    """Per MageBench tier: the optimal lengths of ``rooms`` generated rooms (p10, median, p90,
    max, min), how many the solver did not settle within the magebench pack's node budget for
    the tier (left out of the figures, so the big tiers' figures lean short), and the CPU
    milliseconds to make one room, solving excluded (median, p95)."""
    rows = []
    for tier, w, h, b, *_ in sokoban_packs.MAGEBENCH_TIERS:
        spec = RoomSpec(w, h, b)
        steps = sokoban_packs.GYM_WALK_STEPS.get(tier)
        lengths: list[float] = []
        times: list[float] = []
        attempt = unsettled = 0
        while len(lengths) + unsettled < rooms:
            rng = random.Random(f"bench:{tier}:{attempt}")
            attempt += 1
            start = time.process_time()
            state = generate_state_search(rng, spec, steps)
            times.append(1000 * (time.process_time() - start))
            if state is None:
                continue
            plan = solve(None, state, None, sokoban_packs.solve_nodes_for(tier))
            if plan is None:
                unsettled += 1
            else:
                lengths.append(len(plan))
        rows.append([f"{tier} {w}x{h}/{b}", str(rooms),
                     f"{percentile(lengths, 0.1):g}",
                     f"{statistics.median(lengths):g}", f"{percentile(lengths, 0.9):g}",
                     f"{max(lengths):g}", f"{min(lengths):g}", str(unsettled),
                     f"{statistics.median(times):.1f}", f"{percentile(times, 0.95):.1f}"])
    return rows


def table(headers: list[str], rows: list[list[str]]) -> None:
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    print("  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print("  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in
                        enumerate(zip(r, widths, strict=True))))


def print_rooms(argv: list[str]) -> None:
    rooms = int(argv[argv.index("--rooms") + 1]) if "--rooms" in argv else 30
    print("Sokoban rooms per MageBench tier (style 'search', unfiltered): optimal length, and "
          "CPU ms to make one room without solving it\n")
    table(["tier", "rooms", "p10", "median", "p90", "max", "min", "unsettled", "gen ms median",
           "p95"], room_rows(rooms))


def main(argv: list[str]) -> int:
    if "--rooms-only" in argv:
        print_rooms(argv)
        return 0
    quick = "--quick" in argv
    packs = [p for p in build_packs.all_packs() if p.subset_of is None
             and (not quick or p.name == "ingvp")]
    rows = []
    for pack in packs:
        cpu, wall = build_seconds(pack)
        solve = solve_ms(pack)
        rows.append([pack.key, str(pack.size), f"{cpu:.2f}", f"{wall:.2f}",
                     f"{statistics.mean(solve):.1f}", f"{statistics.median(solve):.1f}",
                     f"{max(solve):.1f}"])
    print("Pack generation (from the documented seeds) and solver time per level\n")
    table(["pack", "levels", "build cpu s", "wall s", "solve ms mean", "median", "max"], rows)

    print(f"\nFrame render time at each game's default size (target <= {RENDER_TARGET_MS} ms)\n")
    rows = []
    for game in available():
        if "ingvp" not in list_packs(game):  # football's levels come from GRF, not a pack
            continue
        ms, (h, w) = render_ms(game)
        rows.append([game, f"{w}x{h}", f"{ms:.2f}", "yes" if ms <= RENDER_TARGET_MS else "NO"])
    table(["game", "frame", "ms/frame", "on target"], rows)

    print()
    print_rooms(argv)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
