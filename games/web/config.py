"""Web settings: where VWA's sites live and which model profiles judge fuzzy answers and images.

Read from ``web.json`` in PlayBench's config directory (the app passes it in: its
``$PLAYBENCH_CONFIG_DIR``, else the user config directory; ``$PLAYBENCH_WEB_CONFIG`` names
another file)::

    {"sites": {"CLASSIFIEDS": "http://my-vwa-host:9980", "SHOPPING": "http://my-vwa-host:7770"},
     "judge": "gpt-judge", "vqa": "a-vision-profile"}

``judge`` and ``vqa`` name model profiles (``playbench models``); the VQA profile defaults to
the judge's. The environment wins over the file: ``PLAYBENCH_SITE_<NAME>=URL`` for one site,
``PLAYBENCH_WEB_JUDGE`` and ``PLAYBENCH_WEB_VQA`` for the profiles.

``__CLASSIFIEDS__`` with no address means PlayBench's own offline site, started per episode.
Every other placeholder needs an address.

``logins`` holds one login recipe per site, used to write the storage state (cookies) a VWA
task names in ``storage_state`` (``playbench web login``, or by itself when an episode finds the
file missing)::

    "logins": {"CLASSIFIEDS": {"url": "/index.php?page=login",
                               "fields": {"#email": "{username}", "#password": "{password}"},
                               "submit": "button[type=submit]", "expect": "My listings",
                               "username": "me@example.com", "password_env": "VWA_PASSWORD"}}

``url`` is the login page (a path is taken on the site's address; placeholders are replaced);
``fields`` maps CSS selectors to what is typed there (``{username}`` and ``{password}`` are
replaced); ``submit`` is the button clicked (none: Enter in the last field); ``expect`` is text
the page shows once logged in (none: the page must have left the login URL). The password is
``password`` or, better, read from the environment variable ``password_env``; it is never
logged or printed. (VWA's own login script does the same per site with fixed selectors.)

``admin_accounts`` holds a site's admin account for its REST API, which some of VWA's
evaluation helpers read (``shopping_get_latest_order_url``, ``shopping_get_sku_latest_review_*``:
docs/web.md)::

    "admin_accounts": {"SHOPPING": {"username": "admin", "password_env": "VWA_SHOP_ADMIN"}}

(``password`` may be given instead of ``password_env``; VWA keeps this account in its
``browser_env/env_config.py``.)
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

BUNDLED_SITES = ("CLASSIFIEDS",)
FILE_NAME = "web.json"


class WebConfigError(ValueError):
    """The web settings file cannot be read; the message names the file and key."""


@dataclass(frozen=True)
class LoginRecipe:
    """How to log in to one site (see the module docstring); the password stays out of
    ``repr`` so that it never reaches a log line."""

    url: str
    fields: Mapping[str, str]
    username: str = ""
    password: str | None = field(default=None, repr=False)
    password_env: str | None = None
    submit: str | None = None
    expect: str | None = None

    def secret(self, environ: Mapping[str, str] | None = None) -> str:
        """The password: from ``password_env`` when that is set, else ``password``."""
        env = os.environ if environ is None else environ
        if self.password_env:
            value = env.get(self.password_env)
            if not value:
                raise WebConfigError(f"the login password is read from ${self.password_env}, "
                                     "which is not set")
            return value
        if self.password is None:
            raise WebConfigError("the login recipe has neither 'password' nor 'password_env'")
        return self.password


@dataclass(frozen=True)
class AdminLogin:
    """A site's admin account for its REST API; the password stays out of ``repr``."""

    username: str
    password: str | None = field(default=None, repr=False)
    password_env: str | None = None

    def secret(self, environ: Mapping[str, str] | None = None) -> str:
        """The password, from ``password_env`` when that is set, else ``password``."""
        return LoginRecipe("", {}, self.username, self.password, self.password_env).secret(
            environ)


def _admin(name: str, raw: Any, where: str) -> AdminLogin:
    """One site's admin account from the settings file, every field checked."""
    if not isinstance(raw, dict) or not isinstance(raw.get("username"), str) \
            or not raw["username"]:
        raise WebConfigError(f"{where}: admin_accounts.{name} must be an object with a "
                             "username")
    for key in ("password", "password_env"):
        if raw.get(key) is not None and not isinstance(raw[key], str):
            raise WebConfigError(f"{where}: admin_accounts.{name}.{key} must be a string")
    if raw.get("password") is None and not raw.get("password_env"):
        raise WebConfigError(f"{where}: admin_accounts.{name} needs password or password_env")
    unknown = set(raw) - {"username", "password", "password_env"}
    if unknown:
        raise WebConfigError(f"{where}: admin_accounts.{name}: unknown key(s) "
                             f"{', '.join(sorted(unknown))}")
    return AdminLogin(raw["username"], raw.get("password"), raw.get("password_env"))


def _recipe(name: str, raw: Any, where: str) -> LoginRecipe:
    """One site's login recipe from the settings file, every field checked."""
    if not isinstance(raw, dict):
        raise WebConfigError(f"{where}: logins.{name} must be an object")
    fields = raw.get("fields")
    if not isinstance(raw.get("url"), str) or not raw["url"]:
        raise WebConfigError(f"{where}: logins.{name}.url must be the login page's address")
    if not (isinstance(fields, dict) and fields
            and all(isinstance(k, str) and isinstance(v, str) for k, v in fields.items())):
        raise WebConfigError(f"{where}: logins.{name}.fields must map CSS selectors to texts")
    for key in ("username", "password", "password_env", "submit", "expect"):
        if raw.get(key) is not None and not isinstance(raw[key], str):
            raise WebConfigError(f"{where}: logins.{name}.{key} must be a string")
    unknown = set(raw) - {"url", "fields", "username", "password", "password_env", "submit",
                          "expect"}
    if unknown:
        raise WebConfigError(f"{where}: logins.{name}: unknown key(s) {', '.join(sorted(unknown))}")
    return LoginRecipe(raw["url"], dict(fields), raw.get("username") or "", raw.get("password"),
                       raw.get("password_env"), raw.get("submit"), raw.get("expect"))


@dataclass(frozen=True)
class WebConfig:
    sites: Mapping[str, str] = field(default_factory=dict)
    judge: str | None = None
    """Name of the model profile asked for fuzzy_match (and unachievable-task reasons)."""
    vqa: str | None = None
    """Name of the model profile asked about page images (eval_vqa)."""
    logins: Mapping[str, LoginRecipe] = field(default_factory=dict)
    """Login recipe per site name (``CLASSIFIEDS``), for writing VWA storage states."""
    admins: Mapping[str, AdminLogin] = field(default_factory=dict)
    """Admin account per site name (``SHOPPING``), for VWA's REST evaluation helpers."""

    def site_map(self) -> dict[str, str | None]:
        """Placeholder name -> address; None for the bundled sites that have none set."""
        out: dict[str, str | None] = {name: None for name in BUNDLED_SITES}
        out.update({k: v.rstrip("/") for k, v in self.sites.items()})
        return out

    def with_sites(self, sites: Mapping[str, str]) -> WebConfig:
        return WebConfig({**self.sites, **sites}, self.judge, self.vqa, self.logins,
                         self.admins)


def config_path(environ: Mapping[str, str] | None = None,
                config_dir: Path | None = None) -> Path | None:
    """``$PLAYBENCH_WEB_CONFIG``, else ``web.json`` in ``config_dir`` (None: no file)."""
    env = os.environ if environ is None else environ
    given = env.get("PLAYBENCH_WEB_CONFIG")
    if given:
        return Path(given)
    return None if config_dir is None else config_dir / FILE_NAME


def load_config(path: Path | None = None, environ: Mapping[str, str] | None = None,
                config_dir: Path | None = None) -> WebConfig:
    """The web settings from the file (if it exists) and the environment. ``config_dir`` is
    where the app keeps its settings; without it (and without ``path`` or
    ``$PLAYBENCH_WEB_CONFIG``) only the environment is read."""
    env = os.environ if environ is None else environ
    path = path or config_path(env, config_dir)
    data: dict[str, Any] = {}
    if path is not None and path.exists():
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            raise WebConfigError(f"{path}: cannot read the web settings ({err})") from None
        if not isinstance(data, dict):
            raise WebConfigError(f"{path}: the web settings must be a JSON object")
    sites = data.get("sites") or {}
    if not isinstance(sites, dict) or not all(isinstance(v, str) for v in sites.values()):
        raise WebConfigError(f"{path}: 'sites' must map placeholder names to URLs")
    sites = {str(k).strip("_").upper(): v for k, v in sites.items()}
    for key, value in env.items():
        if key.startswith("PLAYBENCH_SITE_") and value:
            sites[key[len("PLAYBENCH_SITE_"):].upper()] = value
    for key in ("judge", "vqa"):
        if data.get(key) is not None and not isinstance(data[key], str):
            raise WebConfigError(f"{path}: '{key}' must name a model profile")
    judge = env.get("PLAYBENCH_WEB_JUDGE") or data.get("judge")
    vqa = env.get("PLAYBENCH_WEB_VQA") or data.get("vqa") or judge
    raw_logins = data.get("logins") or {}
    if not isinstance(raw_logins, dict):
        raise WebConfigError(f"{path}: 'logins' must map site names to login recipes")
    logins = {str(k).strip("_").upper(): _recipe(str(k), v, str(path))
              for k, v in raw_logins.items()}
    raw_admins = data.get("admin_accounts") or {}
    if not isinstance(raw_admins, dict):
        raise WebConfigError(f"{path}: 'admin_accounts' must map site names to accounts")
    admins = {str(k).strip("_").upper(): _admin(str(k), v, str(path))
              for k, v in raw_admins.items()}
    return WebConfig(sites, judge, vqa, logins, admins)
