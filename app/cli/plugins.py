"""The commands kinds add (``playbench.commands`` entry points; :mod:`playbench.games.commands`).

Each is loaded when the parser is built, so ``playbench --help`` lists it; one that fails to
load, or whose name a built-in command already has, is left out with a warning naming it (a
broken plugin never stops the other commands).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from playbench.app.cli.common import UsageError, table
from playbench.games.commands import GROUP, CommandContext, CommandError, KindCommand


def _context() -> CommandContext:
    def config_dir() -> Any:
        from playbench.app.agents.profiles import config_dir as where
        return where()
    return CommandContext(config_dir=config_dir, table=table)


def _loaded(found: Iterable[EntryPoint], taken: set[str]) -> list[KindCommand]:
    commands: list[KindCommand] = []
    for ep in found:
        try:
            command = ep.load()
        except Exception as err:  # noqa: BLE001 - a broken plugin costs its own command
            print(f"warning: the command {ep.name!r} ({ep.value}) could not be loaded and is "
                  f"left out: {type(err).__name__}: {err}", file=sys.stderr)
            continue
        if not isinstance(command, KindCommand):
            print(f"warning: the command {ep.name!r} ({ep.value}) is not a command (it needs "
                  "name, help and add_arguments) and is left out", file=sys.stderr)
        elif command.name in taken:
            print(f"warning: the command {ep.name!r} ({ep.value}) has the name of another "
                  f"command ({command.name!r}) and is left out", file=sys.stderr)
        else:
            taken.add(command.name)
            commands.append(command)
    return commands


def add_parsers(sub: Any, found: Iterable[EntryPoint] | None = None) -> None:
    """Add every installed kind command to ``sub`` (the ``playbench`` subparsers)."""
    taken = set(sub.choices)
    for command in _loaded(entry_points(group=GROUP) if found is None else found, taken):
        parser = sub.add_parser(command.name, help=command.help)
        command.add_arguments(parser)
        parser.set_defaults(handler=lambda args, c=command: run(c, args))


def run(command: KindCommand, args: argparse.Namespace) -> int:
    """Run the handler the command's arguments chose; its usage problems are the CLI's."""
    handler = getattr(args, "run", None)
    if handler is None:
        raise UsageError(f"{command.name} needs a command; see playbench {command.name} --help")
    try:
        code: int = handler(args, _context())
    except CommandError as err:
        raise UsageError(str(err)) from None
    return code


__all__ = ["add_parsers", "run"]
