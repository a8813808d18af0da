"""What one running desktop app holds: preferences, the open database, background work.

:class:`AppState` opens the database the preferences (or ``$PLAYBENCH_DB``) name and marks
episodes of processes that are gone ``interrupted`` - as the command line does - and keeps the
problem instead of raising when it cannot, so the app can start, explain and let the person
choose another file. :class:`Jobs` owns the asyncio tasks the views start, so that closing the
app can cancel them all and wait until each has recorded its state.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from playbench.app.core.owner import is_alive
from playbench.app.studies.access import RESEARCHER, Viewer, sealed_study_ids, unlock
from playbench.app.ui.models.prefs import Prefs, PrefsError, PrefsStore
from playbench.db.engine import DatabaseProblem, choose_url, open_database
from playbench.db.store import Store

log = logging.getLogger(__name__)

ErrorHandler = Callable[[BaseException], None]


class Jobs:
    """The asyncio tasks started from the UI, with errors routed to a handler (a dialog)."""

    def __init__(self, on_error: ErrorHandler | None = None) -> None:
        self.on_error = on_error
        self._tasks: set[asyncio.Task[Any]] = set()

    def start(self, coro: Coroutine[Any, Any, Any], *, name: str = "",
              on_error: ErrorHandler | None = None) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        if name:
            task.set_name(name)
        self._tasks.add(task)
        task.add_done_callback(lambda t: self._done(t, on_error))
        return task

    def _done(self, task: asyncio.Task[Any], on_error: ErrorHandler | None) -> None:
        self._tasks.discard(task)
        if task.cancelled():
            return
        err = task.exception()
        if err is None:
            return
        handler = on_error or self.on_error
        if handler is None:
            log.error("background task %s failed", task.get_name(), exc_info=err)
        else:
            handler(err)

    @property
    def running(self) -> list[asyncio.Task[Any]]:
        return [t for t in self._tasks if not t.done()]

    async def cancel_all(self, timeout: float = 5.0) -> bool:
        """Cancel every task and wait (at most ``timeout`` seconds) for them to finish;
        True when all did."""
        tasks = self.running
        for t in tasks:
            t.cancel()
        if not tasks:
            return True
        done, pending = await asyncio.wait(tasks, timeout=timeout)
        return not pending


class AppState:
    """Preferences, database and background work of one desktop app."""

    def __init__(self, prefs_store: PrefsStore | None = None, db_url: str | None = None) -> None:
        self.prefs_store = prefs_store or PrefsStore()
        self.prefs_problem: str | None = None
        try:
            self.prefs = self.prefs_store.load()
        except PrefsError as err:
            self.prefs, self.prefs_problem = Prefs(), str(err)
        self.store: Store | None = None
        self.db_problem: str | None = None
        self.db_url = choose_url(db_url or self.prefs.db_url)
        self.executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="playbench-ui")
        self.jobs = Jobs()
        self.closers: list[Callable[[], Awaitable[None]]] = []
        self.unlocked: frozenset[int] = frozenset()
        """Sealed blind studies whose researcher credential was given in this session (held
        in memory only; never saved)."""

    def researcher(self) -> Viewer:
        """The researcher viewer of this session: sealed studies only once unlocked."""
        return RESEARCHER.with_unlocked(self.unlocked)

    def locked_studies(self) -> list[int]:
        """Sealed blind studies not unlocked in this session."""
        if self.store is None:
            return []
        return [sid for sid in sealed_study_ids(self.store) if sid not in self.unlocked]

    def unlock(self, secret: str) -> int:
        """Unlock the sealed studies ``secret`` is the credential of; how many were newly
        unlocked (0: it fits none)."""
        if self.store is None:
            return 0
        before = self.unlocked
        self.unlocked = unlock(self.store, self.researcher(), secret).unlocked
        return len(self.unlocked - before)

    def open_database(self, url: str | None = None) -> Store:
        """Open (and migrate) the database at ``url`` (default: the chosen one) and make it
        the current one; raises ``DatabaseProblem`` and keeps the current one otherwise."""
        url = choose_url(url or self.db_url)
        store = Store(open_database(url))
        store.mark_interrupted(is_alive)
        old, self.store = self.store, store
        self.db_url, self.db_problem = url, None
        if old is not None:
            old.db.dispose()
        return store

    def try_open_database(self) -> bool:
        try:
            self.open_database()
        except DatabaseProblem as err:
            self.db_problem = str(err)
            return False
        except Exception as err:  # noqa: BLE001 - anything else is shown the same way
            self.db_problem = f"{self.db_url}: {type(err).__name__}: {err}"
            return False
        return True

    def save_prefs(self, prefs: Prefs) -> None:
        self.prefs = prefs
        self.prefs_store.save(prefs)

    async def close(self, timeout: float = 5.0) -> None:
        """Cancel running work (episodes record ``interrupted``), release model clients,
        close the database. Bounded: it never waits longer than about ``timeout`` seconds."""
        await self.jobs.cancel_all(timeout)
        for close in list(self.closers):
            try:
                await asyncio.wait_for(close(), timeout=2.0)
            except Exception:  # noqa: BLE001 - shutting down: log and go on
                log.warning("closing a model connection failed", exc_info=True)
        self.closers.clear()
        self.executor.shutdown(wait=False, cancel_futures=True)
        if self.store is not None:
            self.store.db.dispose()
            self.store = None
