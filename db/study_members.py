"""What a study report reads about its members: when each joined, whether and when they
accepted the consent text, the hashes of the texts they were shown, and their answer to the
"seen these tasks before?" question (migration 0006)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa

from playbench.db.engine import Database
from playbench.db.models import Participant, StudyMember


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
