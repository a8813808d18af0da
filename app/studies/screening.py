"""Applying a study's quality checks and exclusion rules to its records (``quality`` holds
the rules): which people are excluded and why, and which episodes the results leave out.

Check tasks' episodes never count towards scores, whoever played them. Episodes of an excluded
person are left out of every table; the tables say how many people and episodes that was and
which rule (declared or post hoc) excluded whom.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from playbench.app.studies.protocol import load_protocol
from playbench.app.studies.quality import Exclusion, ExclusionRule, PersonRecord, excluded_people
from playbench.db.episodes import last_actions, scores_of
from playbench.db.results import human_study_episodes, think_totals
from playbench.db.store import Store
from playbench.db.studies import member_answers


@dataclass(frozen=True)
class Screening:
    """The outcome of a study's checks and exclusion rules."""

    study: str
    rules: tuple[ExclusionRule, ...]
    people: tuple[PersonRecord, ...]
    excluded: tuple[Exclusion, ...]
    check_episodes: frozenset[int]
    """Episodes of check tasks (any participant): never scored."""
    excluded_episodes: frozenset[int]
    """Non-check episodes of excluded people."""

    @property
    def left_out(self) -> frozenset[int]:
        return self.check_episodes | self.excluded_episodes

    def lines(self) -> list[str]:
        """What every results table prints under it about the screening."""
        out = []
        if self.check_episodes:
            out.append(f"check tasks: {len(self.check_episodes)} episode(s) left out of the "
                       "scores")
        if self.rules:
            names = ", ".join(r.label() for r in self.rules)
            out.append(f"exclusion rules: {names}; excluded {len(self.excluded)} of "
                       f"{len(self.people)} people ({len(self.excluded_episodes)} episodes)"
                       + (": " + "; ".join(e.text() for e in self.excluded)
                          if self.excluded else ""))
        return out

    def record(self) -> dict[str, object]:
        return {"rules": [{"rule": r.text(), "post_hoc": r.post_hoc, "added": r.added}
                          for r in self.rules],
                "people": len(self.people),
                "excluded": [{"person": e.person, "rules": [r.label() for r in e.rules]}
                             for e in self.excluded],
                "excluded_episodes": len(self.excluded_episodes),
                "check_episodes": len(self.check_episodes)}


def screen_study(store: Store, name: str) -> Screening:
    """Evaluate the checks and exclusion rules of the study called ``name``."""
    protocol = load_protocol(store, name)
    checks = {t.key: t.check for t in protocol.tasks if t.check is not None}
    rows = human_study_episodes(store.db, protocol.id, kind=None)
    check_ids = frozenset(r.id for r in rows if (r.meta or {}).get("study_task") in checks)
    everyone_human = human_study_episodes(store.db, protocol.id)
    humans = [r for r in everyone_human if not r.practice and r.status == "done"]
    done_checks = [r for r in humans if r.id in check_ids]
    scores = scores_of(store.db, [r.id for r in done_checks])
    answers = last_actions(store.db, [r.id for r in done_checks
                                      if checks[r.meta["study_task"]].answer is not None])
    think = think_totals(store.db, [r.id for r in humans if r.id not in check_ids])
    answers_of = member_answers(store.db, protocol.id)
    people = []
    for person in sorted({r.name for r in everyone_human}):
        mine = [r for r in humans if r.name == person]
        tasks = [r for r in mine if r.id not in check_ids]
        passed = sum(1 for r in mine if r.id in check_ids and checks[
            r.meta["study_task"]].passed(scores.get(r.id, {}), answers.get(r.id)))
        failed = sum(1 for r in mine if r.id in check_ids) - passed
        seconds = [think.get(r.id, 0.0) / 1000.0 for r in tasks]
        people.append(PersonRecord(person, len(tasks), passed, failed,
                                   statistics.median(seconds) if seconds else None,
                                   answers_of.get(person, (None, None))[1]))
    excluded = excluded_people(people, list(protocol.exclusions))
    gone = {e.person for e in excluded}
    excluded_ids = frozenset(r.id for r in everyone_human
                             if r.name in gone and r.id not in check_ids)
    return Screening(name, protocol.exclusions, tuple(people), tuple(excluded), check_ids,
                     excluded_ids)


def check_episode_ids(store: Store) -> frozenset[int]:
    """Episodes of check tasks in every study: never scored, also in results over all
    studies."""
    out: set[int] = set()
    for name in store.study_names():
        protocol = load_protocol(store, name)
        keys = {t.key for t in protocol.tasks if t.check is not None}
        if keys:
            out.update(r.id for r in human_study_episodes(store.db, protocol.id, kind=None)
                       if (r.meta or {}).get("study_task") in keys)
    return frozenset(out)
