"""Classifying what went wrong talking to a model endpoint.

Every failure becomes a :class:`ModelCallError` with a ``kind`` and whether trying again can
help. Retryable: timeouts, dropped connections, HTTP 408/409/429 and 5xx, bodies that are not
the JSON of a chat completion. Not retryable: a prompt longer than the model's context window
(``context_length``), authentication, unknown model, other bad requests. After the retries the
error reaches the episode loop, which ends the episode with status ``error`` - kept apart from
the model's own mistakes, which are recorded as invalid steps.
"""

from __future__ import annotations

import email.utils
import json
import re
import time

import openai

_CONTEXT = re.compile(
    r"context[ _-]?(length|window)|maximum context|too many tokens|prompt is too long|"
    r"reduce the length|input is too long|exceeds the (model'?s )?(max|context)", re.IGNORECASE)

RETRYABLE_STATUS = {408, 409, 429}


class ModelCallError(RuntimeError):
    """A request failed. ``kind`` names the failure; ``status`` is the HTTP status if any."""

    def __init__(self, kind: str, message: str, *, retryable: bool, status: int | None = None,
                 retry_after: float | None = None) -> None:
        self.kind = kind
        self.retryable = retryable
        self.status = status
        self.retry_after = retry_after
        self.attempts = 1
        super().__init__(message)

    def __str__(self) -> str:
        base = super().__str__()
        tail = f" after {self.attempts} attempts" if self.attempts > 1 else ""
        return f"{self.kind}{tail}: {base}"


class BadResponse(Exception):
    """The endpoint answered, but not with a usable chat completion."""


def retry_after(headers) -> float | None:
    """Seconds the server asked us to wait (``retry-after-ms`` or ``Retry-After``), if any."""
    if headers is None:
        return None
    ms = headers.get("retry-after-ms")
    if ms:
        try:
            return max(0.0, float(ms) / 1000.0)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _message(err: openai.APIStatusError) -> str:
    body = err.body
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and inner.get("message"):
            return str(inner["message"])
    return str(err.message)


def classify(exc: BaseException) -> ModelCallError:
    """The :class:`ModelCallError` for an exception raised while calling the endpoint."""
    if isinstance(exc, ModelCallError):
        return exc
    if isinstance(exc, openai.APITimeoutError):
        return ModelCallError("timeout", "the request timed out", retryable=True)
    if isinstance(exc, openai.APIConnectionError):
        cause = exc.__cause__ or exc.__context__
        detail = f" ({type(cause).__name__}: {cause})" if cause else ""
        return ModelCallError("connection", f"connection failed{detail}"[:300], retryable=True)
    if isinstance(exc, openai.APIStatusError):
        status = exc.status_code
        text = _message(exc)[:300]
        code = str(getattr(exc, "code", "") or "")
        if status in (400, 413, 422) and (code == "context_length_exceeded"
                                          or _CONTEXT.search(text)):
            return ModelCallError("context_length", text, retryable=False, status=status)
        if status == 429:
            return ModelCallError("rate_limit", text, retryable=True, status=status,
                                  retry_after=retry_after(exc.response.headers))
        if status >= 500 or status in RETRYABLE_STATUS:
            return ModelCallError("server", f"HTTP {status}: {text}", retryable=True,
                                  status=status, retry_after=retry_after(exc.response.headers))
        if status in (401, 403):
            return ModelCallError("auth", f"HTTP {status}: {text}", retryable=False, status=status)
        if status == 404:
            return ModelCallError("not_found", f"HTTP 404: {text}", retryable=False, status=404)
        return ModelCallError("bad_request", f"HTTP {status}: {text}", retryable=False,
                              status=status)
    if isinstance(exc, (BadResponse, openai.APIResponseValidationError, json.JSONDecodeError)):
        return ModelCallError("bad_response", f"the response is not a chat completion "
                              f"({type(exc).__name__}: {exc})"[:300], retryable=True)
    if isinstance(exc, ValueError):
        return ModelCallError("bad_response", f"unreadable response ({exc})"[:300],
                              retryable=True)
    return ModelCallError("client", f"{type(exc).__name__}: {exc}"[:300], retryable=False)
