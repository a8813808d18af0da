"""Reading a study file (YAML) into a checked :class:`StudySpec`, before anything is stored.

The file's shape is its model's (:class:`playbench.app.studies.files.StudyFile`); this module
checks what a shape cannot say: levels exist, settings are known, the budget is a budget,
check and exclusion rules parse, no task is listed twice. Every problem is collected with the
field it concerns (``tasks[2].setting``) and the reason, so a researcher fixes the whole file
in one go; nothing is written to any database while a single problem remains. The format is
documented in docs/studies.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playbench.app.core.budget import Budget, BudgetError
from playbench.app.core.settings import UnknownSetting, get_setting
from playbench.app.core.task import Task
from playbench.app.studies.files import (
    FieldProblem,
    Problems,
    StudyFile,
    StudyTaskEntry,
    field_order,
    validate_fields,
)
from playbench.app.studies.quality import CheckRule, ExclusionRule, QualityRuleError
from playbench.app.studies.texts import StudyTexts, read_texts
from playbench.games.base import LevelError, level_rule_options
from playbench.games.kind import board_spec, default_registry
from playbench.games.packs import RangeError, split_source
from playbench.games.yamlfile import YamlError, excerpt, load_yaml, read_text

DESCRIBED = ("population", "sampling", "compensation")
"""Optional texts in which the organizer describes the study for its report (who took part,
how they were recruited, what they were paid); stored as written, never checked further."""


class StudyFileError(ValueError):
    """A study file that cannot be used; ``problems`` lists every field at fault."""

    def __init__(self, source: str, problems: list[FieldProblem]) -> None:
        self.source = source
        self.problems = problems
        lines = [f"{source}: {p}" for p in problems]
        super().__init__("\n".join(lines))


@dataclass(frozen=True)
class StudyTask:
    """One level to play in one setting, as the study will store it."""

    key: str
    practice: bool
    task: Task
    setting: str
    budget: Budget
    time_limit: float | None
    entry: str
    """The file field it came from, e.g. ``tasks[1]`` (for messages)."""
    check: CheckRule | None = None
    """Set for an attention (gold) task: how it is passed (``app.studies.quality``)."""


@dataclass(frozen=True)
class StudySpec:
    name: str
    description: str
    blind: bool
    order: str
    seed: int | None
    budget: dict[str, Any]
    time_limit: float | None
    tasks: tuple[StudyTask, ...]
    source_text: str = ""
    exclusions: tuple[ExclusionRule, ...] = ()
    """Exclusion rules declared before data collection."""
    roster: tuple[str, ...] = ()
    """The annotators (pseudonyms) allowed to take part; () for no list."""
    invites: int = 0
    """Single-use invite codes to make when the study is created; 0 for none."""
    texts: StudyTexts = StudyTexts()
    """Instructions, consent and the "seen before?" question (``app.studies.texts``)."""
    described: Mapping[str, str] = field(default_factory=dict)
    """The organizer's ``population``, ``sampling`` and ``compensation`` texts (those
    given), for the study report."""

    @property
    def scored(self) -> list[StudyTask]:
        return [t for t in self.tasks if not t.practice]

    @property
    def practice(self) -> list[StudyTask]:
        return [t for t in self.tasks if t.practice]


def yaml_problem(err: YamlError) -> FieldProblem:
    """A file past a reading limit, or not YAML, as a problem naming its line and column
    (study and sweep files alike)."""
    return FieldProblem(err.where, err.problem)


def load_study_file(path: Path) -> StudySpec:
    """Read and check ``path``; raises :class:`StudyFileError` listing every problem."""
    try:
        text = read_text(path)
    except YamlError as err:
        raise StudyFileError(str(path), [yaml_problem(err)]) from None
    return parse_study(text, base=path.parent, source=str(path))


def parse_study(text: str, *, base: Path = Path("."), source: str = "<study>") -> StudySpec:
    """Check a study file's text; relative level files are found beside ``base``."""
    try:
        data = load_yaml(text, source)
    except YamlError as err:
        raise StudyFileError(source, [yaml_problem(err)]) from None
    if not isinstance(data, Mapping):
        raise StudyFileError(source, [FieldProblem("file", "must be a YAML mapping with name, "
                                                      "budget and tasks")])
    check = Problems(base)
    given = validate_fields(StudyFile, data, "", check)
    name = given.get("name", "")
    if name and name != name.strip():
        check.add("name", StudyFile.SAYS["name/string_too_long"])
    budget = budget_fields(check, given["budget"])
    time_limit = given["time_limit"]
    if time_limit is not None and budget.get("seconds") is not None:
        check.add("budget.seconds", "give the per-task limit once, as time_limit")
    tasks: list[StudyTask] = []
    for section, is_practice in (("practice", True), ("tasks", False)):
        for i, entry in enumerate(given.get(section) or []):
            tasks += _entry(check, f"{section}[{i}]", entry, is_practice, budget, time_limit,
                            start=len([t for t in tasks if t.practice == is_practice]))
    _duplicates(check, tasks)
    exclusions = _exclusions(check, given["exclusions"])
    roster, invites = _admission(check, given["annotators"], given["invites"])
    texts = read_texts(data, check.base, check.add)
    described = _described(check, given)
    scored_tasks = [t for t in tasks if not t.practice]
    if scored_tasks and all(t.check is not None for t in scored_tasks):
        check.add("tasks", "every scored task is a check: leave some tasks without check")
    if check.problems:
        raise StudyFileError(source, sorted(check.problems,
                                            key=lambda p: field_order(StudyFile, p)))
    return StudySpec(name=name, description=given["description"] or "",
                     blind=given["blind"], order=given["order"], seed=given["seed"],
                     budget=budget, time_limit=time_limit, tasks=tuple(tasks),
                     source_text=text, exclusions=exclusions, roster=roster, invites=invites,
                     texts=texts, described=described)


def _described(check: Problems, given: Mapping[str, Any]) -> dict[str, str]:
    """The organizer's description texts that were given (each text, not blank)."""
    out = {}
    for key in DESCRIBED:
        value = given.get(key)
        if value is None:
            continue
        if not value.strip():
            check.add(key, f"must be text describing the study, got {excerpt(value)}")
        else:
            out[key] = value.strip()
    return out


def _admission(check: Problems, roster: list[str] | None, invites: int | None
               ) -> tuple[tuple[str, ...], int]:
    """Who may take part: a list of annotator names, or a number of invite codes (their
    shapes already held to :class:`StudyFile`)."""
    if roster is not None and invites is not None:
        check.add("invites", "give annotators or invites, not both")
        return (), 0
    if invites is not None:
        return (), invites
    names: list[str] = []
    for i, name in enumerate(roster or []):
        if name != name.strip():
            check.add(f"annotators[{i}]", f"{StudyFile.SAYS['annotators[]']}, got {name!r}")
        elif name in names:
            check.add(f"annotators[{i}]", f"{name!r} is listed twice")
        else:
            names.append(name)
    return tuple(names), 0


def _exclusions(check: Problems, value: list[Any] | None) -> tuple[ExclusionRule, ...]:
    rules = []
    for i, text in enumerate(value or []):
        try:
            rules.append(ExclusionRule.parse(text))
        except QualityRuleError as err:
            check.add(f"exclusions[{i}]", str(err))
    return tuple(rules)


def budget_fields(check: Problems, value: int | dict[str, Any] | None) -> dict[str, Any]:
    """A study's or sweep's budget fields (an integer is ``max_actions``), each checked on its
    own by :meth:`Budget.from_dict` so every bad field is named."""
    if value is None:
        return {}
    fields = {"max_actions": value} if isinstance(value, int) else dict(value)
    good: dict[str, Any] = {}
    for key, v in fields.items():
        try:
            Budget.from_dict({key: v})
        except BudgetError as err:
            where = "budget" if isinstance(value, int) else f"budget.{key}"
            check.add(where, _budget_reason(str(err)))
            continue
        good[key] = v
    return good


def _budget_reason(message: str) -> str:
    """``budget field X must ...`` without the repeated field name."""
    head = "budget field "
    if message.startswith(head):
        return message[len(head):].split(" ", 1)[1]
    return message


def _entry(check: Problems, where: str, entry: Any, practice: bool,
           budget: dict[str, Any], study_limit: float | None, start: int) -> list[StudyTask]:
    if not isinstance(entry, Mapping):
        check.add(where, "must be a mapping with game and levels")
        return []
    before = len(check.problems)
    e = validate_fields(StudyTaskEntry, entry, where, check)
    if "game" not in e or "levels" not in e:
        return []
    limit = e["time_limit"] if e["time_limit"] is not None else study_limit
    rules = {str(k): str(v) for k, v in (e["rules"] or {}).items()}
    found = find_levels(check, where, e["game"], str(e["levels"]), e["level_format"], rules)
    if found is None or len(check.problems) > before:
        return []
    try:
        setting = get_setting(e["setting"], e["game"])
    except UnknownSetting as err:
        check.add(f"{where}.setting", str(err))
        return []
    changes = dict(budget)
    if limit is not None:
        changes["seconds"] = limit
    try:
        task_budget = setting.budget.merged(**changes)
    except BudgetError as err:  # individually valid fields that clash cannot happen today
        check.add("budget", str(err))
        return []
    gold = None
    if e["check"] is not None:
        if practice:
            check.add(f"{where}.check", "practice tasks are never scored, so cannot be checks")
        else:
            try:
                gold = CheckRule.parse(e["check"])
            except QualityRuleError as err:
                check.add(f"{where}.check", str(err))
    prefix = "p" if practice else "t"
    return [StudyTask(key=f"{prefix}{start + n + 1}", practice=practice, task=task,
                      setting=setting.name, budget=task_budget, time_limit=limit, entry=where,
                      check=gold) for n, task in enumerate(found)]


def find_levels(check: Problems, where: str, game: str, text: str, fmt: str | None,
                rules: dict[str, str]) -> list[Task] | None:
    """The tasks a ``levels`` field names, or None after recording why there are none."""
    name, range_text = split_source(text)
    local = check.base / name
    spec_text = (f"{local}:{range_text}" if range_text else str(local)) if (
        not Path(name).is_absolute() and local.exists()) else text
    kinds = default_registry()
    if game not in kinds:
        check.add(f"{where}.game",
                  f"unknown game {excerpt(game)} (valid: {', '.join(kinds.names())})")
        return None
    kind = kinds.get(game)
    spec = board_spec(kind)
    if spec is None:  # a kind without a board spec (web tasks) loads its own task files
        try:
            levels = kind.load(spec_text)
        except (LevelError, RangeError) as err:
            check.add(f"{where}.levels", str(err))
            return None
        return [Task(game, lv, {}, name) for lv in levels]
    try:
        spec.rule_options(rules)  # an unknown option or value is reported here
    except ValueError as err:
        check.add(f"{where}.rules", str(err))
        return None
    try:  # the kind's own loader, so a plugin's bundled packs are found as PlayBench's are
        levels = kind.load(spec_text, fmt=fmt)
    except (LevelError, RangeError) as err:
        check.add(f"{where}.levels", str(err))
        return None
    return [Task(spec.name, lv, level_rule_options(spec.options, lv, rules), name)
            for lv in levels]


def _duplicates(check: Problems, tasks: list[StudyTask]) -> None:
    """The same level in the same setting and rules twice (practice included: a practised
    level would not be a first attempt when scored)."""
    seen: dict[tuple, StudyTask] = {}
    for t in tasks:
        ident = (t.task.game, t.task.level_hash, t.setting, tuple(sorted(t.task.options.items())))
        first = seen.get(ident)
        if first is not None:
            check.add(t.entry, f"duplicate task: {t.task.game} level {t.task.level.number} "
                               f"({t.task.source}) in setting {t.setting} is also in "
                               f"{first.entry} (level {first.task.level.number})")
        else:
            seen[ident] = t
