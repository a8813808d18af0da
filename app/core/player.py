"""The player protocol: where actions come from is the only thing players differ in."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from playbench.app.core.settings import Setting
from playbench.app.core.task import Task
from playbench.app.core.types import Action, Decision, Observation


@dataclass(frozen=True)
class PastStep:
    """One earlier step as a player may be shown it (history settings, resume)."""

    index: int
    decision: int
    action: str | None
    raw: str
    valid: bool
    reason: str | None


@dataclass(frozen=True)
class PlayContext:
    """Everything about the episode a player may use besides the observation.

    The same context is given to every kind of player; a setting that hides history hides it
    from humans and models alike (the UI and the prompt both read ``setting``).
    """

    task: Task
    setting: Setting
    step: int
    decision: int
    actions_left: int | None
    decisions_left: int | None
    seconds_left: float | None
    feedback: str | None
    history: Sequence[PastStep]
    parse: Callable[[str], Action]
    vocabulary: Callable[[], list[str]]
    oracle: Callable[[], list[str] | None]
    seed: int
    extra: Mapping[str, Any] = field(default_factory=dict)


class Player(Protocol):
    """Anything that can answer an observation with a decision.

    Optional: ``recall(observation, context)``, called by a resume for each recorded decision
    it re-applies, with what the player was shown before it (players that remember earlier
    observations rebuild that memory; others need not have it)."""

    kind: str          # "human" | "model" | "script"
    name: str          # the participant's name in the database
    spec: str          # how it was asked for: "solver", "model:NAME", "human", "replay:12"

    def details(self) -> dict[str, Any]:
        """Facts about the player recorded with the participant (never secrets)."""

    async def act(self, observation: Observation, context: PlayContext) -> Decision: ...


@runtime_checkable
class TakesInstructions(Protocol):
    """A player that can be given a study's instructions before it plays (a model player puts
    them in its prompt where the setting allows; people read them on the consent screen)."""

    def take_instructions(self, text: str) -> None: ...


class PlayerFactory(Protocol):
    """Makes a fresh player for each episode of a run and releases what those players share
    (a model client, a stand-in endpoint) when the run is over.

    ``resumed`` gives the player that continues a recorded episode after ``steps_done`` steps
    (a replaying player skips the decisions already recorded; others start afresh).
    """

    def __call__(self, task: Task, repeat: int) -> Player: ...

    def resumed(self, task: Task, steps_done: int) -> Player: ...

    async def aclose(self) -> None: ...


class SimpleFactory:
    """A :class:`PlayerFactory` around a plain ``(task, repeat) -> player`` function, for
    players that hold nothing to release and resume like new ones."""

    def __init__(self, make: Callable[[Task, int], Player]) -> None:
        self._make = make

    def __call__(self, task: Task, repeat: int) -> Player:
        return self._make(task, repeat)

    def resumed(self, task: Task, steps_done: int) -> Player:
        return self._make(task, 0)

    async def aclose(self) -> None:
        return None
