"""Keeping a study task's clock exact across pause, resume and a crash.

The episode loop records each step's think time when the step is made; the time spent on the
decision not yet made lived only in the running process, so pausing (or a crash) gave it back
and pausing before each move defeated the time limit. A :class:`ThinkKeeper` follows the loop's
events and saves that time in flight (``playbench.db.thinking``): every ``every`` seconds while a
decision is awaited, and once more when the episode stops unfinished (pause, tab switch,
closing the app). A resume counts it (:func:`playbench.app.core.runs.resume_episode`). A process
killed outright loses at most the time since the last save: ``every`` seconds plus one write.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from playbench.app.core.events import Deciding, Ended, EpisodeEvent, Started, Stepped
from playbench.db.engine import Database
from playbench.db.thinking import save_pending

log = logging.getLogger(__name__)

SAVE_EVERY = 0.5
"""Seconds between saves of the time in flight: the most a SIGKILL can take back (plus the
duration of one write)."""


class ThinkKeeper:
    """An episode listener that saves the think time of the decision in flight.

    ``clock`` must be the episode loop's clock, so the saved time is the time the loop counts.
    Periodic saves run in a worker thread (the event loop keeps serving the board); the last
    save when the episode is interrupted is written before the loop reports the end, so a
    resume that follows at once reads it.
    """

    def __init__(self, db: Database, clock: Callable[[], float] = time.monotonic,
                 every: float = SAVE_EVERY) -> None:
        self.db = db
        self.clock = clock
        self.every = every
        self.episode_id = 0
        self.step = 0
        self.carried = 0.0
        """Seconds on the current decision spent before this session (a resume's)."""
        self.since: float | None = None
        self._ticker: asyncio.Task[None] | None = None

    def in_flight(self) -> float | None:
        """Seconds spent so far on the decision being awaited, or None between decisions."""
        if self.since is None:
            return None
        return self.carried + (self.clock() - self.since)

    def __call__(self, event: EpisodeEvent) -> None:
        if isinstance(event, Started):
            self.episode_id = event.episode_id
            self.step = len(event.history)
            self.carried = event.carried
        elif isinstance(event, Deciding):
            self.step = event.context.step
            self.since = self.clock()
            if self._ticker is None:
                self._ticker = asyncio.get_running_loop().create_task(self._tick())
        elif isinstance(event, Stepped):
            # The step holds this decision's time now; the next decision starts from zero.
            self.since, self.carried = None, 0.0
            self.step = event.record.index + 1
        elif isinstance(event, Ended):
            if self._ticker is not None:
                self._ticker.cancel()
                self._ticker = None
            spent = self.in_flight()
            self.since = None
            if spent is not None and event.result.status != "done":
                save_pending(self.db, self.episode_id, self.step, spent * 1000.0)

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            spent = self.in_flight()
            if spent is None or not self.episode_id:
                continue
            try:
                await asyncio.to_thread(save_pending, self.db, self.episode_id, self.step,
                                        spent * 1000.0)
            except Exception:  # the next tick (or the pause) tries again
                log.warning("could not save the study clock of episode %s", self.episode_id,
                            exc_info=True)
