"""Reading a sweep file (YAML) into a checked :class:`SweepSpec`.

A sweep is the cross product participants x tasks x settings x levels x repeats, played with
fixed seeds so that two runs of one file give the same episodes whichever engine plays them.
Task entries use the study file's fields (``game``, ``levels``, ``rules``, ``level_format``)
plus ``settings`` (a list) beside ``setting``; levels are read with the study file's loader, so
packs, files and ranges mean the same in both. Every problem is reported with its field before
anything runs. The format is documented in docs/sweeps.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playbench.app.core.budget import Budget, BudgetError
from playbench.app.core.runs import episode_seed
from playbench.app.core.settings import UnknownSetting, get_setting
from playbench.app.core.task import Task
from playbench.app.studies.spec import (
    FieldProblem,
    StudyFileError,
    _budget,
    _Checker,
    _levels,
    yaml_problem,
)
from playbench.app.sweeps.cells import Cell, cell_key
from playbench.games.yamlfile import YamlError, excerpt, load_yaml, read_text

TOP_FIELDS = ("name", "description", "participants", "tasks", "repeats", "budget", "seed")
TASK_FIELDS = ("game", "levels", "setting", "settings", "rules", "level_format")
_SCRIPTED = ("solver", "random", "random-legal", "idle")


class SweepFileError(StudyFileError):
    """A sweep file that cannot be used; ``problems`` lists every field at fault."""


@dataclass(frozen=True)
class SweepTask:
    """One level in one setting under one budget (a sweep plays it per participant and
    repeat)."""

    task: Task
    setting: str
    budget: Budget
    entry: str


@dataclass(frozen=True)
class SweepSpec:
    name: str
    description: str
    participants: tuple[str, ...]
    tasks: tuple[SweepTask, ...]
    repeats: int
    seed: int

    @property
    def cells(self) -> int:
        """How many episodes the sweep plays in all."""
        return len(self.participants) * len(self.tasks) * self.repeats


def load_sweep_file(path: Path) -> SweepSpec:
    """Read and check ``path``; raises :class:`SweepFileError` listing every problem."""
    try:
        text = read_text(path)
    except YamlError as err:
        raise SweepFileError(str(path), [yaml_problem(err)]) from None
    return parse_sweep(text, base=path.parent, source=str(path))


def parse_sweep(text: str, *, base: Path = Path("."), source: str = "<sweep>") -> SweepSpec:
    """Check a sweep file's text; relative level files are found beside ``base``."""
    try:
        data = load_yaml(text, source)
    except YamlError as err:
        raise SweepFileError(source, [yaml_problem(err)]) from None
    if not isinstance(data, Mapping):
        raise SweepFileError(source, [FieldProblem("file", "must be a YAML mapping with name, "
                                                      "participants and tasks")])
    check = _Checker(base)
    for key in data:
        if key not in TOP_FIELDS:
            check.add(str(key), f"unknown field (known: {', '.join(TOP_FIELDS)})")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > 200:
        check.add("name", "is required (a short name for the sweep)")
        name = ""
    description = data.get("description") or ""
    participants = _participants(check, data.get("participants"))
    repeats = _whole(check, "repeats", data.get("repeats", 1), low=1)
    seed = _whole(check, "seed", data.get("seed", 0), low=0)
    budget = _budget(check, data.get("budget"))
    entries = data.get("tasks")
    tasks: list[SweepTask] = []
    if not isinstance(entries, list) or not entries:
        check.add("tasks", "a list of at least one task is needed")
        entries = []
    for i, entry in enumerate(entries):
        tasks += _entry(check, f"tasks[{i}]", entry, budget)
    seen: set[tuple[str, str, str, tuple[tuple[str, str], ...]]] = set()
    for t in tasks:
        ident = (t.task.game, t.task.level_hash, t.setting, tuple(sorted(t.task.options.items())))
        if ident in seen:
            check.add(t.entry, f"duplicate task: {t.task.game} level {t.task.level.number} in "
                               f"setting {t.setting} is listed twice")
        seen.add(ident)
    if check.problems:
        raise SweepFileError(source, check.problems)
    return SweepSpec(name=str(name), description=str(description),
                     participants=tuple(participants), tasks=tuple(tasks), repeats=repeats,
                     seed=seed)


def _whole(check: _Checker, where: str, value: Any, *, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        check.add(where, f"must be a whole number >= {low}, got {excerpt(value)}")
        return low
    return value


def _participants(check: _Checker, value: Any) -> list[str]:
    """``model:NAME`` or a scripted player's name, each at most once."""
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not value:
        check.add("participants", "a list of players is needed (model:NAME or "
                                  f"{', '.join(_SCRIPTED)})")
        return []
    out: list[str] = []
    for i, p in enumerate(value):
        ok = isinstance(p, str) and (p in _SCRIPTED or (p.startswith("model:") and len(p) > 6))
        if not ok:
            check.add(f"participants[{i}]", f"must be model:NAME or one of "
                                            f"{', '.join(_SCRIPTED)}, got {excerpt(p)}")
        elif p in out:
            check.add(f"participants[{i}]", f"{p} is listed twice")
        else:
            out.append(p)
    return out


def _entry(check: _Checker, where: str, entry: Any, budget: dict[str, Any]) -> list[SweepTask]:
    if not isinstance(entry, Mapping):
        check.add(where, "must be a mapping with game and levels")
        return []
    for key in entry:
        if key not in TASK_FIELDS:
            check.add(f"{where}.{key}", f"unknown field (known: {', '.join(TASK_FIELDS)})")
    game, levels = entry.get("game"), entry.get("levels")
    if not isinstance(game, str):
        check.add(f"{where}.game", "is required (e.g. sokoban)")
        return []
    if not isinstance(levels, (str, int)) or isinstance(levels, bool):
        check.add(f"{where}.levels", "is required: PACK_OR_FILE[:RANGE]")
        return []
    if "setting" in entry and "settings" in entry:
        check.add(f"{where}.settings", "give setting or settings, not both")
        return []
    names = entry.get("settings", [entry.get("setting", "default")])
    if isinstance(names, str):
        names = [names]
    if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
        check.add(f"{where}.settings", "must be a list of setting names")
        return []
    rules = entry.get("rules") or {}
    if not isinstance(rules, Mapping):
        check.add(f"{where}.rules", "must be a mapping NAME: VALUE")
        return []
    fmt = entry.get("level_format")
    found = _levels(check, where, game, str(levels), fmt if isinstance(fmt, str) else None,
                    {str(k): str(v) for k, v in rules.items()})
    if found is None:
        return []
    out: list[SweepTask] = []
    for name in names:
        try:
            setting = get_setting(name, game)
            task_budget = setting.budget.merged(**budget)
        except UnknownSetting as err:
            check.add(f"{where}.settings", str(err))
            continue
        except BudgetError as err:
            check.add("budget", str(err))
            continue
        out += [SweepTask(task, setting.name, task_budget, where) for task in found]
    return out


def plan_cells(spec: SweepSpec) -> list[Cell]:
    """Every cell of a sweep file, in a stable order (participant, task, repeat)."""
    out = []
    total = spec.cells
    for p in spec.participants:
        for t in spec.tasks:
            for r in range(spec.repeats):
                seed = episode_seed(spec.seed, r)
                key = cell_key(p, t.task, t.setting, t.budget, seed, f"sweep:{spec.name}")
                out.append(Cell(key, p, t.task, t.setting, t.budget, r, seed, sweep=spec.name,
                                meta={"sweep_total": total}))
    return out


__all__ = ["SweepFileError", "SweepSpec", "SweepTask", "load_sweep_file", "parse_sweep",
           "plan_cells"]
