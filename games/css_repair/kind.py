"""CSS repair as a task kind: VisualAgentBench's CSS task, with PlayBench's own projects.

Registered as ``css-repair = "playbench.games.css_repair.kind:KIND"`` in the
``playbench.tasks`` entry-point group. Facts (docs/reference/web.md, "VAB CSS"): one CSS
property of a multi-file project changed or removed so that the page's SSIM to the target is
below 0.8; the player gets the target and current screenshots, the HTML and a hint, uses four
tools and says when it is fixed; ten rounds; success is a final SSIM above 0.9.

People play it in the app's CSS repair view (``view = "css"``), whose buttons make the same
tool calls a model makes; models play it through the tool-calling protocol, with this kind's
own prompt templates (``prompts/tools/``), which a person may override like any other.
Importing this module loads no browser code.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from playbench.games.base import Level, LevelError, RuleOption
from playbench.games.css_repair import plans, project
from playbench.games.css_repair.panel import Submit, ToolPanel
from playbench.games.css_repair.tools import CssAnswers
from playbench.games.jsonlines import json_list
from playbench.games.kind import Capabilities, EnvServices, Source
from playbench.games.packs import RangeError, select, split_source
from playbench.games.replay_spec import ReplaySpec
from playbench.games.types import Budget, Setting, Task

if TYPE_CHECKING:
    from playbench.games.capabilities import DemoMoves, DemoPolicies, LevelFiles, LibraryValues
    from playbench.games.env import Env
    from playbench.games.kind import TaskKind

VAB_BUDGET = Budget(max_actions=10)
"""VAB-CSS's ten rounds (web.md): every tool call is one round."""

SETTINGS: dict[str, Setting] = {s.name: s for s in (
    Setting("default", "both", budget=VAB_BUDGET,
            description="VAB-CSS: target and current screenshots, the HTML and a hint; one "
                        "tool call per round, ten rounds"),
    Setting("tools:both", "both", budget=VAB_BUDGET,
            description="As default: screenshots and text, one tool call per round"),
    Setting("tools:image", "image", budget=VAB_BUDGET,
            description="Screenshots only (the HTML and the hint are left out)"),
)}

ENV_OPTIONS = ("browser", "server", "limits", "targets")
"""Keys of :attr:`EnvServices.extra` the environment takes: a shared browser and resource
server (never closed by the env), sandbox limits and a target screenshot cache."""


PROPERTY_KINDS = (
    ("layout", ("display", "flex", "grid", "justify-", "align-", "position", "float",
                "order", "top", "left", "right", "bottom", "z-index", "overflow")),
    ("spacing", ("margin", "padding", "gap")),
    ("size", ("width", "height", "min-", "max-", "aspect-ratio")),
    ("typography", ("font", "line-height", "letter-spacing", "text-", "white-space",
                    "word-")),
    ("colour", ("color", "background", "opacity", "fill")),
    ("border", ("border", "outline", "box-shadow")),
)
"""Kinds of CSS property, by name prefix, for the Library's column (first match wins)."""


def property_kind(name: str) -> str:
    """The kind of a CSS property (``layout``, ``spacing``, ...; ``other`` when unknown)."""
    def named(prefix: str) -> bool:
        if prefix.endswith("-"):
            return name.startswith(prefix)
        return name == prefix or name.startswith(f"{prefix}-")
    for kind, prefixes in PROPERTY_KINDS:
        if any(named(p) for p in prefixes):
            return kind
    return "other"


class CssRepairKind:
    """The ``css-repair`` task kind (see the module docstring)."""

    name = project.GAME
    title = "CSS repair"
    help = ("Make the page look like the target: find the rules of an element, read a rule, "
            "edit one property (a new screenshot follows), revert, and say it is fixed.")
    capabilities = Capabilities(
        order=60,
        protocol_family="tools",
        prompt_dir=Path(__file__).resolve().parent / "prompts",
        library_help=("<b>Playing it yourself</b> opens it in Play, on the CSS repair tools: pick "
                      "an element, find its rules, show a rule, edit one property or revert the "
                      "last edit; each press is one round, recorded as the tool call a model "
                      "makes, and a new screenshot follows every edit. Say it is fixed when the "
                      "page matches the target (10 rounds).<br><br><b>A model or scripted "
                      "player</b> opens in Models > Model demo; the scripted solver restores the "
                      "changed property."),
        play_place="the CSS repair tools (Play)",
        library_columns=("Project", "Property kind", "Style sheets", "Rules"))
    """What the Library's task panel says about repairing a page; its columns for a task
    (``library_values``): the project, what kind of property broke (layout, spacing, size, ...;
    never the property, its rule or its value), and how much CSS there is to search; every
    setting plays through the tool-calling protocol (``family_of``)."""
    view = "css"
    replay = ReplaySpec(renders=True)
    """The state is the list of edits, so replaying the steps rebuilds it; whether a look-up
    finds an element and the SSIM scores come from the rendered page, so a replay renders."""
    undo = False
    """``revert_last_edit`` is the kind's own undo, counted as a round like in VAB."""
    rule_options: tuple[RuleOption, ...] = ()
    answers = CssAnswers()
    gym_actions = None

    def settings(self) -> Mapping[str, Setting]:
        return SETTINGS

    def sources(self) -> list[Source]:
        found = project.levels()
        names = {project.breakage_from_text(level.text).project for level in found}
        return [Source(project.BUNDLED, f"CSS repair: {len(names)} projects (bundled)",
                       len(found))]

    def load(self, source: str, *, fmt: str | None = None) -> list[Level]:
        """``css-repair[:RANGE]`` or a task file ``PATH[:RANGE]`` (a JSON list of breakages
        of the bundled projects), RANGE over task numbers."""
        name, wanted = split_source(source)
        path = project.TASKS if name == project.BUNDLED else Path(name)
        if not path.is_file():
            raise LevelError(f"no CSS-repair task set {name!r} (bundled: {project.BUNDLED})")
        found = project.levels(path)
        for level in found:
            self.check_level(level)
        if wanted is None:
            return found
        try:
            return select(found, wanted, name, noun="task")
        except RangeError as err:
            raise LevelError(str(err)) from None

    def level_formats(self) -> tuple[str, ...]:
        """A task file is a JSON list of task objects (``playbench levels --export``)."""
        return ("json",)

    def dump_levels(self, levels: Sequence[Level], fmt: str | None = None) -> str:
        """``levels`` as a task file :meth:`load` reads back."""
        return json_list(levels, self.name, fmt)

    def make_env(self, task: Task, *, services: EnvServices | None = None,
                 render_options: Mapping[str, Any] | None = None,
                 render: bool = True) -> Env:
        from playbench.games.css_repair.env import CssRepairEnv  # Playwright loads on play
        extra = (services or EnvServices()).extra
        options = {k: v for k, v in extra.items() if k in ENV_OPTIONS}
        env: Env = CssRepairEnv(render=render, **options)
        return env

    def input_map(self) -> None:
        """People act through the CSS repair view's tool forms, not on a board."""
        return None

    def split_plan(self, text: str) -> list[str]:
        """One tool call per line."""
        return [line.strip() for line in text.splitlines() if line.strip()]

    def join_plan(self, texts: Sequence[str]) -> str:
        return "\n".join(texts)

    def thumbnail(self, level: Level, size: int) -> np.ndarray | None:
        """No picture: the page exists only once a browser has rendered it."""
        return None

    def check_level(self, level: Level) -> None:
        project.check(project.breakage_from_text(level.text))

    def demo_moves(self, level: str, setting: str, actions: Sequence[str | None], policy: str,
                   rng: random.Random) -> list[str] | None:
        """The next action of an offline player for ``serve-model`` (``oracle``, ``noisy``,
        ``random``; see :mod:`playbench.games.css_repair.plans`), from the task and the actions
        so far alone; None for a policy this kind does not play."""
        return plans.next_moves(project.breakage_from_text(level), actions, policy, rng)

    def demo_policies(self) -> Mapping[str, Any]:
        """``css-repair:noisy`` for ``serve-model --policy``: the reference with wrong edits
        now and then (its moves come from :meth:`demo_moves`)."""
        return {"noisy": NoisyPolicy()}

    def library_values(self, level: Level) -> tuple[str, ...]:
        """One task's values under :attr:`library_columns`. Nothing here names the broken
        rule, the property or a value: the hint already says what looks wrong."""
        b = project.breakage_from_text(level.text)
        sheets = project.load_project(b.project).sheets
        rules = sum(1 for sheet in sheets for _ in sheet.rules())
        return (b.project, property_kind(b.property), str(len(sheets)), str(rules))

    def tool_panel(self, submit: Submit) -> ToolPanel:
        """A fresh tool panel for a person's episode (the app's CSS surface draws it)."""
        return ToolPanel(submit)

    def describe(self, level: Level) -> Mapping[str, Any]:
        """The Library's task row: number, hint as the objective, project, how it is judged."""
        b = project.breakage_from_text(level.text)
        return {"task": level.number, "intent": f"{b.project}: {b.hint}",
                "difficulty": b.project, "evaluators": "SSIM to the target above 0.9",
                "project": b.project, "hint": b.hint, "id": b.id}


class NoisyPolicy:
    """The ``noisy`` offline player as ``serve-model`` names policies (its moves come from the
    kind's :meth:`CssRepairKind.demo_moves`, which the server asks first)."""

    name = "noisy"
    needs_position = False

    def answer(self, pos: Any, hint: Any, rng: random.Random) -> list[str]:
        return plans.next_moves(project.breakage_from_text(hint.level),
                                [a for a, _ in hint.steps], self.name, rng) or []


KIND = CssRepairKind()

if TYPE_CHECKING:  # mypy holds the kind to the protocols it means to implement
    _kind: TaskKind = KIND
    _demomoves: DemoMoves = KIND
    _demopolicies: DemoPolicies = KIND
    _libraryvalues: LibraryValues = KIND
    _levelfiles: LevelFiles = KIND

__all__ = ["KIND", "CssRepairKind", "SETTINGS", "VAB_BUDGET"]
