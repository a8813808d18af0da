"""``playbench sweep run FILE`` and ``playbench sweep status``: model sweeps from a sweep file,
in this process (``--engine local``), in several processes on this machine (``--engine
processes``) or on a Ray cluster (``--engine ray``)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from playbench.app.cli.common import UsageError, add_db_option, open_store, table

ENGINES = ("local", "processes", "ray")


def add_parsers(sub: Any) -> None:
    s = sub.add_parser("sweep", help="model sweeps from a sweep file, locally or on Ray")
    ssub = s.add_subparsers(dest="sweep_command", metavar="ACTION")
    s.set_defaults(handler=lambda args: _no_action())

    r = ssub.add_parser("run", help="play every cell of a sweep file not yet done")
    r.add_argument("file", metavar="FILE.yaml")
    r.add_argument("--engine", choices=ENGINES, default="local",
                   help="local: this process (default); processes: --workers processes on "
                        "this machine, each with its own database connection; ray: a Ray "
                        "cluster")
    r.add_argument("--address", metavar="ADDR",
                   help="Ray cluster address (host:port or 'auto'); default: start a local one")
    r.add_argument("--concurrency", type=int, default=4,
                   help="episodes at once in all (default 4)")
    r.add_argument("--workers", type=int, default=None,
                   help="processes: worker processes (default: one per CPU); ray: worker "
                        "actors (default: one per CPU of the cluster)")
    r.add_argument("--shard-dir", metavar="DIR",
                   help="ray with SQLite: where workers keep their shards (node-local)")
    r.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_db_option(r)
    r.set_defaults(handler=cmd_run)

    st = ssub.add_parser("status", help="how far each sweep in the database is")
    st.add_argument("file", nargs="?", metavar="FILE.yaml|NAME",
                    help="one sweep (its file gives the exact plan); default: every sweep")
    st.add_argument("--format", dest="fmt", choices=["table", "json"], default="table")
    add_db_option(st)
    st.set_defaults(handler=cmd_status)


def _no_action() -> int:
    raise UsageError("sweep needs an action: run or status")


def _load(path: Path) -> Any:
    from playbench.app.studies.sweepfile import SweepFileError, load_sweep_file
    try:
        return load_sweep_file(path)
    except SweepFileError as err:
        lines = "\n".join(f"  {err.source}: {p}" for p in err.problems)
        raise UsageError(f"{len(err.problems)} problem(s) in the sweep file:\n{lines}") from None


class _Bar:
    """The driver's progress bar: done, running, failed, tokens, cost, ETA."""

    def __init__(self, total: int, desc: str, disable: bool) -> None:
        from tqdm import tqdm
        self.bar = tqdm(total=total, unit="ep", desc=desc, disable=disable, file=sys.stderr,
                        dynamic_ncols=True)

    def __call__(self, p: Any) -> None:
        self.bar.n = p.done + p.failed
        eta = p.eta()
        self.bar.set_postfix_str(
            f"done={p.done} running={p.running} failed={p.failed} tokens={p.tokens} "
            f"cost=${p.cost:.4f} eta={'?' if eta is None else f'{eta:.0f}s'}", refresh=False)
        self.bar.refresh()

    def close(self) -> None:
        self.bar.close()


def cmd_run(args: argparse.Namespace) -> int:
    if args.concurrency < 1 or (args.workers is not None and args.workers < 1):
        raise UsageError("--concurrency and --workers must be at least 1")
    if args.address and args.engine != "ray":
        raise UsageError("--address goes with --engine ray")
    if args.workers is not None and args.engine == "local":
        raise UsageError("--workers goes with --engine processes or --engine ray")
    spec = _load(Path(args.file))
    from playbench.app.players.factory import UnknownPlayer, player_factory
    from playbench.app.studies.sweepfile import plan_cells
    from playbench.app.sweeps import LocalEngine, SweepProgress, pending_cells
    if args.engine == "ray":
        from playbench.app.cluster import RayMissing, require_ray
        try:
            require_ray()
        except RayMissing as err:
            print(f"playbench sweep run: {err}", file=sys.stderr)
            return 2
    store = open_store(args)
    cells, skipped = pending_cells(store, plan_cells(spec))
    try:
        factories = {p: player_factory(p, store) for p in spec.participants}
    except UnknownPlayer as err:
        raise UsageError(str(err)) from None
    print(f"sweep {spec.name}: {spec.cells} cells, {skipped} already done, {len(cells)} to play "
          f"({args.engine} engine, concurrency {args.concurrency})", flush=True)
    bar = _Bar(len(cells), spec.name, args.no_progress or len(cells) < 2)
    progress = SweepProgress(len(cells), on_change=bar)
    if args.engine == "ray":
        from playbench.app.cluster.engine import RayEngine, land_episode, participant_for
        engine: Any = RayEngine(
            store.db.url, {p: participant_for(p, f) for p, f in factories.items()},
            address=args.address, concurrency=args.concurrency, workers=args.workers,
            shard_dir=args.shard_dir, land=lambda b: land_episode(store, b),
            on_worker=lambda msg: bar.bar.write(msg, file=sys.stderr))
    elif args.engine == "processes":
        from playbench.app.cluster.engine import participant_for
        from playbench.app.cluster.processes import ProcessEngine
        engine = ProcessEngine(
            store.db.url, {p: participant_for(p, f) for p, f in factories.items()},
            workers=args.workers or os.cpu_count() or 1, concurrency=args.concurrency)
    else:
        engine = LocalEngine(store, factories, concurrency=args.concurrency)

    async def go() -> Any:
        try:
            return await engine.run(cells, progress)
        finally:
            for f in factories.values():
                await f.aclose()

    import asyncio
    try:
        outcomes = asyncio.run(go())
    finally:
        bar.close()
    played = sum(1 for o in outcomes if o.how != "skipped")
    print(f"sweep {spec.name}: played {played} ({progress.resumed} resumed), "
          f"{skipped + progress.skipped} already done, {progress.failed} failed; "
          f"{progress.steps} steps, {progress.tokens} tokens, ${progress.cost:.4f}")
    _print_status(store, [(spec.name, spec.cells)], "table")
    return 1 if progress.failed else 0


def _print_status(store: Any, wanted: list[tuple[str, int | None]] | None, fmt: str) -> None:
    from playbench.app.sweeps import sweep_status, sweep_statuses
    rows = ([sweep_status(store, n, planned) for n, planned in wanted] if wanted is not None
            else sweep_statuses(store))
    if fmt == "json":
        print(json.dumps([{**r.__dict__, "left": r.left} for r in rows], indent=2))
        return
    if not rows:
        print("no sweeps in this database")
        return
    table(["sweep", "done", "of", "running", "interrupted", "failed", "left"],
          [[r.name, r.done, r.planned, r.running, r.interrupted, r.failed, r.left]
           for r in rows])


def cmd_status(args: argparse.Namespace) -> int:
    store = open_store(args)
    wanted: list[tuple[str, int | None]] | None = None
    if args.file is not None:
        path = Path(args.file)
        if path.suffix in (".yaml", ".yml") or path.exists():
            spec = _load(path)
            wanted = [(spec.name, spec.cells)]
        else:
            wanted = [(args.file, None)]
    _print_status(store, wanted, args.fmt)
    return 0
