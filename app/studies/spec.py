"""Reading a study file (YAML) into a checked :class:`StudySpec`, before anything is stored.

Every problem is collected with the field it concerns (``tasks[2].setting``) and the reason, so
a researcher fixes the whole file in one go; nothing is written to any database while a single
problem remains. The format is documented in docs/studies.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playbench.app.core.budget import Budget, BudgetError
from playbench.app.core.settings import UnknownSetting, get_setting
from playbench.app.core.task import Task
from playbench.app.studies.quality import CheckRule, ExclusionRule, QualityRuleError
from playbench.app.studies.texts import StudyTexts, read_texts
from playbench.games.base import LevelError, level_rule_options
from playbench.games.kind import board_spec, default_registry
from playbench.games.packs import RangeError, split_source
from playbench.games.yamlfile import YamlError, excerpt, load_yaml, read_text

ORDERS = ("fixed", "random")
DESCRIBED = ("population", "sampling", "compensation")
"""Optional texts in which the organizer describes the study for its report (who took part,
how they were recruited, what they were paid); stored as written, never checked further."""
MAX_DESCRIBED = 20_000
"""Characters allowed in each of those texts."""
TOP_FIELDS = ("name", "description", "budget", "time_limit", "order", "seed", "blind",
              "practice", "tasks", "exclusions", "annotators", "invites", "instructions",
              "consent", "ask_seen_before", *DESCRIBED)
TASK_FIELDS = ("game", "levels", "setting", "time_limit", "rules", "level_format", "check")
MAX_SECONDS = 24 * 3600.0
"""Longest per-task time limit accepted (a day); longer ones are almost surely a typo."""


@dataclass(frozen=True)
class FieldProblem:
    field: str
    reason: str

    def __str__(self) -> str:
        return f"{self.field}: {self.reason}"


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


@dataclass
class _Checker:
    """Collects problems while reading one file."""

    base: Path
    problems: list[FieldProblem] = field(default_factory=list)

    def add(self, where: str, reason: str) -> None:
        self.problems.append(FieldProblem(where, reason))


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
    check = _Checker(base)
    for key in data:
        if key not in TOP_FIELDS:
            check.add(str(key), f"unknown field (known: {', '.join(TOP_FIELDS)})")
    name = _name(check, data.get("name"))
    description = data.get("description") or ""
    if not isinstance(description, str):
        check.add("description", "must be text")
        description = ""
    blind = data.get("blind", False)
    if not isinstance(blind, bool):
        check.add("blind", f"must be true or false, got {excerpt(blind)}")
    order = data.get("order", "fixed")
    if order not in ORDERS:
        check.add("order", f"must be one of {', '.join(ORDERS)}, got {excerpt(order)}")
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        check.add("seed", f"must be a whole number >= 0, got {excerpt(seed)}")
    budget = _budget(check, data.get("budget"))
    time_limit = _time_limit(check, "time_limit", data.get("time_limit"))
    if time_limit is not None and budget.get("seconds") is not None:
        check.add("budget.seconds", "give the per-task limit once, as time_limit")
    tasks: list[StudyTask] = []
    practice = data.get("practice") or []
    scored = data.get("tasks")
    if scored is None or scored == []:
        check.add("tasks", "at least one task is needed")
        scored = []
    for section, entries, is_practice in (("practice", practice, True),
                                          ("tasks", scored, False)):
        if not isinstance(entries, list):
            check.add(section, "must be a list of tasks")
            continue
        for i, entry in enumerate(entries):
            tasks += _entry(check, f"{section}[{i}]", entry, is_practice, budget, time_limit,
                            start=len([t for t in tasks if t.practice == is_practice]))
    _duplicates(check, tasks)
    exclusions = _exclusions(check, data.get("exclusions"))
    roster, invites = _admission(check, data.get("annotators"), data.get("invites"))
    texts = read_texts(data, check.base, check.add)
    described = _described(check, data)
    scored_tasks = [t for t in tasks if not t.practice]
    if scored_tasks and all(t.check is not None for t in scored_tasks):
        check.add("tasks", "every scored task is a check: leave some tasks without check")
    if check.problems:
        raise StudyFileError(source, check.problems)
    return StudySpec(name=name, description=description, blind=blind, order=order, seed=seed,
                     budget=budget, time_limit=time_limit, tasks=tuple(tasks),
                     source_text=text, exclusions=exclusions, roster=roster, invites=invites,
                     texts=texts, described=described)


def _described(check: _Checker, data: Mapping[str, Any]) -> dict[str, str]:
    """The organizer's description texts that were given (each must be text)."""
    out = {}
    for key in DESCRIBED:
        value = data.get(key)
        if value is None:
            continue
        if not isinstance(value, str) or not value.strip():
            check.add(key, f"must be text describing the study, got {excerpt(value)}")
        elif len(value) > MAX_DESCRIBED:
            check.add(key, f"must be at most {MAX_DESCRIBED} characters, got {len(value)}")
        else:
            out[key] = value.strip()
    return out


def _admission(check: _Checker, roster: Any, invites: Any) -> tuple[tuple[str, ...], int]:
    """Who may take part: a list of annotator names, or a number of invite codes."""
    if roster is not None and invites is not None:
        check.add("invites", "give annotators or invites, not both")
        return (), 0
    if invites is not None:
        if isinstance(invites, bool) or not isinstance(invites, int) or not (
                1 <= invites <= 10_000):
            check.add("invites", f"must be a number of codes from 1 to 10000, got {invites!r}")
            return (), 0
        return (), invites
    if roster is None:
        return (), 0
    if not isinstance(roster, list) or not roster:
        check.add("annotators", "must be a list of annotator names (pseudonyms)")
        return (), 0
    names = []
    for i, name in enumerate(roster):
        if not isinstance(name, str) or not name.strip() or name != name.strip() \
                or len(name) > 200:
            check.add(f"annotators[{i}]", f"must be a name without spaces around it, got "
                                          f"{name!r}")
        elif name in names:
            check.add(f"annotators[{i}]", f"{name!r} is listed twice")
        else:
            names.append(name)
    return tuple(names), 0


def _exclusions(check: _Checker, value: Any) -> tuple[ExclusionRule, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        check.add("exclusions", "must be a list of rules such as \"failed_checks >= 1\"")
        return ()
    rules = []
    for i, text in enumerate(value):
        try:
            rules.append(ExclusionRule.parse(text))
        except QualityRuleError as err:
            check.add(f"exclusions[{i}]", str(err))
    return tuple(rules)


def _name(check: _Checker, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        check.add("name", "is required (a short name for the study)")
        return ""
    if len(value) > 200 or value != value.strip():
        check.add("name", "must be at most 200 characters, without spaces around it")
    return value


def _budget(check: _Checker, value: Any) -> dict[str, Any]:
    """The study's budget fields (an integer is ``max_actions``); each checked on its own so
    every bad field is named."""
    if value is None:
        return {}
    if isinstance(value, bool) or not isinstance(value, (int, Mapping)):
        check.add("budget", "must be a number of actions or a mapping of budget fields")
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


def _time_limit(check: _Checker, where: str, value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (
            0 < value <= MAX_SECONDS):
        check.add(where, f"must be a number of seconds above 0 and at most {MAX_SECONDS:g}, "
                         f"got {excerpt(value)}")
        return None
    return float(value)


def _entry(check: _Checker, where: str, entry: Any, practice: bool,
           budget: dict[str, Any], study_limit: float | None, start: int) -> list[StudyTask]:
    if not isinstance(entry, Mapping):
        check.add(where, "must be a mapping with game and levels")
        return []
    for key in entry:
        if key not in TASK_FIELDS:
            check.add(f"{where}.{key}", f"unknown field (known: {', '.join(TASK_FIELDS)})")
    game = entry.get("game")
    levels = entry.get("levels")
    setting_name = entry.get("setting", "default")
    if not isinstance(game, str):
        check.add(f"{where}.game", "is required (e.g. sokoban)")
        return []
    if not isinstance(levels, (str, int)) or isinstance(levels, bool):
        check.add(f"{where}.levels", "is required: PACK_OR_FILE[:RANGE]")
        return []
    limit = _time_limit(check, f"{where}.time_limit", entry.get("time_limit"))
    limit = limit if limit is not None else study_limit
    rules = entry.get("rules") or {}
    if not isinstance(rules, Mapping):
        check.add(f"{where}.rules", "must be a mapping NAME: VALUE")
        rules = {}
    fmt = entry.get("level_format")
    if fmt is not None and not isinstance(fmt, str):
        check.add(f"{where}.level_format", "must be a format name")
        fmt = None
    found = _levels(check, where, game, str(levels), fmt, {str(k): str(v) for k, v in
                                                           rules.items()})
    if found is None:
        return []
    if not isinstance(setting_name, str):
        check.add(f"{where}.setting", f"must be a setting name, got {excerpt(setting_name)}")
        return []
    try:
        setting = get_setting(setting_name, game)
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
    if entry.get("check") is not None:
        if practice:
            check.add(f"{where}.check", "practice tasks are never scored, so cannot be checks")
        else:
            try:
                gold = CheckRule.parse(entry["check"])
            except QualityRuleError as err:
                check.add(f"{where}.check", str(err))
    prefix = "p" if practice else "t"
    out = []
    for n, task in enumerate(found):
        out.append(StudyTask(key=f"{prefix}{start + n + 1}", practice=practice, task=task,
                             setting=setting.name, budget=task_budget, time_limit=limit,
                             entry=where, check=gold))
    return out


def _levels(check: _Checker, where: str, game: str, text: str, fmt: str | None,
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


def _duplicates(check: _Checker, tasks: list[StudyTask]) -> None:
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
