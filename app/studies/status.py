"""What a study shows to a viewer who may not see its scores: counts only."""

from __future__ import annotations

from typing import Any

from playbench.app.studies.protocol import load_protocol
from playbench.db.store import Store
from playbench.db.studies import finished_counts


def study_counts(store: Store, name: str) -> dict[str, Any]:
    """Finished episodes per participant kind and the number of people of study ``name``."""
    counts = finished_counts(store.db, load_protocol(store, name).id)
    return {"episodes": {kind: n for kind, (n, _) in counts.items()},
            "people": counts.get("human", (0, 0))[1]}
