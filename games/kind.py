"""Task kinds: the one object per kind of task that the rest of PlayBench looks up.

Every kind of task - each board game, web tasks, and any kind another package adds - is a
package that registers one :class:`TaskKind` under the ``playbench.tasks`` entry-point group
(``pyproject.toml``: ``[project.entry-points."playbench.tasks"] sokoban =
"playbench.games.sokoban:KIND"``).
The object owns everything the app needs to know about its kind: title and help, the settings
it can be played in with their default budgets, rule options, where its levels or tasks come
from, its environment, the person's input map, plan splitting for one-step settings, undo, the
answer format the prompt protocols use, Gymnasium's action list, what a replay can rebuild
(:class:`~playbench.games.replay_spec.ReplaySpec`) and thumbnails.
Core, players, agents, studies, results, exports, CLI and UI ask the registry; none of them
names a kind. This mirrors Gymnasium's registry (an id mapped to an entry point) and a
conformance suite (``tests/kinds``) runs over every registered kind as ``check_env`` does.

No module here imports the app: a kind sits below the loop (``docs/architecture.md``).
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import (
    TYPE_CHECKING,
    Any,
    Protocol,
    runtime_checkable,
)

import numpy as np

from playbench.games.base import Level, LevelError, RuleOption
from playbench.games.replay_spec import ReplaySpec
from playbench.games.types import Invalid, Setting, Task

if TYPE_CHECKING:
    from playbench.evaluators.web import Judge
    from playbench.games.env import Env

ENTRY_POINT_GROUP = "playbench.tasks"


LAST = 1000
"""The listing position of a kind that gives no ``order`` (see :meth:`Registry.listing`)."""


class UnknownKind(KeyError):
    """No kind of that name is registered; the message lists the ones that are."""

    def __str__(self) -> str:
        return str(self.args[0])


class KindError(RuntimeError):
    """A registered entry point does not load or does not give a task kind."""


@dataclass(frozen=True)
class Gesture:
    """One action a person asked for: the canonical text the kind parses and what they did
    (the step's raw input, e.g. ``key:Left`` or ``click:square 3,5``)."""

    text: str
    raw: str


class InputMap(Protocol):
    """Turns a person's key names and board targets into actions; Qt-free.

    ``key`` receives key names (``"Left"``, ``"W"``, ``"5"``, ``"Escape"``, ``"Enter"``);
    ``press`` and ``release`` receive what the renderer's ``locate`` returned for the pointer (a
    cell, a rod, None). None means "not an action" (a selection, an unmapped key); everything
    that names an action is recorded, legal or not.
    """

    selected: Any
    uses_digits: bool

    def key(self, name: str, state: Any) -> Gesture | None: ...

    def press(self, target: Any, state: Any) -> Gesture | None: ...

    def release(self, target: Any, state: Any) -> Gesture | None: ...

    def digit(self, d: int, state: Any) -> Gesture | None: ...

    def clear(self) -> None: ...


class AnswerFormat(Protocol):
    """How the kind's actions look inside a model's answer: JSON values (ING-VP) and tool
    calls. The prompt protocols in ``playbench.app.agents`` call these and never name a kind."""

    def move_value(self, move: str) -> Any: ...

    def plan_value(self, moves: Sequence[str]) -> Any: ...

    def single_texts(self, value: Any) -> list[str] | Invalid: ...

    def plan_texts(self, value: Any) -> list[str] | Invalid: ...

    def tool_specs(self) -> list[tuple[str, str, dict[str, Any]]]: ...

    def tool_to_text(self, name: str, args: Mapping[str, Any]) -> str | Invalid: ...

    def text_to_tool(self, move: str) -> tuple[str, dict[str, Any]]: ...


@dataclass(frozen=True)
class EnvServices:
    """Collaborators the app hands an environment that a kind cannot build itself without
    importing the app: judges backed by a model profile (``playbench.evaluators.web.Judge``: fuzzy
    answers, image questions) and kind-specific shared objects in ``extra`` (for example a
    browser shared by the episodes of a sweep)."""

    judge: Judge | None = None
    vqa: Judge | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    judge_named: Callable[[str], Judge] | None = None
    """Makes a judge from a model profile's name, for kinds whose own settings name the judge
    (web tasks' ``web.json``); judges made so may have an ``aclose`` coroutine."""
    config_dir: Path | None = None
    """The app's config directory, where a kind's own settings file may live."""


@dataclass(frozen=True)
class Source:
    """A bundled level pack or task file a kind offers in the Library."""

    name: str
    title: str
    count: int | None = None


@dataclass(frozen=True)
class SourceOption:
    """A command-line option a kind's sources understand beside the source text
    (``--catalog DIR`` for browser games). A kind lists them in its optional
    ``source_options`` attribute and reads them in its optional ``load_with`` method; the CLI
    offers them for that kind without knowing it (see :func:`load_source`)."""

    name: str
    """The option's name without dashes (``catalog``)."""
    metavar: str
    help: str


@dataclass(frozen=True)
class SourcePicker:
    """How the Library adds a task source of the kind that is not bundled (a kind's optional
    ``source_picker``): the button's text, and whether it picks a folder, a file or either -
    so a kind whose published tasks are folders (MageBench WebUI) is added as such without
    the app knowing the kind. ``file_filter`` is the file dialog's filter."""

    label: str
    title: str
    folder: bool = False
    files: bool = True
    file_filter: str = "Task files (*.json);;All (*)"
    tooltip: str = ""


def source_picker(kind: object) -> SourcePicker | None:
    """The kind's optional :class:`SourcePicker`, or None (the Library's default button)."""
    found = getattr(kind, "source_picker", None)
    return found if isinstance(found, SourcePicker) else None


def source_options(kind: object) -> tuple[SourceOption, ...]:
    """The kind's optional :class:`SourceOption` s (none when it declares none)."""
    return tuple(getattr(kind, "source_options", ()) or ())


def load_source(kind: TaskKind, source: str, *, fmt: str | None = None,
                options: Mapping[str, str] | None = None) -> list[Level]:
    """``kind.load(source)``, or the kind's ``load_with`` when source options were given.
    Raises ``games.base.LevelError`` for options the kind does not declare."""
    given = {k: v for k, v in (options or {}).items() if v is not None}
    if not given:
        return kind.load(source, fmt=fmt)
    known = {o.name for o in source_options(kind)}
    unknown = sorted(set(given) - known)
    loader = getattr(kind, "load_with", None)
    if unknown or loader is None:
        valid = ", ".join(f"--{k}" for k in sorted(known)) or "none"
        raise LevelError(f"{kind.name} takes no source option --{unknown[0] if unknown else ''}"
                         f" (valid: {valid})")
    levels: list[Level] = loader(source, fmt=fmt, options=given)
    return levels


@runtime_checkable
class TaskKind(Protocol):
    """What one kind of task tells the app. See the module docstring.

    Optional attributes, read with ``getattr`` (a kind without them still is a TaskKind):
    ``order`` (a number; its place in listings, see :meth:`Registry.listing`) and
    ``prompt_dir`` (a :class:`~pathlib.Path` or None; a directory of prompt templates the
    prompt protocols search after the person's overrides and before PlayBench's bundled
    ``resources/prompts``, so a kind from another package can ship ``ingvp/games/<name>.j2``).
    See :func:`prompt_dir`. ``notes`` (a :class:`PlayNotes` or None): lines the Play view shows
    a person about rules they could otherwise learn only in Settings. See :func:`play_notes`.
    ``unavailable()`` (str or None): why the kind cannot be played here and how to enable it
    (see :func:`unavailable`); ``preview(level)``: the start picture without an environment
    (see :func:`preview`); ``demo_policies()``: offline players for ``serve-model`` by name.
    ``source_options`` and ``load_with``: extra options of the kind's sources (see
    :func:`load_source`). ``protocol_family``: the prompt protocol family every setting of the
    kind is played with (``tools``), where the setting's name does not say.
    ``demo_moves(level_text, setting, steps, policy, rng)``: the offline endpoint's next
    action(s) for a policy name, for kinds whose positions it cannot rebuild (None: not known).
    ``result_group(level)`` and ``results_note``: the sub-group Results also summarise a level
    under, beside the kind's overall row (see :func:`result_group`).
    ``library_help``, ``play_place``: what the Library's task panel says about playing the
    kind; ``library_columns`` and ``library_values(level)``: the panel's columns for the kind's
    tasks (see :func:`library_columns`).
    """

    name: str
    """The id stored with every task (``sokoban``, ``web``); never changes once used."""
    title: str
    help: str
    """One line telling a person how to give actions."""
    view: str
    """Which play surface shows it: ``"board"`` (a rendered frame), ``"browser"``, or
    ``"external"`` (an outside harness's request to answer, ``playbench.games.external``)."""
    replay: ReplaySpec
    """How far a recorded episode can be played again: resumed after an interruption,
    verified step by step, and whether that needs rendering
    (:class:`~playbench.games.replay_spec.ReplaySpec`; not resumable for live web sites)."""
    undo: bool
    """Whether settings with history may offer undo for this kind (ING-VP: puzzles.md)."""
    rule_options: tuple[RuleOption, ...]
    answers: AnswerFormat | None
    gym_actions: tuple[str, ...] | None
    """Gymnasium's Discrete action list, or None where the kind is not a Gymnasium env."""

    def settings(self) -> Mapping[str, Setting]:
        """The settings this kind can be played in, each with its default budget."""

    def sources(self) -> list[Source]:
        """Bundled packs or task files, for the Library and ``playbench levels``."""

    def load(self, source: str, *, fmt: str | None = None) -> list[Level]:
        """The levels (or tasks) a source names: a bundled name or a path, with ``:RANGE``.
        Raises ``playbench.games.base.LevelError`` naming file, line and what was expected."""

    def make_env(self, task: Task, *, services: EnvServices | None = None,
                 render_options: Mapping[str, Any] | None = None,
                 render: bool = True) -> Env:
        """A fresh environment for one episode of this kind."""

    def input_map(self) -> InputMap | None:
        """A fresh input map for a person on the board view (None: no board input)."""

    def split_plan(self, text: str) -> list[str]:
        """A typed one-step plan as move texts, one per step."""

    def join_plan(self, texts: Sequence[str]) -> str:
        """A plan as a person would type it."""

    def thumbnail(self, level: Level, size: int) -> np.ndarray | None:
        """A small RGB picture of the level's start, or None."""

    def describe(self, level: Level) -> Mapping[str, Any]:
        """Short facts for level listings (size, boxes, difficulty)."""

    def check_level(self, level: Level) -> None:
        """Raise (``LevelError`` or the rules' own error) when ``level`` could never start:
        an import refuses such a level before anything is written."""


class PlayNotes(Protocol):
    """What the Play view tells a person about a kind's rules (plain sentences; "" or None
    when there is nothing to say). The rules themselves never change for a person."""

    def rules_note(self, rules: Any, undo_allowed: bool) -> str:
        """A line for the view's help: what an action commits to under the rule options."""

    def state_note(self, rules: Any, state: Any, undo_allowed: bool) -> str | None:
        """A message about the current state (e.g. a board that can no longer be solved)."""


def play_notes(kind: object) -> PlayNotes | None:
    """The kind's optional :class:`PlayNotes` (its ``notes`` attribute), or None."""
    found: PlayNotes | None = getattr(kind, "notes", None)
    return found


def unavailable(kind: object) -> str | None:
    """Why the kind cannot be played on this machine and how to enable it (its optional
    ``unavailable()`` method, for kinds backed by an optional extra), or None when it can.
    Such a kind still loads and lists its levels; the Library and the CLI show the line
    instead of starting an episode."""
    check = getattr(kind, "unavailable", None)
    if check is None:
        return None
    reason: str | None = check()
    return reason or None


def preview(kind: object, level: Level) -> np.ndarray | None:
    """A picture of the level's start drawn without starting its environment (the kind's
    optional ``preview(level)``, for kinds whose environment is costly to start), or None
    when the kind has none and the caller renders the start itself."""
    draw = getattr(kind, "preview", None)
    if draw is None:
        return None
    picture: np.ndarray | None = draw(level)
    return picture


def result_group(kind: object, level: Level) -> str | None:
    """The sub-group of the kind's tasks that Results summarise ``level`` under besides the
    kind's overall row (the kind's optional ``result_group(level)``, e.g. the GameWorld game a
    browser-game task belongs to, so its success rate and progress show per game), or None when
    the kind has no sub-groups or the level belongs to none.

    Results ask the kind rather than reading a kind's level format themselves, so any kind can
    declare sub-groups without the app or the database naming it."""
    group = getattr(kind, "result_group", None)
    if group is None:
        return None
    found: str | None = group(level)
    return found or None


def has_result_groups(kind: object) -> bool:
    """Whether the kind declares :func:`result_group` (so Results need its levels' texts)."""
    return getattr(kind, "result_group", None) is not None


def results_note(kind: object) -> str | None:
    """A sentence Results print under the table about the kind's rows (the kind's optional
    ``results_note``, e.g. which columns its own papers call by another name), or None."""
    note: str | None = getattr(kind, "results_note", None)
    return note or None


def library_help(kind: object) -> str:
    """What the Library's task panel says about playing the kind (its optional
    ``library_help``, rich text naming the tab it opens and how inputs become actions), else its
    one-line ``help``."""
    found = getattr(kind, "library_help", None) or getattr(kind, "help", "")
    return str(found)


def library_columns(kind: object) -> tuple[str, ...]:
    """The columns the Library's task panel shows for the kind after the task number and its
    objective (the kind's optional ``library_columns``, header texts), or () when the kind
    declares none and the panel keeps its web-task columns (difficulty, evaluators,
    reference length, images). A kind that declares columns gives each level's values with
    ``library_values(level)`` (see :func:`library_values`)."""
    return tuple(str(c) for c in getattr(kind, "library_columns", None) or ())


def library_values(kind: object, level: Level) -> tuple[str, ...]:
    """One level's values under :func:`library_columns` (the kind's optional
    ``library_values(level)``), one text per column: padded with "-" or cut to the columns'
    number, so a kind's slip cannot shift the table. What a row shows is there before anyone
    plays, so a kind must not put the answer in it."""
    columns = library_columns(kind)
    give = getattr(kind, "library_values", None)
    if not columns or give is None:
        return ()
    values = [str(v) for v in give(level)][:len(columns)]
    return tuple(values + ["-"] * (len(columns) - len(values)))


def play_place(kind: object) -> str:
    """Where a person plays the kind, for a button's text ("Play in the code editor"): its
    optional ``play_place``, else the browser pane."""
    return str(getattr(kind, "play_place", None) or "the browser pane")


def prompt_dir(kind: object) -> Path | None:
    """The kind's own prompt template directory (the optional ``prompt_dir`` attribute of a
    :class:`TaskKind`), or None when it has none."""
    found = getattr(kind, "prompt_dir", None)
    return Path(found) if found is not None else None


class Registry:
    """The task kinds found through entry points, loaded on first use of each.

    Listing names loads no kind's code; ``get`` loads one. Pass a registry in where it is
    needed; :func:`default_registry` is the installed one.
    """

    def __init__(self, entry_points: Sequence[importlib.metadata.EntryPoint] | None = None,
                 kinds: Sequence[TaskKind] = ()) -> None:
        self._entry_points = entry_points
        self._given = {k.name: k for k in kinds}
        self._loaded: dict[str, TaskKind] = {}

    @cached_property
    def _points(self) -> dict[str, importlib.metadata.EntryPoint]:
        points = self._entry_points
        if points is None:
            points = list(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP))
        return {ep.name: ep for ep in points}

    def names(self) -> list[str]:
        """Registered kind names, in a stable order (bundled first as declared, then others)."""
        return list(dict.fromkeys([*self._given, *self._points]))

    def get(self, name: str) -> TaskKind:
        kind = self._given.get(name) or self._loaded.get(name)
        if kind is not None:
            return kind
        point = self._points.get(name)
        if point is None:
            raise UnknownKind(f"unknown game {name!r} (valid: {', '.join(self.names())})")
        try:
            kind = point.load()
        except Exception as err:  # a broken plugin must not take the app down with it
            raise KindError(f"task kind {name!r} ({point.value}) failed to load: {err}") from err
        if not isinstance(kind, TaskKind) or kind.name != name:
            raise KindError(f"entry point {name!r} ({point.value}) is not a task kind named "
                            f"{name!r}")
        self._loaded[name] = kind
        return kind

    def listing(self) -> list[TaskKind]:
        """Every kind, loaded, in the order people see them: by the kind's optional ``order``
        attribute (a number, smaller first; without one a kind comes after those that have
        one), then as :meth:`names` lists them. Entry points carry no order of their own."""
        kinds = list(self)
        return sorted(kinds, key=lambda k: (getattr(k, "order", LAST), kinds.index(k)))

    def __iter__(self) -> Iterator[TaskKind]:
        for name in self.names():
            yield self.get(name)

    def __contains__(self, name: object) -> bool:
        return name in self.names()


_DEFAULT: list[Registry] = []


def default_registry() -> Registry:
    """The registry of installed kinds (built once; it never changes while running)."""
    if not _DEFAULT:
        _DEFAULT.append(Registry())
    return _DEFAULT[0]


def make_env(task: Task, render_options: Mapping[str, Any] | None = None,
             render: bool = True, *, services: EnvServices | None = None,
             registry: Registry | None = None) -> Env:
    """A fresh environment for the task's kind (looked up in ``registry``, by default the
    installed kinds)."""
    kinds = registry if registry is not None else default_registry()
    env: Env = kinds.get(task.game).make_env(task, services=services,
                                             render_options=render_options, render=render)
    return env
