"""``playbench run``: play levels or tasks of any kind with a player, record every step, print
a summary.

The kind named by ``--game`` (``playbench.games.kind`` registry) gives everything kind-specific: its
settings and their default budgets, its rule options, where ``--levels`` / ``--tasks`` come
from, and its environment (made with the app's services: model judges, the config directory).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playbench.games.kind import TaskKind

from playbench.app.cli.common import (
    UsageError,
    add_db_option,
    budget_from_args,
    closing,
    open_store,
    parse_key_values,
    step_logger,
    summary,
)


def add_parsers(sub) -> None:
    p = sub.add_parser("run", help="play levels with a player and record every step")
    p.add_argument("--game", help="kind of task: a game or web (see `playbench games`)")
    p.add_argument("--levels", metavar="PACK_OR_FILE[:RANGE]", help="levels to play")
    p.add_argument("--level-format", help="force the level file format")
    p.add_argument("--tasks", metavar="FILE_OR_SET[:RANGE]",
                   help="web tasks (with --game web): a VWA task file or a bundled set "
                        "(the same as --levels)")
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
    p.set_defaults(handler=cmd_run, kind_options=True)
    p.epilog = ("A kind may take options for its sources, given after the others, e.g. "
                "--game browser-games --catalog DIR (a GameWorld-layout catalog).")


def rule_options(kind: TaskKind, given: Mapping[str, str]) -> dict[str, str]:
    """``given`` checked against the kind's rule options, with defaults for the rest."""
    known = {o.name: o for o in kind.rule_options}
    out = {o.name: o.default for o in kind.rule_options}
    for name, value in given.items():
        option = known.get(name)
        if option is None:
            valid = ", ".join(known) or "none"
            raise UsageError(f"unknown rule option {name!r} for {kind.name} (valid: {valid})")
        if value not in option.choices:
            raise UsageError(f"rule option {name} must be one of "
                             f"{', '.join(option.choices)}, got {value!r}")
        out[name] = value
    return out


def kind_source_options(kind: TaskKind, extra: list[str]) -> dict[str, str]:
    """The kind's declared source options (``SourceOption``) read from the arguments argparse
    did not know; anything else is a usage error naming the kind's valid options."""
    from playbench.games.kind import source_options
    declared = source_options(kind)
    if not extra:
        return {}
    p = argparse.ArgumentParser(prog=f"playbench run --game {kind.name}", add_help=False,
                                exit_on_error=False)
    for o in declared:
        p.add_argument(f"--{o.name}", metavar=o.metavar, help=o.help)
    valid = ", ".join(f"--{o.name} {o.metavar}" for o in declared) or "none"
    try:
        known, rest = p.parse_known_args(extra)
    except argparse.ArgumentError as err:
        raise UsageError(f"{err} (options of {kind.name}: {valid})") from None
    if rest:
        raise UsageError(f"unrecognized arguments: {' '.join(rest)} (options of {kind.name}'s "
                         f"sources: {valid})")
    return {k: v for k, v in vars(known).items() if v is not None}


def cmd_run(args: argparse.Namespace) -> int:
    from playbench.app.agents.progress import RunProgress
    from playbench.app.core.recorder import DbRecorder
    from playbench.app.core.runs import RunRequest, run_many
    from playbench.app.core.settings import UnknownSetting, get_setting
    from playbench.app.core.task import Task
    from playbench.app.players.factory import UnknownPlayer, player_factory
    from playbench.games.base import level_rule_options
    from playbench.games.kind import UnknownKind, default_registry, load_source, unavailable
    from playbench.games.packs import split_source
    if args.repeat < 1 or args.concurrency < 1:
        raise UsageError("--repeat and --concurrency must be at least 1")
    if args.resume is not None:
        return _resume(args)
    source = args.levels or args.tasks
    missing = [f"--{n}" for n, v in (("game", args.game), ("levels", source),
                                     ("player", args.player)) if v is None]
    if missing:
        raise UsageError(f"run needs {', '.join(missing)} (or --resume ID)")
    try:
        kind = default_registry().get(args.game)
        setting = get_setting(args.setting or "default", kind.name)
    except (UnknownKind, UnknownSetting) as err:
        raise UsageError(str(err)) from None
    why_not = unavailable(kind)
    if why_not:
        raise UsageError(f"{kind.name} cannot be played here: {why_not}")
    given = parse_key_values(args.rule, "--rule")
    rule_options(kind, given)  # checks the explicit choices
    levels = load_source(kind, source, fmt=args.level_format,
                         options=kind_source_options(kind, getattr(args, "extra", None) or []))
    budget = budget_from_args(args, setting.budget)
    store = open_store(args)
    try:
        factory = player_factory(args.player, store)
    except UnknownPlayer as err:
        raise UsageError(str(err)) from None
    name = split_source(source)[0]
    # Per level: defaults < what the level stores (an imported Hanoi level's detected disk
    # order) < the explicit --rule choices.
    tasks = [Task(kind.name, lv, level_rule_options(kind.rule_options, lv, given), name)
             for lv in levels]
    # Model judges pull in the OpenAI client (about 1.5 s of imports); only runs need it, so
    # `playbench` starting the app does not pay for it.
    from playbench.app.agents.judge import env_services
    services = env_services()
    request = RunRequest(tasks, factory, setting, budget, repeat=args.repeat, seed=args.seed,
                         concurrency=args.concurrency, services=services)
    total = len(tasks) * args.repeat
    bar = RunProgress(total, f"{kind.name} {args.player}", disable=args.no_progress or total < 2)
    import asyncio
    results = asyncio.run(closing(factory, run_many(
        request, DbRecorder(store), [bar, *step_logger(args.log_steps)])))
    bar.close()
    summary(results)
    for r in results:
        if r.status == "error" and r.end_reason:
            print(f"episode {r.episode_id}: {r.end_reason}", file=sys.stderr)
    return 1 if any(r.status == "error" for r in results) else 0


def _resume(args: argparse.Namespace) -> int:
    from playbench.app.core.recorder import DbRecorder
    from playbench.app.core.runs import resume_episode
    from playbench.app.players.factory import UnknownPlayer, player_factory
    from playbench.games.kind import UnknownKind, default_registry
    store = open_store(args)
    row = store.episode(args.resume)
    try:
        kind = default_registry().get(row.task.game)
    except UnknownKind as err:
        raise UsageError(str(err)) from None
    setting = row.episode.setting or "default"
    if not kind.replay.resumes(setting):
        raise UsageError(f"episode {args.resume} ({kind.name}, setting {setting}) cannot be "
                         f"resumed: {kind.replay.reason}")
    spec_text = args.player or row.episode.player
    try:
        factory = player_factory(spec_text, store)
    except UnknownPlayer as err:
        raise UsageError(str(err)) from None
    from playbench.app.core.runs import task_of
    player = factory.resumed(task_of(row), row.episode.n_steps)
    import asyncio
    result = asyncio.run(closing(factory, resume_episode(
        store, args.resume, player, DbRecorder(store), step_logger(args.log_steps))))
    summary([result])
    return 1 if result.status == "error" else 0
