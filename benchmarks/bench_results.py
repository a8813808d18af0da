"""Results and transfer speed on a large SQLite database.

Builds (with bulk inserts, in a few seconds) a database of 10,000 finished episodes and 500,000
steps - 4 games x 2 settings x 12 participants (6 human, 6 model) over 50 levels per game, 50
steps per episode, the usual 13 scores each, and a few hundred distinct frames - then times:

- the leaderboard over all of it (targets, issue 32: <= 0.2 s at 10,000 episodes, <= 1 s at
  100,000), first call, best of three, and its CPU time (steadier on a shared machine);
- the JSONL export (steps per second) of 1,000 episodes (50,000 steps; target >= 150,000/s);
- importing that export into an empty database (steps per second; target >= 60,000/s);
  both also per second of this process's CPU time (steadier on a shared, busy machine).

The figures are kept in benchmarks/figures.json, per database size: each run prints them beside
the kept ones and the target, so a regression shows, and ``--save`` keeps the new ones - unless
this run's load average (the higher of before and after the timings) is more than 0.5 above
the one the kept figures were measured at: a busy machine's figures are not kept over quiet
ones (``--save-anyway`` keeps them all the same). The file's other entries are left as they are.

    SDL_VIDEODRIVER=dummy .venv/bin/python benchmarks/bench_results.py [--episodes N] [--save]
        [--save-anyway] [--small]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import tempfile
import time
from pathlib import Path

import numpy as np
import sqlalchemy as sa

from playbench.app.core.png import encode_png
from playbench.app.exports.importer import import_bundle
from playbench.app.exports.jsonl import export_jsonl
from playbench.app.results import leaderboard
from playbench.db.engine import open_database
from playbench.db.models import Episode, Frame, Participant, Score, Step, Task
from playbench.db.store import Store, new_uid, utcnow
from playbench.games import registry
from playbench.games.base import Level
from playbench.games.packs import list_packs, resolve

GAMES = ("sokoban", "maze", "sudoku", "hanoi")
SETTINGS = ("default", "ingvp:text-multi")
PEOPLE = [("human", f"annotator-{i}") for i in range(6)] + \
         [("model", f"model-{i}") for i in range(6)]
LEVELS = 50
FRAMES = 300


def real_levels(game: str) -> list[Level]:
    """:data:`LEVELS` distinct levels of the game from its bundled packs: the import checks
    that every level it is given can start, so made-up level texts no longer pass."""
    spec = registry.get(game)
    found: dict[str, Level] = {}
    for pack in list_packs(game):
        for level in resolve(spec, pack).levels:
            found.setdefault(level.content_hash, level)
            if len(found) == LEVELS:
                return list(found.values())
    raise SystemExit(f"the bundled {game} packs hold {len(found)} distinct levels, "
                     f"fewer than the {LEVELS} this benchmark uses")


def build(store: Store, episodes: int, steps_per: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    now = utcnow()
    with store.db.engine.begin() as conn:
        pids = []
        for kind, name in PEOPLE:
            pids.append(conn.execute(sa.insert(Participant.__table__).values(
                uid=new_uid(), kind=kind, name=name, details={}, created=now)
            ).inserted_primary_key[0])
        tids = {}
        for g in GAMES:
            for n, level in enumerate(real_levels(g)):
                tids[(g, n)] = conn.execute(sa.insert(Task.__table__).values(
                    game=g, level_hash=level.content_hash, level_text=level.text,
                    level_number=n + 1, title="", source="bench", meta={"optimal": 10})
                ).inserted_primary_key[0]
        frames = []
        for i in range(FRAMES):
            pixels = np.full((96, 96, 3), i % 256, dtype=np.uint8)
            pixels[i % 96, :, 1] = 255
            frames.append({"hash": f"{i:064x}", "width": 96, "height": 96,
                           "png": encode_png(pixels)})
        conn.execute(sa.insert(Frame.__table__), frames)
        episode_rows, score_rows, step_rows = [], [], []
        for e in range(episodes):
            kind_i = e % len(PEOPLE)
            game = GAMES[(e // len(PEOPLE)) % len(GAMES)]
            setting = SETTINGS[(e // (len(PEOPLE) * len(GAMES))) % len(SETTINGS)]
            level = rng.randrange(LEVELS)
            episode_rows.append(dict(
                id=e + 1, uid=new_uid(), participant_id=pids[kind_i],
                task_id=tids[(game, level)], study_id=None, setting=setting, player="bench",
                budget={}, rules={}, seed=0, status="done", end_reason="solved",
                n_steps=steps_per, owner="", start_frame=None, start_state="s", started=now,
                ended=now, meta={}, practice=False))
            solved = rng.random() < (0.8 if kind_i < 6 else 0.5)
            scores = {"solved": float(solved), "completion": 100.0 if solved else 50.0,
                      "efficiency": rng.uniform(40, 100), "steps": float(steps_per),
                      "steps_over_optimal": steps_per / 10 if solved else None,
                      "magebench": rng.uniform(50, 100) if game == "sokoban" else None,
                      "prompt_tokens": 0.0, "completion_tokens": 0.0, "cost": 0.0,
                      "latency_ms": 0.0, "invalid_rate": 0.0, "repeat_rate": 0.0, "ife": 0.0}
            score_rows += [{"episode_id": e + 1, "name": k, "value": v}
                           for k, v in scores.items() if v is not None or k == "magebench"]
            for i in range(steps_per):
                step_rows.append(dict(
                    episode_id=e + 1, index=i, decision=i, action="U", raw="U", valid=True,
                    invalid_kind=None, invalid_reason=None, changed=True, reward=-0.1,
                    state_hash=f"{i}", frame=frames[(e + i) % FRAMES]["hash"],
                    think_ms=500.0, prompt_tokens=0, completion_tokens=0, cost=0.0,
                    latency_ms=0.0, created=now, info={}))
            if len(step_rows) >= 50_000:
                conn.execute(sa.insert(Episode.__table__), episode_rows)
                conn.execute(sa.insert(Score.__table__), score_rows)
                conn.execute(sa.insert(Step.__table__), step_rows)
                episode_rows, score_rows, step_rows = [], [], []
        if episode_rows:
            conn.execute(sa.insert(Episode.__table__), episode_rows)
            conn.execute(sa.insert(Score.__table__), score_rows)
            conn.execute(sa.insert(Step.__table__), step_rows)


def timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def cpu_timed(fn):
    """CPU seconds of this process: steadier than wall time on a shared, busy machine."""
    t0 = time.process_time()
    fn()
    return time.process_time() - t0


FIGURES = Path(__file__).with_name("figures.json")
"""The kept figures: {"bench_results": {"<episodes>": {figure: value}}}."""


def targets(episodes: int) -> dict[str, tuple[str, float]]:
    """Figure -> ("<=" or ">=", target) at this database size."""
    board = 0.2 if episodes <= 10_000 else 1.0
    return {"leaderboard best of 3 (s)": ("<=", board), "leaderboard CPU (s)": ("<=", board),
            "export (steps/s)": (">=", 150_000.0), "import (steps/s)": (">=", 60_000.0),
            "export CPU (steps/s)": (">=", 150_000.0), "import CPU (steps/s)": (">=", 60_000.0)}


LOAD_SLACK = 0.5
"""How far above the kept figures' load average a run may be and still replace them."""


def compare(figures: dict[str, float], episodes: int, save: bool, *, load: float,
            path: Path = FIGURES, force: bool = False) -> bool:
    """Print each figure beside the kept one and its target; keep the new ones if asked and
    the machine was no busier than when the kept ones were measured (``load``: this run's
    load average; ``force`` keeps them regardless). Returns whether they were kept.

    A figure measured under load is slower for reasons that are not the code's: kept, it
    would raise the bar a regression has to cross before ``REGRESSED`` shows."""
    kept_all = json.loads(path.read_text()) if path.exists() else {}
    kept = kept_all.get("bench_results", {}).get(str(episodes), {})
    print(f"\n{'figure':28} {'kept':>10} {'now':>10} {'target':>12}  "
          f"(load average {load:.1f}; kept at {kept.get('load average when kept', '-')})")
    for name, value in figures.items():
        sense, target = targets(episodes)[name]
        before = kept.get(name)
        worse = before is not None and (value > 1.25 * before if sense == "<="
                                        else value < 0.8 * before)
        print(f"{name:28} {'-' if before is None else f'{before:10.3f}':>10} {value:10.3f} "
              f"{sense} {target:9g}  {'REGRESSED' if worse else ''}")
    if not save:
        return False
    kept_load = kept.get("load average when kept")
    if not force and kept_load is not None and load > kept_load + LOAD_SLACK:
        print(f"not kept: this run's load average {load:.1f} is above the {kept_load:.1f} the "
              f"kept figures were measured at; run again on a quieter machine "
              f"(or --save-anyway)")
        return False
    kept_all.setdefault("bench_results", {})[str(episodes)] = {
        **figures, "load average when kept": round(load, 1)}
    path.write_text(json.dumps(kept_all, indent=2, sort_keys=True) + "\n")
    print(f"kept in {path}")
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--episodes", type=int, default=10_000)
    parser.add_argument("--steps", type=int, default=50, help="steps per episode")
    parser.add_argument("--export-episodes", type=int, default=1_000)
    parser.add_argument("--save", action="store_true",
                        help="keep this run's figures in benchmarks/figures.json")
    parser.add_argument("--save-anyway", action="store_true",
                        help="with --save: keep the figures even if the machine is busier "
                             "than when the kept ones were measured")
    parser.add_argument("--small", action="store_true",
                        help="200 episodes of 10 steps (CI: the script still runs)")
    args = parser.parse_args()
    if args.small:
        args.episodes, args.steps, args.export_episodes = 200, 10, 50
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        store = Store(open_database(f"sqlite:///{tmp_path / 'bench.sqlite3'}"))
        t_build, _ = timed(lambda: build(store, args.episodes, args.steps))
        loads = [os.getloadavg()[0]]
        first, board = timed(lambda: leaderboard(store))
        best = min(timed(lambda: leaderboard(store))[0] for _ in range(3))
        cpu = min(cpu_timed(lambda: leaderboard(store)) for _ in range(3))
        ids = store.all_episode_ids()[:args.export_episodes]
        c_export = time.process_time()
        t_export, manifest = timed(lambda: export_jsonl(store, tmp_path / "export", ids))
        c_export = time.process_time() - c_export
        target = Store(open_database(f"sqlite:///{tmp_path / 'import.sqlite3'}"))
        c_import = time.process_time()
        t_import, report = timed(lambda: import_bundle(target, tmp_path / "export"))
        c_import = time.process_time() - c_import
        loads.append(os.getloadavg()[0])
        rows = [
            ("database", f"{args.episodes:,} episodes, {args.episodes * args.steps:,} steps, "
                         f"built in {t_build:.1f} s"),
            ("leaderboard rows", f"{len(board.rows)} (bootstrap 2,000 resamples per metric)"),
            ("leaderboard, first call", f"{first:.3f} s"),
            ("leaderboard, best of 3", f"{best:.3f} s"),
            ("leaderboard, CPU time", f"{cpu:.3f} s  (best of 3)"),
            ("JSONL export", f"{manifest['steps']:,} steps in {t_export:.2f} s = "
                             f"{manifest['steps'] / t_export:,.0f} steps/s "
                             f"(CPU {c_export:.2f} s)"),
            ("import into an empty database", f"{report.steps:,} steps in {t_import:.2f} s = "
                                              f"{report.steps / t_import:,.0f} steps/s "
                                              f"(CPU {c_import:.2f} s)"),
        ]
        width = max(len(k) for k, _ in rows)
        for k, v in rows:
            print(f"{k.ljust(width)}  {v}")
        store.db.dispose()
        target.db.dispose()
    compare({"leaderboard best of 3 (s)": best, "leaderboard CPU (s)": cpu,
             "export (steps/s)": manifest["steps"] / t_export,
             "import (steps/s)": report.steps / t_import,
             "export CPU (steps/s)": manifest["steps"] / c_export,
             "import CPU (steps/s)": report.steps / c_import}, args.episodes, args.save,
            load=max(loads), force=args.save_anyway)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
