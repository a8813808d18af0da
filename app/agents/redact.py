"""Keeping secrets out of every text PlayBench stores, prints or logs.

A model endpoint may echo what it was sent - the API key in a 401, a header value in a 400, the
URL with its credentials in a 404 - and that text becomes an episode's ``end_reason``, a line
on stderr, a log record, a cell in an export. :class:`Redactor` knows the secrets in play for
one endpoint (the key, the extra header values, the password and user of the base URL, the
values of secret-looking query parameters, the Basic credentials built from them) and replaces
each, in the forms an echo may take (as sent, percent-encoded, JSON-escaped), with
:data:`MASK`. It also masks, by pattern, credentials it was not told about: ``user:password@``
inside URLs, ``Bearer`` tokens and the values of secret-looking query parameters.

:class:`RedactingFilter` applies a redactor to log records, for the HTTP client's own loggers,
which print the request URL.
"""

from __future__ import annotations

import base64
import json
import logging
import re
from collections.abc import Iterable
from urllib.parse import parse_qsl, quote, quote_plus, urlsplit

MASK = "***"
MIN_SECRET = 4
"""Shorter values are not masked word by word (masking "1" everywhere helps nobody); the
patterns still catch them where they sit in a URL or a header."""

_SECRET_WORDS = frozenset({
    "key", "apikey", "token", "accesstoken", "secret", "password", "passwd", "pwd", "pass",
    "sig", "signature", "auth", "authorization", "credential", "credentials", "session",
    "code", "jwt"})
"""Words that make a query parameter's value a secret: the whole name (``apikey``) or one of
its parts (``subscription-key``, ``access_token``)."""

_URL_USERINFO = re.compile(r"(?P<scheme>[A-Za-z][A-Za-z0-9+.\-]*://)(?P<info>[^/\s@'\"<>]+)@")
_QUERY_PARAM = re.compile(r"(?P<name>[A-Za-z0-9_.\-]+)=(?P<value>[^&\s'\"<>#]+)")
_BEARER = re.compile(r"(?P<word>\b(?:Bearer|Basic)\s+)"
                     r"(?P<value>(?=[A-Za-z._~]*[0-9+/=_\-])[A-Za-z0-9._~+/=\-]{8,})",
                     re.IGNORECASE)
"""A credential after its scheme word; the value must hold a digit or a symbol, so prose
("Basic authentication required") is left alone."""


def is_secret_param(name: str) -> bool:
    """Whether a query parameter called ``name`` probably carries a credential."""
    lowered = name.lower()
    parts = re.split(r"[_\-.]", lowered)
    return lowered.replace("_", "").replace("-", "") in _SECRET_WORDS or any(
        p in _SECRET_WORDS for p in parts)


def _forms(secret: str) -> set[str]:
    """The ways ``secret`` may come back in an echo: as is, URL-encoded, JSON-escaped."""
    forms = {secret, quote(secret, safe=""), quote_plus(secret), json.dumps(secret)[1:-1]}
    return {f for f in forms if len(f) >= MIN_SECRET}


class Redactor:
    """Masks known secrets and credential-shaped text. Immutable once made."""

    def __init__(self, secrets: Iterable[str | None] = ()) -> None:
        forms: set[str] = set()
        for s in secrets:
            if s and len(s) >= MIN_SECRET:
                forms |= _forms(s)
        # Longest first, so a secret containing another is masked whole.
        self._secrets = tuple(sorted(forms, key=len, reverse=True))

    @property
    def secrets(self) -> tuple[str, ...]:
        return self._secrets

    def known(self, value: str) -> str:
        """``value`` with the known secrets masked and nothing else touched: for a model's
        answer, whose ``token=...`` or ``Bearer ...`` may be the model's own words, while the
        key itself, echoed back, must still never be stored, shown or passed on."""
        out = value
        for s in self._secrets:
            if s in out:
                out = out.replace(s, MASK)
        return out

    def text(self, value: str) -> str:
        """``value`` with every known secret and credential-shaped part masked."""
        out = value
        for s in self._secrets:
            if s in out:
                out = out.replace(s, MASK)
        out = _URL_USERINFO.sub(lambda m: f"{m['scheme']}{MASK}@", out)
        out = _BEARER.sub(lambda m: f"{m['word']}{MASK}", out)
        out = _QUERY_PARAM.sub(
            lambda m: f"{m['name']}={MASK}" if is_secret_param(m["name"]) else m[0], out)
        return out

    def exception(self, err: BaseException) -> BaseException:
        """``err`` with its message masked, cut from the exception it was raised from (whose
        text is the endpoint's, unmasked). Returns the same object."""
        err.args = tuple(self.text(a) if isinstance(a, str) else a for a in err.args)
        err.__cause__ = None
        err.__context__ = None
        err.__suppress_context__ = True
        return err

    def merged(self, other: Redactor) -> Redactor:
        """A redactor knowing both sets of secrets."""
        merged = Redactor()
        merged._secrets = tuple(sorted(set(self._secrets) | set(other._secrets), key=len,
                                       reverse=True))
        return merged


def url_secrets(url: str) -> list[str]:
    """The secrets a URL carries: user, password, values of secret-looking query parameters,
    and the Basic credentials an HTTP client builds from the user and password."""
    try:
        parts = urlsplit(url)
        user, password = parts.username, parts.password
    except ValueError:  # an unreadable port or host: mask the userinfo by pattern only
        return []
    out = [v for k, v in parse_qsl(parts.query, keep_blank_values=False) if is_secret_param(k)]
    if password:
        out.append(password)
        out.append(base64.b64encode(f"{user or ''}:{password}".encode()).decode("ascii"))
    if user and password:
        out.append(user)
    return out


class RedactingFilter(logging.Filter):
    """A logging filter that masks a record's message with a :class:`Redactor` (the message
    is formatted once here, so the arguments cannot bring a secret back)."""

    def __init__(self, redactor: Redactor) -> None:
        super().__init__()
        self.redactor = redactor

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a broken record is the logging module's to report
            return True
        masked = self.redactor.text(message)
        if masked != message:
            record.msg, record.args = masked, None
        return True
