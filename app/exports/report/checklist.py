"""The reporting checklist for human baselines, filled from a study's facts.

The items follow the checklist of Wei et al., "Recommendations and Reporting Checklist for
Rigorous & Transparent Human Baselines" (ICML 2025): the same test set and instructions for
humans and models, the population and how it was sampled, attention checks, exclusion of
people who had seen the tasks, effort parity, uncertainty, the same metrics, and a data
release - plus what this report adds to them (compensation, consent, agreement, the baseline
definition, exclusions and deviations). Each item is *stated* from the study's own records,
or *not stated* with the reason; nothing is left out.
"""

from __future__ import annotations

from dataclasses import dataclass

from playbench.app.exports.report.facts import ReportFacts

NOT_STATED = "not stated"


@dataclass(frozen=True)
class Item:
    """One checklist line: the topic, whether the records state it, and what they say."""

    topic: str
    stated: bool
    text: str
    section: str
    """The id of the report section with the details."""

    @property
    def status(self) -> str:
        return "stated" if self.stated else NOT_STATED


def _given(topic: str, value: str | None, section: str, why: str) -> Item:
    if value is None:
        return Item(topic, False, why, section)
    return Item(topic, True, value, section)


def _test_set(f: ReportFacts) -> Item:
    n = len(f.tasks)
    humans = {t.task for t in f.times if t.kind == "human" and t.role != "practice"
              and t.status == "done"}
    if not f.model_tasks:
        return Item("Same test set for humans and models", False,
                    f"no model or scripted participant finished any of the {n} scored "
                    "tasks", "budgets")
    models = "; ".join(f"{who} finished {k} of {n}" for who, k in f.model_tasks.items())
    return Item("Same test set for humans and models", True,
                f"one task list of {n} scored tasks (stored levels, by content hash) for "
                f"everyone: humans finished {len(humans & set(f.scored_keys))} of {n}; "
                f"{models}", "tasks")


def _instructions(f: ReportFacts) -> Item:
    if f.instructions is None:
        return Item("Instructions shared by humans and models", False,
                    "the study file gives no instructions text", "texts")
    shown = [p for p in f.people if p.instructions_match is not None]
    same = sum(1 for p in shown if p.instructions_match)
    return Item("Instructions shared by humans and models", True,
                f"instructions text in the study file ({len(f.instructions)} characters); "
                f"{same} of {len(shown)} people recorded as shown this exact text", "texts")


def _checks(f: ReportFacts) -> Item:
    checks = [t for t in f.tasks if t.check is not None]
    if not checks:
        return Item("Attention (gold) checks", False, "the study has no check tasks",
                    "people")
    failed = sum(1 for p in f.people if p.checks_failed)
    rules = ", ".join(f"{t.key}: {t.check}" for t in checks)
    return Item("Attention (gold) checks", True,
                f"{len(checks)} check task(s) mixed into the order ({rules}); {failed} of "
                f"{len(f.people)} people failed at least one", "people")


def _seen(f: ReportFacts) -> Item:
    c = f.counts
    if c.seen_before is None:
        return Item("Exclusion of people who had seen the tasks", False,
                    "nobody was asked whether they had seen the tasks before", "people")
    rules = [r.label() for r in f.board.screening.rules
             if r.measure == "seen_before"] if f.board.screening else []
    return Item("Exclusion of people who had seen the tasks", True,
                f"{c.seen_before} of {c.answered_seen_before} people answered yes; "
                + (f"excluded by {', '.join(rules)}" if rules else
                   "no exclusion rule uses the answer"), "people")


def _parity(f: ReportFacts) -> Item:
    protocol = f.budgets[0]
    differing = [d for d in f.deviations if ": budget " in d or ": setting " in d]
    text = (f"every participant plays under the protocol's budget: at most "
            f"{protocol.max_actions} actions and {protocol.seconds} s per task "
            f"(per action: {protocol.action_seconds})")
    if differing:
        text += f"; {len(differing)} departure(s) recorded (see deviations)"
    else:
        text += "; every recorded episode used it"
    return Item("Effort parity (time and actions)", True, text, "budgets")


def _uncertainty(f: ReportFacts) -> Item:
    pct = int(round(f.board.confidence * 100))
    unit = "people" if f.board.baseline and f.board.baseline.resample == "people" \
        else "levels"
    return Item("Uncertainty for every figure", True,
                f"{pct} % bootstrap intervals resampling {unit} on every score", "scores")


def _release(f: ReportFacts) -> Item:
    return Item("Data release", True,
                f"data/: JSONL export of the {len(f.included)} included episodes, the "
                "tables as CSV and the study's protocol", "release")


def _agreement(f: ReportFacts) -> Item:
    a = f.agreement
    if a is None or a.levels == 0:
        return Item("Agreement between annotators", False,
                    "no task was finished by two annotators", "agreement")
    kappa = "undefined" if a.fleiss_kappa is None else f"{a.fleiss_kappa:.3f}"
    return Item("Agreement between annotators", True,
                f"{a.annotators} annotators over {a.levels} shared tasks; Fleiss' kappa "
                f"{kappa}", "agreement")


def checklist(f: ReportFacts) -> list[Item]:
    """The checklist of a study's report, in the order the report prints it."""
    c = f.counts
    d = f.described
    consent = ("the study file gives no consent text" if f.consent is None else None)
    screening = f.board.screening
    rules = list(screening.rules) if screening else []
    return [
        _test_set(f),
        _instructions(f),
        _given("Population", d.get("population"), "population",
               "the study file gives no population"),
        _given("Sampling and recruitment", d.get("sampling"), "population",
               "the study file says nothing about sampling"),
        _given("Compensation", d.get("compensation"), "population",
               "the study file says nothing about compensation"),
        Item("Annotators invited, consented, finished, excluded", True,
             f"invited {NOT_STATED if c.invited is None else c.invited} ({c.admission}); "
             f"joined {c.joined}; consented "
             f"{NOT_STATED if c.consented is None else c.consented}; finished {c.finished}; "
             f"excluded {c.excluded}", "people"),
        _given("Consent", None if consent else "consent text in the study file; "
               f"{c.consented} people accepted it", "texts", consent or ""),
        _given("Practice", f"{len(f.practice)} practice task(s), played first, never scored"
               if f.practice else None, "tasks", "the study has no practice tasks"),
        _checks(f),
        _seen(f),
        Item("Exclusion rules", bool(rules),
             "; ".join(r.label() for r in rules) if rules else
             "the study declares no exclusion rule", "exclusions"),
        _parity(f),
        _uncertainty(f),
        Item("Same metrics for humans and models", True,
             "every episode is scored by the same evaluators, whoever played it", "scores"),
        Item("Human baseline definition", True, f.baseline_text, "scores"),
        _agreement(f),
        Item("Deviations from the protocol", True,
             f"{len(f.deviations)} recorded" if f.deviations else "none recorded",
             "deviations"),
        _release(f),
    ]
