"""``playbench web``, the web kind's own command (a ``playbench.commands`` entry point,
:mod:`playbench.games.commands`): check VWA task files, list tasks, log in to VWA's sites,
evaluate one task's checks, serve the offline site. (Web tasks are played like any kind:
``playbench run --game web --tasks FILE[:RANGE]``.)

``check`` prints one line per task - ``ok`` or what makes it unusable (warnings are shown but do
not fail) - and exits 1 when any task is unusable; given a directory (VWA's
``config_files/vwa``) it checks each task file in it and counts the usable tasks in all.
``login`` writes the storage state files the tasks name (VWA's login step, from the login
recipes of the web settings). ``evaluate`` runs one task's checks on a given answer, URL and
(optionally) page HTML and prints them as JSON.

VWA's own task files name images and storage states relative to VWA's root directory; a file
inside a VWA checkout is recognised by its ``config_files`` directory, and ``--vwa-root DIR``
(or ``$PLAYBENCH_VWA_ROOT``) names the root for a file kept elsewhere.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from playbench.games.commands import CommandContext, CommandError, key_values

EXIT_UNUSABLE = 1


class WebCommand:
    """``playbench web``."""

    name = "web"
    help = "web tasks: check task files, list tasks, serve the offline classifieds site"

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        _add_commands(parser)


def _add_commands(p: argparse.ArgumentParser) -> None:
    wsub = p.add_subparsers(dest="web_command", metavar="WEB_COMMAND")
    c = wsub.add_parser("check", help="check a VWA task file: one line per task, exit 1 if "
                                      "any task is unusable")
    c.add_argument("file", metavar="FILE", help="task file (JSON), bundled set (e.g. "
                                                "classifieds) or a directory of task files "
                                                "(VWA's config_files/vwa)")
    _site_option(c)
    _root_option(c)
    c.set_defaults(run=cmd_check)
    t = wsub.add_parser("tasks", help="list the tasks of a file or bundled set")
    t.add_argument("file", metavar="FILE[:RANGE]", nargs="?", default="classifieds")
    _root_option(t)
    t.set_defaults(run=cmd_tasks)
    g = wsub.add_parser("login", help="log in to the sites the tasks need and write the "
                                      "storage state files they name (login recipes: web "
                                      "settings)")
    g.add_argument("file", metavar="FILE[:RANGE]", help="VWA task file")
    _site_option(g)
    _root_option(g)
    g.set_defaults(run=cmd_login)
    e = wsub.add_parser("evaluate", help="run one task's checks on an answer and a final URL "
                                         "(and page HTML); print each result and the score "
                                         "as JSON")
    e.add_argument("task", metavar="FILE:ID", help="task file (or bundled set) and task id")
    e.add_argument("--answer", default="", help="the stop answer (default: empty)")
    e.add_argument("--url", required=True, help="the final page's URL (placeholders such as "
                                                "__CLASSIFIEDS__ allowed)")
    e.add_argument("--page-html", metavar="FILE", help="the final page's HTML: program_html "
                                                        "checks read it instead of a live page")
    e.add_argument("--browser", action="store_true",
                   help="load the page in Chromium (the --page-html file served at --url, "
                        "or the live --url) so CSS/JS locators and image checks can run")
    _site_option(e)
    _root_option(e)
    e.set_defaults(run=cmd_evaluate)
    s = wsub.add_parser("serve", help="run the offline classifieds site until Ctrl-C")
    s.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default: a free "
                                                       "one)")
    s.set_defaults(run=cmd_serve)
    p.set_defaults(run=_no_command)


def _site_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--site", action="append", metavar="NAME=URL",
                        help="address of a placeholder's site, e.g. SHOPPING=http://host:7770 "
                             "(overrides the web settings)")


def _root_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--vwa-root", metavar="DIR", type=Path,
                        help="VWA's root directory: relative image and storage_state paths "
                             "are read from there (default: $PLAYBENCH_VWA_ROOT, else the VWA "
                             "checkout the file sits in, else the file's directory)")


def _no_command(args: argparse.Namespace, ctx: CommandContext) -> int:
    raise CommandError("web needs a command: check, tasks, login, evaluate or serve")


def _vwa_root(args: argparse.Namespace) -> Path | None:
    root: Path | None = getattr(args, "vwa_root", None)
    if root is not None and not root.is_dir():
        raise CommandError(f"--vwa-root {root}: not a directory")
    return root


def _config(args: argparse.Namespace, ctx: CommandContext) -> Any:
    from playbench.games.web.config import WebConfigError, load_config
    try:
        config = load_config(config_dir=ctx.config_dir())
    except WebConfigError as err:
        raise CommandError(str(err)) from None
    sites = {k.strip("_").upper(): v for k, v in
             key_values(getattr(args, "site", None), "--site").items()}
    return config.with_sites(sites)


def cmd_check(args: argparse.Namespace, ctx: CommandContext) -> int:
    """One line per task; a directory (VWA's ``config_files/vwa``) checks every ``*.json``
    file directly in it, each line naming its file, with a count per file and in all."""
    config = _config(args, ctx)
    path = Path(args.file)
    if not path.is_dir():
        usable, total = _check_file(args.file, config, _vwa_root(args), "")
        print(f"{usable} of {total} tasks usable", file=sys.stderr)
        return EXIT_UNUSABLE if usable < total else 0
    files = sorted(p for p in path.glob("*.json") if p.is_file())
    if not files:
        raise CommandError(f"{path}: no .json task file in this directory")
    usable = total = 0
    for file in files:
        u, t = _check_file(str(file), config, _vwa_root(args), f"{file.name}: ")
        print(f"{file.name}: {u} of {t} tasks usable", file=sys.stderr)
        usable, total = usable + u, total + t
    print(f"{usable} of {total} tasks usable in {len(files)} files", file=sys.stderr)
    return EXIT_UNUSABLE if usable < total else 0


def _check_file(spec: str, config: Any, vwa_root: Path | None, prefix: str) -> tuple[int, int]:
    """Check one task file: print its lines; return (usable, total)."""
    from playbench.games.web.checks import check_all, foreign_classifieds
    from playbench.games.web.sources import bundled_dir, load_tasks, resolve_path
    from playbench.games.web.tasks import task_from_level
    tasks = load_tasks(spec, vwa_root)
    unusable = 0
    web_tasks = [task_from_level(t.level) for t in tasks]
    checked = check_all(web_tasks, config.site_map(), judge=config.judge is not None,
                        logins=config.logins, admins=config.admins)
    if resolve_path(spec).parent != bundled_dir():
        note = foreign_classifieds(web_tasks, config.site_map())
        if note:
            print(f"warning: {prefix}{note}", file=sys.stderr)
    for task, problems in zip(tasks, checked, strict=True):
        fatal = [p for p in problems if p.fatal]
        warn = [p for p in problems if not p.fatal]
        label = f"{prefix}task {task.level.number}"
        if fatal:
            unusable += 1
            print(f"{label}: unusable: " + "; ".join(str(p) for p in fatal))
        else:
            print(f"{label}: ok" + (" (warning: " + "; ".join(str(p) for p in warn) + ")"
                                    if warn else ""))
    return len(tasks) - unusable, len(tasks)


def cmd_tasks(args: argparse.Namespace, ctx: CommandContext) -> int:
    from playbench.games.web.sources import load_tasks
    from playbench.games.web.tasks import task_from_level
    rows = []
    for task in load_tasks(args.file, _vwa_root(args)):
        wt = task_from_level(task.level)
        kinds = ",".join(wt.eval.get("eval_types") or [])
        rows.append([task.level.number, wt.config.get("overall_difficulty") or "-", kinds,
                     len(wt.reference), wt.intent[:70]])
    ctx.table(["id", "difficulty", "evaluators", "ref", "intent"], rows)
    return 0


def cmd_login(args: argparse.Namespace, ctx: CommandContext) -> int:
    """Write every storage state file the tasks name: one fresh browser context per file
    logs in to each site its tasks need (playbench.games.web.login). Passwords are never printed."""
    from playbench.games.browser.browser import Browser
    from playbench.games.web.login import LoginError, state_files, write_state
    from playbench.games.web.sources import load_tasks
    from playbench.games.web.tasks import task_from_level
    config = _config(args, ctx)
    states = state_files(task_from_level(t.level) for t in load_tasks(args.file, _vwa_root(args)))
    if not states:
        print("no task of this file names a storage_state file; nothing to write")
        return 0

    async def write_all() -> int:
        failed = 0
        async with Browser() as browser:
            for state in states:
                try:
                    await write_state(browser, state, config)
                except LoginError as err:
                    failed += 1
                    print(f"{state.path}: not written: {err}")
                    continue
                users = ", ".join(f"__{n}__ as {config.logins[n].username or '(no user)'}"
                                  for n in state.sites)
                print(f"{state.path}: written ({users}; {len(state.tasks)} task(s))")
        return failed

    import asyncio  # here, not at the top: `playbench --help` loads this module
    return EXIT_UNUSABLE if asyncio.run(write_all()) else 0


def cmd_evaluate(args: argparse.Namespace, ctx: CommandContext) -> int:
    """One task's checks, through the scoring episodes use (playbench.games.web.scoring.score_task),
    on a given answer and final page; see :mod:`playbench.games.web.offline` for what runs without a
    browser. Prints one JSON object."""
    from playbench.games.base import LevelError
    from playbench.games.packs import split_source
    from playbench.games.web.offline import evaluate_task
    from playbench.games.web.sources import load_levels
    from playbench.games.web.tasks import task_from_level
    name, ids = split_source(args.task)
    if ids is None or not ids.isdigit():
        raise CommandError(f"name one task as FILE:ID, got {args.task!r}")
    levels = load_levels(args.task, _vwa_root(args))
    if len(levels) != 1:
        raise LevelError(f"task {ids} is not one task of {name}")
    html = None
    if args.page_html:
        try:
            html = Path(args.page_html).read_text(encoding="utf-8", errors="replace")
        except OSError as err:
            raise CommandError(f"--page-html {args.page_html}: {err.strerror or err}") from None
    config = _config(args, ctx)
    import asyncio
    result: dict[str, Any] = asyncio.run(evaluate_task(
        task_from_level(levels[0]), {k: v for k, v in config.site_map().items() if v},
        args.answer, args.url, html, browser=args.browser))
    print(json.dumps(result, ensure_ascii=False))
    return 0


def cmd_serve(args: argparse.Namespace, ctx: CommandContext) -> int:
    from playbench.resources.web.site import TEST_PASSWORD, TEST_USER, ClassifiedsServer
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


COMMAND = WebCommand()

__all__ = ["COMMAND", "WebCommand"]
