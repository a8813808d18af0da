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
from pathlib import Path
from typing import (
    TYPE_CHECKING,
    Any,
    Protocol,
    runtime_checkable,
)

import numpy as np

from playbench.games.base import Level, LevelError, RuleOption
from playbench.games.capabilities import (
    LAST,
    BoardGame,
    Capabilities,
    Gesture,
    LevelFiles,
    LoadsWith,
    PlayNotes,
    SourceOption,
    SourcePicker,
    board_spec,
    capabilities,
    demo_moves,
    demo_policies,
    foreign_answer,
    has_result_groups,
    library_columns,
    library_help,
    library_values,
    move_help,
    person_input,
    play_notes,
    play_place,
    preview,
    prompt_dir,
    protocol_family,
    result_group,
    results_note,
    source_options,
    source_picker,
    unavailable,
)
from playbench.games.plugins import EntryPointRegistry
from playbench.games.replay_spec import ReplaySpec
from playbench.games.types import Invalid, Setting, Task

if TYPE_CHECKING:
    from playbench.evaluators.web import Judge
    from playbench.games.env import Env

ENTRY_POINT_GROUP = "playbench.tasks"


class UnknownKind(KeyError):
    """No kind of that name is registered; the message lists the ones that are."""

    def __str__(self) -> str:
        return str(self.args[0])


class KindError(RuntimeError):
    """A registered entry point does not load or does not give a task kind."""


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


def load_source(kind: TaskKind, source: str, *, fmt: str | None = None,
                options: Mapping[str, str] | None = None) -> list[Level]:
    """``kind.load(source)``, or the kind's ``load_with`` when source options were given.
    Raises ``games.base.LevelError`` for options the kind does not declare."""
    given = {k: v for k, v in (options or {}).items() if v is not None}
    if not given:
        return kind.load(source, fmt=fmt)
    known = {o.name for o in source_options(kind)}
    unknown = sorted(set(given) - known)
    if unknown or not isinstance(kind, LoadsWith):
        valid = ", ".join(f"--{k}" for k in sorted(known)) or "none"
        raise LevelError(f"{kind.name} takes no source option --{unknown[0] if unknown else ''}"
                         f" (valid: {valid})")
    return kind.load_with(source, fmt=fmt, options=given)


@runtime_checkable
class TaskKind(Protocol):
    """What one kind of task tells the app. See the module docstring.

    Besides these members a kind states what else it is with :attr:`capabilities` (facts
    with defaults) and with the optional-behaviour protocols of
    :mod:`playbench.games.capabilities` (``preview``, ``demo_moves``, ``load_with``,
    ``result_group``, ``library_values``, ``person_input``, ``unavailable``, ...), which the
    helpers below check with ``isinstance``; nothing reads a kind's attributes by name.
    """

    # Read-only members: a kind may give each as a class attribute, an instance attribute
    # or a property (BoardKind's ``name`` comes from its spec).

    @property
    def capabilities(self) -> Capabilities:
        """What else the kind states about itself, each with a default
        (:class:`~playbench.games.capabilities.Capabilities`; ``Capabilities()`` states
        nothing)."""

    @property
    def name(self) -> str:
        """The id stored with every task (``sokoban``, ``web``); never changes once used."""

    @property
    def title(self) -> str: ...

    @property
    def help(self) -> str:
        """One line telling a person how to give actions."""

    @property
    def view(self) -> str:
        """Which play surface shows it: ``"board"`` (a rendered frame), ``"browser"``, or
        ``"external"`` (an outside harness's request to answer, ``playbench.games.external``)."""

    @property
    def replay(self) -> ReplaySpec:
        """How far a recorded episode can be played again: resumed after an interruption,
        verified step by step, and whether that needs rendering
        (:class:`~playbench.games.replay_spec.ReplaySpec`; not resumable for live web sites)."""

    @property
    def undo(self) -> bool:
        """Whether settings with history may offer undo for this kind (ING-VP: puzzles.md)."""

    @property
    def rule_options(self) -> tuple[RuleOption, ...]: ...

    @property
    def answers(self) -> AnswerFormat | None: ...

    @property
    def gym_actions(self) -> tuple[str, ...] | None:
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


class Registry(EntryPointRegistry[TaskKind]):
    """The task kinds found through entry points, loaded on first use of each.

    Listing names loads no kind's code; ``get`` loads one. Pass a registry in where it is
    needed; :func:`default_registry` is the installed one.
    """

    group = ENTRY_POINT_GROUP

    def __init__(self, entry_points: Sequence[importlib.metadata.EntryPoint] | None = None,
                 kinds: Sequence[TaskKind] = ()) -> None:
        super().__init__(entry_points, kinds)

    def accepts(self, plugin: object, name: str) -> bool:
        return isinstance(plugin, TaskKind) and plugin.name == name

    def unknown(self, name: str) -> Exception:
        return UnknownKind(f"unknown game {name!r} (valid: {', '.join(self.names())})")

    def refused(self, name: str, point: importlib.metadata.EntryPoint,
                err: Exception | None) -> Exception:
        if err is not None:
            return KindError(f"task kind {name!r} ({point.value}) failed to load: {err}")
        return KindError(f"entry point {name!r} ({point.value}) is not a task kind named "
                         f"{name!r}")

    def listing(self) -> list[TaskKind]:
        """Every kind, loaded, in the order people see them: by the kind's
        ``capabilities.order`` (a number, smaller first; by default a kind comes after those
        that give one), then as :meth:`names` lists them. Entry points carry no order of
        their own."""
        kinds = list(self)
        return sorted(kinds, key=lambda k: (k.capabilities.order, kinds.index(k)))

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


# The declarations of games/capabilities.py and the helpers that read them are re-exported:
# callers look kinds and what they can do up here.
__all__ = [
    "AnswerFormat", "board_spec", "BoardGame", "capabilities", "Capabilities",
    "default_registry", "demo_moves", "demo_policies", "ENTRY_POINT_GROUP", "EnvServices",
    "foreign_answer", "Gesture", "has_result_groups", "InputMap", "KindError", "LAST",
    "LevelFiles", "library_columns", "library_help", "library_values", "load_source",
    "make_env", "move_help", "person_input", "play_notes", "play_place", "PlayNotes",
    "preview", "prompt_dir", "protocol_family", "Registry", "result_group", "results_note",
    "Source", "source_options", "source_picker", "SourceOption", "SourcePicker", "TaskKind",
    "unavailable", "UnknownKind",
]
