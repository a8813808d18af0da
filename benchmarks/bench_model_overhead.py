"""Harness overhead per model step, without the model's own latency.

For each game and setting, episodes run through the real loop with a real SQLite recorder and
the real model player (prompt templates, image encoding, hint header, parsing); only the network
call is replaced by an instant answer in the protocol's format, whose time is subtracted. The
table gives, per step: the player's own work (prompt + image + parse), the recorder's write (the
frame's digest and PNG, encoded from the episode's previous frame, and the step's commit), and
their sum - the figure the target (issue 32: median <= 1 ms and p90 <= 2 ms per step, for every
board) is about. Wall-clock medians are given, and the CPU time our process spent on the same
work (``cpu ms``), which is what the figure would be on a machine not shared with other jobs.
The environment's own move and render are not in the figure. The figures are kept in
benchmarks/figures.json per size (``--save``); each run prints them beside the kept ones.

    SDL_VIDEODRIVER=dummy .venv/bin/python benchmarks/bench_model_overhead.py [--levels N] [--save]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

from playbench.app.agents.client import ModelReply
from playbench.app.agents.images import ImageEncoder
from playbench.app.agents.player import ModelPlayer
from playbench.app.agents.profiles import ModelProfile
from playbench.app.agents.protocols import family_of, make_protocols
from playbench.app.core.env import make_env
from playbench.app.core.episode import Episode
from playbench.app.core.recorder import DbRecorder, StoreWriter
from playbench.app.core.settings import get_setting
from playbench.app.core.task import Task
from playbench.app.core.types import Usage
from playbench.db.engine import open_database
from playbench.db.store import Store
from playbench.games import registry

GAMES = ("sokoban", "maze", "npuzzle", "sudoku", "hanoi", "queens")
SETTINGS = ("ingvp:image-multi", "ingvp:text-multi-history", "tools:image")


class InstantModel:
    """Answers with the environment's next optimal move at once; records its own time."""

    def __init__(self, protocols, env, task, setting) -> None:
        self.protocols, self.env, self.task, self.setting = protocols, env, task, setting
        self.spent = 0.0
        self.cpu = 0.0

    async def complete(self, prompt, headers=None, on_text=None) -> ModelReply:
        t0, c0 = time.perf_counter(), time.process_time()
        plan = self.env.oracle() or []
        reply = self.protocols[family_of(self.setting)].format_answer(
            plan[:1], self.task.game, self.setting)
        self.spent += time.perf_counter() - t0
        self.cpu += time.process_time() - c0
        return ModelReply(reply, Usage(100, 5, 0.0, 0.0, 1), "stop", (), "instant")


class TimedWriter(StoreWriter):
    """Times each step's write (PNG encoding and commit) on the recorder's worker thread."""

    def __init__(self, store: Store) -> None:
        super().__init__(store)
        self.times: list[float] = []
        self.cpu: list[float] = []

    def step(self, episode_id, record, frame) -> None:
        t0, c0 = time.perf_counter(), time.process_time()
        super().step(episode_id, record, frame)
        self.times.append(time.perf_counter() - t0)
        self.cpu.append(time.process_time() - c0)


class TimedPlayer(ModelPlayer):
    def __init__(self, *args, model: InstantModel) -> None:
        super().__init__(*args)
        self.model = model
        self.times: list[float] = []
        self.cpu: list[float] = []

    async def act(self, observation, context):
        before, cpu_before = self.model.spent, self.model.cpu
        t0, c0 = time.perf_counter(), time.process_time()
        decision = await super().act(observation, context)
        self.times.append(time.perf_counter() - t0 - (self.model.spent - before))
        self.cpu.append(time.process_time() - c0 - (self.model.cpu - cpu_before))
        return decision


async def measure(game: str, setting_name: str, levels, store: Store, protocols, images):
    spec = registry.get(game)
    setting = get_setting(setting_name, game)
    profile = ModelProfile("bench", "http://127.0.0.1:1/v1", "instant", state_hints=True)
    writer = TimedWriter(store)
    recorder = DbRecorder(store, writer)
    acts: list[float] = []
    cpu: list[float] = []
    for level in levels:
        task = Task(game, level, spec.rule_options({}))
        env = make_env(task)
        model = InstantModel(protocols, env, task, setting)
        player = TimedPlayer(profile, model, protocols, images, model=model)
        await Episode(env, player, task, setting=setting,
                      budget=setting.budget, recorder=recorder).run()
        acts += player.times
        cpu += player.cpu
    return acts, writer.times, [a + r for a, r in zip(cpu, writer.cpu, strict=True)]


def ms(values) -> str:
    return f"{statistics.median(values) * 1000:6.2f}"


def p90(values) -> str:
    return f"{sorted(values)[int(0.9 * (len(values) - 1))] * 1000:6.2f}"


FIGURES = Path(__file__).with_name("figures.json")
"""The kept figures: {"bench_model_overhead": {"<size>": {figure: value}}}."""
TARGETS = {"median ms": 1.0, "p90 ms": 2.0}


def compare(figures: dict[str, float], size: str, save: bool) -> None:
    """Print each figure beside the kept one and its target; keep the new ones if asked."""
    kept_all = json.loads(FIGURES.read_text()) if FIGURES.exists() else {}
    kept = kept_all.get("bench_model_overhead", {}).get(size, {})
    print(f"\n{'figure':22} {'kept':>8} {'now':>8} {'target':>8}  "
          f"(load average {os.getloadavg()[0]:.1f}; kept at {kept.get('load average', '-')})")
    for name, value in figures.items():
        target = TARGETS.get(name.split(": ")[-1])
        before = kept.get(name)
        worse = before is not None and value > 1.25 * before
        print(f"{name:22} {'-' if before is None else f'{before:8.2f}':>8} {value:8.2f} "
              f"{'' if target is None else f'<= {target:g}':>8}  {'REGRESSED' if worse else ''}")
    if save:
        kept_all.setdefault("bench_model_overhead", {})[size] = {
            **figures, "load average": round(os.getloadavg()[0], 1)}
        FIGURES.write_text(json.dumps(kept_all, indent=2, sort_keys=True) + "\n")
        print(f"kept in {FIGURES}")


async def main(n_levels: int, save: bool = False) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(open_database(f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"))
        print(f"{'game':8} {'setting':25} {'steps':>5} {'player ms':>9} {'record ms':>9} "
              f"{'total ms':>8} {'p90 ms':>7} {'cpu ms':>7}")
        totals: list[float] = []
        cpus: list[float] = []
        figures: dict[str, float] = {}
        # One set of prompt protocols and one image encoder for the whole run, as a model
        # player factory holds them for every episode of a run (app/agents/session.py).
        protocols, images = make_protocols(), ImageEncoder()
        for game in GAMES:
            board: list[float] = []
            spec = registry.get(game)
            levels = spec.generate(n_levels, 3, None if game == "queens" else 8)
            for setting in SETTINGS:
                acts, recs, cpu = await measure(game, setting, levels, store, protocols, images)
                total = [a + r for a, r in zip(acts, recs, strict=True)]
                totals += total
                board += total
                cpus += cpu
                print(f"{game:8} {setting:25} {len(total):5d} {ms(acts):>9} {ms(recs):>9} "
                      f"{ms(total):>8} {p90(total):>7} {ms(cpu):>7}")
            figures[f"{game}: median ms"] = float(ms(board))
            figures[f"{game}: p90 ms"] = float(p90(board))
        print(f"\nall boards: median {ms(totals).strip()} ms (cpu {ms(cpus).strip()} ms), p90 "
              f"{p90(totals).strip()} ms per step over {len(totals)} steps (target: median "
              "<= 1 ms, p90 <= 2 ms: issue 32)")
        figures |= {"all: median ms": float(ms(totals)), "all: p90 ms": float(p90(totals)),
                    "all: cpu median ms": float(ms(cpus))}
        compare(figures, "small" if n_levels == 1 else f"{n_levels} levels", save)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--levels", type=int, default=5, help="levels per game (default 5)")
    ap.add_argument("--small", action="store_true",
                    help="one level per game (the size CI runs it at, tests/test_benchmarks.py)")
    ap.add_argument("--save", action="store_true",
                    help="keep this run's figures in benchmarks/figures.json")
    args = ap.parse_args()
    asyncio.run(main(1 if args.small else args.levels, args.save))
