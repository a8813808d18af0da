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
from playbench.app.studies.files import (
    SCRIPTED,
    FieldProblem,
    Problems,
    SweepFile,
    SweepTaskEntry,
    field_order,
    validate_fields,
)
from playbench.app.studies.spec import StudyFileError, budget_fields, find_levels, yaml_problem
from playbench.app.sweeps.cells import Cell, cell_key
from playbench.games.yamlfile import YamlError, excerpt, load_yaml, read_text


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
    check = Problems(base)
    given = validate_fields(SweepFile, data, "", check)
    name = given.get("name", "")
    participants = _participants(check, given.get("participants"))
    budget = budget_fields(check, given["budget"])
    tasks: list[SweepTask] = []
    for i, entry in enumerate(given.get("tasks") or []):
        tasks += _entry(check, f"tasks[{i}]", entry, budget)
    seen: set[tuple[str, str, str, tuple[tuple[str, str], ...]]] = set()
    for t in tasks:
        ident = (t.task.game, t.task.level_hash, t.setting, tuple(sorted(t.task.options.items())))
        if ident in seen:
            check.add(t.entry, f"duplicate task: {t.task.game} level {t.task.level.number} in "
                               f"setting {t.setting} is listed twice")
        seen.add(ident)
    if check.problems:
        raise SweepFileError(source, sorted(check.problems,
                                            key=lambda p: field_order(SweepFile, p)))
    return SweepSpec(name=name, description=str(given["description"] or ""),
                     participants=tuple(participants), tasks=tuple(tasks),
                     repeats=given["repeats"], seed=given["seed"])


def _participants(check: Problems, value: str | list[Any] | None) -> list[str]:
    """``model:NAME`` or a scripted player's name, each at most once."""
    out: list[str] = []
    for i, p in enumerate([value] if isinstance(value, str) else value or []):
        ok = isinstance(p, str) and (p in SCRIPTED or (p.startswith("model:") and len(p) > 6))
        if not ok:
            check.add(f"participants[{i}]", f"must be model:NAME or one of "
                                            f"{', '.join(SCRIPTED)}, got {excerpt(p)}")
        elif p in out:
            check.add(f"participants[{i}]", f"{p} is listed twice")
        else:
            out.append(p)
    return out


def _entry(check: Problems, where: str, entry: Any, budget: dict[str, Any]) -> list[SweepTask]:
    if not isinstance(entry, Mapping):
        check.add(where, "must be a mapping with game and levels")
        return []
    before = len(check.problems)
    e = validate_fields(SweepTaskEntry, entry, where, check)
    if "game" not in e or "levels" not in e or len(check.problems) > before:
        return []
    if e["setting"] is not None and e["settings"] is not None:
        check.add(f"{where}.settings", "give setting or settings, not both")
        return []
    names = e["settings"] or [e["setting"] or "default"]
    names = [names] if isinstance(names, str) else names
    rules = {str(k): str(v) for k, v in (e["rules"] or {}).items()}
    found = find_levels(check, where, e["game"], str(e["levels"]), e["level_format"], rules)
    if found is None:
        return []
    out: list[SweepTask] = []
    for name in names:
        try:
            setting = get_setting(name, e["game"])
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
