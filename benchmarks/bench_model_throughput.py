"""Model-step throughput against ``playbench serve-model --latency 500`` at several concurrencies.

The endpoint runs as its own process (as a remote model would), answering every request after
500 ms. Episodes (maze, ING-VP text multi-step, 8 calls each) run concurrently on one asyncio
loop through the official openai SDK, recording every step in a SQLite file. Target (issue 32):
at least 0.9 x C / latency model steps per second at C = 256. Beside the rate, the CPU time
this process spent per step (all its threads) and the ceiling that implies for one process
(1000 / cpu ms steps/s): when C / latency is above it, one process cannot reach the target
whatever the endpoint does, and a sweep's several engines (worker processes) are the way.
``--server-cpu N`` pins the endpoint to CPU N (``taskset``) and this process to the others.
``--workers N`` splits each concurrency over N worker processes (as ``sweep run --engine
processes`` does), all recording into the same SQLite file; the rate is their steps over the
time from the common start to the last one's end, the CPU their sum.

    SDL_VIDEODRIVER=dummy .venv/bin/python benchmarks/bench_model_throughput.py
        [--concurrency 1,8,32,64,256] [--server-cpu 1] [--workers 2] [--small]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playbench.app.agents.profiles import ModelProfile
from playbench.app.agents.session import ModelPlayerFactory
from playbench.app.core.recorder import DbRecorder
from playbench.app.core.runs import RunRequest, run_many
from playbench.app.core.settings import get_setting
from playbench.app.core.task import Task
from playbench.db.engine import open_database
from playbench.db.store import Store
from playbench.games import registry

TARGET_RATIO = 0.9


def start_server(latency_ms: float, cpu: int | None = None) -> tuple[subprocess.Popen, str]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy")
    pin = [] if cpu is None else ["taskset", "-c", str(cpu)]
    proc = subprocess.Popen([*pin, sys.executable, "-m", "playbench", "serve-model", "--port",
                             "0", "--latency", str(latency_ms)], stdout=subprocess.PIPE,
                            text=True, env=env)
    line = proc.stdout.readline()
    return proc, line.split("listening on ")[1].split()[0]


async def run(url: str, concurrency: int, levels, store: Store) -> tuple[int, float, float]:
    profile = ModelProfile("bench", url, "playbench-oracle", state_hints=True,
                           max_concurrency=max(64, concurrency), timeout=30.0)
    setting = get_setting("ingvp:text-multi", "maze")
    spec = registry.get("maze")
    repeat = max(1, -(-2 * concurrency // len(levels)))
    tasks = [Task("maze", lv, spec.rule_options({})) for lv in levels]
    factory = ModelPlayerFactory(profile)
    request = RunRequest(tasks, factory, setting, setting.budget,
                         repeat=repeat, concurrency=concurrency)
    t0, c0 = time.perf_counter(), time.process_time()
    try:
        results = await run_many(request, DbRecorder(store))
    finally:
        await factory.aclose()
    elapsed, cpu = time.perf_counter() - t0, time.process_time() - c0
    assert all(r.status == "done" for r in results)
    return sum(len(r.steps) for r in results), elapsed, cpu


def _worker(url: str, concurrency: int, levels, db_path: str, start, out) -> None:
    """One worker process: wait for the others, play its share, send (steps, end, cpu)."""
    store = Store(open_database(f"sqlite:///{db_path}", migrate=False))
    start.wait()
    steps, _, cpu = asyncio.run(run(url, concurrency, levels, store))
    out.put((steps, time.time(), cpu))
    store.db.dispose()


def run_workers(url: str, concurrency: int, levels, db_path: str, workers: int
                ) -> tuple[int, float, float]:
    """``concurrency`` split over ``workers`` processes: (steps, seconds, CPU seconds)."""
    import multiprocessing
    ctx = multiprocessing.get_context("spawn")
    start, out = ctx.Barrier(workers + 1), ctx.Queue()
    share = [concurrency // workers + (i < concurrency % workers) for i in range(workers)]
    procs = [ctx.Process(target=_worker, args=(url, c, levels, db_path, start, out))
             for c in share if c]
    for p in procs:
        p.start()
    start.wait()
    t0 = time.time()
    got = [out.get(timeout=600) for _ in procs]
    for p in procs:
        p.join(timeout=30)
    return (sum(g[0] for g in got), max(g[1] for g in got) - t0, sum(g[2] for g in got))


async def main(latency_ms: float, levels_n: int, concurrencies: list[int],
               server_cpu: int | None, workers: int = 1) -> None:
    proc, url = start_server(latency_ms, server_cpu)
    if server_cpu is not None:
        os.sched_setaffinity(0, (os.sched_getaffinity(0) - {server_cpu}) or {server_cpu})
    try:
        levels = registry.get("maze").generate(levels_n, 5, 8)
        with tempfile.TemporaryDirectory() as tmp:
            db_path = str(Path(tmp) / "bench.sqlite3")
            store = Store(open_database(f"sqlite:///{db_path}"))
            print(f"serve-model at {url}, latency {latency_ms:g} ms; load average "
                  f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; "
                  f"{workers} harness process(es)")
            print(f"{'C':>3} {'steps':>6} {'seconds':>8} {'steps/s':>8} {'target':>7} "
                  f"{'ratio':>6} {'cpu ms/step':>11} {'1-process ceiling':>17}")
            for c in concurrencies:
                if workers > 1:
                    steps, secs, cpu = run_workers(url, c, levels, db_path, workers)
                else:
                    steps, secs, cpu = await run(url, c, levels, store)
                rate = steps / secs
                ideal = c / (latency_ms / 1000.0)
                per = cpu / steps * 1000
                print(f"{c:3d} {steps:6d} {secs:8.2f} {rate:8.2f} {TARGET_RATIO * ideal:7.1f} "
                      f"{rate / ideal:6.2f} {per:11.2f} {1000 / per:15.0f}/s")
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        proc.stdout.close()


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--latency", type=float, default=500.0, help="server latency, ms")
    ap.add_argument("--levels", type=int, default=16, help="distinct maze levels")
    ap.add_argument("--concurrency", default="1,8,32,64,256",
                    help="comma list (default 1,8,32,64,256)")
    ap.add_argument("--server-cpu", type=int, default=None,
                    help="pin serve-model to this CPU and the harness to the others")
    ap.add_argument("--workers", type=int, default=1,
                    help="harness processes sharing each concurrency (default 1)")
    ap.add_argument("--small", action="store_true",
                    help="C = 4 against a 50 ms endpoint (CI: the script still runs)")
    args = ap.parse_args()
    if args.small:
        args.latency, args.levels, args.concurrency = 50.0, 4, "4"
    asyncio.run(main(args.latency, args.levels, [int(c) for c in args.concurrency.split(",")],
                     args.server_cpu, args.workers))
