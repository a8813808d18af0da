"""Where a model step's harness time goes, per board: the parts of bench_model_overhead.py's
figure, timed with perf counters around each piece of the real loop.

Runs the same episodes as ``bench_model_overhead.py`` (real SQLite recorder, real model player,
an instant model) and prints, per board, the median per step of:

* ``player``: the player's own work (prompt, image, parse; the model's time taken out);
* ``record``: the recorder's whole write on its worker thread, made of
  ``encode`` (the frame's key and PNG: ``compare``, the search for the bands a step changed when
  the renderer did not name its rows, plus the bands encoded again, ``bands`` per step) and
  ``add_step`` (the step's transaction: ``guard``, the WAL guard's checks before and after;
  ``sql``, the three statements; the rest is opening the transaction, the row's values and the
  commit);
* ``env``: the environment's move and render (not part of the figure; for comparison).

The wrappers cost a few microseconds each, so the parts add up to slightly more than the
benchmark's figure. Run it beside the benchmark, on a quiet machine (the load average is printed):

    SDL_VIDEODRIVER=dummy .venv/bin/python benchmarks/profile_model_step.py [--levels N]
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import os
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
import bench_model_overhead as bench  # noqa: E402

from playbench.app.core import png  # noqa: E402
from playbench.db import engine, step_sql, store  # noqa: E402
from playbench.games import env as game_env  # noqa: E402

PARTS = ("player", "record", "encode", "compare", "bands", "add_step", "guard", "sql", "env")


class Timings:
    """Per (board, part) lists of seconds, one entry per call (``guard``: summed per step)."""

    def __init__(self) -> None:
        self.board = ""
        self.values: dict[tuple[str, str], list[float]] = defaultdict(list)
        self._pending: dict[str, float] = defaultdict(float)

    def add(self, part: str, seconds: float) -> None:
        self.values[(self.board, part)].append(seconds)

    def accumulate(self, part: str, seconds: float) -> None:
        """Summed until :meth:`flush` (a part called several times per step)."""
        self._pending[part] += seconds

    def flush(self) -> None:
        for part, seconds in self._pending.items():
            self.add(part, seconds)
        self._pending.clear()


def timed(owner: Any, name: str, record: Callable[[float], None]) -> None:
    """Replace ``owner.name`` by a wrapper that reports each call's duration."""
    fn = getattr(owner, name)

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            record(time.perf_counter() - t0)

    setattr(owner, name, wrapper)


def timed_async(owner: Any, name: str, record: Callable[[float], None]) -> None:
    fn = getattr(owner, name)

    @functools.wraps(fn)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return await fn(*args, **kwargs)
        finally:
            record(time.perf_counter() - t0)

    setattr(owner, name, wrapper)


def instrument(t: Timings) -> None:
    timed(png.FrameCodec, "encode", lambda s: t.add("encode", s))
    timed(png, "_band_changes", lambda s: t.add("compare", s))
    timed(step_sql.PreparedStepWrite, "__call__", lambda s: t.add("sql", s))
    timed(engine.WalGuard, "check", lambda s: t.accumulate("guard", s))

    def add_step_done(seconds: float) -> None:
        t.add("add_step", seconds)
        t.flush()

    timed(store.Store, "add_step", add_step_done)
    timed_async(game_env.BoardTaskEnv, "step", lambda s: t.add("env", s))
    encode = png.FrameCodec.encode

    def counting(self: png.FrameCodec, frame: Any) -> Any:
        reused, following = self.reused, self._before is not None
        out = encode(self, frame)
        if following:  # a step's frame, not an episode's first
            t.add("bands", -(-frame.shape[0] // png.BAND_ROWS) - (self.reused - reused))
        return out

    png.FrameCodec.encode = counting  # type: ignore[method-assign]


async def main(n_levels: int) -> None:
    t = Timings()
    instrument(t)
    with tempfile.TemporaryDirectory() as tmp:
        db = store.Store(bench.open_database(f"sqlite:///{Path(tmp) / 'profile.sqlite3'}"))
        protocols, images = bench.make_protocols(), bench.ImageEncoder()
        for game in bench.GAMES:
            t.board = game
            levels = bench.registry.get(game).generate(
                n_levels, 3, None if game == "queens" else 8)
            for setting in bench.SETTINGS:
                acts, recs, _ = await bench.measure(game, setting, levels, db, protocols, images)
                t.values[(game, "player")] += acts
                t.values[(game, "record")] += recs
    print(f"median per step, ms (bands: count); load average {os.getloadavg()[0]:.1f}")
    print(f"{'board':8}" + "".join(f"{p:>9}" for p in PARTS))
    for game in bench.GAMES:
        cells = []
        for part in PARTS:
            values = t.values.get((game, part), [])
            if not values:
                cells.append(f"{'-':>9}")
            elif part == "bands":
                cells.append(f"{statistics.mean(values):9.1f}")
            else:
                cells.append(f"{statistics.median(values) * 1000:9.3f}")
        print(f"{game:8}" + "".join(cells))


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--levels", type=int, default=5, help="levels per game (default 5)")
    asyncio.run(main(ap.parse_args().levels))
