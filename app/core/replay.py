"""Re-playing a recorded episode to check it: same level, same seed, same actions, same states,
same scores. A mismatch means the record was altered or the rules changed since it was made.

What is compared comes from the kind's :class:`~playbench.games.replay_spec.ReplaySpec`: a kind
whose validity or scores come from what it draws is replayed with rendering; an episode of a
setting played against the wall clock (a browser game in real time) is checked only for what
its actions alone decide - each recorded action reads and is accepted as it was - and the
report says so (``VerifyReport.limited``). docs/replay.md."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from playbench.app.core.budget import Budget
from playbench.app.core.play import play
from playbench.app.core.recorder import MemoryRecorder, StepRecord
from playbench.app.core.replay_player import ReplayPlayer
from playbench.app.core.runs import records_of, task_of
from playbench.app.core.settings import get_setting
from playbench.db.store import EpisodeRow, Store
from playbench.evaluators.agent import agent_metrics
from playbench.games.kind import default_registry

# End reasons that follow from the actions alone (time limits and give-ups depend on the clock
# or the person and are not compared).
_DETERMINISTIC_ENDS = {"solved", "budget", "repeated_actions", "parse_failures"}
_EXACT_FIELDS = ("action", "valid", "changed", "state_hash", "invalid_kind")
_ACTION_FIELDS = ("action", "valid", "invalid_kind")
"""What a clocked setting's replay is compared on: the actions and whether each was taken."""


@dataclass
class VerifyReport:
    episode_id: int
    steps_checked: int = 0
    problems: list[str] = field(default_factory=list)
    limited: str | None = None
    """Set when only part of the record could be compared, saying why (a clocked setting)."""

    @property
    def ok(self) -> bool:
        return not self.problems


def _same(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


async def verify_episode(store: Store, episode_id: int) -> VerifyReport:
    """Replay episode ``episode_id`` and list every difference from its record."""
    row = store.episode(episode_id)
    stored = records_of(store.steps(episode_id))
    report = VerifyReport(episode_id)
    try:
        await _compare(row, stored, report)
    except Exception as err:  # a row that cannot be replayed at all (unknown game, bad level)
        report.problems.append(f"cannot be replayed: {str(err) or type(err).__name__}")
    return report


async def _compare(row: EpisodeRow, stored: list[StepRecord], report: VerifyReport) -> None:
    """Replay ``row``'s episode and add every difference from ``stored`` to ``report``."""
    ep = row.episode
    task = task_of(row)
    if task.level.content_hash != row.task.level_hash:
        report.problems.append("the level text does not match its recorded hash")
    spec = default_registry().get(task.game).replay
    setting = ep.setting or "default"
    exact = spec.exact(setting)
    if not exact:
        report.limited = (f"setting {setting} is played against the wall clock: only the "
                          "actions were compared, not states or scores")
    memory = MemoryRecorder()
    result = await play(task, ReplayPlayer(stored, ep.id),
                        setting=get_setting(setting, task.game),
                        budget=Budget.from_dict(ep.budget), recorder=memory, seed=ep.seed,
                        render=spec.renders)
    replayed = result.steps
    if exact and ep.start_state and memory.episodes[1].start.start_state != ep.start_state:
        report.problems.append("start state differs from the recorded one")
    if len(replayed) != len(stored):
        if exact:
            report.problems.append(f"{len(stored)} steps recorded, {len(replayed)} replayed")
        else:  # the game ended at another moment of its clock: compare the steps there are
            report.limited = (f"{report.limited}; the replay ended after {len(replayed)} of "
                              f"{len(stored)} steps")
    fields = _EXACT_FIELDS if exact else _ACTION_FIELDS
    for a, b in zip(stored, replayed, strict=False):
        report.steps_checked += 1
        for name in fields:
            if getattr(a, name) != getattr(b, name):
                report.problems.append(f"step {a.index}: {name} recorded {getattr(a, name)!r}, "
                                       f"replayed {getattr(b, name)!r}")
        if exact and not _same(a.reward, b.reward):
            report.problems.append(f"step {a.index}: reward recorded {a.reward}, "
                                   f"replayed {b.reward}")
    if ep.status == "done" and exact:
        if ep.end_reason in _DETERMINISTIC_ENDS and result.end_reason != ep.end_reason:
            report.problems.append(f"ended {result.end_reason!r}, recorded {ep.end_reason!r}")
        # Agent figures (tokens, cost, latency) come from the recorded steps, which the replay
        # has just checked one by one; a replay costs no tokens and takes no model time.
        expected = {**result.scores, **agent_metrics(stored)}
        for name, value in sorted(row.scores.items()):
            if name not in expected:
                report.problems.append(f"score {name} recorded but not computed")
            elif not _same(value, expected[name]):
                report.problems.append(f"score {name}: recorded {value}, "
                                       f"replayed {expected[name]}")
