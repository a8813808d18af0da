"""The commands kinds add (``playbench.commands`` entry points; :mod:`playbench.games.commands`).

Each is loaded when the parser is built, so ``playbench --help`` lists it; one that fails to
load, or whose name a built-in command already has, is left out with a warning naming it (a
broken plugin never stops the other commands).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from playbench.app.cli.common import UsageError, table
from playbench.games.commands import GROUP, CommandContext, CommandError, KindCommand
from playbench.games.plugins import EntryPoint, EntryPointRegistry


def _context() -> CommandContext:
    def config_dir() -> Any:
        from playbench.app.agents.profiles import config_dir as where
        return where()
    return CommandContext(config_dir=config_dir, table=table)


class CommandRegistry(EntryPointRegistry[KindCommand]):
    """The commands kinds add, by entry-point name."""

    group = GROUP

    def accepts(self, plugin: object, name: str) -> bool:
        return isinstance(plugin, KindCommand) and plugin.name == name

    def unknown(self, name: str) -> Exception:
        return UsageError(f"no command named {name!r} is installed")

    def refused(self, name: str, point: EntryPoint, err: Exception | None) -> Exception:
        if err is not None:
            return UsageError(f"the command {name!r} ({point.value}) could not be loaded and "
                              f"is left out: {type(err).__name__}: {err}")
        return UsageError(f"the command {name!r} ({point.value}) is not a command named "
                          f"{name!r} (it needs name, help and add_arguments) and is left out")


def add_parsers(sub: Any, found: Sequence[EntryPoint] | None = None) -> None:
    """Add every installed kind command to ``sub`` (the ``playbench`` subparsers); one that
    cannot be used, or wants a built-in command's name, is left out with a warning."""
    commands = CommandRegistry(found)
    for name in commands.names():
        if name in sub.choices:
            print(f"warning: the command {name!r} ({commands.where(name)}) has the "
                  "name of a built-in command and is left out", file=sys.stderr)
            continue
        try:
            command = commands.get(name)
        except UsageError as err:
            print(f"warning: {err}", file=sys.stderr)
            continue
        parser = sub.add_parser(command.name, help=command.help)
        try:
            command.add_arguments(parser)
        except Exception as err:  # noqa: BLE001 - a plugin's bug costs its own command only
            why = f"the command {name!r} ({commands.where(name)}) is broken: {err}"
            print(f"warning: {why}", file=sys.stderr)
            parser.set_defaults(handler=lambda args, why=why: _broken(why))
            continue
        parser.set_defaults(handler=lambda args, c=command: run(c, args))


def _broken(why: str) -> int:
    raise UsageError(why)


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
