"""Desktop UI figures (offscreen Qt):

1. key press (or click) -> repainted board, p50 / p95 per game: a real key event is sent to
   the board widget; the clock stops when the widget has painted the frame of the resulting
   step. The path includes the input map, the episode loop, the rules, rendering and the
   paint; the step's database commit follows right after the paint (the ``Moved`` event),
   and the next input waits for it. Target p95 <= 16 ms.
2. process start -> interactive main window: ``playbench`` launched as a subprocess, the clock
   stops when the window is shown and the event loop is processing events (a user's second
   start: the bytecode cache is warm). Target <= 1.0 s (issue 32); the CPU time is printed
   beside it, the steadier figure on a busy machine.
3. event-loop latency during a 32-episode model run: 32 Sokoban episodes played by a model
   profile against a ``playbench serve-model`` subprocess (8 at a time) on the UI's loop while
   the main window is open; a 10 ms timer measures how late it fires. Target p95 <= 50 ms.

Figures 1 and 3 are taken once per database: a SQLite file, and PostgreSQL on localhost TCP (a
throw-away server started the way the tests start theirs, ``tests/studies/pgserver.py``:
Debian's server binaries, a fresh cluster, 127.0.0.1). With a shared server every commit is a
network round trip, which is what the UI thread must not wait on. A table of the p95 figures
per database ends the output.

    .venv/bin/python benchmarks/bench_ui.py [--presses N] [--starts N] [--db sqlite,postgres]
        [--games sokoban,maze,...] [--episodes 32]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
SCRATCH = Path(tempfile.mkdtemp(prefix="playbench-bench-ui-"))
os.environ["PLAYBENCH_CONFIG_DIR"] = str(SCRATCH / "config")
(SCRATCH / "config").mkdir()
(SCRATCH / "config" / "ui.json").write_text('{"annotator": "ann-bench"}')
PLAYBENCH = str(Path(sys.executable).with_name("playbench"))


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


# -- 1. key press -> repaint --------------------------------------------------------------------

def next_input(game: str, session, rng) -> tuple[str, object]:
    """An input that names a legal move now: ("key", name) or ("click", (x, y))."""
    from playbench.app.players.board_input import DIRECTION_KEYS
    state = session.state
    legal = session.env.legal_actions()
    if game in ("sokoban", "maze"):
        names = {v: k for k, v in DIRECTION_KEYS.items() if len(k) > 1}
        return "key", names[rng.choice(legal)]
    if game == "npuzzle":
        tile = int(rng.choice(legal))
        br, bc = divmod(state.tiles.index(0), state.n)
        tr, tc = divmod(state.tiles.index(tile), state.n)
        return "key", {(1, 0): "Up", (-1, 0): "Down", (0, 1): "Left", (0, -1): "Right"}[
            (tr - br, tc - bc)]
    if game == "hanoi":
        return "keys", rng.choice(legal)
    if game == "queens":
        if not legal:
            return "click", None
        r, c = json.loads(rng.choice(legal))
        x, y, w, h = session.geometry.area(state, (r, c))
        return "click", (x + w / 2, y + h / 2)
    if game == "sudoku":
        i = state.grid.index("0") if "0" in state.grid else None
        return "sudoku", i
    raise ValueError(game)


GAMES = ("sokoban", "maze", "sudoku", "queens", "hanoi", "npuzzle")


def key_to_paint(presses: int, db_url: str, games: Sequence[str] = GAMES
                 ) -> dict[str, list[float]]:
    import random

    import qasync
    from PySide6.QtCore import QEvent, QEventLoop, QPointF, Qt
    from PySide6.QtGui import QKeyEvent, QMouseEvent
    from PySide6.QtWidgets import QApplication

    from playbench.app.core.budget import Budget
    from playbench.app.ui.main import build
    from playbench.app.ui.models.app_state import AppState
    from playbench.app.ui.models.catalog import PackRef, load
    from playbench.app.ui.models.start import StartRequest

    app = QApplication.instance() or QApplication([])
    qasync.QEventLoop(app, already_running=True)  # makes itself the running loop
    window, state = build(AppState(db_url=db_url))
    window.resize(1400, 900)
    window.show()
    board = window.play_place.view("board").board
    painted = [0]
    paint_times: list[float] = []

    def on_paint() -> None:
        painted[0] += 1
        paint_times.append(time.perf_counter())
    board.painted.connect(on_paint)
    codes = {"Left": Qt.Key.Key_Left, "Right": Qt.Key.Key_Right, "Up": Qt.Key.Key_Up,
             "Down": Qt.Key.Key_Down}

    def pump_until(cond, limit=10.0) -> None:
        end = time.perf_counter() + limit
        while not cond():
            app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents)
            if time.perf_counter() > end:
                raise TimeoutError("no repaint")

    def send_key(name: str) -> None:
        code = codes.get(name) or getattr(Qt.Key, f"Key_{name}")
        for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
            QApplication.sendEvent(board, QKeyEvent(kind, code, Qt.KeyboardModifier.NoModifier))

    def click(x: float, y: float) -> None:
        p = board.from_frame(x, y)
        for kind in (QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonRelease):
            QApplication.sendEvent(board, QMouseEvent(
                kind, QPointF(p), QPointF(board.mapToGlobal(p.toPoint())),
                Qt.MouseButton.LeftButton, Qt.MouseButton.LeftButton,
                Qt.KeyboardModifier.NoModifier))

    out: dict[str, list[float]] = {}
    rng = random.Random(3)
    for game in games:
        rules = {"wrong_digits": "overwritable"} if game == "sudoku" else {}
        pack = PackRef(game, "ingvp", "ingvp", True)
        levels = tuple(r.level for r in load(pack))
        samples: list[float] = []
        index = 0
        while len(samples) < presses:
            req = StartRequest(pack, levels, index % len(levels), "human", "default",
                               Budget(max_actions=100_000), rules)
            index += 1
            window.start(req)
            session = window.play_place.view("board").session
            pump_until(lambda: session.player.waiting)
            sudoku_cell = None
            while len(samples) < presses and session.result is None:
                kind, what = next_input(game, session, rng)
                before_steps, before_paint = len(session.steps), painted[0]
                if kind == "sudoku":
                    if what is None and sudoku_cell is None:
                        break
                    sudoku_cell = what if what is not None else sudoku_cell
                    r, c = divmod(sudoku_cell, 9)
                    x, y, w, h = session.geometry.area(session.state, (r, c))
                    click(x + w / 2, y + h / 2)           # selecting is not timed
                    t0 = time.perf_counter()
                    send_key(str(rng.randint(1, 9)))
                elif kind == "keys":
                    send_key(what[0])                      # choosing the source rod
                    t0 = time.perf_counter()
                    send_key(what[1])
                elif kind == "click":
                    if what is None:
                        break
                    t0 = time.perf_counter()
                    click(*what)
                else:
                    t0 = time.perf_counter()
                    send_key(what)
                pump_until(lambda: len(session.steps) > before_steps
                           and painted[0] > before_paint and board._scaled is not None
                           and session.player.waiting or session.result is not None)
                first = next((t for t in paint_times if t >= t0), None)
                if first is not None:
                    samples.append((first - t0) * 1000)
                paint_times.clear()
            window.play_place.view("board").stop()
            pump_until(lambda: session.result is not None)
        out[game] = samples
    window.close()
    pump_until(lambda: window._closed, 20)
    asyncio.events._set_running_loop(None)
    return out


# -- 2. start -> interactive ---------------------------------------------------------------------

def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of a running process so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def startup(runs: int) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds from process start to the interactive window, per launch.

    Launched as a user's second start: Python's bytecode cache is written by a first launch
    that is not counted (``PYTHONPYCACHEPREFIX`` in the scratch folder, so nothing is written
    into the venv). Without a cache - ``PYTHONDONTWRITEBYTECODE=1``, as some shells and CI
    images set - every start compiles some 1,400 modules from source, about 1.5 s here."""
    walls, cpus = [], []
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(PLAYBENCH_STARTUP_REPORT="1", PYTHONPYCACHEPREFIX=str(SCRATCH / "pycache"),
               PLAYBENCH_DB=f"sqlite:///{SCRATCH / 'start.sqlite3'}")
    for n in range(runs + 1):
        t0 = time.perf_counter()
        proc = subprocess.Popen([PLAYBENCH], env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True, cwd=SCRATCH)
        while True:
            line = proc.stderr.readline()
            if not line:
                raise RuntimeError("the app ended before it was interactive")
            if line.startswith("interactive after"):
                if n:  # the first launch writes the bytecode cache
                    walls.append(time.perf_counter() - t0)
                    cpus.append(_cpu_seconds(proc.pid))
                break
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)
        proc.stderr.close()
    return walls, cpus


# -- 3. loop latency during a model run ---------------------------------------------------------

def model_run_latency(db_url: str, episodes: int = 32) -> dict[str, float]:
    import qasync
    from PySide6.QtCore import QEventLoop, Qt, QTimer
    from PySide6.QtWidgets import QApplication

    from playbench.app.core.events import Stepped
    from playbench.app.core.recorder import DbRecorder
    from playbench.app.core.runs import RunRequest, run_many
    from playbench.app.core.settings import get_setting
    from playbench.app.core.task import Task
    from playbench.app.players.factory import player_factory
    from playbench.app.ui.main import build
    from playbench.app.ui.models.app_state import AppState
    from playbench.games import registry
    from playbench.games.packs import resolve

    proc = subprocess.Popen([PLAYBENCH, "serve-model", "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    url = proc.stdout.readline().split("listening on ")[1].split()[0]
    (SCRATCH / "config" / "models.json").write_text(json.dumps({"version": 1, "profiles": {
        "served": {"base_url": url, "model": "playbench-oracle", "state_hints": True}}}))
    app = QApplication.instance() or QApplication([])
    loop = qasync.QEventLoop(app, already_running=True)
    asyncio.events._set_running_loop(loop)
    window, state = build(AppState(db_url=db_url))
    window.show()
    spec = registry.get("sokoban")
    tasks = [Task("sokoban", lv, {}, "ingvp") for lv in resolve(spec, f"ingvp:1-{episodes}").levels]
    factory = player_factory("model:served", state.store)
    steps = [0]

    def progress(event) -> None:
        if isinstance(event, Stepped):
            steps[0] += 1
            window.statusBar().showMessage(f"{steps[0]} steps recorded")

    req = RunRequest(tasks, factory, get_setting("default"), spec and
                     get_setting("default").budget, concurrency=8)
    lateness: list[float] = []
    last = [time.perf_counter()]
    timer = QTimer()
    timer.setTimerType(Qt.TimerType.PreciseTimer)
    timer.setInterval(10)

    def tick() -> None:
        now = time.perf_counter()
        lateness.append(max(0.0, now - last[0] - 0.010) * 1000)
        last[0] = now
    timer.timeout.connect(tick)

    async def run():
        try:
            return await run_many(req, DbRecorder(state.store), [progress])
        finally:
            await factory.aclose()
    t0 = time.perf_counter()
    last[0] = t0
    timer.start()
    task = asyncio.ensure_future(run())
    while not task.done():
        app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)
    timer.stop()
    wall = time.perf_counter() - t0
    results = task.result()
    window.close()
    while not window._closed:
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents)
    proc.terminate()
    proc.wait(timeout=10)
    proc.stdout.close()
    asyncio.events._set_running_loop(None)
    return {"episodes": len(results), "solved": sum(r.end_reason == "solved" for r in results),
            "steps": steps[0], "seconds": wall, "p50": pct(lateness, 0.5),
            "p95": pct(lateness, 0.95), "max": max(lateness), "samples": len(lateness)}


class Databases:
    """A fresh database URL per figure: SQLite files in the scratch directory, or databases on
    one throw-away PostgreSQL server on 127.0.0.1 (started on first use, stopped by close)."""

    def __init__(self) -> None:
        self._server = None
        self._n = 0

    def url(self, kind: str) -> str:
        self._n += 1
        if kind == "sqlite":
            return f"sqlite:///{SCRATCH / f'bench{self._n}.sqlite3'}"
        if kind == "postgres":
            if self._server is None:
                from tests.studies.pgserver import start_server
                self._server = start_server()
            return self._server.create_database(f"bench_ui_{os.getpid()}_{self._n}")
        raise ValueError(f"unknown database kind {kind!r} (sqlite, postgres)")

    def close(self) -> None:
        if self._server is not None:
            self._server.stop()
            self._server = None


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--presses", type=int, default=60)
    parser.add_argument("--starts", type=int, default=5, help="0 skips the start-up figure")
    parser.add_argument("--db", default="sqlite,postgres",
                        help="comma-separated: sqlite, postgres")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--episodes", type=int, default=32)
    args = parser.parse_args()
    kinds = [k for k in args.db.split(",") if k]
    games = [g for g in args.games.split(",") if g]
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}; "
          f"Qt platform {os.environ['QT_QPA_PLATFORM']}\n")
    dbs = Databases()
    summary: list[tuple[str, float, float, float, float]] = []
    try:
        for kind in kinds:
            keys = key_to_paint(args.presses, dbs.url(kind), games)
            print(f"[{kind}] key press -> repainted board (ms)")
            print(f"{'game':<10}{'n':>5}{'p50':>9}{'p95':>9}{'max':>9}")
            for game, xs in keys.items():
                print(f"{game:<10}{len(xs):>5}{pct(xs, .5):>9.1f}{pct(xs, .95):>9.1f}"
                      f"{max(xs):>9.1f}")
            every = [x for xs in keys.values() for x in xs]

            run = model_run_latency(dbs.url(kind), args.episodes)
            print(f"\n[{kind}] event-loop latency during a {run['episodes']}-episode model "
                  "run against `playbench serve-model` (8 at a time)")
            print(f"{run['steps']} steps, {run['solved']} solved, {run['seconds']:.1f} s; "
                  f"timer lateness over {run['samples']} ticks: p50 {run['p50']:.1f} ms, "
                  f"p95 {run['p95']:.1f} ms, max {run['max']:.1f} ms\n")
            summary.append((kind, pct(every, .95), max(every), run["p95"], run["max"]))
    finally:
        dbs.close()

    if args.starts > 0:
        starts, cpus = startup(args.starts)
        print(f"start -> interactive main window (s), {len(starts)} launches of `playbench` "
              f"(load average {os.getloadavg()[0]:.1f}; target <= 1.0 s from a venv)")
        print(f"median {statistics.median(starts):.2f}  min {min(starts):.2f}  "
              f"max {max(starts):.2f}; CPU median {statistics.median(cpus):.2f}\n")

    print("summary (ms; targets: key -> repaint p95 <= 16, loop lateness p95 <= 50)")
    print(f"{'database':<10}{'key p95':>10}{'key max':>10}{'late p95':>10}{'late max':>10}")
    for kind, kp95, kmax, lp95, lmax in summary:
        print(f"{kind:<10}{kp95:>10.1f}{kmax:>10.1f}{lp95:>10.1f}{lmax:>10.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
