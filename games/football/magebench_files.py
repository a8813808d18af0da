"""MageBench's own football scenarios as PlayBench levels (docs/football.md, docs/fidelity.md).

MageBench lays them out as::

    resources/Football_all.json         a JSON list of "Football/R<zone>_<P|T|R>_<k>.py" (108)
    resources/Football_mini.json        the same for the 20-scenario mini set
    resources/Football/R1_P_1.py        one GRF scenario builder per scenario

This module reads each as a level source: a list file (its paths resolved from the list file's
folder, as MageBench's harness resolves them from ``resources/``), one builder file, or a folder
of builder files (in MageBench's order: zone, category, number). Each file is read as data by
:mod:`playbench.games.football.builder_file` - never imported or run - and becomes one level in
our ``.football`` format: the file's name is its title (``R1_P_1``); MageBench numbers its zones
row by row (R1-R3 the top row from our goal to theirs, R9 the bottom right), ours column by
column, so ``R<m>`` is our zone ``3 * ((m - 1) % 3) + (m - 1) // 3 + 1``; P/T/R are the personal,
teamwork and real-world categories; the coordinates keep the file's decimals; the right team,
which the file gives in its own frame, is turned into our single frame as GRF turns it (x and y
negated) - and turned back and compared with the file before the level is kept.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

from playbench.games.base import FileReader, Level, LevelError
from playbench.games.football import grf_config, scenarios
from playbench.games.football.builder_file import MAX_BYTES, Builder, read_builder

CATEGORY = {"P": "personal", "T": "teamwork", "R": "real-world"}
NAME = re.compile(r"^R([1-9])_([PTR])_([0-9]{1,4})$")
"""A MageBench scenario's name: R<zone>_<category letter>_<number>."""
MAX_LIST_BYTES = 1024 * 1024
MAX_LIST_ENTRIES = 5000
"""The most files one list may name (MageBench's longest names 108)."""


def our_zone(magebench_zone: int) -> int:
    """MageBench's zone (rows first: 1-3 the top row) as ours (columns first)."""
    row, column = divmod(magebench_zone - 1, 3)
    return 3 * column + row + 1


def claims(path: Path) -> bool:
    """A ``.py`` file, a ``.json`` file that starts as a JSON list, or a folder holding
    ``R*_*_*.py`` files. Never raises."""
    try:
        if path.is_dir():
            return any(NAME.match(p.stem) for p in path.glob("R*_*_*.py"))
        suffix = path.suffix.lower()
        if suffix == ".py":
            return True
        if suffix != ".json":
            return False
        with open(path, "rb") as f:
            return f.read(256).lstrip()[:1] == b"["
    except OSError:
        return False


def read(path: Path) -> list[Level]:
    """The levels of a MageBench list file, builder file or folder of builder files. Raises
    :class:`LevelError` naming the file (and entry or line) at fault."""
    if path.is_dir():
        files = sorted((p for p in path.glob("R*_*_*.py") if NAME.match(p.stem)), key=_order)
        return [scenario_level(p, n) for n, p in enumerate(files, start=1)]
    if path.suffix.lower() == ".py":
        return [scenario_level(path, 1)]
    return _from_list(path)


def _order(path: Path) -> tuple[int, int, int]:
    m = NAME.match(path.stem)
    assert m is not None
    return int(m.group(1)), "PTR".index(m.group(2)), int(m.group(3))


def _from_list(path: Path) -> list[Level]:
    try:
        size = path.stat().st_size
        if size > MAX_LIST_BYTES:
            raise LevelError(f"the file is {size / 1e6:.1f} MB; MageBench list files of up to "
                             f"{MAX_LIST_BYTES // 1024} kB are read", source=str(path))
        entries: Any = json.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise LevelError(err.strerror or str(err), source=str(path)) from None
    except UnicodeDecodeError as err:
        raise LevelError(f"not a UTF-8 text file ({err.reason} at byte {err.start})",
                         source=str(path)) from None
    except json.JSONDecodeError as err:
        raise LevelError(f"not valid JSON: {err.msg}", source=str(path), line=err.lineno) from None
    except RecursionError:
        raise LevelError("not valid JSON: nested too deeply", source=str(path)) from None
    if not isinstance(entries, list) or not entries:
        raise LevelError("a MageBench football list is a JSON list of scenario files "
                         "(Football/R1_P_1.py, ...)", source=str(path))
    if len(entries) > MAX_LIST_ENTRIES:
        raise LevelError(f"the list names {len(entries)} files; at most {MAX_LIST_ENTRIES} are "
                         "read", source=str(path))
    levels = []
    for number, entry in enumerate(entries, start=1):
        if not isinstance(entry, str) or not entry.endswith(".py") or "\0" in entry:
            raise LevelError(f"entry {number} is not a path to a .py scenario file: "
                             f"{str(entry)[:60]!r}", source=str(path), level=number)
        target = path.parent / entry
        if not target.is_file():
            raise LevelError(f"entry {number} names {entry!r}, which is not a file (paths are "
                             f"read from the list's folder, {path.parent})", source=str(path),
                             level=number)
        levels.append(scenario_level(target, number))
    return levels


def scenario_level(path: Path, number: int) -> Level:
    """One builder file as a level (see the module docstring)."""
    source = str(path)
    match = NAME.match(path.stem)
    if match is None:
        raise LevelError("a MageBench football scenario is named R<zone>_<P|T|R>_<number>.py "
                         "(R1_P_1.py): its zone and category come from the name",
                         source=source)
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise LevelError(f"the file is larger than {MAX_BYTES // 1024} kB; a scenario "
                             "builder is a few kB", source=source)
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise LevelError(err.strerror or str(err), source=source) from None
    except UnicodeDecodeError as err:
        raise LevelError(f"not a UTF-8 text file ({err.reason} at byte {err.start})",
                         source=source) from None
    return scenario_from_text(text, path.stem, source, number)


def scenario_from_text(text: str, name: str, source: str, number: int = 1) -> Level:
    """A builder file's ``text`` as a level, ``name`` being its MageBench name (``R1_P_1``)."""
    match = NAME.match(name)
    if match is None:
        raise LevelError(f"{name!r} is not a MageBench scenario name (R<zone>_<P|T|R>_<n>)",
                         source=source)
    built = read_builder(text, source)
    mb_zone, category = int(match.group(1)), CATEGORY[match.group(2)]
    body = level_text(built, our_zone(mb_zone), category, source)
    meta = {"zone": our_zone(mb_zone), "category": category, "magebench": name,
            "magebench_zone": mb_zone}
    return Level(scenarios.GAME, body, number, name, meta)


def _decimal(d: Decimal) -> str:
    return format(d, "f")


def _mirror(d: Decimal) -> Decimal:
    """A coordinate of the right team in our frame (GRF negates it); zero stays unsigned."""
    return -d if d else abs(d)


def level_text(built: Builder, zone: int, category: str, source: str) -> str:
    """The builder's scenario in our ``.football`` format (a level's text), checked: within the
    pitch, 1 to 11 players a side with one keeper, and the right team's conversion undone gives
    the file's own numbers back."""
    if built.ball is None:
        raise LevelError("the file never places the ball (builder.SetBallPosition(x, y))",
                         source=source)
    _on_pitch(built.ball, "the ball", built.ball_line, source)
    lines = [f"zone {zone}", f"category {category}"]
    lines += [f"config {k} {grf_config.text(v)}" for k, v in built.config]
    lines.append(f"ball {_decimal(built.ball[0])} {_decimal(built.ball[1])}")
    for p in built.players:
        _on_pitch((p.x, p.y), f"the {p.team} team's {p.role}", p.line, source)
        side = "L" if p.team == "left" else "R"
        x, y = (p.x, p.y) if side == "L" else (_mirror(p.x), _mirror(p.y))
        lines.append(scenarios.player_line(
            scenarios.Player(side, p.role, float(x), float(y), p.lazy, p.controllable),
            _decimal(x), _decimal(y)))
    for team in ("left", "right"):
        squad = [p for p in built.players if p.team == team]
        keepers = sum(p.role == "GK" for p in squad)
        if not 1 <= len(squad) <= 11 or keepers != 1:
            raise LevelError(f"the {team} team has {len(squad)} players and {keepers} "
                             f"goalkeepers; PlayBench plays 1 to 11 a side with exactly one "
                             f"e_PlayerRole_GK", source=source)
    text = "\n".join(lines)
    try:
        scenario = scenarios.parse(text)
    except LevelError as err:
        raise LevelError(f"the scenario does not fit PlayBench's format: {err.reason}",
                         source=source) from None
    _check_round_trip(scenario, built, source)
    return text


def _on_pitch(xy: tuple[Decimal, Decimal], what: str, line: int | None, source: str) -> None:
    x, y = xy
    if not (abs(x) <= Decimal(str(scenarios.X_LIMIT)) and abs(y) <= Decimal(str(
            scenarios.Y_LIMIT))):
        raise LevelError(f"{what} at ({_decimal(x)}, {_decimal(y)}) is off the pitch (x within "
                         f"-1..1, y within -0.42..0.42)", source=source, line=line)


def _check_round_trip(scenario: scenarios.Scenario, built: Builder, source: str) -> None:
    """What the engine is sent for each team equals what the file gives GRF."""
    sent = scenario.grf()
    for team in ("left", "right"):
        given = [[float(p.x), float(p.y), p.role, p.lazy, p.controllable]
                 for p in built.players if p.team == team]
        if sent[team] != given:
            raise LevelError(f"the {team} team does not convert back to the file's positions "
                             "(a PlayBench bug; please report it)", source=source)
    assert built.ball is not None
    if sent["ball"] != [float(built.ball[0]), float(built.ball[1])]:
        raise LevelError("the ball does not convert back to the file's position", source=source)


READER = FileReader("magebench", claims, read)
"""MageBench's football files as a :class:`~playbench.games.base.FileReader`."""
