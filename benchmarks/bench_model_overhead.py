"""Harness overhead per model step, without the model's own latency.

For each game and setting, episodes run through the real loop with a real SQLite recorder and
the real model player (prompt templates, image encoding, hint header, parsing); only the network
call is replaced by an instant answer in the protocol's format, whose time is subtracted. The
table gives, per step: the player's own work (prompt + image + parse), the recorder's write, and
their sum - the figure the target (median <= 10 ms on boards) is about. Wall-clock medians are
given, and the CPU time our process spent on the same work (``cpu ms``), which is what the
figure would be on a machine not shared with other jobs.

    SDL_VIDEODRIVER=dummy .venv/bin/python benchmarks/bench_model_overhead.py [--levels N]
"""

from __future__ import annotations

import argparse
import asyncio
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


async def measure(game: str, setting_name: str, levels, store: Store):
    spec = registry.get(game)
    setting = get_setting(setting_name, game)
    profile = ModelProfile("bench", "http://127.0.0.1:1/v1", "instant", state_hints=True)
    protocols = make_protocols()
    images = ImageEncoder()
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


async def main(n_levels: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(open_database(f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"))
        print(f"{'game':8} {'setting':25} {'steps':>5} {'player ms':>9} {'record ms':>9} "
              f"{'total ms':>8} {'p90 ms':>7} {'cpu ms':>7}")
        totals: list[float] = []
        cpus: list[float] = []
        for game in GAMES:
            spec = registry.get(game)
            levels = spec.generate(n_levels, 3, None if game == "queens" else 8)
            for setting in SETTINGS:
                acts, recs, cpu = await measure(game, setting, levels, store)
                total = [a + r for a, r in zip(acts, recs, strict=True)]
                totals += total
                cpus += cpu
                print(f"{game:8} {setting:25} {len(total):5d} {ms(acts):>9} {ms(recs):>9} "
                      f"{ms(total):>8} {p90(total):>7} {ms(cpu):>7}")
        print(f"\nall boards: median {ms(totals).strip()} ms (cpu {ms(cpus).strip()} ms), p90 "
              f"{p90(totals).strip()} ms per step over {len(totals)} steps (target: median "
              "<= 1 ms, p90 <= 2 ms: issue 32)")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--levels", type=int, default=5, help="levels per game (default 5)")
    ap.add_argument("--small", action="store_true",
                    help="one level per game (the size CI runs it at, tests/test_benchmarks.py)")
    args = ap.parse_args()
    asyncio.run(main(1 if args.small else args.levels))
