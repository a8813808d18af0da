"""Where a web task's sites are for one episode: each ``__NAME__`` placeholder the task uses,
mapped to an address - a site the user runs (from the web settings), an address a caller
passes in (a shared bundled site, with its reset URL), or PlayBench's own classifieds site
started for this episode alone - and what PlayBench does to its own sites before an episode
(reset, log in). Addresses are written back as placeholders for hashing, so a state's hash does
not depend on the port of the day.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator, Mapping

from playwright.async_api import APIRequestContext

from playbench.games.web.tasks import PLACEHOLDER
from playbench.resources.web.site import LOGIN_PATH, TEST_PASSWORD, TEST_USER, ClassifiedsServer

Problem = Callable[[str, str], Exception]
"""Makes the error that names a task field and says what went wrong with it."""


@dataclasses.dataclass
class Site:
    """Where one placeholder points, and how to reset and log in to it (bundled site)."""

    base: str
    server: ClassifiedsServer | None = None
    reset_url: str | None = None
    bundled: bool = False


class Sites(Mapping[str, Site]):
    """The sites of one episode by placeholder name. ``overrides`` maps a name to
    ``(address, reset URL)``; a reset URL marks PlayBench's own site served elsewhere."""

    def __init__(self, overrides: Mapping[str, tuple[str, str | None]] | None = None) -> None:
        self.overrides = dict(overrides or {})
        self._by_name: dict[str, Site] = {}

    def __getitem__(self, name: str) -> Site:
        return self._by_name[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_name)

    def __len__(self) -> int:
        return len(self._by_name)

    def site_map(self, configured: Mapping[str, str | None]) -> dict[str, str | None]:
        """The web settings' addresses with the overrides on top (None = PlayBench's own
        site), as the task checks read them."""
        return {**configured, **{k: (None if v[1] else v[0]) for k, v in self.overrides.items()}}

    def open(self, names: Iterable[str], site_map: Mapping[str, str | None]) -> None:
        """Places every name, starting PlayBench's own site for each name that has no
        address."""
        for name in names:
            self._by_name[name] = self._site(name, site_map[name])

    def _site(self, name: str, address: str | None) -> Site:
        if name in self.overrides:
            base, reset_url = self.overrides[name]
            return Site(base.rstrip("/"), None, reset_url, bundled=reset_url is not None)
        if address is not None:
            return Site(address.rstrip("/"))
        server = ClassifiedsServer()
        base = server.start()
        return Site(base, server, server.reset_url, bundled=True)

    @property
    def all_bundled(self) -> bool:
        return all(s.bundled for s in self._by_name.values())

    def addresses(self) -> dict[str, str]:
        return {n: s.base for n, s in self._by_name.items()}

    def place(self, text: str) -> str:
        """``text`` with every known placeholder replaced by its site's address."""
        return PLACEHOLDER.sub(lambda m: self._by_name[m.group(1)].base
                               if m.group(1) in self._by_name else m.group(0), text)

    def unplace(self, text: str) -> str:
        """Addresses back to placeholders."""
        for name, site in self._by_name.items():
            text = text.replace(site.base, f"__{name}__")
        return text

    async def reset(self, request: APIRequestContext, problem: Problem) -> None:
        """Resets PlayBench's own sites (cheap, and episodes sharing one server stay
        independent); other sites only as the user resets them."""
        for site in self._by_name.values():
            if site.reset_url:
                resp = await request.post(site.reset_url)
                if not resp.ok:
                    raise problem("require_reset", f"{site.reset_url} answered HTTP "
                                                   f"{resp.status}")

    async def log_in(self, request: APIRequestContext, problem: Problem) -> None:
        """Logs the episode's context in to each of PlayBench's own sites as its test user."""
        for name, site in self._by_name.items():
            resp = await request.post(site.base + LOGIN_PATH,
                                      form={"username": TEST_USER, "password": TEST_PASSWORD})
            if not resp.ok:
                raise problem("require_login", f"logging in to __{name}__ answered "
                                               f"HTTP {resp.status}")

    def close(self) -> None:
        """Stops the sites started for this episode and forgets every placement."""
        for site in self._by_name.values():
            if site.server is not None:
                site.server.stop()
        self._by_name = {}
