"""``playbench run``: play levels with a player, record every step, print a summary."""

from __future__ import annotations

import argparse
import asyncio
import json
from statistics import mean

from app.agents.progress import RunProgress
from app.cli.common import UsageError, add_db_option, open_store, parse_key_values, table
from app.core.budget import Budget, BudgetError
from app.core.episode import Stepped
from app.core.recorder import DbRecorder
from app.core.runs import RunRequest, resume_episode, run_many
from app.core.settings import UnknownSetting, get_setting
from app.core.task import Task
from app.players.factory import UnknownPlayer, player_factory
from evaluators import aggregate
from games import registry
from games.packs import resolve

SUMMARY = ("solved", "completion", "efficiency", "magebench", "steps")


def add_parsers(sub) -> None:
    p = sub.add_parser("run", help="play levels with a player and record every step")
    p.add_argument("--game", help="game name (see `playbench games`)")
    p.add_argument("--levels", metavar="PACK_OR_FILE[:RANGE]", help="levels to play")
    p.add_argument("--level-format", help="force the level file format")
    p.add_argument("--tasks", metavar="FILE_OR_SET[:RANGE]",
                   help="web tasks (with --game web): a VWA task file or a bundled set")
    p.add_argument("--player", help="solver | random | random-legal | idle | replay:ID | "
                   "model:NAME (see `playbench models list`)")
    p.add_argument("--setting", default=None, help="play setting (default: 'default')")
    p.add_argument("--budget", type=int, metavar="N", help="maximum actions per episode")
    p.add_argument("--decisions", type=int, metavar="N", help="maximum decisions (model calls)")
    p.add_argument("--time-limit", type=float, metavar="SECONDS", help="wall-clock limit")
    p.add_argument("--invalid-cost", type=int, metavar="N",
                   help="budget units an invalid action uses (default 1)")
    p.add_argument("--repeat", type=int, default=1, help="episodes per level (default 1)")
    p.add_argument("--seed", type=int, default=0, help="base seed (repeat r uses seed+r)")
    p.add_argument("--concurrency", type=int, default=1, help="episodes at once")
    p.add_argument("--rule", action="append", metavar="NAME=VALUE", help="rule option")
    p.add_argument("--resume", type=int, metavar="ID", help="continue an interrupted episode")
    p.add_argument("--log-steps", action="store_true",
                   help="print one JSON line per step once it is committed")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_db_option(p)
    p.set_defaults(handler=cmd_run)


def _budget(args: argparse.Namespace, default: Budget) -> Budget:
    changes = {}
    if args.budget is not None:
        changes["max_actions"] = args.budget
    if args.decisions is not None:
        changes["max_decisions"] = args.decisions
    if args.time_limit is not None:
        changes["seconds"] = args.time_limit
    if args.invalid_cost is not None:
        changes["invalid_cost"] = args.invalid_cost
    try:
        return default.merged(**changes)
    except BudgetError as err:
        raise UsageError(str(err)) from None


def _step_logger(enabled: bool):
    def log(event) -> None:
        if isinstance(event, Stepped):
            r = event.record
            print(json.dumps({"episode": event.episode_id, "index": r.index, "action": r.action,
                              "valid": r.valid}), flush=True)
    return [log] if enabled else []


def cmd_run(args: argparse.Namespace) -> int:
    if args.repeat < 1 or args.concurrency < 1:
        raise UsageError("--repeat and --concurrency must be at least 1")
    if args.resume is not None:
        return _resume(args)
    if args.game == "web":
        from app.cli.web import cmd_run_web
        return cmd_run_web(args)
    missing = [f"--{n}" for n in ("game", "levels", "player") if getattr(args, n) is None]
    if missing:
        raise UsageError(f"run needs {', '.join(missing)} (or --resume ID)")
    try:
        spec = registry.get(args.game)
        setting = get_setting(args.setting or "default", spec.name)
    except (registry.UnknownGame, UnknownSetting) as err:
        raise UsageError(str(err)) from None
    options = parse_key_values(args.rule, "--rule")
    try:
        options = spec.rule_options(options)
    except ValueError as err:
        raise UsageError(str(err)) from None
    source = resolve(spec, args.levels, args.level_format)
    budget = _budget(args, setting.default_budget(spec.name))
    store = open_store(args)
    try:
        factory = player_factory(args.player, store)
    except UnknownPlayer as err:
        raise UsageError(str(err)) from None
    tasks = [Task(spec.name, lv, options, str(source.name)) for lv in source.levels]
    request = RunRequest(tasks, factory, setting, budget, repeat=args.repeat, seed=args.seed,
                         concurrency=args.concurrency)
    total = len(tasks) * args.repeat
    bar = RunProgress(total, f"{spec.name} {args.player}", disable=args.no_progress or total < 2)
    results = asyncio.run(_closing(factory, run_many(
        request, DbRecorder(store), [bar, *_step_logger(args.log_steps)])))
    bar.close()
    _summary(results)
    return 1 if any(r.status == "error" for r in results) else 0


def _resume(args: argparse.Namespace) -> int:
    store = open_store(args)
    row = store.episode(args.resume)
    spec_text = args.player or row.episode.player
    try:
        factory = player_factory(spec_text, store)
    except UnknownPlayer as err:
        raise UsageError(str(err)) from None
    from app.core.runs import task_of
    player = factory(task_of(row), 0)
    if hasattr(player, "skip"):
        player.skip(row.episode.n_steps)
    result = asyncio.run(_closing(factory, resume_episode(
        store, args.resume, player, DbRecorder(store), _step_logger(args.log_steps))))
    _summary([result])
    return 1 if result.status == "error" else 0


async def _closing(factory, work):
    """Await ``work``, then release what the player factory holds (model clients, a stand-in
    endpoint), inside the same event loop."""
    try:
        return await work
    finally:
        close = getattr(factory, "aclose", None)
        if close is not None:
            await close()


def _summary(results) -> None:
    rows = []
    for r in results:
        rows.append([r.episode_id, r.status, r.end_reason,
                     *[r.scores.get(k) for k in SUMMARY]])
    if len(results) > 1:
        means = []
        for k in SUMMARY:
            vals = [r.scores[k] for r in results if r.scores.get(k) is not None]
            means.append(mean(vals) if vals else None)
        rows.append(["mean", "", "", *means])
        # Printed above the table, which stays the last thing on stdout.
        print(aggregate.efficiency_note([
            aggregate.record_from_scores(r.scores, sum(1 for s in r.steps if s.changed))
            for r in results if r.scores]))
    table(["episode", "status", "end", *SUMMARY], rows)
