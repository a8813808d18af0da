"""MageBench's own Sokoban files as PlayBench levels (docs/fidelity.md, MageBench).

MageBench lays its Sokoban levels out as::

    resources/Sokoban_all.json           a JSON list of "Sokoban/<n>-Sokoban-<tier>.pkl" (182)
    resources/Sokoban_mini.json          the same for the 20-level mini set
    resources/Sokoban/<n>-Sokoban-<tier>.pkl     one pickled gym-sokoban environment per level
    resources/Sokoban/upper_bound.json   {"<n>-Sokoban-<tier>": {"actions": [...], "steps": k,
                                          "reward": r}} - each level's best plan

This module reads each of them as a level source: a list file (its paths resolved from the list
file's folder, as MageBench's harness resolves them from ``resources/``), one ``.pkl``, or the
upper-bound file itself (every level it names, from the pickles beside it). A level's title is
its MageBench name (``97-Sokoban-small-v0``), its ``tier`` the gym-sokoban environment it was
made with. When ``upper_bound.json`` sits beside a pickle its entry is checked against the room
and stored with the level: ``optimal`` (its steps), ``solution`` and ``rbest`` - its reward on
PlayBench's scale (gym-sokoban's times 5, as MageBench scores), so the task is scored against
MageBench's own R_best. Pickles are read by :mod:`playbench.games.sokoban.magebench_pickle`,
which never runs code a pickle names.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from playbench.games.base import FileReader, Level, LevelError
from playbench.games.sokoban.magebench_pickle import Room, read_room
from playbench.games.sokoban.rules import SokobanRules, encode, parse_board

UPPER_BOUND = "upper_bound.json"
"""The name MageBench's harness looks for beside each pickle."""
REWARD_SCALE = 5.0
"""MageBench scores ``(best - R_best) * 5 + 100`` on gym-sokoban's rewards; PlayBench's rewards
are gym-sokoban's times 5 already (rules.py), so a stored R_best is the file's times 5."""
MAX_JSON_BYTES = 8 * 1024 * 1024
"""The largest list or upper-bound file read (MageBench's upper bound is about 100 kB)."""
MAX_LIST_ENTRIES = 5000
"""The most pickles one list file may name (MageBench's longest names 182)."""

_NAME = re.compile(r"^\d+-(Sokoban-[A-Za-z0-9-]+)$")
_LETTERS = {"u": "U", "d": "D", "l": "L", "r": "R"}


def claims(path: Path) -> bool:
    """A ``.pkl`` file, or a ``.json`` file that starts as a JSON list or object (Sokoban has no
    other JSON format). Never raises."""
    suffix = path.suffix.lower()
    if suffix == ".pkl":
        return True
    if suffix != ".json":
        return False
    try:
        with open(path, "rb") as f:
            head = f.read(256).lstrip()
    except OSError:
        return False
    return head[:1] in (b"[", b"{")


def read(path: Path) -> list[Level]:
    """The levels of a MageBench list file, pickle or upper-bound file (see the module
    docstring). Raises :class:`LevelError` naming the file (and entry) at fault."""
    if path.suffix.lower() == ".pkl":
        return [_level(path, 1, _bounds_beside(path))]
    data = _json(path)
    if isinstance(data, list):
        return _from_list(path, data)
    if isinstance(data, dict):
        return _from_bounds(path, data)
    raise LevelError("a MageBench Sokoban file is a JSON list of .pkl paths or an "
                     "upper_bound.json object", source=str(path))


def _json(path: Path) -> Any:
    try:
        size = path.stat().st_size
        if size > MAX_JSON_BYTES:
            raise LevelError(f"the file is {size / 1e6:.1f} MB; MageBench list and upper-bound "
                             f"files of up to {MAX_JSON_BYTES // (1024 * 1024)} MiB are read",
                             source=str(path))
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise LevelError(err.strerror or str(err), source=str(path)) from None
    except UnicodeDecodeError as err:
        raise LevelError(f"not a UTF-8 text file ({err.reason} at byte {err.start})",
                         source=str(path)) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise LevelError(f"not valid JSON: {err.msg}", source=str(path), line=err.lineno) from None
    except RecursionError:
        raise LevelError("not valid JSON: nested too deeply", source=str(path)) from None


def _from_list(path: Path, entries: list[Any]) -> list[Level]:
    """A list file's levels, numbered by their place in it; paths are relative to its folder."""
    if not entries:
        raise LevelError("the list names no pickles", source=str(path))
    if len(entries) > MAX_LIST_ENTRIES:
        raise LevelError(f"the list names {len(entries)} pickles; at most {MAX_LIST_ENTRIES} "
                         "are read", source=str(path))
    bounds_cache: dict[Path, dict[str, Any] | None] = {}
    levels = []
    for number, entry in enumerate(entries, start=1):
        if not isinstance(entry, str) or not entry.endswith(".pkl") or "\0" in entry:
            raise LevelError(f"entry {number} is not a path to a .pkl file: {str(entry)[:60]!r}",
                             source=str(path), level=number)
        target = path.parent / entry
        if not target.is_file():
            raise LevelError(f"entry {number} names {entry!r}, which is not a file (paths are "
                             f"read from the list's folder, {path.parent})", source=str(path),
                             level=number)
        folder = target.parent
        if folder not in bounds_cache:
            bounds_cache[folder] = _bounds_in(folder / UPPER_BOUND)
        levels.append(_level(target, number, bounds_cache[folder]))
    return levels


def _from_bounds(path: Path, bounds: dict[str, Any]) -> list[Level]:
    """Every level an upper-bound file names, from the pickles beside it, in the file's order."""
    _check_bounds(path, bounds)
    if not bounds:
        raise LevelError("the upper-bound file names no levels", source=str(path))
    levels = []
    for number, name in enumerate(bounds, start=1):
        target = path.parent / f"{name}.pkl"
        if not target.is_file():
            raise LevelError(f"{name!r} has no pickle beside the upper-bound file "
                             f"({target.name} not found)", source=str(path), level=number)
        levels.append(_level(target, number, bounds))
    return levels


def _bounds_beside(pickle_path: Path) -> dict[str, Any] | None:
    return _bounds_in(pickle_path.parent / UPPER_BOUND)


def _bounds_in(path: Path) -> dict[str, Any] | None:
    """The upper-bound file at ``path``, checked, or None when there is none."""
    if not path.is_file():
        return None
    data = _json(path)
    if not isinstance(data, dict):
        raise LevelError("an upper-bound file is a JSON object of level names", source=str(path))
    _check_bounds(path, data)
    return data


def _check_bounds(path: Path, bounds: dict[str, Any]) -> None:
    for name, entry in bounds.items():
        where = f"entry {name[:60]!r}"
        if not _NAME.match(name):
            raise LevelError(f"{where}: a level name looks like 97-Sokoban-small-v0",
                             source=str(path))
        if not isinstance(entry, dict):
            raise LevelError(f"{where} is not an object", source=str(path))
        actions, steps, reward = entry.get("actions"), entry.get("steps"), entry.get("reward")
        if not isinstance(actions, list) or not all(
                isinstance(a, str) and a.lower() in _LETTERS for a in actions):
            raise LevelError(f"{where}: 'actions' must be a list of the letters u, d, l, r "
                             "(upper case for a push)", source=str(path))
        if not isinstance(steps, int) or isinstance(steps, bool) or steps != len(actions):
            raise LevelError(f"{where}: 'steps' must be the number of actions "
                             f"({len(actions)})", source=str(path))
        if not isinstance(reward, (int, float)) or isinstance(reward, bool):
            raise LevelError(f"{where}: 'reward' must be a number", source=str(path))


def _level(path: Path, number: int, bounds: dict[str, Any] | None) -> Level:
    """One pickle as a level, with its upper-bound entry (when there is one) checked and kept."""
    room = read_room(path)
    text = _xsb(room, str(path))
    name = path.stem
    match = _NAME.match(name)
    tier = match.group(1) if match else room.env_id
    meta: dict[str, Any] = {"magebench": name}
    if tier:
        meta["tier"] = tier
    entry = bounds.get(name) if bounds else None
    if entry is not None:
        meta.update(_checked_bound(text, name, entry, path.parent / UPPER_BOUND))
    return Level("sokoban", text, number, name, meta)


def _xsb(room: Room, source: str) -> str:
    """The room as our canonical text (checked as any imported board is)."""
    rows = []
    for frow, srow in zip(room.fixed.tolist(), room.state.tolist(), strict=True):
        line = []
        for fixed, cell in zip(frow, srow, strict=True):
            target = fixed == 2
            if cell == 0 or fixed == 0:
                line.append("#")
            elif cell == 5:
                line.append("+" if target else "@")
            elif cell in (3, 4):
                line.append("*" if target else "$")
            else:
                line.append("." if target else " ")
        rows.append("".join(line))
    try:
        return encode(parse_board("\n".join(rows)))
    except LevelError as err:
        raise LevelError(f"the pickled room is not a playable Sokoban board: {err.reason}",
                         source=source) from None


def _checked_bound(text: str, name: str, entry: dict[str, Any], source: Path) -> dict[str, Any]:
    """The upper-bound entry as level metadata, after playing its plan on the room: a plan that
    does not solve the room, or earns another reward, belongs to some other level."""
    plan = [_LETTERS[a.lower()] for a in entry["actions"]]
    rules = SokobanRules()
    state = parse_board(text)
    total = 0.0
    for k, move in enumerate(plan, start=1):
        out = rules.apply(state, move)
        if not out.valid:
            raise LevelError(f"entry {name!r}: action {k} ({move}) cannot be played on the "
                             f"room of {name}.pkl ({out.reason})", source=str(source))
        total += out.reward
        state = out.state
    if not rules.is_solved(state):
        raise LevelError(f"entry {name!r}: its actions do not solve the room of {name}.pkl",
                         source=str(source))
    rbest = round(float(entry["reward"]) * REWARD_SCALE, 6)
    if abs(total - rbest) > 1e-6:
        raise LevelError(f"entry {name!r}: its actions earn {total / REWARD_SCALE:g} on "
                         f"gym-sokoban's scale, not the {entry['reward']} it states",
                         source=str(source))
    return {"optimal": len(plan), "rbest": rbest, "solution": "".join(plan)}


READER = FileReader("magebench", claims, read)
"""MageBench's Sokoban files as a :class:`~playbench.games.base.FileReader`."""
