"""Which human is "the" human baseline: the definitions a study can report, made explicit.

Published human baselines differ in who counts as the human (Wei et al., ICML 2025, reviewed
115 of them; ARC-AGI-3's dispute over median, best and second-best humans), so the results
never pick one silently. A ``HumanBaseline`` names the rule, and every table, plot and export
prints it (``describe``):

- ``pooled``: every human episode together, per-level means then the mean over levels (the
  leaderboard's behaviour before definitions existed).
- ``person-mean``: each person's score (per-level means, then over the levels they played),
  then the mean over people - people weigh the same however much they played.
- ``median-person``: the median of the people's scores, metric by metric.
- ``best-person``: the person ranked first (accuracy, then completion, then fewer actions,
  then the name); the row shows that person's figures.
- ``second-best-first-run``: each person's first episode per level only (ARC-AGI-3's
  "first-time" players), the person ranked second on those runs.
- ``solved-by-k``: a level counts as solved by humans when at least ``k`` different people
  solved it; the row's accuracy is the share of levels so solved (its other metrics are not
  defined and stay empty).

The same rule gives the per-level action count that human-relative efficiency compares a
player with (``action_baselines``), so a model's efficiency follows the chosen definition.

Intervals: a level-cluster bootstrap as everywhere else (``resample="levels"``), or people as
the unit (``resample="people"``), which is the honest choice when people differ more than
levels do.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from playbench.app.choices import RESAMPLING
from playbench.app.results.data import EpisodeFacts

RULES = ("pooled", "person-mean", "median-person", "best-person", "second-best-first-run",
         "solved-by-k")

_TEXT = {
    "pooled": "all human episodes pooled",
    "person-mean": "mean of per-person scores",
    "median-person": "median person (per-person scores, median per metric)",
    "best-person": "best person (ranked by accuracy, then completion, then fewer actions)",
    "second-best-first-run": "second-best person, first run per level only",
    "solved-by-k": "levels solved by at least {k} people",
}


class BaselineError(ValueError):
    """A human-baseline definition that cannot be read; the message says what is allowed."""


@dataclass(frozen=True)
class HumanBaseline:
    """A human-baseline definition: the rule, its ``k`` (``solved-by-k`` only) and the unit
    its intervals resample."""

    rule: str = "pooled"
    k: int = 2
    resample: str = "levels"

    def __post_init__(self) -> None:
        if self.rule not in RULES:
            raise BaselineError(f"unknown human baseline {self.rule!r}; choose one of "
                                f"{', '.join(RULES)} (solved-by-k as solved-by-2, ...)")
        if self.k < 1:
            raise BaselineError(f"solved-by-k needs k >= 1, not {self.k}")
        if self.resample not in RESAMPLING:
            raise BaselineError(f"unknown resampling unit {self.resample!r}; choose levels "
                                "or people")

    @classmethod
    def parse(cls, text: str, resample: str = "levels") -> HumanBaseline:
        """``pooled``, ``median-person``, ..., ``solved-by-3`` (``solved-by-k`` means k=2)."""
        name = text.strip().lower()
        if name.startswith("solved-by-") and name != "solved-by-k":
            digits = name.removeprefix("solved-by-")
            if not digits.isdigit():
                raise BaselineError(f"human baseline {text!r}: write solved-by-N with a "
                                    "whole number N, e.g. solved-by-2")
            return cls("solved-by-k", int(digits), resample)
        return cls(name, 2, resample)

    @property
    def name(self) -> str:
        """The definition as written on the command line (``solved-by-3``)."""
        return f"solved-by-{self.k}" if self.rule == "solved-by-k" else self.rule

    @property
    def label(self) -> str:
        """The participant column of the baseline's row."""
        return f"humans ({self.name})"

    def describe(self) -> str:
        """One line for under every table and plot."""
        unit = "levels" if self.resample == "levels" else "people"
        return (f"human baseline: {_TEXT[self.rule].format(k=self.k)}; intervals resample "
                f"{unit}")

    def record(self) -> dict[str, object]:
        return {"rule": self.rule, "k": self.k, "resample": self.resample,
                "text": self.describe()}


def humans_of(episodes: Sequence[EpisodeFacts]) -> list[EpisodeFacts]:
    """The episodes a baseline is made of: human, not practice."""
    return [e for e in episodes if e.kind == "human" and not e.practice]


def first_runs(episodes: Sequence[EpisodeFacts]) -> list[EpisodeFacts]:
    """Each person's first episode per level and setting (lowest episode id: the order they
    were recorded in)."""
    first: dict[tuple[str, str, str], EpisodeFacts] = {}
    for e in sorted(episodes, key=lambda e: e.id):
        first.setdefault((e.participant, e.level_key, e.setting), e)
    return sorted(first.values(), key=lambda e: e.id)


def person_rank(episodes: Sequence[EpisodeFacts]) -> list[str]:
    """People best first: accuracy (per-level means, then over levels), then completion,
    then fewer mean actions, then the name - a fixed order the same in every database."""
    def level_mean(eps: list[EpisodeFacts], value) -> float:
        by_level: dict[str, list[float]] = {}
        for e in eps:
            v = value(e)
            if v is not None:
                by_level.setdefault(e.level_key, []).append(v)
        means = [sum(v) / len(v) for v in by_level.values()]
        return sum(means) / len(means) if means else -1.0

    people: dict[str, list[EpisodeFacts]] = {}
    for e in episodes:
        people.setdefault(e.participant, []).append(e)
    keys = {}
    for name, eps in people.items():
        acc = level_mean(eps, lambda e: None if e.solved is None else float(e.solved))
        comp = level_mean(eps, lambda e: e.completion)
        actions = sum(e.actions for e in eps) / len(eps)
        keys[name] = (-acc, -comp, actions, name)
    return sorted(keys, key=keys.__getitem__)


def chosen_episodes(episodes: Sequence[EpisodeFacts], baseline: HumanBaseline
                    ) -> list[EpisodeFacts]:
    """The human episodes (of one game and setting) the rule draws on: the ranked person's
    for ``best-person`` and ``second-best-first-run``, all of them otherwise."""
    humans = humans_of(episodes)
    if baseline.rule == "second-best-first-run":
        runs = first_runs(humans)
        ranked = person_rank(runs)
        return [e for e in runs if len(ranked) >= 2 and e.participant == ranked[1]]
    if baseline.rule == "best-person":
        ranked = person_rank(humans)
        return [e for e in humans if ranked and e.participant == ranked[0]]
    return humans


def action_baselines(episodes: Sequence[EpisodeFacts], baseline: HumanBaseline
                     ) -> dict[tuple[str, str], float]:
    """Per (level key, setting): the human action count that human-relative efficiency
    compares with under ``baseline``. Only solving episodes count; levels without one have
    no baseline (left out of the metric)."""
    out: dict[tuple[str, str], float] = {}
    by_setting: dict[tuple[str, str], list[EpisodeFacts]] = {}
    for e in humans_of(episodes):
        by_setting.setdefault((e.game, e.setting), []).append(e)
    for eps in by_setting.values():
        chosen = chosen_episodes(eps, baseline)
        solving: dict[str, dict[str, list[int]]] = {}
        for e in chosen:
            if e.is_solved:
                solving.setdefault(e.level_key, {}).setdefault(e.participant, []).append(
                    e.actions)
        setting = eps[0].setting
        for level, people in solving.items():
            if baseline.rule == "pooled":
                value = float(np.median([a for acts in people.values() for a in acts]))
            else:
                per_person = [float(np.median(acts)) for acts in people.values()]
                if baseline.rule == "solved-by-k" and len(per_person) < baseline.k:
                    continue
                value = (float(np.mean(per_person)) if baseline.rule == "person-mean"
                         else float(np.median(per_person)))
            out[(level, setting)] = value
    return out
