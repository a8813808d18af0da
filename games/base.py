"""The contract every board game implements, with no knowledge of players, databases or Qt.

A game is described by a :class:`GameSpec`: pure rules over immutable states, a text encoding,
level formats, an optimal solver, a generator and a renderer. The app's loop
(``playbench.app.core``) wraps
the spec into its asynchronous Env; the Gymnasium adapter (``playbench.games.gym``) wraps it the
other way.
Keeping states immutable makes snapshot/restore (undo, replay, solvers) a matter of keeping a
reference.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

import numpy as np

State = TypeVar("State")
StateIn = TypeVar("StateIn", contravariant=True)
Move = TypeVar("Move", bound=Hashable)


class LevelError(ValueError):
    """A level text is malformed. Its message names the source file, line and level."""

    def __init__(
        self,
        reason: str,
        *,
        source: str | None = None,
        line: int | None = None,
        level: int | str | None = None,
    ) -> None:
        self.reason = reason
        self.source = source
        self.line = line
        self.level = level
        super().__init__(self._message())

    def _message(self) -> str:
        where = ""
        if self.source:
            where = self.source
            if self.line is not None:
                where += f":{self.line}"
        elif self.line is not None:
            where = f"line {self.line}"
        parts = [p for p in (where, f"level {self.level}" if self.level is not None else "") if p]
        prefix = ": ".join(parts)
        return f"{prefix}: {self.reason}" if prefix else self.reason

    def located(self, *, source: str | None = None, line_offset: int = 0,
                level: int | str | None = None) -> LevelError:
        """The same error placed inside a file: add the file name, shift the line (an error
        about the whole level points at its first line), name the level."""
        return LevelError(
            self.reason,
            source=source or self.source,
            line=(self.line or 1) + line_offset,
            level=self.level if self.level is not None else level,
        )


class MoveError(ValueError):
    """A text is not a move of this game.

    ``kind`` is ``"malformed"`` (cannot be read at all) or ``"not_in_vocabulary"`` (readable, but
    names no action this game has, e.g. ``"X"`` in Sokoban or a digit 0 in Sudoku).
    """

    def __init__(self, reason: str, kind: str = "malformed") -> None:
        self.reason = reason
        self.kind = kind
        super().__init__(reason)


@dataclass(frozen=True)
class Level:
    """One puzzle start position as read from a pack or file.

    ``text`` is the game's canonical text of the start position and is what the content hash
    covers, so the same board imported from two files is the same task. ``meta`` carries facts
    stored beside the board: ``optimal`` (fewest moves), ``r_best`` (MageBench), ``tier``,
    ``solution``, comments.
    """

    game: str
    text: str
    number: int = 1
    title: str = ""
    meta: Mapping[str, Any] = field(default_factory=dict)

    @property
    def content_hash(self) -> str:
        return level_hash(self.game, self.text)


def level_hash(game: str, text: str) -> str:
    """Content hash of a level: the game name and its canonical start text."""
    return hashlib.sha256(f"{game}\n{text}".encode()).hexdigest()


@dataclass(frozen=True)
class Outcome(Generic[State]):
    """What applying one move to a state did.

    An invalid move leaves ``state`` as it was (``changed`` False) and says why in ``reason``;
    the caller decides what the attempt costs.
    """

    state: State
    valid: bool
    changed: bool
    reward: float = 0.0
    reason: str | None = None


class Rules(Protocol[State, Move]):
    """Pure rules of one game under fixed rule options. Stateless; states are immutable."""

    @property
    def game(self) -> str:
        """The registry name of the game (read-only: a class attribute satisfies it)."""

    def start(self, level: Level) -> State: ...

    def parse_move(self, text: str) -> Move:
        """Read one move in any accepted spelling; raise :class:`MoveError` otherwise."""

    def format_move(self, move: Move) -> str:
        """The move's one canonical text; ``parse_move(format_move(m)) == m``."""

    def apply(self, state: State, move: Move) -> Outcome[State]: ...

    def legal_moves(self, state: State) -> list[Move]:
        """Moves that are valid in ``state`` (in a stable order)."""

    def is_solved(self, state: State) -> bool: ...

    # Optional: ``vocabulary(state) -> list[Move]``, every action a player may name in this
    # state, legal or not (random baselines draw from it). Without it, the legal moves are used.

    def encode(self, state: State) -> str:
        """The text encoding models see in the text settings (ING-VP's, see puzzles.md)."""


class Renderer(Protocol[StateIn]):
    """Draws a state as an RGB frame (H x W x 3, uint8) without needing a display."""

    def render(self, state: StateIn) -> np.ndarray: ...


@runtime_checkable
class RowsOfChange(Protocol[StateIn]):
    """A renderer that can tell from two states alone which pixel rows of their frames may
    differ: the recorder then encodes only those rows' part of the new frame rather than
    comparing the two pictures (``playbench.games.frame.RowsChanged``). Every row left out
    must be equal in both renders; more rows than needed only cost time."""

    def changed_rows(self, before: StateIn, after: StateIn
                     ) -> Sequence[tuple[int, int]] | None:
        """Half-open ``(start, end)`` pixel-row ranges, or None when it cannot say (another
        level, another board size)."""


Solver = Callable[[Any, Any, int | None], "list[Any] | None"]
"""``solve(rules, state, max_moves)``: an optimal (fewest moves) move list, or None when no
solution of at most ``max_moves`` moves exists (None for ``max_moves`` means unbounded)."""


@dataclass(frozen=True)
class LevelFormat:
    """A file format for level collections.

    ``load(text, source)`` returns the levels (raising :class:`LevelError` naming file, line and
    level); ``dump(levels)`` writes them so that loading the result gives the same levels;
    ``sniff(text)`` says whether a text looks like this format (used to detect a file's format).
    """

    name: str
    suffixes: tuple[str, ...]
    load: Callable[[str, str], list[Level]]
    dump: Callable[[Sequence[Level]], str]
    sniff: Callable[[str], bool]


@dataclass(frozen=True)
class FileReader:
    """A reader for level files that are not one text in one format: a binary file, or a file
    that names other files (MageBench's pickled environments and its list of them).

    ``claims(path)`` says, cheaply and without raising, whether the file is this reader's (by its
    name or its first bytes); ``read(path)`` returns its levels or raises :class:`LevelError`
    naming the file. Files a reader claims are given to it before any text format is tried.
    """

    name: str
    claims: Callable[[Path], bool]
    read: Callable[[Path], list[Level]]


@dataclass(frozen=True)
class RuleOption:
    """A rule choice where the sources disagree; ``default`` is what PlayBench uses."""

    name: str
    choices: tuple[str, ...]
    default: str
    help: str


def level_rule_options(options: Sequence[RuleOption], level: Level,
                       given: Mapping[str, str] | None = None) -> dict[str, str]:
    """The rule options a task plays ``level`` under: each option's default, replaced by the
    value the level itself stores under the option's name (a level file can say which rules it
    is written for, e.g. an imported ING-VP Hanoi level's detected ``disk_order``), replaced by
    the ``given`` (explicit, already checked) choices, which always win. A stored value that is
    not one of the option's choices is ignored here; the rules report it when the level starts.
    """
    out = {o.name: o.default for o in options}
    for o in options:
        stored = level.meta.get(o.name)
        if isinstance(stored, str) and stored in o.choices:
            out[o.name] = stored
    out.update(given or {})
    return out


@dataclass(frozen=True)
class GameSpec:
    """Everything PlayBench knows about one board game."""

    name: str
    title: str
    make_rules: Callable[[Mapping[str, str]], Rules[Any, Any]]
    make_renderer: Callable[[Rules[Any, Any], Mapping[str, Any]], Renderer[Any]]
    solve: Solver
    formats: Mapping[str, LevelFormat]
    generate: Callable[..., list[Level]]
    completion_unit: float
    """Completion points lost per optimal move left (ING-VP: 12.5; queens 14.3; Sudoku 10)."""
    move_help: str
    options: tuple[RuleOption, ...] = ()
    default_format: str = ""
    describe: Callable[[Level], Mapping[str, Any]] | None = None
    """Short facts for level listings (e.g. Sokoban's size and box count)."""
    distance: Callable[[Any, Any, int | None], int | None] | None = None
    """``distance(rules, state, limit)``: the "moves left" completion counts, when it is not
    simply the optimal solution's length (Sudoku counts cells that differ from the solution).
    None when the state cannot be finished (or not within ``limit``)."""
    one_step_floor: int = 8
    """Fewest moves a one-step plan is scored over (ING-VP: 8; Sudoku 10, its blanks)."""
    r_best: Callable[[Any, Level], float | None] | None = None
    """``r_best(rules, level)``: MageBench's best total reward for the level (stored with it or
    from an optimal plan), where the game has a per-step reward; None elsewhere."""
    readers: tuple[FileReader, ...] = ()
    """Readers of the game's non-text level files (:class:`FileReader`), tried before
    ``formats`` on the files they claim."""

    def rule_options(self, given: Mapping[str, str] | None = None) -> dict[str, str]:
        """Fill defaults and reject unknown names or values with a message naming the option."""
        given = dict(given or {})
        known = {o.name: o for o in self.options}
        for name, value in given.items():
            if name not in known:
                valid = ", ".join(known) or "none"
                raise ValueError(f"unknown rule option {name!r} for {self.name} (valid: {valid})")
            if value not in known[name].choices:
                raise ValueError(
                    f"rule option {name}={value!r} is not one of {', '.join(known[name].choices)}"
                )
        return {o.name: given.get(o.name, o.default) for o in self.options}


class BoardEnv(Generic[State, Move]):
    """A synchronous, stateful play session over a game's pure rules.

    This is the piece both the app's loop and the Gymnasium adapter drive. ``snapshot`` and
    ``restore`` are cheap because states are immutable.
    """

    def __init__(self, spec: GameSpec, options: Mapping[str, str] | None = None,
                 render_options: Mapping[str, Any] | None = None) -> None:
        self.spec = spec
        self.options = spec.rule_options(options)
        self.rules: Rules[Any, Any] = spec.make_rules(self.options)
        self._render_options = dict(render_options or {})
        self._renderer: Renderer[Any] | None = None
        self._knows_rows = False
        self.level: Level | None = None
        self.state: Any = None

    def reset(self, level: Level) -> Any:
        self.level = level
        self.state = self.rules.start(level)
        return self.state

    def step(self, move: Any) -> Outcome[Any]:
        outcome = self.rules.apply(self.state, move)
        self.state = outcome.state
        return outcome

    def snapshot(self) -> Any:
        return self.state

    def restore(self, snapshot: Any) -> None:
        self.state = snapshot

    def solved(self) -> bool:
        return self.rules.is_solved(self.state)

    def text(self) -> str:
        return self.rules.encode(self.state)

    def state_hash(self) -> str:
        return hashlib.sha256(self.text().encode()).hexdigest()[:16]

    def legal_actions(self) -> list[str]:
        return [self.rules.format_move(m) for m in self.rules.legal_moves(self.state)]

    def _made_renderer(self) -> Renderer[Any]:
        if self._renderer is None:
            self._renderer = self.spec.make_renderer(self.rules, self._render_options)
            self._knows_rows = isinstance(self._renderer, RowsOfChange)
        return self._renderer

    def render(self) -> np.ndarray:
        return self._made_renderer().render(self.state)

    def changed_rows(self, before: Any, after: Any) -> Sequence[tuple[int, int]] | None:
        """The pixel rows in which the frames of two states may differ, when the game's
        renderer can tell (:class:`RowsOfChange`); None otherwise."""
        renderer = self._made_renderer()
        if not self._knows_rows:
            return None
        assert isinstance(renderer, RowsOfChange)
        return renderer.changed_rows(before, after)

    def moves_left(self, limit: int | None = None) -> int | None:
        """Moves from here to the goal as completion counts them (the optimal solution's length
        unless the game defines its own distance); None if none within ``limit``."""
        return moves_left(self.spec, self.rules, self.state, limit)


def moves_left(spec: GameSpec, rules: Rules[Any, Any], state: Any,
               limit: int | None = None) -> int | None:
    """See :meth:`BoardEnv.moves_left`."""
    if spec.distance is not None:
        return spec.distance(rules, state, limit)
    if rules.is_solved(state):
        return 0
    plan = spec.solve(rules, state, limit)
    return None if plan is None else len(plan)
