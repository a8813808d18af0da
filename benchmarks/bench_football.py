"""Football on Google Research Football: decisions per second without a model (frames not
fetched - the engine still renders a tiny picture, see playbench/games/football/worker.py -
MageBench's automation on, the scripted and the random player), frames per decision,
raw engine frames per second, and the cost of one rendered frame at 320 and 1280 px wide under
Xvfb (software GL). Needs the football extra (``./bootstrap app --with-football``).

    .venv/bin/python benchmarks/bench_football.py [--levels magebench-mini] [--seconds 20]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time

from playbench.games.football.engine import QUIET_WIDTH, Engine
from playbench.games.football.game import ACTIONS
from playbench.games.football.kind import KIND
from playbench.games.football.policies import SCRIPT
from playbench.games.football.scenarios import scenario_of
from playbench.games.types import Action, Task


async def decisions(levels: list, pick, seconds: float) -> tuple[int, int, float]:
    """Play episodes until ``seconds`` have passed: (decisions, frames, wall seconds)."""
    env = KIND.make_env(Task("football", levels[0]), render=False)
    made = frames = 0
    await env.reset(Task("football", levels[0]), 0)  # the engine's start is not a decision
    start = time.perf_counter()
    episode = 0
    try:
        while time.perf_counter() - start < seconds:
            lv = levels[episode % len(levels)]
            await env.reset(Task("football", lv), episode)
            episode += 1
            d = 0
            while True:
                move = pick(d)
                tr = await env.step(Action(move, move))
                d += 1
                if tr.terminated:
                    break
            made += d
            frames += env.board.state.frames
    finally:
        await env.close()
    return made, frames, time.perf_counter() - start


def engine_frames(levels: list, render: bool, width: int, count: int) -> list[float]:
    """Seconds per engine frame (one ``step`` round trip, plus fetching the picture when
    ``render``) over ``count`` frames."""
    engine = Engine(width=width)
    times = []
    try:
        engine.reset(scenario_of(levels[0]).grf(), 0)
        for i in range(count):
            t0 = time.perf_counter()
            step = engine.step(5 if i % 7 else 0)
            if render:
                engine.frame()
            times.append(time.perf_counter() - t0)
            if step.done:
                engine.reset(scenario_of(levels[(i + 1) % len(levels)]).grf(), i)
    finally:
        engine.close()
    return times


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--levels", default="magebench-mini")
    p.add_argument("--seconds", type=float, default=20.0)
    args = p.parse_args()
    levels = KIND.load(args.levels)
    rng = random.Random(0)
    print("| measure | value |")
    print("| --- | --- |")
    for name, pick in (("scripted", lambda d: SCRIPT[d % len(SCRIPT)]),
                       ("random", lambda d: rng.choice(ACTIONS))):
        made, frames, wall = asyncio.run(decisions(levels, pick, args.seconds))
        print(f"| decisions/s, {name} player, frames not fetched | {made / wall:.1f} |")
        print(f"| frames per decision, {name} player | {frames / max(made, 1):.2f} |")
    raw = engine_frames(levels, False, QUIET_WIDTH, 200)
    print(f"| engine frames/s, frames not fetched ({QUIET_WIDTH} px, one step round trip) | "
          f"{1 / statistics.mean(raw):.0f} |")
    for width in (320, 1280):
        t = engine_frames(levels, True, width, 30)[5:]
        print(f"| rendered frame at {width}x{width * 9 // 16} (step + picture), median | "
              f"{statistics.median(t) * 1000:.0f} ms |")


if __name__ == "__main__":
    main()
