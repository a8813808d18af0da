"""What a study shows to a viewer who may not see its scores: counts only."""

from __future__ import annotations

from typing import Any

from playbench.app.studies.protocol import Protocol, load_protocol
from playbench.db.store import Store
from playbench.db.studies import finished_counts, member_answers


def study_counts(store: Store, name: str) -> dict[str, Any]:
    """Finished episodes per participant kind and the number of people of study ``name``."""
    counts = finished_counts(store.db, load_protocol(store, name).id)
    return {"episodes": {kind: n for kind, (n, _) in counts.items()},
            "people": counts.get("human", (0, 0))[1]}


def consent_counts(store: Store, protocol: Protocol) -> dict[str, int]:
    """How many people joined the study, accepted its consent text, and answered (yes) the
    "seen before?" question - counts only, so sealed studies show them too."""
    answers = member_answers(store.db, protocol.id)
    return {"members": len(answers),
            "consented": sum(1 for when, _ in answers.values() if when is not None),
            "seen_before_answered": sum(1 for _, seen in answers.values() if seen is not None),
            "seen_before_yes": sum(1 for _, seen in answers.values() if seen)}


def consent_line(store: Store, protocol: Protocol) -> str:
    """One line for ``study status``: what the study asks first and how many did it."""
    texts = protocol.texts
    if not texts.any:
        return "before the first task: nothing (no instructions, consent or question)"
    c = consent_counts(store, protocol)
    parts = [f"{c['members']} people joined"]
    if texts.consent:
        parts.append(f"{c['consented']} consented")
    if texts.ask_seen_before:
        parts.append(f"{c['seen_before_answered']} answered \"seen before?\" "
                     f"({c['seen_before_yes']} yes)")
    if texts.instructions and not texts.consent:
        parts.append("instructions shown first")
    return "consent: " + ", ".join(parts)
