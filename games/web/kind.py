"""Web tasks as a task kind: VisualWebArena-style tasks played in Chromium.

One :data:`KIND` object tells the app everything it needs about web tasks: their settings and
VWA's budget, where tasks come from (the bundled sets and VWA task files), the environment,
the facts a Library row shows, and that an episode on a live site can be neither resumed nor
undone. Registered as ``web = "playbench.games.web:KIND"`` in the ``playbench.tasks`` entry-point
group.

Importing this module loads no browser code: Playwright is imported when an environment is made.
Facts: docs/reference/web.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from playbench.games.base import Level, LevelError, RuleOption
from playbench.games.browser.actions import TYPE_RULE
from playbench.games.jsonlines import json_list
from playbench.games.kind import Capabilities, EnvServices, Source
from playbench.games.replay_spec import ReplaySpec
from playbench.games.types import Budget, Setting, Task
from playbench.games.web import sources
from playbench.games.web.tasks import GAME, WebTaskError, load_file, task_from_level

if TYPE_CHECKING:
    from playbench.games.capabilities import LevelFiles
    from playbench.games.env import Env
    from playbench.games.kind import TaskKind

VWA_BUDGET = Budget(max_actions=30, stop_after_unparseable=3, stop_after_identical=5)
"""VisualWebArena's defaults (web.md, from VWA's code: ``max_steps`` 30, early stop after 3
consecutive unparseable outputs or 5 identical actions in a row). Defined here only; every
setting of this kind starts from it."""

MOVES = ("click [id], hover [id], type [id] [text], press [keys], scroll [up|down], new_tab, "
         "tab_focus [i], close_tab, goto [url], go_back, go_forward, stop [answer]")

SETTINGS: dict[str, Setting] = {s.name: s for s in (
    # ``default`` shows what ``vwa:som`` shows, so every kind has a ``default``.
    Setting("default", "both", budget=VWA_BUDGET,
            description="Everything shown; one action per decision (as vwa:som)"),
    # VWA's Set-of-Marks agent sees the marked screenshot and the [id] [tag] [text] list; its
    # text-only agents see page text alone (web.md). Both answer with one action per call.
    Setting("vwa:som", "both", budget=VWA_BUDGET,
            description="VWA Set-of-Marks: marked screenshot + element list, one action per call"),
    Setting("vwa:text", "text", budget=VWA_BUDGET,
            description="VWA text only: the element list without the screenshot, one action"),
)}

ENV_OPTIONS = ("browser", "sites", "config", "plan", "default_viewport", "load_timeout_ms",
               "action_timeout_ms", "axtree")
"""Keys of :attr:`EnvServices.extra` passed on to :class:`~playbench.games.web.env.WebTaskEnv`: a
browser shared by many episodes (never closed by the env), site overrides
(``{"CLASSIFIEDS": (url, reset_url)}``), web settings, the oracle's plan, page options."""


@dataclass(frozen=True)
class TaskFacts:
    """What a person choosing a web task wants to see before starting it."""

    task_id: int
    intent: str
    difficulty: str
    evaluators: tuple[str, ...]
    images: int
    reference: int
    start: str
    """The start page(s), with the site placeholders as written (``__CLASSIFIEDS__``)."""


def task_facts(level: Level) -> TaskFacts:
    """The listing facts of one task level (a task that cannot be read is described with its
    problem as the objective, so that starting it explains itself)."""
    try:
        task = task_from_level(level)
    except WebTaskError as err:
        return TaskFacts(level.number, f"(unreadable task: {err})", "-", (), 0, 0, "")
    config = task.config
    difficulty = str(config.get("overall_difficulty") or config.get("reasoning_difficulty")
                     or "-")
    kinds = tuple(str(k) for k in (task.eval.get("eval_types") or ()))
    return TaskFacts(task.task_id, task.intent, difficulty, kinds, len(task.images),
                     len(task.reference), " and ".join(task.start_urls))


class WebKind:
    """The ``web`` task kind (see the module docstring)."""

    name = GAME
    title = "Web tasks"
    help = ("VisualWebArena, one action per step - click, type and scroll in the page, or "
            "write an action: " + MOVES)
    capabilities = Capabilities(
        protocol_family="vwa",
        move_help=MOVES,
        library_help=("<b>Playing it yourself</b> opens it in Play, in the browser pane: the page "
                      "runs in Chromium, and your clicks, typing, wheel and keys are recorded as "
                      "the actions a model sends (<i>click [id]</i>, <i>type [id] [text]</i>, "
                      "<i>scroll [down]</i>, <i>press [keys]</i>, <i>go_back</i> ...), counted "
                      "against the same budget. You finish with the answer box (<i>stop "
                      "[answer]</i>).<br><br><b>A model or scripted player</b> opens in Models > "
                      "Model demo, showing the page as the model sees it; the scripted solver "
                      "replays the task's reference actions.<br><br>Settings: <i>default</i> and "
                      "<i>vwa:som</i> show the model the screenshot with numbered boxes and the "
                      "element list; <i>vwa:text</i> the list only."))
    """How a model writes one action (the prompt's and the play view's action help), and what
    the Library's task panel says about playing web tasks."""
    view = "browser"
    replay = ReplaySpec(resumable=False, reason=(
        "a site keeps what earlier steps did on its server (posts, carts, logins), so "
        "replaying the steps into a fresh page does not rebuild the page the episode left"))
    undo = False
    """A browser cannot be snapshotted; no web setting offers undo (web.md)."""
    rule_options: tuple[RuleOption, ...] = (TYPE_RULE,)
    """``type_field``: VWA's ``type`` keeps a field's text (default) or clears it first."""
    answers = None
    """The VWA protocol reads its own action grammar (``playbench.games.browser.actions``)."""
    gym_actions = None

    def settings(self) -> Mapping[str, Setting]:
        return SETTINGS

    def sources(self) -> list[Source]:
        out = []
        for name in sources.bundled_names():
            try:
                count: int | None = len(load_file(sources.bundled_dir() / f"{name}.json"))
            except LevelError:
                count = None
            out.append(Source(name, f"{name} (bundled)", count))
        return out

    def load(self, source: str, *, fmt: str | None = None) -> list[Level]:
        """``FILE[:RANGE]`` or ``NAME[:RANGE]``, RANGE over task ids (``fmt`` is not used:
        there is one task file format)."""
        return sources.load_levels(source)

    def level_formats(self) -> tuple[str, ...]:
        """A task file is a JSON list of task objects (``playbench levels --export``)."""
        return ("json",)

    def dump_levels(self, levels: Sequence[Level], fmt: str | None = None) -> str:
        """``levels`` as a task file :meth:`load` reads back."""
        return json_list(levels, self.name, fmt)

    def make_env(self, task: Task, *, services: EnvServices | None = None,
                 render_options: Mapping[str, Any] | None = None,
                 render: bool = True) -> Env:
        from playbench.games.web.env import (
            WebTaskEnv,  # Playwright loads only when a task is played
        )
        services = services or EnvServices()
        options = {k: v for k, v in services.extra.items() if k in ENV_OPTIONS}
        return WebTaskEnv(judge=services.judge, vqa=services.vqa,
                          judge_named=services.judge_named, config_dir=services.config_dir,
                          **options)

    def input_map(self) -> None:
        """People act in the browser pane, not on a board."""
        return None

    def split_plan(self, text: str) -> list[str]:
        """One action per line (a web action's text may hold spaces)."""
        return [line.strip() for line in text.splitlines() if line.strip()]

    def join_plan(self, texts: Sequence[str]) -> str:
        return "\n".join(texts)

    def thumbnail(self, level: Level, size: int) -> np.ndarray | None:
        """No picture: the start page exists only once a browser has loaded it."""
        return None

    def check_level(self, level: Level) -> None:
        """A web task can start when its text reads as a task (the site is checked when an
        episode opens it)."""
        task_from_level(level)

    def describe(self, level: Level) -> Mapping[str, Any]:
        facts = task_facts(level)
        return {"task": facts.task_id, "intent": facts.intent,
                "difficulty": facts.difficulty, "evaluators": ", ".join(facts.evaluators),
                "images": facts.images, "reference": facts.reference, "start": facts.start}


KIND = WebKind()

if TYPE_CHECKING:  # mypy holds the kind to the protocols it means to implement
    _kind: TaskKind = KIND
    _levelfiles: LevelFiles = KIND

__all__ = ["KIND", "WebKind", "VWA_BUDGET", "SETTINGS", "TaskFacts", "task_facts", "MOVES"]
