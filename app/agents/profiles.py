"""Model profiles: which endpoint and model to call and how, stored as JSON in the user config
directory (``$PLAYBENCH_CONFIG_DIR`` overrides it), never with the API key.

A profile names where its key comes from: ``env:VAR`` (an environment variable) or ``keyring``
(the OS keyring, service ``playbench``, user = profile name), or nothing for local servers that
need none. ``details()`` - what is recorded with the participant - holds no key.

A fresh install has one built-in profile, ``demo``: a solver-backed stand-in served by PlayBench
itself (``playbench serve-model`` started in-process on a free port when a run uses it), so
model play can be shown with no API key. It is labelled as such wherever profiles are listed.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import MISSING, asdict, dataclass, field, fields
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit, urlunsplit

import platformdirs

from playbench.app.agents.profile_fields import LOCAL, first_problem
from playbench.app.agents.redact import Redactor

FILE_NAME = "models.json"


class ProfileError(ValueError):
    """A profile or the profile file is wrong; the message names the file and field."""


def config_dir(environ: Mapping[str, str] | None = None) -> Path:
    env = os.environ if environ is None else environ
    override = env.get("PLAYBENCH_CONFIG_DIR")
    return Path(override) if override else Path(platformdirs.user_config_dir("playbench"))


@dataclass(frozen=True)
class ModelProfile:
    """How to reach one model. Generation fields left at None use the protocol's defaults
    (ING-VP: temperature 0; MageBench: 0.1, top_p 0.95, frequency_penalty 1.0, max_tokens
    300/1000)."""

    name: str
    base_url: str
    model: str
    api_key: str | None = None
    provider: str = "openai"
    api_version: str | None = None
    temperature: float | None = None
    top_p: float | None = None
    max_tokens: int | None = None
    frequency_penalty: float | None = None
    timeout: float = 60.0
    max_retries: int = 4
    backoff: float = 1.0
    backoff_max: float = 30.0
    max_concurrency: int = 8
    requests_per_minute: float | None = None
    tokens_per_minute: float | None = None
    input_price: float = 0.0
    output_price: float = 0.0
    image_size: int | None = None
    image_detail: str | None = None
    image_format: str = "png"
    tool_choice: str | None = "auto"
    action_memory: int = 5
    observation_memory: int = 1
    state_hints: bool = False
    prompt_dir: str | None = None
    label: str = ""
    local: Mapping[str, Any] | None = None
    """Options of the serve-model endpoint PlayBench starts for this profile (``base_url``
    ``local``): ``policy``, ``noise``, ``latency_ms``, ``faults``, ``seed``."""
    extra_headers: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        check_profile(self)

    # -- views ----------------------------------------------------------------------------

    def details(self) -> dict[str, Any]:
        """Facts recorded with the participant: everything but secrets (no key, no header
        values, no credentials inside the URL)."""
        data = asdict(self)
        data["base_url"] = public_url(self.base_url)
        data["extra_headers"] = sorted(self.extra_headers)
        data["api_key"] = self.api_key if self.api_key in (None, "keyring") or str(
            self.api_key).startswith("env:") else "(set)"
        return {k: v for k, v in data.items() if v not in (None, {}, [], "")}

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("name")
        defaults = {f.name: f.default for f in fields(self) if f.default is not MISSING}
        return {k: v for k, v in data.items()
                if k in ("base_url", "model") or (k in defaults and v != defaults[k])
                or (k == "extra_headers" and v)}

    @property
    def is_local(self) -> bool:
        return self.base_url == LOCAL

    @property
    def key_source(self) -> str:
        return self.api_key or "none"

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        """Dollars for one request at the profile's prices (per million tokens)."""
        return (prompt_tokens * self.input_price + completion_tokens * self.output_price) / 1e6


def public_url(url: str) -> str:
    """The URL without user, password or query string (where keys sometimes hide)."""
    if url == LOCAL:
        return url
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path, "", ""))


@dataclass(frozen=True)
class Endpoint:
    """A base URL taken apart the way a request needs it: ``url`` without credentials or query
    (request paths are joined onto it), the query parameters to send with every request, and
    the user and password the URL carried (sent as HTTP Basic credentials, as before)."""

    url: str
    query: Mapping[str, str]
    user: str | None
    password: str | None


def endpoint_of(url: str) -> Endpoint:
    """Split ``url`` into an :class:`Endpoint`. Appending ``/chat/completions`` to a URL with
    a query string put the path inside the query (``...?key=K/chat/completions``); the query
    travels separately instead."""
    if url == LOCAL:
        return Endpoint(url, {}, None, None)
    parts = urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:  # an IPv6 literal goes back into brackets
        host = f"[{host}]"
    if parts.port:
        host = f"{host}:{parts.port}"
    query = dict(parse_qsl(parts.query, keep_blank_values=True))
    return Endpoint(urlunsplit((parts.scheme, host, parts.path, "", "")), query,
                    unquote(parts.username) if parts.username else None,
                    unquote(parts.password) if parts.password is not None else None)


def public_url_or_mask(url: str) -> str:
    """:func:`public_url`, or for a URL too broken to take apart the text with anything that
    looks like credentials masked."""
    try:
        return public_url(url)
    except ValueError:
        return Redactor().text(url)


def _field_error(profile: str, name: str, problem: str) -> ProfileError:
    return ProfileError(f"model profile {profile!r}: field {name!r} {problem}")


def check_profile(p: ModelProfile) -> None:
    """Raise :class:`ProfileError` naming the first field with an impossible value: each field
    held to :class:`~playbench.app.agents.profile_fields.ProfileFields`, then what fields say
    together."""
    found = first_problem({f.name: getattr(p, f.name) for f in fields(p)})
    if found is not None:
        name, reason = found
        if name == "name":
            raise ProfileError(f"model profile name {p.name!r} must be 1-64 letters, digits, "
                               "'.', '_' or '-', starting with a letter or digit")
        if name == "base_url":
            raise _field_error(p.name, "base_url", f"must be an http(s) URL or {LOCAL!r}, got "
                                                   f"{Redactor().text(repr(p.base_url))}")
        raise _field_error(p.name, name, reason)
    try:
        endpoint_of(p.base_url)
    except ValueError as err:
        raise _field_error(p.name, "base_url", f"is not a usable URL ({err}): "
                                               f"{public_url_or_mask(p.base_url)}") from None
    if p.provider == "azure" and not p.api_version:
        raise _field_error(p.name, "api_version", "is needed for provider 'azure'")
    if p.observation_memory > p.action_memory + 1:
        raise _field_error(p.name, "observation_memory", "must not exceed action_memory + 1")
    if p.is_local and p.local is None:
        raise _field_error(p.name, "local", f"is needed when base_url is {LOCAL!r}")


def profile_from_dict(name: str, data: Any, source: str = "") -> ModelProfile:
    """A profile from its stored form; errors name the source file, the profile and field."""
    where = f"{source}: " if source else ""
    if not isinstance(data, dict):
        raise ProfileError(f"{where}model profile {name!r} must be a JSON object")
    known = {f.name for f in fields(ModelProfile)} - {"name"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ProfileError(f"{where}model profile {name!r}: unknown field {unknown[0]!r} "
                           f"(known: {', '.join(sorted(known))})")
    for needed in ("base_url", "model"):
        if needed not in data:
            raise ProfileError(f"{where}model profile {name!r}: field {needed!r} is missing")
    try:
        return ModelProfile(name=name, **data)
    except ProfileError as err:
        raise ProfileError(f"{where}{err}") from None
    except TypeError as err:
        raise ProfileError(f"{where}model profile {name!r}: {err}") from None


DEMO = ModelProfile(
    name="demo", base_url=LOCAL, model="playbench-oracle",
    label="solver-backed stand-in, not a real model", state_hints=True,
    max_concurrency=64, timeout=30.0, local={"policy": "oracle", "noise": 0.0})
"""The fresh-install demo: PlayBench's own offline endpoint answering with the solver's move."""


class ProfileStore:
    """The profile file in a config directory, plus the built-in ``demo`` profile (a stored
    profile called ``demo`` replaces it)."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = Path(directory) if directory is not None else config_dir()
        self.path = self.directory / FILE_NAME

    def _read(self) -> dict[str, Any]:
        if not self.path.exists():
            return {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as err:
            raise ProfileError(f"{self.path}: cannot read the profile file ({err})") from None
        except ValueError as err:
            raise ProfileError(f"{self.path}: not valid JSON ({err})") from None
        if not isinstance(data, dict) or not isinstance(data.get("profiles", {}), dict):
            raise ProfileError(f"{self.path}: expected {{\"profiles\": {{NAME: {{...}}}}}}")
        return data.get("profiles", {})

    def load(self) -> dict[str, ModelProfile]:
        """Every profile, built-in first; raises :class:`ProfileError` for a bad file."""
        out = {DEMO.name: DEMO}
        for name, data in self._read().items():
            out[name] = profile_from_dict(name, data, str(self.path))
        return out

    def get(self, name: str) -> ModelProfile:
        profiles = self.load()
        if name not in profiles:
            raise ProfileError(f"no model profile {name!r} (known: {', '.join(profiles)}); "
                               "add one with `playbench models add`")
        return profiles[name]

    def save(self, profile: ModelProfile) -> None:
        """Add or replace a profile, writing the file atomically."""
        stored = self._read()
        stored[profile.name] = profile.to_dict()
        self._write(stored)

    def remove(self, name: str) -> bool:
        stored = self._read()
        if name not in stored:
            return False
        del stored[name]
        self._write(stored)
        return True

    def _write(self, profiles: dict[str, Any]) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps({"version": 1, "profiles": profiles}, indent=2,
                                  sort_keys=True) + "\n", encoding="utf-8")
        tmp.replace(self.path)
