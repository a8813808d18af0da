"""What a person must do before their first task of a study, and recording that they did.

A study may carry instructions, a consent text and the "have you seen these tasks before?"
question (``app.studies.texts``). Before a human member's first task - practice included -
they read the instructions, accept the consent text and answer the question; the time of
acceptance, the SHA-256 of both texts as shown and the answer are stored on their membership
in one transaction. The queue (``app.studies.queue``) refuses to start any task while one of
these is outstanding, so no view can skip the screen. Models and scripted players are not
asked: they consent to nothing, and read the instructions in their prompt where the setting
allows (docs/studies.md).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime

from playbench.app.studies.texts import StudyTexts
from playbench.db.engine import Database
from playbench.db.studies import MemberInfo, find_member, record_consent


class ConsentNeeded(PermissionError):
    """A task cannot start yet: the member has not done what the study asks first."""


def text_sha256(text: str) -> str:
    """Hex SHA-256 of a text's UTF-8 bytes exactly as shown (no normalising: a changed
    space is a changed text)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class ConsentDue:
    """What the study asks of one member before their first task, and what is still open."""

    study: str
    texts: StudyTexts
    read_instructions: bool
    """True when the instructions still have to be shown (and acknowledged)."""
    accept_consent: bool
    answer_seen_before: bool

    @property
    def pending(self) -> bool:
        """Whether anything is outstanding (no task may start while it is)."""
        return self.read_instructions or self.accept_consent or self.answer_seen_before

    def reason(self) -> str:
        """Why a task cannot start, in words for the person."""
        wants = [w for w, due in (("read the instructions", self.read_instructions),
                                  ("accept the consent text", self.accept_consent),
                                  ("answer whether you have seen these tasks before",
                                   self.answer_seen_before)) if due]
        return (f"study {self.study!r}: before the first task, {', '.join(wants)} "
                "(the Studies tab shows them)")


def consent_due(study: str, texts: StudyTexts, member: MemberInfo | None) -> ConsentDue:
    """What ``member`` (None: not a member yet) still has to do in a study with ``texts``."""
    return ConsentDue(
        study, texts,
        read_instructions=bool(texts.instructions) and (
            member is None or member.instructions_sha256 is None),
        accept_consent=bool(texts.consent) and (member is None or member.consented is None),
        answer_seen_before=texts.ask_seen_before and (
            member is None or member.seen_before is None))


def member_due(db: Database, study_id: int, study: str, texts: StudyTexts,
               participant_id: int) -> ConsentDue:
    """:func:`consent_due` for a participant, read from the database."""
    return consent_due(study, texts, find_member(db, study_id, participant_id))


def accept(db: Database, study_id: int, due: ConsentDue, participant_id: int, *,
           consent: bool, seen_before: bool | None, when: datetime | None = None) -> None:
    """Record that the member read the instructions, accepted the consent text (``consent``)
    and answered the question (``seen_before``), in one transaction.

    Raises :class:`ConsentNeeded` (nothing stored) when the consent is not accepted or the
    question not answered, or when the member recorded their answers already."""
    if not due.pending:
        return
    if due.accept_consent and not consent:
        raise ConsentNeeded(f"study {due.study!r}: the consent text was not accepted; "
                            "nothing was recorded and no task starts")
    if due.answer_seen_before and seen_before is None:
        raise ConsentNeeded(f"study {due.study!r}: answer whether you have seen these tasks "
                            "before")
    texts = due.texts
    stored = record_consent(
        db, study_id, participant_id,
        consented=(when or datetime.now(UTC)) if texts.consent else None,
        consent_sha256=text_sha256(texts.consent) if texts.consent else None,
        instructions_sha256=text_sha256(texts.instructions) if texts.instructions else None,
        seen_before=seen_before if texts.ask_seen_before else None)
    if not stored:
        raise ConsentNeeded(f"study {due.study!r}: this member's answers were recorded "
                            "already (or they are not a member)")
