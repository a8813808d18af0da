"""Commands a kind adds to the ``playbench`` command line.

A kind with tooling of its own (VisualWebArena's task files: check them, log in to their sites,
evaluate one task) registers a command under the ``playbench.commands`` entry-point group, as
it registers itself under ``playbench.tasks``; ``playbench NAME ...`` then runs it, and the app
names no kind to offer it. The entry point names an object with the :class:`KindCommand`
shape. Keep the module it sits in light to import: ``playbench --help`` loads every command to
list it, so anything heavy is imported inside the command's handlers.

What a command needs from the app (where the configuration lives, how tables are printed) comes
in a :class:`CommandContext`, since a kind never imports the app. A usage problem is raised as
:class:`CommandError` (the CLI exits 2 naming the command); the kinds' own errors
(``LevelError``) are runtime errors there as everywhere.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

GROUP = "playbench.commands"
"""The entry-point group kinds register their commands under."""


class CommandError(ValueError):
    """A kind's command was used wrongly (a bad argument, a missing sub-command)."""


Handler = Callable[[argparse.Namespace, "CommandContext"], int]
"""What runs a (sub-)command: the parsed arguments and the app's context -> the exit code."""


@dataclass(frozen=True)
class CommandContext:
    """What the app gives a kind's command."""

    config_dir: Callable[[], Path]
    """The user's configuration folder (the web settings, model profiles live there)."""
    table: Callable[[Sequence[str], Iterable[Sequence[Any]]], None]
    """Print an aligned text table as every other command does."""


@runtime_checkable
class KindCommand(Protocol):
    """A command a kind adds (see the module docstring)."""

    name: str
    """``playbench NAME``."""
    help: str
    """One line for ``playbench --help``."""

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Declare the command's arguments and sub-commands on ``parser``; each sets the
        :data:`Handler` that runs it with ``parser.set_defaults(run=...)``."""


def key_values(items: Sequence[str] | None, what: str) -> dict[str, str]:
    """``NAME=VALUE`` arguments as a mapping; a malformed one is a :class:`CommandError`."""
    out: dict[str, str] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise CommandError(f"{what} must look like NAME=VALUE, got {item!r}")
        out[key.strip()] = value.strip()
    return out


__all__ = ["GROUP", "CommandContext", "CommandError", "Handler", "KindCommand", "key_values"]
