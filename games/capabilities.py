"""What a task kind declares about itself beyond the required
:class:`~playbench.games.kind.TaskKind` members: :class:`Capabilities` (plain facts as fields
with defaults) and small runtime-checkable protocols for optional behaviour, with the helpers
that read them (re-exported by :mod:`playbench.games.kind`).

Gymnasium describes an environment with ``EnvSpec``, a dataclass whose fields have defaults, so
an environment states only what differs. A kind does the same: its ``capabilities`` attribute
is one :class:`Capabilities`, and a kind that states nothing gives ``Capabilities()``. Optional
behaviour - a method only some kinds have - is one protocol per behaviour (:class:`Previews`,
:class:`DemoMoves`, ...), checked with ``isinstance``, so mypy knows the method's signature
wherever it is called and nobody probes a kind's attributes by name.

A kind from another package declares these the same way (``docs/architecture.md``, "Task
kinds"): pass ``Capabilities(order=..., ...)`` as its ``capabilities`` and write the methods of
the behaviours it has; a board game built with :class:`~playbench.games.board_kind.BoardKind`
gets both from the builder's keyword arguments.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from playbench.games.base import GameSpec, Level

LAST = 1000
"""The listing position of a kind that gives no ``order`` (see ``Registry.listing``)."""


@dataclass(frozen=True)
class Gesture:
    """One action a person asked for: the canonical text the kind parses and what they did
    (the step's raw input, e.g. ``key:Left`` or ``click:square 3,5``)."""

    text: str
    raw: str


@dataclass(frozen=True)
class SourceOption:
    """A command-line option a kind's sources understand beside the source text
    (``--catalog DIR`` for browser games). A kind lists them in
    :attr:`Capabilities.source_options` and reads them in its :class:`LoadsWith` method; the
    CLI offers them for that kind without knowing it (``games.kind.load_source``)."""

    name: str
    """The option's name without dashes (``catalog``)."""
    metavar: str
    help: str


@dataclass(frozen=True)
class SourcePicker:
    """How the Library adds a task source of the kind that is not bundled
    (:attr:`Capabilities.source_picker`): the button's text, and whether it picks a folder, a
    file or either - so a kind whose published tasks are folders (MageBench WebUI) is added as
    such without the app knowing the kind. ``file_filter`` is the file dialog's filter."""

    label: str
    title: str
    folder: bool = False
    files: bool = True
    file_filter: str = "Task files (*.json);;All (*)"
    tooltip: str = ""


class PlayNotes(Protocol):
    """What the Play view tells a person about a kind's rules (plain sentences; "" or None
    when there is nothing to say). The rules themselves never change for a person."""

    def rules_note(self, rules: Any, undo_allowed: bool) -> str:
        """A line for the view's help: what an action commits to under the rule options."""

    def state_note(self, rules: Any, state: Any, undo_allowed: bool) -> str | None:
        """A message about the current state (e.g. a board that can no longer be solved)."""


@dataclass(frozen=True)
class Capabilities:
    """The facts a kind may state about itself, each with the default a kind that says
    nothing gets. Frozen: a kind's description never changes while the app runs."""

    order: int = LAST
    """Its place in listings, smaller first (``Registry.listing``)."""
    prompt_dir: Path | None = None
    """A directory of prompt templates searched after the person's overrides and before
    PlayBench's own ``resources/prompts`` (a plugin's ``ingvp/games/<name>.j2``)."""
    notes: PlayNotes | None = None
    """What the Play view tells a person about rules they could otherwise learn only in
    Settings."""
    protocol_family: str | None = None
    """The prompt protocol family every setting is played with (``tools``), where the
    setting's name does not say; None: the setting's name decides."""
    move_help: str | None = None
    """How a model writes one move (the prompt's and the play view's action help); None:
    the kind's one-line ``help``."""
    library_help: str | None = None
    """What the Library's task panel says about playing the kind (rich text naming the place
    it opens and how inputs become actions); None: the kind's ``help``."""
    play_place: str = "the browser pane"
    """Where a person plays it, for a button's text ("Play in the code editor")."""
    library_columns: tuple[str, ...] = ()
    """The Library panel's columns after the task number and objective; a kind with columns
    gives each level's values through :class:`LibraryValues`. (): the web-task columns."""
    source_picker: SourcePicker | None = None
    """How the Library adds a source that is not bundled; None: the default file button."""
    source_options: tuple[SourceOption, ...] = ()
    """Options of the kind's sources beside the source text (read by :class:`LoadsWith`)."""
    results_note: str | None = None
    """A sentence Results print under the table about the kind's rows."""
    foreign_answer: Any = "?"
    """An ING-VP answer value that is not a move of this kind (the offline server's noise)."""
    compat_exceptions: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """Per compatibility profile (``games.compat``), the setting flags where this kind's
    published code differs from the profile."""
    gym_name: str | None = None
    """The ``<Name>`` of ``playbench/<Name>-v0``; None: the kind's name capitalised."""
    own_reward: bool = False
    """Gymnasium's reward is the rules' own per-step reward (else 1.0 on solving)."""


# --- optional behaviour: one protocol each ----------------------------------------------------


@runtime_checkable
class Unavailable(Protocol):
    """A kind backed by an optional extra, which may be missing on this machine."""

    def unavailable(self) -> str | None:
        """None when the kind can be played here, else why not and how to enable it."""


@runtime_checkable
class Previews(Protocol):
    """A kind whose environment is costly to start draws a level's start without one."""

    def preview(self, level: Level) -> np.ndarray | None:
        """A picture of the level's start, or None."""


@runtime_checkable
class DemoMoves(Protocol):
    """A kind that tells the offline endpoint (``serve-model``) its next action(s) itself,
    for positions the endpoint cannot rebuild."""

    def demo_moves(self, level_text: str, setting: str, steps: Sequence[str | None],
                   policy: str, rng: random.Random) -> list[str] | None:
        """The next action(s) of ``policy``, or None when the kind does not play it."""


@runtime_checkable
class DemoPolicies(Protocol):
    """A kind with named offline players of its own (``serve-model --policy KIND:NAME``)."""

    def demo_policies(self) -> Mapping[str, Any]:
        """The kind's policies by name."""


@runtime_checkable
class LoadsWith(Protocol):
    """A kind whose sources take the options in :attr:`Capabilities.source_options`."""

    def load_with(self, source: str, *, fmt: str | None = None,
                  options: Mapping[str, str]) -> list[Level]:
        """As ``TaskKind.load`` with the options given (names without dashes)."""


@runtime_checkable
class ResultGroups(Protocol):
    """A kind whose tasks Results also summarise per sub-group (a GameWorld game)."""

    def result_group(self, level: Level) -> str | None:
        """The sub-group ``level`` belongs to, or None."""


@runtime_checkable
class LibraryValues(Protocol):
    """A kind that fills the Library columns it declares (:attr:`Capabilities.library_columns`)."""

    def library_values(self, level: Level) -> Sequence[str]:
        """One text per column; never the task's answer."""


class PersonTable(Protocol):
    """What a person's keys and clicks mean for one task (a browser game's control table):
    key names and page points in, gestures out (None: no action)."""

    @property
    def interface(self) -> str:
        """The control interface the table maps to (``semantic`` or ``computer-use``)."""

    def key(self, name: str, state: Any = None) -> Gesture | None:
        """The action a key press names, or None."""

    def press(self, target: Any, state: Any = None) -> Gesture | None:
        """The action a click at ``(x, y)`` in page pixels names, or None."""

    def controls_help(self) -> str:
        """The task's keys and clicks in words (what the person's help names)."""


@runtime_checkable
class PersonInputs(Protocol):
    """A kind whose person input depends on the task and setting (browser games: each game
    binds its own keys), rather than one board input map."""

    def person_input(self, level: Level, setting: str = "default") -> PersonTable:
        """The table for one task in one setting."""


@runtime_checkable
class LevelFiles(Protocol):
    """A kind that writes its levels to a file (``playbench levels --export/--out``), in a
    format its ``load`` reads back."""

    def level_formats(self) -> tuple[str, ...]:
        """The format names ``dump_levels`` writes, the kind's own first."""

    def dump_levels(self, levels: Sequence[Level], fmt: str | None = None) -> str:
        """The text of a file holding ``levels`` (``fmt`` None: the kind's own format).
        Raises ``LevelError`` for a format the kind does not write."""


# --- reading them: the one place that does ---------------------------------------------------


class Described(Protocol):
    """The part of a ``TaskKind`` the helpers below read (every task kind is one)."""

    @property
    def name(self) -> str: ...

    @property
    def help(self) -> str: ...

    @property
    def capabilities(self) -> Capabilities: ...


def capabilities(kind: Described) -> Capabilities:
    """The kind's declared :class:`Capabilities`."""
    return kind.capabilities


def source_picker(kind: Described) -> SourcePicker | None:
    """The kind's :class:`SourcePicker`, or None (the Library's default button)."""
    return kind.capabilities.source_picker


def source_options(kind: Described) -> tuple[SourceOption, ...]:
    """The kind's :class:`SourceOption` s (none when it declares none)."""
    return kind.capabilities.source_options


def play_notes(kind: Described) -> PlayNotes | None:
    """The kind's :class:`PlayNotes`, or None."""
    return kind.capabilities.notes


def unavailable(kind: Described) -> str | None:
    """Why the kind cannot be played on this machine and how to enable it (a kind backed by
    an optional extra implements :class:`Unavailable`), or None when it can. Such a kind still
    loads and lists its levels; the Library and the CLI show the line instead of starting an
    episode."""
    if not isinstance(kind, Unavailable):
        return None
    return kind.unavailable() or None


def preview(kind: Described, level: Level) -> np.ndarray | None:
    """A picture of the level's start drawn without starting its environment (a kind whose
    environment is costly to start implements :class:`Previews`), or None when the kind has
    none and the caller renders the start itself."""
    return kind.preview(level) if isinstance(kind, Previews) else None


def result_group(kind: Described, level: Level) -> str | None:
    """The sub-group of the kind's tasks that Results summarise ``level`` under besides the
    kind's overall row (a kind implementing :class:`ResultGroups`, e.g. the GameWorld game a
    browser-game task belongs to, so its success rate and progress show per game), or None when
    the kind has no sub-groups or the level belongs to none.

    Results ask the kind rather than reading a kind's level format themselves, so any kind can
    declare sub-groups without the app or the database naming it."""
    if not isinstance(kind, ResultGroups):
        return None
    return kind.result_group(level) or None


def has_result_groups(kind: Described) -> bool:
    """Whether the kind declares :func:`result_group` (so Results need its levels' texts)."""
    return isinstance(kind, ResultGroups)


def results_note(kind: Described) -> str | None:
    """A sentence Results print under the table about the kind's rows, or None."""
    return kind.capabilities.results_note or None


def move_help(kind: Described) -> str:
    """How one move is written (the kind's ``capabilities.move_help``), else its ``help``."""
    return kind.capabilities.move_help or kind.help


def library_help(kind: Described) -> str:
    """What the Library's task panel says about playing the kind (its
    ``capabilities.library_help``, rich text naming the place it opens and how inputs become
    actions), else its one-line ``help``."""
    return kind.capabilities.library_help or kind.help


def library_columns(kind: Described) -> tuple[str, ...]:
    """The columns the Library's task panel shows for the kind after the task number and its
    objective (``capabilities.library_columns``, header texts), or () when the kind declares
    none and the panel keeps its web-task columns (difficulty, evaluators, reference length,
    images). A kind that declares columns gives each level's values through
    :class:`LibraryValues` (see :func:`library_values`)."""
    return tuple(str(c) for c in kind.capabilities.library_columns)


def library_values(kind: Described, level: Level) -> tuple[str, ...]:
    """One level's values under :func:`library_columns`, one text per column: padded with "-"
    or cut to the columns' number, so a kind's slip cannot shift the table. What a row shows is
    there before anyone plays, so a kind must not put the answer in it."""
    columns = library_columns(kind)
    if not columns or not isinstance(kind, LibraryValues):
        return ()
    values = [str(v) for v in kind.library_values(level)][:len(columns)]
    return tuple(values + ["-"] * (len(columns) - len(values)))


def play_place(kind: Described) -> str:
    """Where a person plays the kind, for a button's text ("Play in the code editor")."""
    return kind.capabilities.play_place


def prompt_dir(kind: Described) -> Path | None:
    """The kind's own prompt template directory, or None when it has none."""
    found = kind.capabilities.prompt_dir
    return Path(found) if found is not None else None


def protocol_family(kind: Described) -> str | None:
    """The prompt protocol family the kind states for every setting, or None."""
    return kind.capabilities.protocol_family


def foreign_answer(kind: Described) -> Any:
    """An ING-VP answer value that is not a move of the kind (for the offline server)."""
    return kind.capabilities.foreign_answer


def demo_policies(kind: Described) -> Mapping[str, Any]:
    """The kind's own offline players by name (a kind implementing :class:`DemoPolicies`)."""
    return kind.demo_policies() if isinstance(kind, DemoPolicies) else {}


def demo_moves(kind: Described, level_text: str, setting: str, steps: Sequence[str | None],
               policy: str, rng: random.Random) -> list[str] | None:
    """The kind's own next action(s) for an offline policy (a kind implementing
    :class:`DemoMoves`), or None when it has none for ``policy``."""
    if not isinstance(kind, DemoMoves):
        return None
    return kind.demo_moves(level_text, setting, steps, policy, rng)


def person_input(kind: Described, level: Level, setting: str) -> PersonTable | None:
    """The kind's person-input table for one task and setting (a kind implementing
    :class:`PersonInputs`), or None for a kind that has none."""
    return kind.person_input(level, setting) if isinstance(kind, PersonInputs) else None


def board_spec(kind: Described) -> GameSpec | None:
    """The board game's :class:`~playbench.games.base.GameSpec` of a kind that is one (a
    kind implementing :class:`BoardGame`), else None."""
    if not isinstance(kind, BoardGame) or not isinstance(kind.spec, GameSpec):
        return None
    return kind.spec


@runtime_checkable
class BoardGame(Protocol):
    """A kind that is a board game with rules, formats, a generator and a solver
    (:class:`playbench.games.board_kind.BoardKind`)."""

    @property
    def spec(self) -> GameSpec:
        """The game's spec."""


__all__ = [
    "LAST", "BoardGame", "Capabilities", "Described", "DemoMoves", "DemoPolicies", "Gesture",
    "LevelFiles", "LibraryValues", "LoadsWith", "PersonInputs", "PersonTable", "PlayNotes",
    "Previews", "ResultGroups", "SourceOption", "SourcePicker", "Unavailable", "board_spec",
    "capabilities", "demo_moves", "demo_policies", "foreign_answer", "has_result_groups",
    "library_columns", "library_help", "library_values", "move_help", "person_input",
    "play_notes", "play_place", "preview", "prompt_dir", "protocol_family", "result_group",
    "results_note", "source_options", "source_picker", "unavailable",
]
