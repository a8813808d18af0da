"""What an episode tells its listeners (a view, a progress bar, a study's clock) while it runs,
and what it returns: the events in the order the loop sends them, and the result.

Kept apart from the loop itself (:mod:`~playbench.app.core.episode`): a view or a progress bar
that only follows episodes imports these and not the loop (nor the evaluators it scores with).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from playbench.app.core.player import PlayContext
from playbench.app.core.recorder import StepRecord
from playbench.app.core.types import Decision, Observation


@dataclass(frozen=True)
class Started:
    """The episode is under way: its first observation (or, resumed, the one after the
    recorded steps, which ``history`` holds so that a view need not read them back)."""

    episode_id: int
    observation: Observation
    resumed_steps: int
    history: tuple[StepRecord, ...] = ()
    carried: float = 0.0
    """Seconds already spent on the decision in flight before a resume (pause, crash)."""


@dataclass(frozen=True)
class Deciding:
    """The player is being asked for the next decision."""

    episode_id: int
    context: PlayContext
    observation: Observation | None = None
    """What the player is shown for this decision."""


@dataclass(frozen=True)
class Moved:
    """An action has been applied and the step is about to be recorded; a board view may
    show ``observation`` now instead of after the commit (``Stepped`` follows)."""

    episode_id: int
    index: int
    observation: Observation


@dataclass(frozen=True)
class Stepped:
    """A step has been committed (the recorder returned)."""

    episode_id: int
    record: StepRecord
    observation: Observation
    decision: Decision


@dataclass(frozen=True)
class Ended:
    """The episode's end has been recorded."""

    episode_id: int
    result: EpisodeResult


EpisodeEvent = Started | Deciding | Moved | Stepped | Ended
"""Everything a listener is called with, in this order: one ``Started``, then per decision a
``Deciding`` and per step a ``Moved`` and a ``Stepped``, and one ``Ended``."""

Listener = Callable[[EpisodeEvent], None]


@dataclass
class EpisodeResult:
    episode_id: int
    status: str
    end_reason: str | None
    scores: dict[str, float | None]
    steps: list[StepRecord] = field(default_factory=list)
