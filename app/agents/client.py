"""One profile's chat-completions client: the official ``openai`` SDK (``AsyncOpenAI`` or
``AsyncAzureOpenAI``) with our own bounded retries, rate limits and accounting.

The SDK's own retries are turned off so that every attempt passes the rate limiter and is
counted. Retried failures (timeouts, dropped connections, 429 with its Retry-After, 5xx, bodies
that are not a chat completion) wait an exponentially growing, jittered delay; a retried request
is not a step. What a successful call cost - tokens, dollars, the successful attempt's latency
and the number of attempts - comes back with the reply.

Limits: the profile's ``timeout`` is a total deadline for one attempt - connecting, sending,
and receiving the whole answer, streamed or not - so a server that trickles its answer a byte
at a time cannot hold a request longer (the HTTP library's own timeout is per read). A server's
Retry-After is honoured up to :data:`RETRY_AFTER_CAP` seconds; the episode loop's time limit
cuts any wait shorter still (it cancels the decision when the episode's time is up).

Secrets: every error text is masked by the client's :class:`~playbench.app.agents.redact.Redactor`,
which knows the key, the extra header values and the credentials and secret query parameters
of the base URL, before it leaves this module; the HTTP library's own log lines go through the
same redactor while the client is open. The base URL's query string is sent as query parameters
of each request (not glued in front of the request path), and its user and password as HTTP
Basic credentials, never as part of a logged URL.
"""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import json
import logging
import random
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

import openai
from openai.types.chat import ChatCompletion, ChatCompletionChunk

from playbench.app.agents.errors import BadResponse, ModelCallError, classify
from playbench.app.agents.keys import PLACEHOLDER
from playbench.app.agents.profiles import ModelProfile, endpoint_of
from playbench.app.agents.protocols.base import Prompt, Reply, ToolCall
from playbench.app.agents.ratelimit import RateLimiter
from playbench.app.agents.redact import RedactingFilter, Redactor, url_secrets
from playbench.app.agents.retry import RetryNotice
from playbench.app.core.types import Usage

IMAGE_TOKENS = 800
"""Rough tokens per image for rate-limit estimates before the real usage is known."""

RETRY_AFTER_CAP = 30.0
"""Longest wait we accept from a server's Retry-After (seconds); a server asking for more is
retried after this long (and the episode's time limit may end the wait sooner)."""

HTTP_LOGGERS = ("httpx2", "httpx", "openai._base_client", "httpcore2.http11",
                "httpcore2.connection")
"""Loggers of the HTTP stack whose lines (the request URL among them) are masked while a
client is open."""

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ModelReply:
    reply: Reply
    usage: Usage
    finish_reason: str | None
    faults: tuple[str, ...]
    """Kinds of the failed attempts that were retried before this reply."""
    model: str


def estimate_tokens(prompt: Prompt) -> int:
    """A cheap upper-ish estimate of a prompt's tokens (4 characters per token)."""
    chars, images = 0, 0
    for m in prompt.messages:
        content = m.get("content")
        if isinstance(content, str):
            chars += len(content)
        elif isinstance(content, list):
            for part in content:
                if part.get("type") == "text":
                    chars += len(part.get("text", ""))
                else:
                    images += 1
    if prompt.tools:
        chars += len(json.dumps(prompt.tools))
    return chars // 4 + images * IMAGE_TOKENS + 8


def reply_of(completion: Any) -> tuple[Reply, str | None]:
    """Our :class:`Reply` from the SDK's completion object; :class:`BadResponse` when the body
    is not a chat completion."""
    if isinstance(completion, (str, bytes)):
        raise BadResponse("the endpoint answered with text, not JSON")
    choices = getattr(completion, "choices", None)
    if not choices:
        raise BadResponse("the response has no choices")
    message = getattr(choices[0], "message", None)
    if message is None:
        raise BadResponse("the first choice has no message")
    content = message.content
    if isinstance(content, list):  # some servers send content parts back
        content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
    calls = []
    for i, tc in enumerate(getattr(message, "tool_calls", None) or []):
        fn = getattr(tc, "function", None)
        if fn is None:
            continue
        calls.append(ToolCall(getattr(tc, "id", None) or f"call_{i}", fn.name or "",
                              fn.arguments or ""))
    return Reply(content or "", tuple(calls)), getattr(choices[0], "finish_reason", None)


class ModelClient:
    """Sends prompts for one profile; ``complete`` returns a reply or raises
    :class:`ModelCallError` once the retries are spent."""

    def __init__(self, profile: ModelProfile, api_key: str, *, base_url: str | None = None,
                 limiter: RateLimiter | None = None, rng: random.Random | None = None,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.profile = profile
        self.limiter = limiter or RateLimiter(profile.max_concurrency,
                                              profile.requests_per_minute,
                                              profile.tokens_per_minute)
        self.rng = rng or random.Random()
        self.sleep = sleep
        self.clock = clock
        self.on_retry: Callable[[RetryNotice], None] | None = None
        """Called before each retry's wait (a live view tells why no reply has come)."""
        self.streaming = True
        """Whether to stream when a caller wants the text as it arrives; turned off for an
        endpoint that refuses streamed requests."""
        endpoint = endpoint_of(base_url or profile.base_url)
        headers = dict(profile.extra_headers)
        if endpoint.user is not None or endpoint.password is not None:
            basic = f"{endpoint.user or ''}:{endpoint.password or ''}".encode()
            headers["Authorization"] = "Basic " + base64.b64encode(basic).decode("ascii")
        self.redactor = redactor_for(profile, api_key, base_url)
        query: dict[str, object] | None = dict(endpoint.query) or None
        if profile.provider == "azure":
            self.sdk: openai.AsyncOpenAI = openai.AsyncAzureOpenAI(
                azure_endpoint=endpoint.url, api_version=profile.api_version, api_key=api_key,
                timeout=profile.timeout, max_retries=0, default_headers=headers or None,
                default_query=query)
        else:
            self.sdk = openai.AsyncOpenAI(
                base_url=endpoint.url, api_key=api_key, timeout=profile.timeout, max_retries=0,
                default_headers=headers or None, default_query=query)
        self._log_filter = RedactingFilter(self.redactor)
        for name in HTTP_LOGGERS:
            logging.getLogger(name).addFilter(self._log_filter)

    def params(self, prompt: Prompt) -> dict[str, Any]:
        """Request arguments: the protocol's defaults, overridden by the profile's settings."""
        p = self.profile
        out: dict[str, Any] = {"model": p.model, "messages": prompt.messages}
        out.update(prompt.params)
        for name in ("temperature", "top_p", "max_tokens", "frequency_penalty"):
            value = getattr(p, name)
            if value is not None:
                out[name] = value
        if prompt.tools:
            out["tools"] = prompt.tools
            if p.tool_choice is None:
                out.pop("tool_choice", None)
        else:
            out.pop("tool_choice", None)
        return out

    async def _create(self, body: dict[str, Any], headers: Mapping[str, str] | None) -> Any:
        """POST the request through the SDK's own transport (auth, Azure routing, errors).

        ``chat.completions.create`` first walks every message through the SDK's typed-dict
        transformer, about 3 ms per request for our plain-JSON bodies - a third of the harness's
        own time per step at high concurrency. Our bodies need no transformation, so they go to
        the same endpoint as they are, and the answer is parsed into the same ChatCompletion."""
        return await self.sdk.post(
            "/chat/completions", body=body, cast_to=ChatCompletion,
            options={"headers": dict(headers)} if headers else {})

    def delay(self, attempt: int, err: ModelCallError) -> float:
        """Exponential backoff with jitter; never shorter than the server's Retry-After up to
        :data:`RETRY_AFTER_CAP` (a longer Retry-After is cut to the cap)."""
        p = self.profile
        base = min(p.backoff_max, p.backoff * (2 ** attempt))
        wait = base * (0.5 + 0.5 * self.rng.random())
        if err.retry_after is not None:
            if err.retry_after > RETRY_AFTER_CAP:
                log.info("%s: the server asked to wait %.0f s before retrying; waiting %.0f s "
                         "(the cap)", self.profile.name, err.retry_after, RETRY_AFTER_CAP)
            wait = max(wait, min(err.retry_after, RETRY_AFTER_CAP))
        return wait

    def _masked(self, reply: Reply) -> Reply:
        """The reply with every known secret masked (an endpoint may echo the key in a
        successful answer too: it must reach no record, screen or export)."""
        known = self.redactor.known
        calls = tuple(dataclasses.replace(c, id=known(c.id), name=known(c.name),
                                          arguments=known(c.arguments))
                      for c in reply.tool_calls)
        return Reply(known(reply.content), calls)

    async def _attempt(self, kwargs: dict[str, Any], headers: Mapping[str, str] | None,
                       on_text: Callable[[str], None] | None, stream: bool
                       ) -> tuple[Reply, str | None, tuple[int, int], str]:
        """One request, finished within the profile's ``timeout`` in total."""
        async with asyncio.timeout(self.profile.timeout):
            if stream:
                assert on_text is not None
                shown = on_text
                return await self._streamed(
                    kwargs, headers, lambda text: shown(self.redactor.known(text)))
            completion = await self._create(kwargs, headers)
            reply, finish = reply_of(completion)
            usage = getattr(completion, "usage", None)
            pt = int(getattr(usage, "prompt_tokens", 0) or 0)
            ct = int(getattr(usage, "completion_tokens", 0) or 0)
            return reply, finish, (pt, ct), str(getattr(completion, "model", "") or "")

    def _failure(self, exc: Exception) -> ModelCallError:
        """The masked :class:`ModelCallError` for a failed attempt."""
        if isinstance(exc, TimeoutError) and not isinstance(exc, openai.APIError):
            err = ModelCallError("timeout", f"no complete answer within "
                                 f"{self.profile.timeout:g} s (the profile's timeout, a total "
                                 "per request)", retryable=True)
        else:
            err = classify(exc)
        self.redactor.exception(err)
        return err

    async def complete(self, prompt: Prompt, headers: Mapping[str, str] | None = None,
                       on_text: Callable[[str], None] | None = None) -> ModelReply:
        """The reply to ``prompt``. With ``on_text`` the answer is streamed and ``on_text``
        gets the text received so far as it grows (it starts again from "" on a retry)."""
        kwargs = self.params(prompt)
        estimate = estimate_tokens(prompt) + int(kwargs.get("max_tokens") or 0)
        faults: list[str] = []
        attempts = self.profile.max_retries + 1
        attempt = 0
        while True:
            stream = on_text is not None and self.streaming
            async with self.limiter.slot(estimate) as ticket:
                t0 = self.clock()
                try:
                    reply, finish, (pt, ct), model = await self._attempt(
                        kwargs, headers, on_text, stream)
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    err = self._failure(exc)
                    ticket.used(0)
                else:
                    latency = (self.clock() - t0) * 1000.0
                    ticket.used(pt + ct)
                    return ModelReply(
                        self._masked(reply),
                        Usage(pt, ct, self.profile.cost(pt, ct), latency, attempt + 1),
                        finish, tuple(faults), self.redactor.known(model))
            if stream and err.kind == "bad_request":
                # An endpoint that refuses streaming (or its usage option): ask it plainly
                # from now on; this attempt does not count.
                self.streaming = False
                continue
            err.attempts = attempt + 1
            if not err.retryable or attempt == attempts - 1:
                raise err
            faults.append(err.kind)
            wait = self.delay(attempt, err)
            if self.on_retry is not None:
                self.on_retry(RetryNotice(attempt + 1, attempts, err.kind,
                                          ModelCallError.__str__(err).split(": ", 1)[-1], wait))
            await self.sleep(wait)
            attempt += 1

    async def _streamed(self, body: dict[str, Any], headers: Mapping[str, str] | None,
                        on_text: Callable[[str], None]
                        ) -> tuple[Reply, str | None, tuple[int, int], str]:
        """One streamed request: text and tool-call pieces put back together, usage from the
        final chunk (zero where the endpoint sends none)."""
        on_text("")
        events = await self.sdk.post(
            "/chat/completions",
            body={**body, "stream": True, "stream_options": {"include_usage": True}},
            cast_to=ChatCompletion, stream=True, stream_cls=openai.AsyncStream[ChatCompletionChunk],
            options={"headers": dict(headers)} if headers else {})
        try:
            return await self._read_stream(events, on_text)
        finally:
            await events.close()

    async def _read_stream(self, events: Any, on_text: Callable[[str], None]
                           ) -> tuple[Reply, str | None, tuple[int, int], str]:
        """The pieces of a streamed answer put back together (see :meth:`_streamed`)."""
        text: list[str] = []
        calls: dict[int, dict[str, str]] = {}
        finish: str | None = None
        pt = ct = 0
        model = ""
        async for chunk in events:
            model = chunk.model or model
            if chunk.usage is not None:
                pt, ct = chunk.usage.prompt_tokens or 0, chunk.usage.completion_tokens or 0
            for choice in chunk.choices or ():
                delta = choice.delta
                if delta is not None and delta.content:
                    text.append(delta.content)
                    on_text("".join(text))
                for tc in (delta.tool_calls or ()) if delta is not None else ():
                    call = calls.setdefault(tc.index, {"id": "", "name": "", "arguments": ""})
                    call["id"] = tc.id or call["id"]
                    if tc.function is not None:
                        call["name"] += tc.function.name or ""
                        call["arguments"] += tc.function.arguments or ""
                finish = choice.finish_reason or finish
        tool_calls = tuple(ToolCall(c["id"] or f"call_{i}", c["name"], c["arguments"])
                           for i, c in sorted(calls.items()))
        return Reply("".join(text), tool_calls), finish, (pt, ct), model

    async def aclose(self) -> None:
        """Close the connection pool and stop masking the HTTP stack's log lines."""
        for name in HTTP_LOGGERS:
            logging.getLogger(name).removeFilter(self._log_filter)
        await self.sdk.close()


def redactor_for(profile: ModelProfile, api_key: str | None,
                 base_url: str | None = None) -> Redactor:
    """Everything secret in reaching ``profile``: the key, each extra header value, and the
    user, password and secret query parameters of its base URL (``base_url`` overriding)."""
    secrets: list[str | None] = [api_key if api_key != PLACEHOLDER else None,
                                 *profile.extra_headers.values()]
    for url in {profile.base_url, base_url or profile.base_url}:
        secrets += url_secrets(url)
    return Redactor(secrets)
