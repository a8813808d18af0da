"""Blind mode: what a viewer may see.

In a blind study an annotator sees neither scores (their own included: no "solved" banner, no
score in the queue) nor anything about other participants. The results and compare functions
take a :class:`Viewer`.

A blind study created with a researcher credential (``credential``) is *sealed*: nobody sees
its scores, other participants' episodes or its leaderboard until the credential is given -
``Viewer.unlocked`` holds the studies it was given for. A blind study without a credential
keeps the older rule: hidden from annotators, shown to the viewer without an annotator name.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from playbench.app.studies.credential import verify
from playbench.db import studies as stored
from playbench.db.store import Store


class Blinded(PermissionError):
    """The viewer may not see this in a blind study."""


@dataclass(frozen=True)
class Viewer:
    annotator: str | None = None
    """The human annotator looking, or None for the researcher."""
    unlocked: frozenset[int] = frozenset()
    """Ids of the sealed studies whose researcher credential this viewer gave."""

    @property
    def is_annotator(self) -> bool:
        return self.annotator is not None

    def with_unlocked(self, study_ids: Iterable[int]) -> Viewer:
        return Viewer(self.annotator, self.unlocked | frozenset(study_ids))


RESEARCHER = Viewer()


def blind_study_ids(store: Store) -> list[int]:
    return stored.blind_study_ids(store.db)


def sealed_study_ids(store: Store) -> list[int]:
    """Blind studies that hold a researcher credential."""
    return stored.sealed_study_ids(store.db)


def hidden_study_ids(store: Store, viewer: Viewer) -> list[int]:
    """Studies whose episodes must be left out of what ``viewer`` sees in results: every
    blind study for an annotator, and sealed studies the viewer has not unlocked."""
    if viewer.is_annotator:
        return blind_study_ids(store)
    return [sid for sid in sealed_study_ids(store) if sid not in viewer.unlocked]


def unlock(store: Store, viewer: Viewer, secret: str) -> Viewer:
    """``viewer`` with every sealed study whose credential is ``secret`` unlocked (an
    annotator stays an annotator: the credential is the researcher's, not theirs)."""
    found = [sid for sid, verifier in stored.study_verifiers(store.db).items()
             if verify(verifier, secret)]
    return viewer.with_unlocked(found)


def check_results_allowed(store: Store, study: str | None, viewer: Viewer) -> None:
    """Refuse the results of a blind study to an annotator, and of a sealed study to anyone
    who has not given its credential (with a reason the UI and CLI can show)."""
    if study is None:
        return
    info = stored.find_study(store.db, study)
    if info is None or not info.protocol.get("blind"):
        return
    if viewer.is_annotator:
        raise Blinded(f"study {study!r} is blind: results are hidden from annotators")
    if info.protocol.get("researcher") and info.id not in viewer.unlocked:
        raise Blinded(f"study {study!r} is blind: its scores are shown only after the "
                      "researcher passphrase or key is given")
