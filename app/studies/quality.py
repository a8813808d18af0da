"""Quality checks of a study: attention (gold) tasks and exclusion rules.

A study file marks some scored tasks as checks with a pass rule (``check: solved``,
``check: completion >= 80``, ``check: {answer: "Paris"}`` for a web task's final answer). They
sit in the queue like any task (the random order mixes them in; nothing shown to the
annotator says "check"), and their episodes never count towards scores.

Exclusion rules are declared in the file (``exclusions: ["failed_checks >= 1",
"finished < 5"]``) before data collection, or added later with ``playbench study exclude``,
which marks them *post hoc* wherever they are used. A rule is ``MEASURE OP NUMBER`` over one
person's study record:

- ``failed_checks``: check tasks finished and not passed
- ``finished``: scored tasks finished (checks excluded)
- ``median_task_seconds``: median active time per finished scored task (the sum of the
  person's decision times in it)
- ``seen_before``: the person's answer to the study's "have you seen these tasks before?"
  question, 1 for yes and 0 for no (a person who was not asked is never excluded by it);
  ``seen_before`` alone means ``seen_before == 1``
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

MEASURES = ("failed_checks", "finished", "median_task_seconds", "seen_before")
SEEN_BEFORE = "seen_before"
"""The bare rule: exclude everyone who answered yes."""
_OPS: dict[str, Callable[[float, float], bool]] = {
    ">=": operator.ge, ">": operator.gt, "<=": operator.le, "<": operator.lt,
    "==": operator.eq}
_COMPARISON = re.compile(r"^\s*([a-z_]+)\s*(>=|<=|==|>|<)\s*(-?\d+(?:\.\d+)?)\s*$")
_STOP = re.compile(r"^\s*stop\s*\[(.*)\]\s*$", re.DOTALL | re.IGNORECASE)


class QualityRuleError(ValueError):
    """A check or exclusion rule that cannot be read; the message says the accepted forms."""


@dataclass(frozen=True)
class CheckRule:
    """How a check task is passed: ``solved``, a score comparison, or a final answer."""

    score: str = "solved"
    op: str = ">="
    threshold: float = 1.0
    answer: str | None = None

    @classmethod
    def parse(cls, value: Any) -> CheckRule:
        if isinstance(value, Mapping):
            if set(value) != {"answer"} or not isinstance(value["answer"], str):
                raise QualityRuleError("a check mapping holds one field, answer: TEXT")
            return cls(answer=value["answer"])
        if not isinstance(value, str):
            raise QualityRuleError("write solved, SCORE >= NUMBER (e.g. completion >= 80) "
                                   "or {answer: TEXT}")
        if value.strip() == "solved":
            return cls()
        m = _COMPARISON.match(value)
        if m is None:
            raise QualityRuleError(f"{value!r}: write solved, SCORE >= NUMBER (e.g. "
                                   "completion >= 80) or {answer: TEXT}")
        return cls(m.group(1), m.group(2), float(m.group(3)))

    def text(self) -> str:
        if self.answer is not None:
            return f"answer {self.answer!r}"
        if (self.score, self.op, self.threshold) == ("solved", ">=", 1.0):
            return "solved"
        return f"{self.score} {self.op} {self.threshold:g}"

    def record(self) -> str | dict[str, str]:
        """The form stored in the protocol (and read back by ``parse``)."""
        return {"answer": self.answer} if self.answer is not None else self.text()

    def passed(self, scores: Mapping[str, float | None], last_action: str | None) -> bool:
        """Whether a finished episode of the check task passes."""
        if self.answer is not None:
            m = _STOP.match(last_action or "")
            return m is not None and m.group(1).strip().lower() == self.answer.strip().lower()
        value = scores.get(self.score)
        return value is not None and _OPS[self.op](float(value), self.threshold)


@dataclass(frozen=True)
class ExclusionRule:
    """``MEASURE OP NUMBER``; ``post_hoc`` when added after the study was created."""

    measure: str
    op: str
    threshold: float
    post_hoc: bool = False
    added: str = ""
    """When a post-hoc rule was added (ISO time), "" for declared ones."""

    @classmethod
    def parse(cls, text: Any, *, post_hoc: bool = False, added: str = "") -> ExclusionRule:
        if not isinstance(text, str):
            raise QualityRuleError("an exclusion rule is text: MEASURE OP NUMBER, e.g. "
                                   "failed_checks >= 1")
        if text.strip() == SEEN_BEFORE:
            return cls(SEEN_BEFORE, "==", 1.0, post_hoc, added)
        m = _COMPARISON.match(text)
        if m is None or m.group(1) not in MEASURES:
            raise QualityRuleError(f"{text!r}: write MEASURE OP NUMBER with MEASURE one of "
                                   f"{', '.join(MEASURES)} and OP one of {', '.join(_OPS)} "
                                   f"(or {SEEN_BEFORE} alone)")
        return cls(m.group(1), m.group(2), float(m.group(3)), post_hoc, added)

    def text(self) -> str:
        if (self.measure, self.op, self.threshold) == (SEEN_BEFORE, "==", 1.0):
            return SEEN_BEFORE
        return f"{self.measure} {self.op} {self.threshold:g}"

    def label(self) -> str:
        return self.text() + (" (post hoc)" if self.post_hoc else "")

    def applies(self, person: PersonRecord) -> bool:
        value = person.measure(self.measure)
        return value is not None and _OPS[self.op](value, self.threshold)


@dataclass(frozen=True)
class PersonRecord:
    """What the exclusion rules read about one person in one study."""

    name: str
    finished: int
    checks_passed: int
    checks_failed: int
    median_task_seconds: float | None
    seen_before: bool | None = None
    """Their answer to "seen these tasks before?" (None: not asked or not answered)."""

    def measure(self, name: str) -> float | None:
        if name == "failed_checks":
            return float(self.checks_failed)
        if name == "finished":
            return float(self.finished)
        if name == SEEN_BEFORE:
            return None if self.seen_before is None else float(self.seen_before)
        return self.median_task_seconds


@dataclass(frozen=True)
class Exclusion:
    person: str
    rules: tuple[ExclusionRule, ...]

    def text(self) -> str:
        return f"{self.person} ({'; '.join(r.label() for r in self.rules)})"


def excluded_people(people: list[PersonRecord], rules: list[ExclusionRule]
                    ) -> list[Exclusion]:
    """Each person at least one rule excludes, with every rule that does, by name."""
    out = []
    for person in sorted(people, key=lambda p: p.name):
        hits = tuple(r for r in rules if r.applies(person))
        if hits:
            out.append(Exclusion(person.name, hits))
    return out
