"""The action budget: one object, identical for every kind of player.

What counts (the seeds' conventions, ../shared/reference/puzzles.md and web.md): every action
attempt is a step, invalid ones included unless ``invalid_cost`` says otherwise; a model call or a
human submission is a decision; a one-step plan is one decision of many steps. Early stops follow
VisualWebArena: N identical actions in a row, N unreadable decisions in a row.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, Mapping


class BudgetError(ValueError):
    """A budget field has an impossible value; the message names the field."""


@dataclass(frozen=True)
class Budget:
    max_actions: int | None = 50
    max_decisions: int | None = None
    seconds: float | None = None
    action_seconds: float | None = None
    invalid_cost: int = 1
    stop_after_identical: int | None = None
    stop_after_unparseable: int | None = None

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise BudgetError(f"budget field {f.name} must be a number, got {value!r}")
            if value < 0:
                raise BudgetError(f"budget field {f.name} must not be negative, got {value}")
        for name in ("max_actions", "max_decisions", "stop_after_identical",
                     "stop_after_unparseable"):
            value = getattr(self, name)
            if value is not None and (value == 0 or int(value) != value):
                raise BudgetError(f"budget field {name} must be a positive whole number, "
                                  f"got {value}")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Budget":
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise BudgetError(f"unknown budget field {unknown[0]!r} (known: {', '.join(sorted(known))})")
        return cls(**dict(data))

    def merged(self, **changes: Any) -> "Budget":
        return Budget.from_dict({**self.to_dict(), **{k: v for k, v in changes.items()}})


@dataclass
class BudgetUse:
    """Running counters for one episode, restored from the record when it resumes."""

    budget: Budget
    actions: int = 0
    decisions: int = 0
    seconds: float = 0.0
    identical_run: int = 0
    unparseable_run: int = 0
    last_action: str | None = None

    def actions_left(self) -> int | None:
        b = self.budget.max_actions
        return None if b is None else max(0, b - self.actions)

    def decisions_left(self) -> int | None:
        b = self.budget.max_decisions
        return None if b is None else max(0, b - self.decisions)

    def seconds_left(self) -> float | None:
        b = self.budget.seconds
        return None if b is None else max(0.0, b - self.seconds)

    def count_decision(self, readable: bool) -> None:
        self.decisions += 1
        self.unparseable_run = 0 if readable else self.unparseable_run + 1

    def count_step(self, action_text: str | None, valid: bool) -> None:
        self.actions += 1 if valid else self.budget.invalid_cost
        if action_text is None:
            return
        if action_text == self.last_action:
            self.identical_run += 1
        else:
            self.identical_run = 1
            self.last_action = action_text

    def stop_reason(self) -> str | None:
        """Why the episode must stop now, or None."""
        b = self.budget
        if b.stop_after_unparseable and self.unparseable_run >= b.stop_after_unparseable:
            return "parse_failures"
        if b.stop_after_identical and self.identical_run >= b.stop_after_identical:
            return "repeated_actions"
        if b.max_actions is not None and self.actions >= b.max_actions:
            return "budget"
        if b.max_decisions is not None and self.decisions >= b.max_decisions:
            return "budget"
        if b.seconds is not None and self.seconds >= b.seconds:
            return "time"
        return None
