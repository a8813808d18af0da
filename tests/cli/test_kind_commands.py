"""Commands kinds add to the command line (``playbench.commands`` entry points,
games/commands.py): the test plugin's ``playbench lightsout`` runs in a real process with
nothing in app/ naming it, the web kind's ``playbench web`` lives in its own package, and a
broken or clashing command is left out with a warning while every other command works."""

from __future__ import annotations

import argparse
import subprocess
import sys
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from playbench.app.cli import plugins
from playbench.app.cli.common import UsageError

ROOT = Path(__file__).resolve().parents[2]
LEVELS = ROOT / "tests/plugins/lightsout/pb_lightsout/levels/starter.txt"


def playbench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "playbench", *args], capture_output=True,
                          text=True, timeout=120)


def test_a_plugins_command_runs_and_is_listed():
    done = playbench("lightsout", "fewest", str(LEVELS))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["level", "title", "fewest", "presses"]
    # the file's own notes say each level's optimum ("; optimal: N"): the solver agrees
    noted = [int(line.split(":")[1]) for line in LEVELS.read_text().splitlines()
             if line.startswith("; optimal:")]
    assert [int(line.split()[-1]) for line in lines[2:]] == noted
    assert "lightsout" in playbench("--help").stdout
    missing = playbench("lightsout", "fewest", "/no/such/levels.txt")
    assert missing.returncode == 2
    assert "playbench lightsout: error: /no/such/levels.txt" in missing.stderr


def test_no_app_module_names_a_kind_command():
    """The app finds kind commands only through the entry points."""
    for path in (ROOT / "app").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "games.web.cli" not in text and "pb_lightsout" not in text, path


class _Clash:
    """A plugin command that wants a built-in's name."""

    name = "run"
    help = "not the real run"

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        pass


CLASH = _Clash()


class _Broken:
    """A plugin command whose arguments cannot be declared."""

    name = "broken-args"
    help = "declares its arguments wrongly"

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--x", type=int, default="not a number", nargs="?", bogus=1)


BROKEN = _Broken()


def _parser() -> tuple[argparse.ArgumentParser, argparse._SubParsersAction]:
    parser = argparse.ArgumentParser(prog="playbench")
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("run")
    return parser, sub


def test_a_broken_or_clashing_command_is_left_out_with_a_warning(capsys):
    parser, sub = _parser()
    group = "playbench.commands"
    plugins.add_parsers(sub, [
        EntryPoint("broken", "no_such_module_here:COMMAND", group),
        EntryPoint("notacommand", "argparse:ArgumentParser", group),
        EntryPoint("run", "tests.cli.test_kind_commands:CLASH", group),
        EntryPoint("lightsout", "pb_lightsout.command:COMMAND", group),
        EntryPoint("lightsout-again", "pb_lightsout.command:COMMAND", group),
    ])
    err = capsys.readouterr().err
    assert "'broken' (no_such_module_here:COMMAND) could not be loaded" in err
    assert "'notacommand' (argparse:ArgumentParser) is not a command" in err
    # the built-in "run" keeps its name; a second registration of a name is refused too
    assert "'run' (tests.cli.test_kind_commands:CLASH) has the name of a built-in" in err
    assert ("'lightsout-again' (pb_lightsout.command:COMMAND) is not a command named "
            "'lightsout-again'") in err
    assert sorted(sub.choices) == ["lightsout", "run"]
    args = parser.parse_args(["lightsout"])
    with pytest.raises(UsageError, match="lightsout needs a command"):
        args.handler(args)


def test_web_command_usage_problems_exit_2_naming_the_command():
    done = playbench("web", "evaluate", "classifieds", "--url", "http://x")
    assert done.returncode == 2
    assert "playbench web: error: name one task as FILE:ID" in done.stderr


def test_a_command_whose_arguments_fail_is_listed_and_says_it_is_broken(capsys):
    parser, sub = _parser()
    plugins.add_parsers(sub, [EntryPoint("broken-args", "tests.cli.test_kind_commands:BROKEN",
                                         "playbench.commands")])
    assert "'broken-args' (tests.cli.test_kind_commands:BROKEN) is broken" in \
        capsys.readouterr().err
    args = parser.parse_args(["broken-args"])
    with pytest.raises(UsageError, match="is broken"):
        args.handler(args)
