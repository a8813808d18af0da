"""Studies as plain values, and the queries the studies feature (queues, sweeps, blind mode)
asks of the database."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from playbench.db.engine import Database
from playbench.db.models import Episode, Participant, Study, StudyMember


@dataclass(frozen=True)
class StudyInfo:
    """A stored study: its name and protocol (task list, order, blinding)."""

    id: int
    uid: str
    name: str
    protocol: dict[str, Any]
    created: datetime | None
    archived: datetime | None = None


@dataclass(frozen=True)
class MemberInfo:
    """A participant's membership of a study: the seed and task order recorded on joining."""

    id: int
    study_id: int
    participant_id: int
    seed: int
    task_order: list[str]
    joined: datetime | None
    consented: datetime | None = None
    """When the member accepted the study's consent text; None: not (yet), or none asked."""
    consent_sha256: str | None = None
    instructions_sha256: str | None = None
    """SHA-256 (hex) of the consent and instructions texts the member was shown."""
    seen_before: bool | None = None
    """The answer to "seen these tasks before?"; None when not asked or not answered."""


def member_info(row: Any) -> MemberInfo:
    """A ``study_members`` row as a value."""
    return MemberInfo(id=row.id, study_id=row.study_id, participant_id=row.participant_id,
                      seed=row.seed, task_order=list(row.task_order), joined=row.joined,
                      consented=row.consented, consent_sha256=row.consent_sha256,
                      instructions_sha256=row.instructions_sha256,
                      seen_before=row.seen_before)


def find_member(db: Database, study_id: int, participant_id: int) -> MemberInfo | None:
    """The participant's membership of the study, or None before they opened their queue."""
    with db.engine.connect() as conn:
        row = conn.execute(sa.select(StudyMember.__table__).where(
            StudyMember.study_id == study_id,
            StudyMember.participant_id == participant_id)).first()
    return None if row is None else member_info(row)


@dataclass(frozen=True)
class MemberRecord:
    """One member of a study as its report lists them."""

    kind: str
    name: str
    joined: datetime | None
    consented: datetime | None
    consent_sha256: str | None
    instructions_sha256: str | None
    seen_before: bool | None


def member_records(db: Database, study_id: int) -> list[MemberRecord]:
    """Every member of a study (people, models and scripts), by kind and name."""
    with db.engine.connect() as conn:
        rows = conn.execute(
            sa.select(Participant.kind, Participant.name, StudyMember.joined,
                      StudyMember.consented, StudyMember.consent_sha256,
                      StudyMember.instructions_sha256, StudyMember.seen_before)
            .join(Participant, Participant.id == StudyMember.participant_id)
            .where(StudyMember.study_id == study_id)
            .order_by(Participant.kind, Participant.name)).all()
    return [MemberRecord(r.kind, r.name, r.joined, r.consented, r.consent_sha256,
                         r.instructions_sha256,
                         None if r.seen_before is None else bool(r.seen_before)) for r in rows]


def record_consent(db: Database, study_id: int, participant_id: int, *,
                   consented: datetime | None, consent_sha256: str | None,
                   instructions_sha256: str | None, seen_before: bool | None) -> bool:
    """Store what the member accepted and answered before their first task, in one
    transaction; only a member who has recorded none of it yet is written (a second screen
    cannot change the first answers). False when nothing was written."""
    member = StudyMember.__table__.c
    with db.engine.begin() as conn:
        done = conn.execute(sa.update(StudyMember).where(
            member.study_id == study_id, member.participant_id == participant_id,
            member.consented.is_(None), member.instructions_sha256.is_(None),
            member.seen_before.is_(None)).values(
            consented=consented, consent_sha256=consent_sha256,
            instructions_sha256=instructions_sha256, seen_before=seen_before))
    return bool(done.rowcount)


def member_answers(db: Database, study_id: int, kind: str = "human"
                   ) -> dict[str, tuple[datetime | None, bool | None]]:
    """Participant name -> (consented, seen_before) of every member of ``kind`` in a study."""
    with db.engine.connect() as conn:
        rows = conn.execute(
            sa.select(Participant.name, StudyMember.consented, StudyMember.seen_before)
            .join(Participant, Participant.id == StudyMember.participant_id)
            .where(StudyMember.study_id == study_id, Participant.kind == kind)).all()
    return {name: (consented, seen) for name, consented, seen in rows}


@dataclass(frozen=True)
class MemberEpisode:
    """What a study queue needs of one of its member's episodes."""

    id: int
    task_id: int
    setting: str
    practice: bool
    status: str
    n_steps: int
    meta: dict[str, Any]


def study_info(row: Any) -> StudyInfo:
    return StudyInfo(id=row.id, uid=row.uid, name=row.name, protocol=dict(row.protocol or {}),
                     created=row.created, archived=row.archived)


def set_archived(db: Database, name: str, when: datetime | None) -> bool:
    """Archive the study called ``name`` at ``when`` (None: make it active again); False when
    there is no such study."""
    with db.engine.begin() as conn:
        done = conn.execute(sa.update(Study).where(Study.name == name).values(archived=when))
    return bool(done.rowcount)


def recorded_episodes(db: Database, name: str) -> int:
    """How many episodes are recorded in the study called ``name``."""
    with db.engine.connect() as conn:
        return int(conn.scalar(sa.select(sa.func.count(Episode.id)).join(
            Study, Study.id == Episode.study_id).where(Study.name == name)) or 0)


def delete_empty_study(db: Database, name: str) -> bool:
    """Delete the study called ``name`` and its queues, in one transaction, only while no
    episode is recorded in it (checked inside the transaction); False when it has episodes
    or does not exist."""
    with db.engine.begin() as conn:
        sid = conn.scalar(sa.select(Study.id).where(Study.name == name))
        if sid is None or conn.scalar(sa.select(sa.func.count(Episode.id))
                                      .where(Episode.study_id == sid)):
            return False
        conn.execute(sa.delete(StudyMember).where(StudyMember.study_id == sid))
        conn.execute(sa.delete(Study).where(Study.id == sid))
    return True


def find_study(db: Database, name: str) -> StudyInfo | None:
    """The study called ``name``, or None."""
    with db.engine.connect() as conn:
        row = conn.execute(sa.select(Study.__table__).where(Study.name == name)).first()
    return None if row is None else study_info(row)


def study_protocol(db: Database, name: str) -> dict[str, Any] | None:
    """The protocol of the study called ``name``, or None when there is none."""
    with db.engine.connect() as conn:
        protocol: dict[str, Any] | None = conn.scalar(
            sa.select(Study.protocol).where(Study.name == name))
    return protocol


def blind_study_ids(db: Database) -> list[int]:
    """Ids of the studies whose protocol says ``blind``."""
    with db.engine.connect() as conn:
        rows = conn.execute(sa.select(Study.id, Study.protocol)).all()
    return [sid for sid, protocol in rows if (protocol or {}).get("blind")]


def member_episodes(db: Database, study_id: int, participant_id: int) -> list[MemberEpisode]:
    """A participant's episodes in a study, oldest first."""
    with db.engine.connect() as conn:
        rows = conn.execute(
            sa.select(Episode.id, Episode.task_id, Episode.setting, Episode.practice,
                      Episode.status, Episode.n_steps, Episode.meta)
            .where(Episode.study_id == study_id, Episode.participant_id == participant_id)
            .order_by(Episode.id)).all()
    return [MemberEpisode(r.id, r.task_id, r.setting, bool(r.practice), r.status, r.n_steps,
                          dict(r.meta or {})) for r in rows]


def finished_metas(db: Database, study_id: int, kind: str, name: str) -> list[dict[str, Any]]:
    """The ``meta`` of every finished (``done``) episode of participant (kind, name) in a
    study."""
    with db.engine.connect() as conn:
        rows = conn.execute(
            sa.select(Episode.meta).join(Participant, Participant.id == Episode.participant_id)
            .where(Episode.study_id == study_id, Episode.status == "done",
                   Participant.kind == kind, Participant.name == name)).all()
    return [dict(meta or {}) for (meta,) in rows]


def study_uids(db: Database, study_ids: Iterable[int]) -> dict[int, str]:
    """Study id -> uid."""
    ids = sorted(set(study_ids))
    if not ids:
        return {}
    with db.engine.connect() as conn:
        return {sid: uid for sid, uid in conn.execute(
            sa.select(Study.id, Study.uid).where(Study.id.in_(ids)))}


def update_protocol(db: Database, name: str,
                    change: Callable[[dict[str, Any]], bool]) -> bool:
    """Read the protocol of the study called ``name``, let ``change`` edit it in place, and
    write it back - in one transaction, so two writers cannot lose each other's edit. False
    when there is no such study or ``change`` returns False (nothing is written then)."""
    with db.engine.begin() as conn:
        row = conn.execute(sa.select(Study.id, Study.protocol).where(Study.name == name)
                           .with_for_update()).first()
        if row is None:
            return False
        protocol = copy.deepcopy(dict(row.protocol or {}))
        if not change(protocol):
            return False
        conn.execute(sa.update(Study).where(Study.id == row.id).values(protocol=protocol))
    return True


def add_post_hoc_exclusion(db: Database, name: str, rule: str, added: str) -> bool:
    """Append a post-hoc exclusion rule to the study called ``name``; False when there is
    none. The fingerprint is unchanged: post-hoc rules do not change what was played, only
    how it is read."""
    def add(protocol: dict[str, Any]) -> bool:
        protocol.setdefault("post_hoc_exclusions", []).append({"rule": rule, "added": added})
        return True
    return update_protocol(db, name, add)


def sealed_study_ids(db: Database) -> list[int]:
    """Ids of blind studies whose protocol holds a researcher credential verifier."""
    return sorted(study_verifiers(db))


def study_verifiers(db: Database) -> dict[int, dict[str, Any]]:
    """Study id -> researcher credential verifier, for the sealed blind studies."""
    with db.engine.connect() as conn:
        rows = conn.execute(sa.select(Study.id, Study.protocol)).all()
    return {sid: dict(p["researcher"]) for sid, p in rows
            if p and p.get("blind") and isinstance(p.get("researcher"), dict)}


def finished_counts(db: Database, study_id: int) -> dict[str, tuple[int, int]]:
    """Participant kind -> (finished episodes, participants) of a study: what a sealed study
    shows without its credential."""
    with db.engine.connect() as conn:
        rows = conn.execute(
            sa.select(Participant.kind, sa.func.count(Episode.id),
                      sa.func.count(sa.distinct(Episode.participant_id)))
            .join(Participant, Participant.id == Episode.participant_id)
            .where(Episode.study_id == study_id, Episode.status == "done")
            .group_by(Participant.kind)).all()
    return {kind: (int(n), int(people)) for kind, n, people in rows}


def invite_codes(db: Database, name: str) -> list[dict[str, Any]]:
    """The invite codes of the study called ``name`` (``code``, ``used_by``, ``used_at``)."""
    protocol = study_protocol(db, name) or {}
    return [dict(c) for c in protocol.get("invite_codes", [])]


def add_invite_codes(db: Database, name: str, codes: Iterable[str]) -> bool:
    """Append new unused codes to the study called ``name``; False when there is none."""
    def add(protocol: dict[str, Any]) -> bool:
        protocol.setdefault("invite_codes", []).extend(
            {"code": c, "used_by": None, "used_at": None} for c in codes)
        return True
    return update_protocol(db, name, add)


def redeem_invite(db: Database, name: str, code: str, annotator: str, when: str) -> bool:
    """Mark ``code`` used by ``annotator``; False when the study has no such unused code (two
    people cannot both use one code: the second write fails or finds it used)."""
    def use(protocol: dict[str, Any]) -> bool:
        for c in protocol.get("invite_codes", []):
            if c["code"] == code and not c.get("used_by"):
                c["used_by"], c["used_at"] = annotator, when
                return True
        return False
    return update_protocol(db, name, use)
