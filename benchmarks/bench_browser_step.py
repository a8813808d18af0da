"""Browser-game step overhead without a model: what the harness adds to each action.

One paused GameWorld step (docs/reference/browser-games.md) is: execute the action while the
harness steps the page's clock by the action's bound duration (game time, not wall time: see
docs/replay.md) -> read getState() -> screenshot (PNG or JPEG, decoded to RGB). Plays each
chosen bundled game's ``wait`` control (or its first control) in real Chromium, paused mode,
and prints per game the median and p90 of the step's wall time and of its parts, beside the
action's bound duration (a step that takes less wall time than that is faster than real
time).

Usage: ``.venv/bin/python benchmarks/bench_browser_step.py [--steps N] [--games 01_2048,...]
[--format png|jpeg]``. Run on a quiet machine: the figures are wall times.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from playbench.games.browser.browser import Browser
from playbench.games.browser_games.env import BrowserGameEnv, EnvConfig
from playbench.games.browser_games.kind import KIND
from playbench.games.types import Task


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def one_game(browser: Browser, game: str, steps: int, fmt: str) -> dict[str, list[float]]:
    level = KIND.load(game)[0]
    task = Task(KIND.name, level, {}, "bench")
    env = BrowserGameEnv(browser=browser, config=EnvConfig(frame_format=fmt))
    out: dict[str, list[float]] = {k: [] for k in ("bound", "execute", "settle", "decode",
                                                   "total")}
    try:
        await env.reset(task, 0)
        role = env.spec.role if env.spec else None
        text = "wait" if role and role.control("wait") else env.vocabulary()[0]
        for _ in range(steps):
            action = env.parse_action(text)
            start = time.perf_counter()
            tr = await env.step(action)
            total = (time.perf_counter() - start) * 1000
            bound = action.move.seconds * 1000
            t = env.timings
            out["total"].append(total)
            out["bound"].append(bound)
            out["execute"].append(t["execute"])
            out["settle"].append(t["pause+state+screenshot"])
            out["decode"].append(t["frame"])
            if tr.terminated:
                await env.reset(task, 0)
    finally:
        await env.close()
    return out


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--games", default="01_2048,02_snake,03_breakout")
    ap.add_argument("--format", default="png", choices=("png", "jpeg"))
    args = ap.parse_args()
    browser = Browser()
    await browser.start()
    try:
        print(f"{'game':<14}{'part':<12}{'p50 ms':>8}{'p90 ms':>8}")
        for game in args.games.split(","):
            rows = await one_game(browser, game, args.steps, args.format)
            for part, samples in rows.items():
                print(f"{game:<14}{part:<12}{statistics.median(samples):>8.1f}"
                      f"{pct(samples, 0.9):>8.1f}")
    finally:
        await browser.close()


if __name__ == "__main__":
    asyncio.run(main())
