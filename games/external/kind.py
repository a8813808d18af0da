"""External harnesses as a task kind: the harness is the environment, its chat requests are
the observations and the replies are the actions.

The endpoint, the request queue, the wire format and the environment itself are an app feature
(``playbench.app.harness``); what stays a kind is what an episode is recorded and read back
under - the name ``external`` stored with every such episode, its one setting and budget, the
level text naming a (harness, task) pair, and that it cannot be resumed. The app finds this
kind through ``playbench.games.harness.HarnessTasks`` and hands ``make_env`` a live
``HarnessSession``; nothing else can make its environment. Its ``view`` names no surface the
Library plays, so the Library and ``playbench levels`` never list it for play.

A task is one (harness, task id) pair; its level text is that pair as JSON, so the episodes a
person answered through ``playbench serve-human`` and those a model answered through
``playbench proxy`` for the same harness task share a task and sit side by side in Compare and
Results. Tasks are made from requests (:func:`task_for`), never loaded from a pack.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from playbench.games.base import Level, LevelError, RuleOption
from playbench.games.harness import HarnessSession
from playbench.games.kind import Capabilities, EnvServices, Source
from playbench.games.replay_spec import ReplaySpec
from playbench.games.types import Budget, Setting, Task

if TYPE_CHECKING:
    from playbench.games.env import Env
    from playbench.games.kind import TaskKind

GAME = "external"
VIEW = "external"
"""The play surface: a request to answer (the app's "Answer a harness" view)."""

HARNESS_BUDGET = Budget(max_actions=1000)
"""The harness keeps its own budget; this one only stops a runaway conversation."""

SETTINGS: dict[str, Setting] = {s.name: s for s in (
    Setting("default", "both", history=True, budget=HARNESS_BUDGET,
            description="The harness's own requests as it sends them; one reply per request"),
)}


def task_level(harness: str, task_id: str) -> Level:
    """The level of one harness task (its text is what identifies it)."""
    text = json.dumps({"harness": harness, "task": task_id}, sort_keys=True)
    number = int(hashlib.sha256(text.encode("utf-8")).hexdigest()[:6], 16)
    return Level(GAME, text, number, f"{harness}: {task_id}", {"harness": harness,
                                                               "task_id": task_id})


def task_for(harness: str, task_id: str) -> Task:
    """The task an episode of ``(harness, task_id)`` records."""
    return Task(GAME, task_level(harness, task_id), {}, f"harness:{harness}")


def read_level(level: Level) -> tuple[str, str]:
    """``(harness, task id)`` of a level; ``LevelError`` if its text is not one."""
    try:
        data = json.loads(level.text)
    except json.JSONDecodeError as err:
        raise LevelError(f"an external task is a JSON object, not {level.text[:40]!r} ({err})",
                         level=level.number) from None
    if not isinstance(data, dict) or not isinstance(data.get("harness"), str) or \
            not isinstance(data.get("task"), str):
        raise LevelError('an external task is {"harness": ..., "task": ...}',
                         level=level.number)
    return data["harness"], data["task"]


class ExternalKind:
    """The ``external`` task kind (see the module docstring)."""

    name = GAME
    title = "External harness"
    help = ("Answer an outside harness's model calls: reply in text or build a tool call from "
            "the tools it offers")
    view = VIEW
    replay = ReplaySpec(resumable=False, reason=(
        "the outside harness sent its requests once and cannot be rewound to send them again"))
    undo = False
    rule_options: tuple[RuleOption, ...] = ()
    answers = None
    """Replies go back to the harness as they are; the harness reads them."""
    gym_actions = None
    capabilities = Capabilities(order=900)

    def settings(self) -> Mapping[str, Setting]:
        return SETTINGS

    def sources(self) -> list[Source]:
        """None: tasks arrive with the harness's requests."""
        return []

    def load(self, source: str, *, fmt: str | None = None) -> list[Level]:
        """``HARNESS/TASK`` names one task (for scripts and tests)."""
        harness, sep, task_id = source.partition("/")
        if not sep or not harness or not task_id:
            raise LevelError("an external task is named HARNESS/TASK", source=source)
        return [task_level(harness, task_id)]

    def make_env(self, task: Task, *, services: EnvServices | None = None,
                 render_options: Mapping[str, Any] | None = None,
                 render: bool = True) -> Env:
        """The env of a session the app's endpoint opened (``services.extra["session"]``)."""
        session = (services.extra if services else {}).get("session")
        if not isinstance(session, HarnessSession):
            raise LevelError("external tasks are played through `playbench serve-human` or "
                             "`playbench proxy`, which open a session per harness request")
        return session.open_env(GAME)

    def task_for(self, harness: str, task_id: str) -> Task:
        """The task an episode of ``(harness, task_id)`` records (``HarnessTasks``)."""
        return task_for(harness, task_id)

    def input_map(self) -> None:
        """A person answers in the request view, not on a board."""
        return None

    def split_plan(self, text: str) -> list[str]:
        return [line.strip() for line in text.splitlines() if line.strip()]

    def join_plan(self, texts: Sequence[str]) -> str:
        return "\n".join(texts)

    def thumbnail(self, level: Level, size: int) -> np.ndarray | None:
        return None

    def describe(self, level: Level) -> Mapping[str, Any]:
        harness, task_id = read_level(level)
        return {"harness": harness, "task": task_id}

    def check_level(self, level: Level) -> None:
        read_level(level)


KIND = ExternalKind()

if TYPE_CHECKING:  # mypy holds the kind to the TaskKind protocol
    _kind: TaskKind = KIND

__all__ = ["GAME", "HARNESS_BUDGET", "KIND", "SETTINGS", "VIEW", "ExternalKind", "read_level",
           "task_for", "task_level"]
