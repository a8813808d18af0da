"""A board game as a task kind: :class:`BoardKind` wraps a :class:`playbench.games.base.GameSpec`
and the few things only the game's package knows (input map, answer format, plan syntax, undo, the
Gymnasium action list, level packs) into a :class:`playbench.games.kind.TaskKind`.

A board game package (bundled or a plugin) builds one and exports it for the
``playbench.tasks`` entry point::

    # mygame/kind.py
    from playbench.games.answers import Answers
    from playbench.games.board_kind import BoardKind
    from mygame import SPEC

    KIND = BoardKind(SPEC, help="Click a cell to flip it.", input_map=MyInput,
                     answers=MyAnswers(SPEC.name), gym_actions=("0", "1", ...))

    # pyproject.toml
    [project.entry-points."playbench.tasks"]
    mygame = "mygame.kind:KIND"

Only ``spec`` and ``help`` are required; everything else has a plain default (no input map, no
answer format, no undo, not a Gymnasium env, no bundled packs). Settings: every board kind is
played in ING-VP's six settings, ``default`` and the two tool settings; ``magebench=True`` adds
MageBench's global and online settings. Budgets follow the papers (docs/reference/puzzles.md):
ING-VP multi-step 50 actions, one-step one decision of any length, MageBench 50 actions (global:
in one decision).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from playbench.games.base import GameSpec, Level, LevelError, RuleOption
from playbench.games.kind import (
    LAST,
    AnswerFormat,
    Capabilities,
    EnvServices,
    InputMap,
    PlayNotes,
    Source,
)

if TYPE_CHECKING:
    from playbench.games.capabilities import LevelFiles
    from playbench.games.kind import TaskKind
from playbench.games.level_packs import Pack
from playbench.games.plans import Plans
from playbench.games.replay_spec import RESUMABLE
from playbench.games.types import Budget, Setting, Task

VIEW = "board"


def board_settings(*, magebench: bool = False) -> dict[str, Setting]:
    """The settings a board kind is played in, with their default budgets, in listing order."""
    multi = Budget(max_actions=50)                      # ING-VP multi-step: 50 calls, 1 action
    one = Budget(max_actions=None, max_decisions=1)     # ING-VP one-step: the whole list at once
    out = [Setting("default", "both", budget=multi,
                   description="Everything shown; one action per decision")]
    for obs in ("image", "text"):
        out += [
            Setting(f"ingvp:{obs}-multi", obs, budget=multi,
                    description=f"ING-VP: {obs} each step, one action per call, no history"),
            Setting(f"ingvp:{obs}-multi-history", obs, history=True, undo=True, budget=multi,
                    description=f"ING-VP: {obs} each step, earlier outputs shown, undo where "
                                f"allowed"),
            Setting(f"ingvp:{obs}-one", obs, one_step=True, budget=one,
                    description=f"ING-VP: first {obs} only, the whole action list in one answer"),
        ]
    if magebench:
        # MageBench: 50 steps; global = one answer holding the whole list.
        out += [
            Setting("magebench:global", "image", one_step=True,
                    budget=Budget(max_actions=50, max_decisions=1),
                    description="MageBench Global: first frame only, the whole action list"),
            Setting("magebench:online", "image", history=True, budget=Budget(max_actions=50),
                    description="MageBench Online: one action per call, recent actions and "
                                "frames"),
        ]
    out += [
        Setting("tools:image", "image", budget=multi,
                description="Actions offered as function tools; image"),
        Setting("tools:text", "text", budget=multi,
                description="Actions offered as function tools; text"),
    ]
    return {s.name: s for s in out}


class BoardKind:
    """One board game as a task kind (see the module docstring for how to build one).

    ``help``: one line telling a person how to give actions on the board view;
    ``input_map``: makes a fresh :class:`playbench.games.kind.InputMap` for each play view;
    ``answers``: the moves' format in model answers (:class:`playbench.games.answers.Answers`);
    ``plans``: how a typed one-step plan splits into moves (default:
    :class:`playbench.games.plans.Plans`
    over ``answers``); ``undo``: whether the history settings offer undo; ``gym_actions`` and
    ``gym_name``: the Gymnasium ``Discrete`` action list and the ``<Name>`` of
    ``playbench/<Name>-v0``; ``own_reward``: Gymnasium reward is the rules' own per-step reward
    (else 1.0 on solving); ``magebench``: also offer MageBench's settings; ``foreign_answer``:
    an ING-VP answer value that is not a move of this kind (for the offline server's noise);
    ``packs``: how the bundled level packs are built (:mod:`playbench.games.build_packs`);
    ``order``:
    the kind's place in listings (:meth:`playbench.games.kind.Registry.listing`); ``pack_dir``: the
    directory of bundled level packs (default ``resources/levels/<name>``; a plugin passes a
    directory inside its own package); ``prompt_dir``: a directory of prompt templates searched
    before PlayBench's own (a plugin's ``ingvp/games/<name>.j2``; see
    :attr:`playbench.games.kind.TaskKind.prompt_dir`); ``notes``: what the Play view tells a person
    about the rules (:class:`playbench.games.kind.PlayNotes`); ``compat_exceptions``: per
    compatibility
    profile (:mod:`playbench.games.compat`), the setting flags where this kind's published code
    differs from the profile (ING-VP's Maze code stops a one-step plan at the goal).
    The keyword arguments that describe rather than build (``order``, ``prompt_dir``,
    ``notes``, ``foreign_answer``, ``compat_exceptions``, ``gym_name``, ``own_reward``, and the
    spec's ``move_help``) become the kind's :attr:`capabilities`
    (:class:`playbench.games.capabilities.Capabilities`).
    The object never changes after it is built.
    """

    view = VIEW
    replay = RESUMABLE
    """Rules are pure functions of a state: replaying the actions rebuilds every state."""

    def __init__(self, spec: GameSpec, *, help: str,
                 input_map: Callable[[], InputMap] | None = None,
                 answers: AnswerFormat | None = None, plans: Plans | None = None,
                 undo: bool = False, gym_actions: Sequence[str] | None = None,
                 gym_name: str | None = None, own_reward: bool = False,
                 magebench: bool = False, foreign_answer: Any = "?",
                 packs: Sequence[Pack] = (), order: int = LAST,
                 pack_dir: Path | None = None, prompt_dir: Path | None = None,
                 notes: PlayNotes | None = None,
                 compat_exceptions: Mapping[str, Mapping[str, Any]] | None = None) -> None:
        self.spec = spec
        self.help = help
        self._input_map = input_map
        self.answers = answers
        self.plans = plans if plans is not None else Plans(answers)
        self.undo = undo
        self.gym_actions = tuple(gym_actions) if gym_actions is not None else None
        self.magebench = magebench
        self.packs = tuple(packs)
        self._pack_dir = Path(pack_dir) if pack_dir is not None else None
        self.capabilities = Capabilities(
            order=order, prompt_dir=Path(prompt_dir) if prompt_dir is not None else None,
            notes=notes, move_help=spec.move_help, foreign_answer=foreign_answer,
            compat_exceptions=dict(compat_exceptions or {}), gym_name=gym_name,
            own_reward=own_reward)
        for pack in self.packs:
            if pack.game != spec.name:
                raise ValueError(f"pack {pack.key} does not belong to {spec.name}")

    # --- what the kind is -------------------------------------------------------------------

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def title(self) -> str:
        return self.spec.title

    @property
    def rule_options(self) -> tuple[RuleOption, ...]:
        return self.spec.options

    def settings(self) -> Mapping[str, Setting]:
        return board_settings(magebench=self.magebench)

    # --- levels -----------------------------------------------------------------------------

    @property
    def pack_dir(self) -> Path:
        """Where the bundled level packs are (given, else ``resources/levels/<name>``)."""
        if self._pack_dir is not None:
            return self._pack_dir
        from playbench.games.packs import pack_dir
        return pack_dir(self.name)

    def sources(self) -> list[Source]:
        from playbench.games.packs import list_packs, load_file
        about = {p.name: p for p in self.packs}
        out = []
        for name in list_packs(self.name, self.pack_dir):
            pack = about.get(name)
            if pack is not None:
                out.append(Source(name, pack.about, pack.size))
            elif self._pack_dir is None:
                out.append(Source(name, name, None))
            else:  # a plugin's own packs: a title naming the kind, and the count read once
                files = sorted(self.pack_dir.glob(f"{name}.*"))
                count = len(load_file(self.spec, files[0])) if files else None
                out.append(Source(name, f"{self.title}: {name}", count))
        return out

    def load(self, source: str, *, fmt: str | None = None) -> list[Level]:
        from playbench.games.packs import resolve
        return list(resolve(self.spec, source, fmt, directory=self.pack_dir).levels)

    def level_formats(self) -> tuple[str, ...]:
        """The level file formats the game writes, its own first."""
        own = self.spec.default_format
        return (own, *(f for f in self.spec.formats if f != own))

    def dump_levels(self, levels: Sequence[Level], fmt: str | None = None) -> str:
        """``levels`` in ``fmt`` (default: the game's own format)."""
        name = fmt or self.spec.default_format
        found = self.spec.formats.get(name)
        if found is None:
            raise LevelError(f"unknown format {name!r} for {self.name} "
                             f"(valid: {', '.join(self.level_formats())})")
        return found.dump(list(levels))

    def check_level(self, level: Level) -> None:
        from playbench.games.base import BoardEnv
        BoardEnv(self.spec).reset(level)

    def describe(self, level: Level) -> Mapping[str, Any]:
        return dict(self.spec.describe(level)) if self.spec.describe else {}

    def thumbnail(self, level: Level, size: int) -> np.ndarray | None:
        from PIL import Image

        from playbench.games.base import BoardEnv
        env: BoardEnv[Any, Any] = BoardEnv(self.spec)
        try:
            env.reset(level)
            frame = env.render()
        except (LevelError, ValueError):
            return None
        img = Image.fromarray(frame)
        img.thumbnail((size, size), Image.Resampling.LANCZOS)
        return np.ascontiguousarray(np.asarray(img, dtype=np.uint8))

    # --- playing ----------------------------------------------------------------------------

    def make_env(self, task: Task, *, services: EnvServices | None = None,
                 render_options: Mapping[str, Any] | None = None,
                 render: bool = True) -> Any:
        from playbench.games.env import BoardTaskEnv
        return BoardTaskEnv(self.spec, dict(task.options), dict(render_options or {}), render)

    def input_map(self) -> InputMap | None:
        return self._input_map() if self._input_map is not None else None

    def split_plan(self, text: str) -> list[str]:
        return self.plans.split(text)

    def join_plan(self, texts: Sequence[str]) -> str:
        return self.plans.join(texts)

    def __repr__(self) -> str:
        return f"BoardKind({self.name!r})"


if TYPE_CHECKING:  # mypy holds every board kind to the protocols it implements
    def _conforms(kind: BoardKind) -> tuple[TaskKind, LevelFiles]:
        return kind, kind
