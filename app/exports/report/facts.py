"""Everything a study report states, gathered from the study's own records (no rendering).

The report answers a reviewer's checklist (``checklist``) from these facts alone: what the
organizer wrote in the study file, who was invited, joined, consented, finished and was
excluded (and by which rule), how long each person spent on each task, the budgets humans and
models played under, agreement between annotators, every score with its interval, and what
deviated from the protocol. A fact the records do not hold is None, and the report says
"not stated" for it rather than leaving it out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from playbench.app.exports.report.people import PersonFacts, people_facts
from playbench.app.exports.report.timing import (
    BudgetLine,
    TaskTime,
    budget_lines,
    deviations,
    task_times,
)
from playbench.app.results.agreement import Agreement, annotator_report
from playbench.app.results.baselines import HumanBaseline
from playbench.app.results.data import EpisodeFacts, Scope, load_episodes
from playbench.app.results.leaderboard import Leaderboard, leaderboard
from playbench.app.studies.access import RESEARCHER, Viewer, check_results_allowed
from playbench.app.studies.protocol import Protocol, protocol_of
from playbench.db.results import human_study_episodes, think_totals
from playbench.db.store import EpisodeRow, Store
from playbench.db.studies import member_records

DESCRIBED = ("population", "sampling", "compensation")
"""The organizer's own description fields of a study file, reported as written."""


@dataclass(frozen=True)
class Counts:
    """How many people the study reached at each stage (None: the records cannot say)."""

    admission: str
    """Who could take part: listed annotators, invite codes, or anyone."""
    invited: int | None
    """Listed annotators or invite codes made; None for a study open to anyone."""
    joined: int
    """People who opened their queue or played at least one episode."""
    consented: int | None
    """People who accepted the consent text; None when the study has none."""
    finished: int
    """People with a finished episode of every scored task (checks included)."""
    excluded: int
    seen_before: int | None
    """People who answered "yes" to "seen these tasks before?"; None when nobody was asked."""
    answered_seen_before: int


@dataclass(frozen=True)
class TaskLine:
    """One task of the protocol as the report lists it."""

    key: str
    game: str
    level: str
    setting: str
    max_actions: int | None
    seconds: float | None
    check: str | None


@dataclass(frozen=True)
class ReportFacts:
    """The facts of one study's report (``gather_facts``)."""

    study: str
    description: str
    created: str
    written: str
    blind: bool
    sealed: bool
    order: str
    seed: int | None
    fingerprint: str
    described: Mapping[str, str | None]
    instructions: str | None
    consent: str | None
    tasks: tuple[TaskLine, ...]
    practice: tuple[TaskLine, ...]
    counts: Counts
    people: tuple[PersonFacts, ...]
    times: tuple[TaskTime, ...]
    budgets: tuple[BudgetLine, ...]
    agreement: Agreement | None
    board: Leaderboard
    included: tuple[EpisodeFacts, ...]
    """The episodes the scores are computed from (what the data release holds)."""
    deviations: tuple[str, ...]
    model_tasks: Mapping[str, int]
    """Non-human participant -> how many of the scored tasks it finished."""
    protocol: Mapping[str, Any]
    """The protocol as stored (the release redacts its credential and invite codes)."""

    @property
    def baseline_text(self) -> str:
        return self.board.baseline_text()

    @property
    def scored_keys(self) -> list[str]:
        return [t.key for t in self.tasks]


def _text(value: Any) -> str | None:
    """A study text exactly as stored (None when absent or blank): the hashes recorded at
    consent are of the text as shown, trailing new line included, so it is not stripped."""
    return value if isinstance(value, str) and value.strip() else None


def task_line(t: Any) -> TaskLine:
    budget = t.budget or {}
    return TaskLine(t.key, t.game, t.level_title or f"level {t.level_number}", t.setting,
                    budget.get("max_actions"), t.time_limit,
                    None if t.check is None else t.check.text())


def _admission(protocol: Protocol, raw: Mapping[str, Any]) -> tuple[str, int | None]:
    if protocol.roster:
        return f"the {len(protocol.roster)} annotators listed in the study file", \
            len(protocol.roster)
    codes = raw.get("invite_codes") or []
    if codes:
        used = sum(1 for c in codes if c.get("used_by"))
        return f"holders of single-use invite codes ({used} of {len(codes)} used)", len(codes)
    return "anyone (no list of annotators and no invite codes)", None


def _finished(rows: Sequence[EpisodeRow], scored: Sequence[str]) -> set[str]:
    done: dict[str, set[str]] = {}
    for r in rows:
        e = r.episode
        if r.participant.kind == "human" and e.status == "done" and not e.practice:
            done.setdefault(r.participant.name, set()).add((e.meta or {}).get("study_task", ""))
    return {name for name, keys in done.items() if set(scored) <= keys}


def gather_facts(store: Store, name: str, *, viewer: Viewer = RESEARCHER,
                 baseline: HumanBaseline | None = None) -> ReportFacts:
    """The facts of study ``name``'s report. Raises ``Blinded`` when ``viewer`` may not see
    its scores (a sealed study without its credential) and ``NotFound`` for an unknown study."""
    info = store.study(name)
    check_results_allowed(store, name, viewer)
    protocol, raw = protocol_of(info), dict(info.protocol)
    board = leaderboard(store, Scope(study=name, viewer=viewer), baseline=baseline)
    loaded = load_episodes(store, Scope(study=name, viewer=viewer))
    included = tuple(e for e in loaded.episodes if e.id not in board.dropped)
    ids = [h.id for h in human_study_episodes(store.db, protocol.id, kind=None)]
    rows = store.episodes(ids=ids, newest_first=False) if ids else []
    think = think_totals(store.db, ids)
    members = member_records(store.db, protocol.id)
    consent, instructions = _text(raw.get("consent")), _text(raw.get("instructions"))
    screening = board.screening
    assert screening is not None  # a study's board is always screened
    scored = [t.key for t in protocol.scored]
    finished = _finished(rows, scored)
    people = people_facts(rows, members, screening, finished, consent, instructions, think)
    admission, invited = _admission(protocol, raw)
    answered = [p for p in people if p.seen_before is not None]
    counts = Counts(
        admission=admission, invited=invited, joined=len(people),
        consented=None if consent is None else sum(1 for p in people if p.consented),
        finished=len(finished), excluded=len(screening.excluded),
        seen_before=sum(1 for p in answered if p.seen_before) if answered else None,
        answered_seen_before=len(answered))
    played: dict[str, set[str]] = {}
    for r in rows:
        e = r.episode
        if r.participant.kind != "human" and e.status == "done" and not e.practice:
            played.setdefault(f"{r.participant.kind}:{r.participant.name}", set()).add(
                (e.meta or {}).get("study_task", ""))
    model_tasks = {who: len(keys & set(scored)) for who, keys in sorted(played.items())}
    return ReportFacts(
        study=protocol.name, description=protocol.description,
        created="" if info.created is None else _utc(info.created),
        written=_utc(datetime.now(UTC)), blind=protocol.blind, sealed=protocol.sealed,
        order=protocol.order, seed=protocol.seed, fingerprint=str(raw.get("fingerprint", "")),
        described={k: _text(raw.get(k)) for k in DESCRIBED},
        instructions=instructions, consent=consent,
        tasks=tuple(task_line(t) for t in protocol.scored),
        practice=tuple(task_line(t) for t in protocol.practice),
        counts=counts, people=tuple(people),
        times=tuple(task_times(rows, think, protocol)),
        budgets=tuple(budget_lines(rows, think, protocol)),
        agreement=annotator_report(store, name).agreement, board=board, included=included,
        deviations=tuple(deviations(rows, protocol, board)), model_tasks=model_tasks,
        protocol=raw)


def _utc(when: datetime) -> str:
    if when.tzinfo is None:  # SQLite hands back naive UTC times
        when = when.replace(tzinfo=UTC)
    return when.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
