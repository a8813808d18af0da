"""``export --verify``: keep only the episodes that replay to their records.

Every export format calls :func:`verify_episodes` on the episodes it was asked for and writes
only the ones it keeps, so a record altered after it was made (a state hash, an action, a score
edited in the database) does not leave PlayBench as if it were a real play. The check is the one
``playbench replay --verify`` runs (:func:`playbench.app.core.replay.verify_episode`): same
level, seed and actions, every state hash and score compared. An episode that cannot be replayed
at all (its kind is not installed, its level no longer starts) is refused too, with that reason.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from playbench.app.core.replay import verify_episode
from playbench.db.store import Store


@dataclass
class Verified:
    """The outcome of checking a selection: the ids kept (in the order given) and, for each
    refused id, the first difference found."""

    kept: list[int] = field(default_factory=list)
    refused: dict[int, str] = field(default_factory=dict)

    def note(self) -> str:
        """One line for the person who asked (``refused 1 episode(s) that do not replay to
        their records: 12 (step 3: state_hash ...)``); empty when nothing was refused."""
        if not self.refused:
            return ""
        shown = "; ".join(f"{eid} ({why})" for eid, why in list(self.refused.items())[:5])
        more = f"; and {len(self.refused) - 5} more" if len(self.refused) > 5 else ""
        return (f"refused {len(self.refused)} episode(s) that do not replay to their "
                f"records: {shown}{more}")


def verify_episodes(store: Store, episode_ids: Sequence[int],
                    progress: Callable[[int, int], None] | None = None) -> Verified:
    """Replay each of ``episode_ids`` and sort it into kept or refused. ``progress`` is told
    (done, total) after each episode. Runs its own event loop: call it from a worker thread
    when a loop is already running there."""
    return asyncio.run(verify_episodes_async(store, episode_ids, progress))


async def verify_episodes_async(store: Store, episode_ids: Sequence[int],
                                progress: Callable[[int, int], None] | None = None
                                ) -> Verified:
    """:func:`verify_episodes` for callers inside a running event loop."""
    out = Verified()
    for n, eid in enumerate(episode_ids, 1):
        report = await verify_episode(store, eid)
        if report.ok:
            out.kept.append(eid)
        else:
            out.refused[eid] = report.problems[0][:200]
        if progress is not None:
            progress(n, len(episode_ids))
    return out
