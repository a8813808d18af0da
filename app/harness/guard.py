"""Who may talk to a harness endpoint: the checks made on a request's headers before its body
is read.

The endpoints listen on 127.0.0.1, and a port there is reachable from every web page the
person has open: a page may ``fetch`` (``text/plain``, no-cors), submit a ``<form>`` to it, or
point a DNS name it controls at 127.0.0.1 (DNS rebinding) and read the answers. A harness,
though, is a program - the OpenAI Python and JavaScript clients, curl - and sends no
``Origin`` and a ``Host`` naming the address it connected to. So a request is refused when

- its ``Host`` is not the address the endpoint listens on (``127.0.0.1:PORT``,
  ``localhost:PORT``, ``[::1]:PORT``) - a rebound name gives itself away here; an endpoint on
  another address (which needs a token) takes any ``Host``;
- it carries an ``Origin`` (other than the endpoint's own) or a browser's
  ``Sec-Fetch-Site`` other than ``same-origin``/``none``: a page of another site sent it;
- it is a ``POST`` whose ``Content-Type`` is not JSON: the content types a page may send
  without asking first (``text/plain``, form encodings) are exactly the ones refused.
"""

from __future__ import annotations

import ipaddress
from typing import Protocol

from playbench.app.harness.wire import HttpAnswer, error_answer


class Headers(Protocol):
    """A request's headers, looked up case-insensitively (``http.client.HTTPMessage``)."""

    def get(self, name: str, /) -> str | None: ...


_SAFE_FETCH_SITES = frozenset({"same-origin", "none"})
"""``Sec-Fetch-Site`` values of a request no other site made (``none``: typed by the user)."""


def allowed_hosts(host: str, port: int) -> frozenset[str] | None:
    """The ``Host`` values (lower case) a request to an endpoint bound to ``host:port`` may
    carry; None when any is taken (an address other than loopback, guarded by its token)."""
    names: set[str]
    if host == "localhost":
        names = {"localhost", "127.0.0.1", "[::1]"}
    else:
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return None
        if not address.is_loopback:
            return None
        names = {"localhost", f"[{address}]" if address.version == 6 else str(address)}
    hosts = {f"{name}:{port}" for name in names}
    if port == 80:
        hosts |= names
    return frozenset(hosts)


def _forbidden(reason: str) -> HttpAnswer:
    return error_answer(403, reason, "permission_error")


def refusal(method: str, headers: Headers, allowed: frozenset[str] | None,
            ) -> HttpAnswer | None:
    """The answer refusing a request, or None when it may go on (see the module docstring).
    ``headers`` is the request's (case-insensitive, like ``http.client.HTTPMessage``)."""
    host = (headers.get("Host") or "").strip().lower()
    if allowed is not None and host not in allowed:
        if not host:
            return _forbidden("the request has no Host header")
        return _forbidden(f"Host {host!r} is not this endpoint's address "
                          f"({', '.join(sorted(allowed))}): requests through another name "
                          "(DNS rebinding) are refused")
    origin = headers.get("Origin")
    if origin is not None and origin.strip().lower() != f"http://{host}":
        return _forbidden(f"requests from web pages are refused (Origin {origin.strip()!r}); "
                          "a harness sends no Origin")
    site = (headers.get("Sec-Fetch-Site") or "").strip().lower()
    if site and site not in _SAFE_FETCH_SITES:
        return _forbidden(f"requests from web pages are refused (Sec-Fetch-Site {site!r})")
    if method == "POST":
        kind = (headers.get("Content-Type") or "").split(";", 1)[0].strip().lower()
        if kind != "application/json":
            return error_answer(415, f"the body must be JSON (Content-Type: application/json), "
                                     f"not {kind or 'untyped'}")
    return None


__all__ = ["Headers", "allowed_hosts", "refusal"]
