"""Effort parity in a study's report: the time and action budgets each participant actually
played under beside the protocol's, the time each spent per task, and every way an episode
departed from the protocol (another setting, budget or rule options; post-hoc rules)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from playbench.app.results.leaderboard import Leaderboard
from playbench.app.studies.protocol import Protocol, ProtocolTask
from playbench.db.episodes import EpisodeInfo
from playbench.db.store import EpisodeRow

BUDGET_FIELDS = ("max_actions", "seconds", "action_seconds")


@dataclass(frozen=True)
class TaskTime:
    """One episode of the study: who, which task, and the time and actions it took."""

    participant: str
    kind: str
    task: str
    role: str
    """``scored``, ``check`` or ``practice``."""
    status: str
    actions: int
    active_seconds: float
    """Decision time summed over its steps."""
    wall_seconds: float | None
    """Start to end (pauses within the episode included); None while unfinished."""


@dataclass(frozen=True)
class BudgetLine:
    """The budgets one participant played under (or the protocol's, first), side by side."""

    who: str
    kind: str
    episodes: int | None
    max_actions: str
    seconds: str
    action_seconds: str
    mean_actions: float | None
    mean_active_seconds: float | None


def _seconds(start: datetime | None, end: datetime | None) -> float | None:
    if start is None or end is None:
        return None
    start = start if start.tzinfo else start.replace(tzinfo=UTC)
    end = end if end.tzinfo else end.replace(tzinfo=UTC)
    return max(0.0, (end - start).total_seconds())


def _role(protocol: Protocol, key: str, practice: bool) -> str:
    if practice:
        return "practice"
    try:
        return "check" if protocol.task(key).check is not None else "scored"
    except KeyError:
        return "scored"


def _who(row: EpisodeRow) -> str:
    return f"{row.participant.kind}:{row.participant.name}"


def task_times(rows: Sequence[EpisodeRow], think: Mapping[int, float],
               protocol: Protocol) -> list[TaskTime]:
    """Every episode of the study, by participant and task key."""
    out = []
    for r in rows:
        e = r.episode
        key = str((e.meta or {}).get("study_task", ""))
        out.append(TaskTime(_who(r), r.participant.kind, key, _role(protocol, key, e.practice),
                            e.status, e.n_steps, think.get(e.id, 0.0) / 1000.0,
                            _seconds(e.started, e.ended)))
    return sorted(out, key=lambda t: (t.kind != "human", t.participant, t.role == "practice",
                                      t.task))


def _values(values: Iterable[Any]) -> str:
    """Distinct budget values as text: ``40``, ``30, 40``; ``none`` for no limit."""
    seen = sorted({"none" if v is None else f"{v:g}" for v in values})
    return ", ".join(seen) if seen else "none"


def budget_lines(rows: Sequence[EpisodeRow], think: Mapping[int, float],
                 protocol: Protocol) -> list[BudgetLine]:
    """The protocol's budgets of its scored tasks, then each participant's recorded budgets
    over their non-practice episodes, with the actions and decision time they used."""
    scored = protocol.scored
    actions, seconds, per_action = (_values(t.budget.get(f) for t in scored)
                                     for f in BUDGET_FIELDS)
    lines = [BudgetLine("study protocol", "protocol", None, actions, seconds, per_action,
                        None, None)]
    by_who: dict[str, list[EpisodeRow]] = {}
    for r in rows:
        if not r.episode.practice:
            by_who.setdefault(_who(r), []).append(r)
    for who in sorted(by_who, key=lambda w: (not w.startswith("human:"), w)):
        eps = by_who[who]
        done = [r.episode for r in eps if r.episode.status == "done"]
        actions, seconds, per_action = (_values((r.episode.budget or {}).get(f) for r in eps)
                                         for f in BUDGET_FIELDS)
        lines.append(BudgetLine(
            who, eps[0].participant.kind, len(eps), actions, seconds, per_action,
            sum(e.n_steps for e in done) / len(done) if done else None,
            sum(think.get(e.id, 0.0) for e in done) / 1000.0 / len(done) if done else None))
    return lines


def deviations(rows: Sequence[EpisodeRow], protocol: Protocol, board: Leaderboard
               ) -> list[str]:
    """What departed from the protocol: post-hoc exclusion rules, episodes played in
    another setting, budget or rule options than their task's, and episodes left out of the
    scores because they did not finish."""
    out = [f"post-hoc exclusion rule {r.text()!r} (added {r.added or 'at an unknown time'}, "
           "after data collection)" for r in protocol.exclusions if r.post_hoc]
    found: dict[tuple[str, str], int] = {}
    for r in rows:
        e = r.episode
        try:
            task = protocol.task(str((e.meta or {}).get("study_task", "")))
        except KeyError:
            problems = ["an episode that is not one of the study's tasks"]
        else:
            problems = _departures(e, task)
        for p in problems:
            found[(_who(r), p)] = found.get((_who(r), p), 0) + 1
    for (who, what), n in sorted(found.items()):
        out.append(f"{who}: {what} ({n} episode{'s' if n != 1 else ''})")
    for status, n in sorted(board.excluded.items()):
        out.append(f"{n} {status} episode{'s' if n != 1 else ''} left out of the scores "
                   "(only finished episodes count)")
    return out


def _departures(e: EpisodeInfo, task: ProtocolTask) -> list[str]:
    """How one episode's setting, budget and rule options differ from its task's."""
    problems = []
    if e.setting != task.setting:
        problems.append(f"setting {e.setting!r} instead of {task.setting!r} on {task.key}")
    budget = e.budget or {}
    for f in sorted(set(budget) | set(task.budget)):
        if budget.get(f) != task.budget.get(f):
            problems.append(f"budget {f} {budget.get(f)!r} instead of "
                            f"{task.budget.get(f)!r} on {task.key}")
    if dict(e.rules or {}) != dict(task.rules):
        problems.append(f"rule options {dict(e.rules or {})} instead of {dict(task.rules)} "
                        f"on {task.key}")
    return problems
