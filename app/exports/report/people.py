"""The people of a study as its report lists them: when they joined and consented, which
texts they were shown, what they answered to "seen these tasks before?", how much they did,
how their check tasks went and which exclusion rule (if any) left them out."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from playbench.app.studies.screening import Screening
from playbench.db.store import EpisodeRow
from playbench.db.studies import MemberRecord


@dataclass(frozen=True)
class PersonFacts:
    """One annotator of a study."""

    name: str
    joined: str | None
    consented: str | None
    """When they accepted the consent text (None: not recorded)."""
    consent_matches: bool | None
    """Whether the consent text they accepted is the study's text (by SHA-256); None when
    nothing was recorded."""
    instructions_match: bool | None
    """Whether the instructions they were shown are the study's text (by SHA-256)."""
    seen_before: bool | None
    tasks_done: int
    """Scored tasks finished, check tasks not counted."""
    checks_passed: int
    checks_failed: int
    active_seconds: float
    """Decision time summed over their finished scored episodes, checks included."""
    median_task_seconds: float | None
    finished: bool
    excluded_by: tuple[str, ...]
    """The labels of the rules that exclude them (``(post hoc)`` marked); () when kept."""


def sha256(text: str | None) -> str | None:
    return None if text is None else hashlib.sha256(text.encode("utf-8")).hexdigest()


def _when(value: datetime | None) -> str | None:
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def _matches(recorded: str | None, text: str | None) -> bool | None:
    if recorded is None or text is None:
        return None
    return recorded == sha256(text)


def people_facts(rows: Sequence[EpisodeRow], members: Sequence[MemberRecord],
                 screening: Screening, finished: set[str], consent: str | None,
                 instructions: str | None, think: Mapping[int, float] | None = None
                 ) -> list[PersonFacts]:
    """Every person who joined the study or played in it, by name."""
    joined = {m.name: m for m in members if m.kind == "human"}
    names = sorted(set(joined) | {r.participant.name for r in rows
                                  if r.participant.kind == "human"})
    records = {p.name: p for p in screening.people}
    excluded = {e.person: tuple(r.label() for r in e.rules) for e in screening.excluded}
    active: dict[str, float] = {}
    for r in rows:
        e = r.episode
        if r.participant.kind == "human" and e.status == "done" and not e.practice:
            active[r.participant.name] = active.get(r.participant.name, 0.0) + (
                (think or {}).get(e.id, 0.0) / 1000.0)
    out = []
    for name in names:
        m = joined.get(name)
        rec = records.get(name)
        out.append(PersonFacts(
            name=name, joined=_when(m.joined) if m else None,
            consented=_when(m.consented) if m else None,
            consent_matches=_matches(m.consent_sha256, consent) if m else None,
            instructions_match=_matches(m.instructions_sha256, instructions) if m else None,
            seen_before=m.seen_before if m else None,
            tasks_done=rec.finished if rec else 0,
            checks_passed=rec.checks_passed if rec else 0,
            checks_failed=rec.checks_failed if rec else 0,
            active_seconds=active.get(name, 0.0),
            median_task_seconds=rec.median_task_seconds if rec else None,
            finished=name in finished, excluded_by=excluded.get(name, ())))
    return out
