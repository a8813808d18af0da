"""``playbench web``: check VWA task files, list tasks, serve the offline site; and the web
branch of ``playbench run --game web --tasks FILE[:RANGE]``.

``check`` prints one line per task - ``ok`` or what makes it unusable (warnings are shown but do
not fail) - and exits 1 when any task is unusable.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time

from app.cli.common import UsageError, open_store, parse_key_values, table

EXIT_UNUSABLE = 1


def add_parsers(sub) -> None:
    p = sub.add_parser("web", help="web tasks: check task files, list tasks, serve the "
                                   "offline classifieds site")
    wsub = p.add_subparsers(dest="web_command", metavar="WEB_COMMAND")
    c = wsub.add_parser("check", help="check a VWA task file: one line per task, exit 1 if "
                                      "any task is unusable")
    c.add_argument("file", metavar="FILE", help="task file (JSON) or bundled set, e.g. "
                                                "classifieds")
    _site_option(c)
    c.set_defaults(handler=cmd_check)
    t = wsub.add_parser("tasks", help="list the tasks of a file or bundled set")
    t.add_argument("file", metavar="FILE[:RANGE]", nargs="?", default="classifieds")
    t.set_defaults(handler=cmd_tasks)
    s = wsub.add_parser("serve", help="run the offline classifieds site until Ctrl-C")
    s.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default: a free "
                                                       "one)")
    s.set_defaults(handler=cmd_serve)
    p.set_defaults(handler=lambda args: _no_command(p))


def _site_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--site", action="append", metavar="NAME=URL",
                        help="address of a placeholder's site, e.g. SHOPPING=http://host:7770 "
                             "(overrides the web settings)")


def _no_command(parser: argparse.ArgumentParser) -> int:
    raise UsageError("web needs a command: check, tasks or serve")


def _config(args: argparse.Namespace):
    from app.web.config import WebConfigError, load_config
    try:
        config = load_config()
    except WebConfigError as err:
        raise UsageError(str(err)) from None
    sites = {k.strip("_").upper(): v for k, v in
             parse_key_values(getattr(args, "site", None), "--site").items()}
    return config.with_sites(sites)


def cmd_check(args: argparse.Namespace) -> int:
    from app.web.tasks import load_web_tasks
    from games.web.checks import check_config
    from games.web.tasks import task_from_level
    config = _config(args)
    tasks = load_web_tasks(args.file)
    unusable = 0
    for task in tasks:
        wt = task_from_level(task.level)
        problems = check_config(wt, config.site_map(), judge=config.judge is not None)
        fatal = [p for p in problems if p.fatal]
        warn = [p for p in problems if not p.fatal]
        label = f"task {task.level.number}"
        if fatal:
            unusable += 1
            print(f"{label}: unusable: " + "; ".join(str(p) for p in fatal))
        else:
            print(f"{label}: ok" + (" (warning: " + "; ".join(str(p) for p in warn) + ")"
                                    if warn else ""))
    print(f"{len(tasks) - unusable} of {len(tasks)} tasks usable", file=sys.stderr)
    return EXIT_UNUSABLE if unusable else 0


def cmd_tasks(args: argparse.Namespace) -> int:
    from app.web.tasks import load_web_tasks
    from games.web.tasks import task_from_level
    rows = []
    for task in load_web_tasks(args.file):
        wt = task_from_level(task.level)
        kinds = ",".join(wt.eval.get("eval_types") or [])
        rows.append([task.level.number, wt.config.get("overall_difficulty") or "-", kinds,
                     len(wt.reference), wt.intent[:70]])
    table(["id", "difficulty", "evaluators", "ref", "intent"], rows)
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from games.web.site import TEST_PASSWORD, TEST_USER, ClassifiedsServer
    server = ClassifiedsServer(port=args.port)
    base = server.start()
    print(f"Swapyard classifieds at {base}  (log in as {TEST_USER} / {TEST_PASSWORD}; "
          f"POST {base}/__reset restores the first state). Ctrl-C stops it.", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0


def cmd_run_web(args: argparse.Namespace) -> int:
    """``playbench run --game web --tasks FILE[:RANGE] --player P``: VWA's budget by default
    (30 actions, stop after 3 unreadable replies or 5 identical actions)."""
    from app.agents.progress import RunProgress
    from app.cli.run import _budget, _closing, _step_logger, _summary
    from app.core.recorder import DbRecorder
    from app.core.runs import RunRequest, run_many
    from app.core.settings import UnknownSetting, get_setting
    from app.players.factory import UnknownPlayer, player_factory
    from app.web.env import vwa_budget
    from app.web.tasks import load_web_tasks

    missing = [f"--{n}" for n in ("tasks", "player") if getattr(args, n, None) is None]
    if missing:
        raise UsageError(f"run --game web needs {', '.join(missing)}")
    try:
        setting = get_setting(args.setting or "default", "web")
    except UnknownSetting as err:
        raise UsageError(str(err)) from None
    tasks = load_web_tasks(args.tasks)
    budget = _budget(args, vwa_budget())
    store = open_store(args)
    try:
        factory = player_factory(args.player, store)
    except UnknownPlayer as err:
        raise UsageError(str(err)) from None
    request = RunRequest(tasks, factory, setting, budget, repeat=args.repeat, seed=args.seed,
                         concurrency=args.concurrency)
    total = len(tasks) * args.repeat
    bar = RunProgress(total, f"web {args.player}", disable=args.no_progress or total < 2)
    results = asyncio.run(_closing(factory, run_many(
        request, DbRecorder(store), [bar, *_step_logger(args.log_steps)])))
    bar.close()
    _summary(results)
    for r in results:
        if r.status == "error":
            print(f"episode {r.episode_id}: {r.end_reason}", file=sys.stderr)
    return 1 if any(r.status == "error" for r in results) else 0


__all__ = ["add_parsers", "cmd_run_web"]
