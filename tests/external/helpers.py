"""A running external endpoint for tests: hub, server and a real SQLite file, with the hub's
event loop on its own thread (the harness under test uses the blocking openai client on the
test's thread, as a real harness in another process would)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from playbench.app.harness.hub import ExternalHub, PlayerMaker, QueuePlayer
from playbench.app.harness.queue import PendingRequest, Reply, RequestQueue
from playbench.app.harness.server import ExternalServer, ServerOptions
from playbench.db.engine import open_database
from playbench.db.store import Store


@dataclass
class Running:
    url: str
    queue: RequestQueue
    hub: ExternalHub
    store: Store
    server: ExternalServer
    loop: asyncio.AbstractEventLoop

    def wait_idle(self, timeout: float = 30.0) -> None:
        """Wait until no episode of the hub runs (every record finished)."""
        async def idle() -> None:
            while self.hub._runs:
                await asyncio.gather(*(asyncio.shield(r.task) for r in
                                       list(self.hub._runs.values())),
                                     return_exceptions=True)
        asyncio.run_coroutine_threadsafe(idle(), self.loop).result(timeout)


@contextmanager
def running(db_url: str, *, make_player: Callable[[RequestQueue], PlayerMaker] | None = None,
            via: str = "serve-human", idle: float | None = 30.0,
            **options: Any) -> Iterator[Running]:
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    store = Store(open_database(db_url))
    queue = RequestQueue()
    maker = make_player(queue) if make_player else (lambda _ex: QueuePlayer(queue, "tester"))
    hub = ExternalHub(loop, store, maker, via=via, queue=queue, idle_seconds=idle)
    server = ExternalServer(hub, ServerOptions(**options)).start()
    try:
        yield Running(server.url, queue, hub, store, server, loop)
    finally:
        server.stop()
        asyncio.run_coroutine_threadsafe(hub.aclose(), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()


@contextmanager
def answering(queue: RequestQueue, answer: Callable[[PendingRequest], Reply | None]
              ) -> Iterator[list[PendingRequest]]:
    """A scripted person in a thread: takes the oldest waiting request, answers it with
    ``answer(request)`` (None: leaves it alone); yields the requests it saw, in order."""
    seen: list[PendingRequest] = []
    stop = threading.Event()

    def work() -> None:
        while not stop.is_set():
            request = next((r for r in queue.pending() if r not in seen), None)
            if request is None:
                stop.wait(0.02)
                continue
            seen.append(request)
            request.mark_shown()
            reply = answer(request)
            if reply is not None:
                request.answer(reply)

    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    try:
        yield seen
    finally:
        stop.set()
        worker.join(5)
