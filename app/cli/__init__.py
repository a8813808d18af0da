"""The ``playbench`` command: headless operations, the same ones the UI calls.

Exit codes: 0 success, 1 a runtime error (bad level file, unknown episode, failed check),
2 a usage error (bad arguments).
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

from playbench.app import __version__
from playbench.app.cli import (
    episodes,
    external,
    games,
    levels,
    models,
    parse,
    plugins,
    results,
    run,
    serve,
    study,
    sweep,
    transfer,
)
from playbench.app.cli.common import EXIT_OK, EXIT_RUNTIME, EXIT_USAGE, UsageError

_MODULES = (levels, run, episodes, games, models, serve, external, study, sweep, results,
            transfer, parse, plugins)
"""The built-in commands, then the ones kinds add (``plugins``, after the built-ins so a
plugin never takes a built-in's name)."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="playbench",
        description="PlayBench: people and AI models play the same visual reasoning tasks "
                    "under the same action budget. Run without a command to open the app.")
    parser.add_argument("--version", action="version", version=f"playbench {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log details to stderr")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in _MODULES:
        module.add_parsers(sub)
    return parser


def _runtime_errors() -> tuple[type[BaseException], ...]:
    from playbench.app.core.episode import ReplayMismatch
    from playbench.app.core.runs import NotResumable
    from playbench.db.engine import DatabaseProblem
    from playbench.db.store import NotFound
    from playbench.games.base import LevelError
    return (LevelError, DatabaseProblem, NotFound, ReplayMismatch, NotResumable, OSError)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    # Commands that accept the options a task kind declares (``--catalog DIR`` for browser
    # games; ``games.kind.SourceOption``) read the rest themselves; others refuse it as before.
    if extra and not getattr(args, "kind_options", False):
        parser.parse_args(argv)  # exits naming the unrecognized arguments
    args.extra = extra
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s")
    if args.command is None:
        from playbench.app.cli.desktop import launch_app
        return launch_app(args)
    from playbench.games.packs import RangeError
    try:
        return args.handler(args)
    except (UsageError, RangeError) as err:
        parser.exit(EXIT_USAGE, f"playbench {args.command}: error: {err}\n")
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except _runtime_errors() as err:
        print(f"playbench {args.command}: {err}", file=sys.stderr)
        return EXIT_RUNTIME
    return EXIT_OK
