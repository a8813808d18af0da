"""The two harness endpoints the app can run, Qt-free: ``serve-human`` (a person answers in the
"Answer a harness" view) and the recording proxy (a model profile answers; the model demo view
shows the exchanges live).

Both put the engine's pieces together the way the command line does
(``playbench.app.cli.external``):
an :class:`~playbench.app.harness.hub.ExternalHub` that runs one episode per harness task on
the app's event loop - recorded like every other episode - behind an
:class:`~playbench.app.harness.server.ExternalServer` on 127.0.0.1. The app never listens on
another interface: exposing the endpoint needs a token, which is a command-line matter
(``playbench serve-human --host ... --token ...``).

``listeners`` follow every episode the hub starts (``playbench.app.core.episode`` events, on the
loop's thread), which is how the demo view shows the proxy's exchanges as they are recorded - the
same way it follows a model episode it started itself.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any

from playbench.app.agents.profiles import ModelProfile
from playbench.app.core.events import Listener
from playbench.app.harness.env import Exchange
from playbench.app.harness.queue import RequestQueue
from playbench.db.store import Store

LOOPBACK = "127.0.0.1"


class _Endpoint:
    """What both endpoints share: the hub, the server, start and stop."""

    via = ""

    def __init__(self, store: Store, *, listeners: Sequence[Listener] = (),
                 idle_seconds: float | None = 300.0,
                 answer_timeout: float | None = None) -> None:
        self.store = store
        self.listeners = list(listeners)
        self.idle_seconds = idle_seconds
        self.answer_timeout = answer_timeout
        self.queue = RequestQueue()
        self.hub: Any = None
        self.server: Any = None

    @property
    def base_url(self) -> str | None:
        """The URL a harness takes as its OpenAI base URL (``.../v1``), None when stopped."""
        return self.server.url if self.server is not None else None

    @property
    def port(self) -> int | None:
        return self.server.port if self.server is not None else None

    def _player(self, exchange: Exchange) -> Any:
        raise NotImplementedError

    def _models(self) -> list[str]:
        raise NotImplementedError

    async def _prepare(self) -> None:
        """Work before listening (the proxy starts a stand-in upstream here)."""

    async def start(self, port: int = 0) -> str:
        """Listen on 127.0.0.1:``port`` (0: any free port); returns the base URL."""
        from playbench.app.harness.hub import ExternalHub
        from playbench.app.harness.server import ExternalServer, ServerOptions

        if self.server is not None:
            return self.server.url
        await self._prepare()
        hub = ExternalHub(asyncio.get_running_loop(), self.store, self._player, via=self.via,
                          models=self._models(), queue=self.queue if self.via ==
                          "serve-human" else None, listeners=self.listeners,
                          idle_seconds=self.idle_seconds)
        options = ServerOptions(host=LOOPBACK, port=port, answer_timeout=self.answer_timeout)
        server = await asyncio.to_thread(ExternalServer, hub, options)  # binds the port
        self.hub, self.server = hub, server.start()
        return str(server.url)

    async def stop(self) -> None:
        """End the running episodes (each recorded; waiting requests abandoned), then stop
        listening."""
        hub, server = self.hub, self.server
        self.hub = self.server = None
        try:
            if hub is not None:
                await hub.aclose()
        finally:
            if server is not None:
                await asyncio.to_thread(server.stop)
            await self._cleanup()

    async def _cleanup(self) -> None:
        """Work after stopping (the proxy stops its stand-in upstream here)."""

    @property
    def episodes(self) -> list[int]:
        """Episodes started since :meth:`start`, in order."""
        return list(self.hub.episodes) if self.hub is not None else []


class HumanEndpoint(_Endpoint):
    """``serve-human`` in the app: requests go on :attr:`queue`, which the view answers;
    ``annotator`` is the participant recorded."""

    via = "serve-human"

    def __init__(self, store: Store, annotator: str, **options: Any) -> None:
        super().__init__(store, **options)
        self.annotator = annotator

    def _player(self, exchange: Exchange) -> Any:
        from playbench.app.harness.hub import QueuePlayer
        return QueuePlayer(self.queue, self.annotator)

    def _models(self) -> list[str]:
        from playbench.app.harness.hub import HUMAN_MODEL
        return [HUMAN_MODEL]


class ProxyEndpoint(_Endpoint):
    """The recording proxy in the app: each request is forwarded to ``profile``'s endpoint
    (its key resolved when the proxy starts, never stored), its model id put in the request.
    A built-in stand-in profile (``demo``) gets its own serve-model started here."""

    via = "proxy"

    def __init__(self, store: Store, profile: ModelProfile,
                 resolve_key: Callable[[ModelProfile], str | None], **options: Any) -> None:
        super().__init__(store, **options)
        self.profile = profile
        self.resolve_key = resolve_key
        self.upstream: str = ""
        self._key: str | None = None
        self._stand_in: Any = None

    async def _prepare(self) -> None:
        profile = self.profile
        self._key = self.resolve_key(profile) if profile.api_key is not None else None
        if profile.is_local:
            from playbench.app.agents.session import local_server
            self._stand_in = await asyncio.to_thread(local_server, profile)
            self.upstream = str(self._stand_in.url)
        else:
            self.upstream = profile.base_url

    async def _cleanup(self) -> None:
        stand_in, self._stand_in = self._stand_in, None
        if stand_in is not None:
            await asyncio.to_thread(stand_in.stop)

    def _player(self, exchange: Exchange) -> Any:
        from playbench.app.harness.hub import ProxyPlayer
        p = self.profile
        return ProxyPlayer(self.upstream, p.model, key=self._key, override_model=True,
                           headers=dict(p.extra_headers), timeout=p.timeout)

    def _models(self) -> list[str]:
        return [self.profile.model]
