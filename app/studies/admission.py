"""Who may take part in a study: a listed roster of annotators (pseudonyms), single-use invite
codes, or anyone (a study with neither, as before - ``study status`` says so).

Admission is checked once, when a person first opens their queue (which records their
membership); a member is never asked again. Models and scripted players are not people and
are not checked.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

from playbench.app.studies.invites import normalise
from playbench.db.store import Store
from playbench.db.studies import invite_codes, redeem_invite

if TYPE_CHECKING:
    from playbench.app.studies.protocol import Protocol



class NotAdmitted(PermissionError):
    """This person may not start the study; the message says why and what to do."""

    def __init__(self, message: str, *, needs_code: bool = False) -> None:
        super().__init__(message)
        self.needs_code = needs_code


def admission_text(store: Store, protocol: Protocol) -> str:
    """One line for ``study status`` and the Studies view: who may take part."""
    if protocol.roster:
        return f"listed annotators only ({len(protocol.roster)})"
    if protocol.invites:
        codes = invite_codes(store.db, protocol.name)
        used = sum(1 for c in codes if c.get("used_by"))
        return f"by invite code ({used} of {len(codes)} used)"
    return "open: anyone can take part (no roster, no invite codes)"


def admit(store: Store, protocol: Protocol, annotator: str, code: str | None) -> None:
    """Raise ``NotAdmitted`` unless ``annotator`` may join ``protocol``'s study now; a valid
    invite code is used up (atomically) by this call."""
    if protocol.roster:
        if annotator not in protocol.roster:
            raise NotAdmitted(f"{annotator!r} is not on the list of annotators of study "
                              f"{protocol.name!r}; ask its organiser to add you")
        return
    if not protocol.invites:
        return
    if not code:
        raise NotAdmitted(f"study {protocol.name!r} is by invitation: enter the invite code "
                          "you were given", needs_code=True)
    when = datetime.now(UTC).isoformat(timespec="seconds")
    if not redeem_invite(store.db, protocol.name, normalise(code), annotator, when):
        raise NotAdmitted(f"the invite code {code.strip()!r} is not valid for study "
                          f"{protocol.name!r} or was used already", needs_code=True)
