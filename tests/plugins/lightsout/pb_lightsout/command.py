"""``playbench lightsout``: this plugin's own command, added through the ``playbench.commands``
entry point with nothing in PlayBench edited - ``fewest LEVEL_FILE`` prints the fewest presses
that switch each level's lights off (or that it cannot be done)."""

from __future__ import annotations

import argparse
from pathlib import Path

from playbench.games.commands import CommandContext, CommandError


class LightsOutCommand:
    name = "lightsout"
    help = "Lights Out (a plugin's command): the fewest presses of each level of a file"

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        sub = parser.add_subparsers(dest="lightsout_command", metavar="COMMAND")
        fewest = sub.add_parser("fewest", help="the fewest presses of each level")
        fewest.add_argument("file", type=Path, metavar="LEVEL_FILE")
        fewest.add_argument("--wrap", action="store_true", help="the board wraps at its edges")
        fewest.set_defaults(run=_fewest)


def _fewest(args: argparse.Namespace, ctx: CommandContext) -> int:
    from pb_lightsout.formats import load
    from pb_lightsout.rules import parse_board
    from pb_lightsout.solver import fewest_presses
    try:
        text = args.file.read_text(encoding="utf-8")
    except OSError as err:
        raise CommandError(f"{args.file}: {err.strerror or err}") from None
    rows = []
    for level in load(text, str(args.file)):
        presses = fewest_presses(parse_board(level.text), args.wrap)
        rows.append([level.number, level.title or "-",
                     "unsolvable" if presses is None else presses.bit_count()])
    ctx.table(["level", "title", "fewest presses"], rows)
    return 0


COMMAND = LightsOutCommand()
