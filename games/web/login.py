"""Logging in to VWA's sites and saving the browser's storage state where a task expects it.

VWA's tasks that need a logged-in user name a Playwright storage state file
(``"storage_state": "./.auth/classifieds_state.json"``, relative to VWA's root); VWA writes
those files beforehand with a login script that fills each site's login form and saves the
cookies, one file per site or per set of sites a task uses (``classifieds.reddit_state.json``)
(VWA's published code, web-arena-x/visualwebarena; VWA's task fields:
docs/reference/web.md). PlayBench does the same from recipes in its web
settings (:class:`playbench.games.web.config.LoginRecipe`): for each storage state file, one browser
context logs in to every site the tasks using that file need, then saves the context's state.

Passwords come from the settings or the environment and are typed into the page only: no log
line, message or exception here contains one.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playbench.games.browser.browser import Browser
from playbench.games.browser.session import SessionOptions, host_of
from playbench.games.web.config import LoginRecipe, WebConfig, WebConfigError
from playbench.games.web.tasks import PLACEHOLDER, WebTask, login_sites

log = logging.getLogger(__name__)


class LoginError(RuntimeError):
    """A login step failed; the message names the site and why, never the password."""


@dataclass(frozen=True)
class StateFile:
    """One storage state file to write: where, for which sites, for which tasks."""

    path: Path
    sites: tuple[str, ...]
    tasks: tuple[int, ...]


def state_path(task: WebTask) -> Path | None:
    """Where the task's storage state file is (relative paths from the task's base
    directory, which is VWA's root for VWA's files), or None when it names none."""
    ref = task.config.get("storage_state")
    if not isinstance(ref, str) or not ref:
        return None
    p = Path(ref)
    return p if p.is_absolute() else Path(task.base_dir) / p


def state_files(tasks: Iterable[WebTask]) -> list[StateFile]:
    """The storage state files the tasks name, each with every site any of its tasks needs."""
    found: dict[Path, tuple[set[str], list[int]]] = {}
    for task in tasks:
        path = state_path(task)
        if path is None:
            continue
        sites, ids = found.setdefault(path.resolve(), (set(), []))
        sites.update(login_sites(task))
        ids.append(task.task_id)
    return [StateFile(p, tuple(sorted(s)), tuple(i)) for p, (s, i) in found.items()]


def page_url(recipe: LoginRecipe, base: str, sites: Mapping[str, str]) -> str:
    """The login page's address: a path is taken on the site's ``base``; placeholders
    (``__CLASSIFIEDS__``) are replaced by ``sites``."""
    url = PLACEHOLDER.sub(lambda m: sites.get(m.group(1), m.group(0)), recipe.url)
    return base.rstrip("/") + url if url.startswith("/") else url


async def log_in(page: Any, name: str, recipe: LoginRecipe, base: str,
                 sites: Mapping[str, str], environ: Mapping[str, str] | None = None) -> None:
    """Fill and submit one site's login form in ``page``; raises :class:`LoginError` when the
    page does not show the logged-in state afterwards."""
    try:
        password = recipe.secret(environ)
    except WebConfigError as err:
        raise LoginError(f"__{name}__: {err}") from None
    url = page_url(recipe, base, sites)
    try:
        await page.goto(url, wait_until="load")
        selectors = list(recipe.fields)
        for selector in selectors:
            value = recipe.fields[selector].replace("{username}", recipe.username) \
                .replace("{password}", password)
            await page.locator(selector).first.fill(value)
        async with page.expect_navigation(wait_until="load"):
            if recipe.submit:
                await page.locator(recipe.submit).first.click()
            else:
                await page.locator(selectors[-1]).first.press("Enter")
        content = await page.content() if recipe.expect else ""
    except Exception as err:
        # Playwright's message may quote the filled value; keep only its first line and
        # take the password out of it in any case.
        first = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise LoginError(f"__{name}__: the login form at {url} could not be used: "
                         f"{first.replace(password, '***')[:300]}") from None
    if recipe.expect:
        if recipe.expect not in content:
            raise LoginError(f"__{name}__: after logging in as {recipe.username or '(no user)'}"
                             f" the page does not show {recipe.expect!r}; check the "
                             "credentials")
    elif page.url.split("#")[0] == url.split("#")[0]:
        raise LoginError(f"__{name}__: still on the login page after logging in as "
                         f"{recipe.username or '(no user)'}; check the credentials")
    log.info("logged in to __%s__ as %s", name, recipe.username or "(no user)")


async def write_state(browser: Browser, state: StateFile, config: WebConfig,
                      environ: Mapping[str, str] | None = None,
                      load_timeout_ms: float = 30_000) -> None:
    """Log in to every site of ``state`` in one fresh context (only those sites reachable)
    and save the context's cookies and storage to ``state.path``."""
    sites = {k: v.rstrip("/") for k, v in config.sites.items()}
    for name in state.sites:
        if name not in config.logins:
            raise LoginError(f"__{name}__: no login recipe in the web settings ('logins')")
        if name not in sites:
            raise LoginError(f"__{name}__: no address; map it to the site's URL in the web "
                             "settings or with --site")
    hosts = frozenset(host_of(sites[n]) for n in state.sites) | frozenset(
        host_of(page_url(config.logins[n], sites[n], sites)) for n in state.sites)
    session = await browser.new_session(SessionOptions(hosts, load_timeout_ms=load_timeout_ms))
    try:
        page = await session.context.new_page()
        for name in state.sites:
            await log_in(page, name, config.logins[name], sites[name], sites, environ)
        state.path.parent.mkdir(parents=True, exist_ok=True)
        await session.context.storage_state(path=str(state.path))
    finally:
        await session.close()


__all__ = ["LoginError", "StateFile", "login_sites", "state_path", "state_files", "log_in",
           "write_state", "page_url"]
