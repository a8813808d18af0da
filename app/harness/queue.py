"""Harness requests waiting for an answer, oldest first: what a person (the app's view or the
terminal prompt of ``playbench serve-human``) reads and answers.

The HTTP server (``playbench.app.harness.server``) turns each chat request of an outside harness
into a :class:`PendingRequest` and puts it on a :class:`RequestQueue`. Whoever answers takes the
oldest entry, shows it (system prompt, conversation, images, offered tools) and calls
:meth:`PendingRequest.answer` with a :class:`Reply` - text or a tool call - or
:meth:`PendingRequest.abandon`. The episode loop awaits the answer (:meth:`PendingRequest.wait`)
and records it as the step's action.

Everything here is Qt-free and safe to call from any thread: state changes are made under a
lock, answers travel through :class:`concurrent.futures.Future` (awaitable on any event loop
with :func:`asyncio.wrap_future`), and listeners are told about changes on the thread that made
them (a view marshals to its own thread; in the desktop app the server, the loop and the view
share the qasync thread anyway).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import hashlib
import io
import json
import threading
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

MAX_PIXELS = 4096 * 4096
"""Largest picture decoded to be shown and stored as a frame (16.8 million pixels, a 4K
screenshot twice over)."""

WAITING = "waiting"
ANSWERED = "answered"
ABANDONED = "abandoned"


@dataclass(frozen=True)
class ToolSpec:
    """One tool the harness offers: its name, description and JSON schema of its arguments
    (the ``parameters`` of an OpenAI ``function`` tool; ``{}`` when it takes none)."""

    name: str
    description: str = ""
    parameters: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ToolCall:
    """A tool call in a reply: the tool's name and its arguments (a JSON object)."""

    name: str
    arguments: Mapping[str, Any] = field(default_factory=dict)

    def arguments_json(self) -> str:
        """The arguments as the JSON text an OpenAI ``tool_calls`` entry carries."""
        return json.dumps(dict(self.arguments), ensure_ascii=False, sort_keys=True)


@dataclass(frozen=True)
class Reply:
    """An answer to one request: text, a tool call, or both (text beside a tool call)."""

    text: str = ""
    tool_call: ToolCall | None = None

    def canonical(self) -> str:
        """One text for the record: the tool call as ``name {json}``, else the text."""
        if self.tool_call is not None:
            return f"{self.tool_call.name} {self.tool_call.arguments_json()}"
        return self.text


@dataclass(frozen=True)
class RequestImage:
    """One image part of a request, as sent (``data`` are the encoded bytes, PNG or JPEG or
    whatever the harness sent) and where it sits: ``message`` is the index of its message in
    :attr:`PendingRequest.messages`. ``digest`` (SHA-256 of the bytes) identifies it, so the
    same picture sent again in a later request is one frame."""

    data: bytes
    mime: str
    message: int
    digest: str = ""

    def __post_init__(self) -> None:
        if not self.digest:
            object.__setattr__(self, "digest", hashlib.sha256(self.data).hexdigest())

    def rgb(self) -> np.ndarray:
        """The image decoded as an H x W x 3 uint8 array (raises ``ValueError`` if the bytes
        are not an image Pillow can read, or it has more than :data:`MAX_PIXELS` pixels: a
        small file may unpack to gigabytes; its digest is still recorded, not its frame)."""
        from PIL import Image, UnidentifiedImageError

        try:
            with Image.open(io.BytesIO(self.data)) as img:
                width, height = img.size
                if width * height > MAX_PIXELS:
                    raise ValueError(f"image part is {width}x{height} pixels, over the "
                                     f"{MAX_PIXELS:,}-pixel limit: not shown or stored")
                return np.asarray(img.convert("RGB"), dtype=np.uint8)
        except (UnidentifiedImageError, OSError) as err:
            raise ValueError(f"image part is not a readable image: {err}") from err


class PendingRequest:
    """One chat request of a harness waiting for its answer.

    ``messages`` are the request's messages as sent (OpenAI chat format, images still as
    ``image_url`` parts); ``images`` are those image parts decoded from their data URLs, in
    order; ``tools`` the offered tools. ``arrived`` is the wall-clock arrival time
    (``time.time()``); ``arrived_monotonic`` the monotonic one, for waiting times.
    """

    def __init__(self, *, harness: str, task_id: str, messages: Sequence[Mapping[str, Any]],
                 tools: Sequence[ToolSpec] = (), images: Sequence[RequestImage] = (),
                 model: str = "", tool_choice: Any = None,
                 clock: Callable[[], float] = time.monotonic, ident: int | None = None) -> None:
        self.id = ident if ident is not None else uuid.uuid4().int % 1_000_000_000
        """A number for people to refer to it by: the server numbers its requests 1, 2, ...;
        one made elsewhere gets a random number."""
        self.harness = harness
        self.task_id = task_id
        self.messages: tuple[Mapping[str, Any], ...] = tuple(messages)
        self.tools: tuple[ToolSpec, ...] = tuple(tools)
        self.images: tuple[RequestImage, ...] = tuple(images)
        self.model = model
        self.tool_choice = tool_choice
        self.arrived = time.time()
        self._clock = clock
        self.arrived_monotonic = clock()
        self.shown_monotonic: float | None = None
        self.answered_monotonic: float | None = None
        self.reason = ""
        self._state = WAITING
        self._lock = threading.Lock()
        self._result: concurrent.futures.Future[Reply | None] = concurrent.futures.Future()
        self._listeners: list[Callable[[PendingRequest], None]] = []

    # -- what a view shows --------------------------------------------------------------------

    @property
    def state(self) -> str:
        """``waiting``, ``answered`` or ``abandoned``."""
        return self._state

    @property
    def done(self) -> bool:
        return self._state != WAITING

    @property
    def system_prompt(self) -> str:
        """The text of the system (or developer) messages, joined by blank lines."""
        return "\n\n".join(message_text(m) for m in self.messages
                           if m.get("role") in ("system", "developer"))

    def text(self) -> str:
        """A readable rendering of the request: each message as ``[role] text``, images as
        ``<image N>``, then the offered tools."""
        lines: list[str] = []
        n = 0
        for m in self.messages:
            role = str(m.get("role", "?"))
            parts: list[str] = []
            content = m.get("content")
            if isinstance(content, str):
                parts.append(content)
            elif isinstance(content, list):
                for part in content:
                    if not isinstance(part, Mapping):
                        continue
                    if part.get("type") == "text":
                        parts.append(str(part.get("text", "")))
                    elif part.get("type") == "image_url":
                        n += 1
                        parts.append(f"<image {n}>")
            for call in m.get("tool_calls") or ():
                fn = call.get("function", {}) if isinstance(call, Mapping) else {}
                parts.append(f"<tool call {fn.get('name', '?')} {fn.get('arguments', '')}>")
            lines.append(f"[{role}] " + "\n".join(p for p in parts if p))
        if self.tools:
            lines.append("[tools] " + ", ".join(t.name for t in self.tools))
        return "\n".join(lines)

    def mark_shown(self) -> None:
        """Note that a person now sees the request; think time runs from here (else from its
        arrival)."""
        with self._lock:
            if self.shown_monotonic is None:
                self.shown_monotonic = self._clock()

    def think_ms(self) -> float | None:
        """Milliseconds from shown (or arrived) to answered; None while unanswered."""
        if self.answered_monotonic is None:
            return None
        start = self.shown_monotonic if self.shown_monotonic is not None \
            else self.arrived_monotonic
        return max(0.0, (self.answered_monotonic - start) * 1000.0)

    # -- answering ----------------------------------------------------------------------------

    def answer(self, reply: Reply) -> bool:
        """Give the answer. False (and nothing changes) when the request was already answered
        or abandoned - e.g. the harness stopped waiting while the person typed."""
        if reply.tool_call is not None and self.tools and \
                reply.tool_call.name not in {t.name for t in self.tools}:
            raise ValueError(f"tool {reply.tool_call.name!r} was not offered "
                             f"(offered: {', '.join(t.name for t in self.tools)})")
        with self._lock:
            if self._state != WAITING:
                return False
            self._state = ANSWERED
            self.answered_monotonic = self._clock()
        self._result.set_result(reply)
        self._changed()
        return True

    def abandon(self, reason: str = "abandoned") -> bool:
        """Give up on the request (the harness disconnected or waited too long, or the person
        declined it). False when it was already answered or abandoned."""
        with self._lock:
            if self._state != WAITING:
                return False
            self._state = ABANDONED
            self.reason = reason
        self._result.set_result(None)
        self._changed()
        return True

    async def wait(self) -> Reply | None:
        """The reply, or None once abandoned (awaitable on any event loop)."""
        return await asyncio.wrap_future(self._result)

    def result(self, timeout: float | None = None) -> Reply | None:
        """Blocking form of :meth:`wait` for threads (raises ``TimeoutError``)."""
        try:
            return self._result.result(timeout)
        except concurrent.futures.TimeoutError as err:
            raise TimeoutError(f"request {self.id} not answered within {timeout} s") from err

    def on_done(self, fn: Callable[[PendingRequest], None]) -> None:
        """Call ``fn(request)`` once it is answered or abandoned (at once if it is)."""
        with self._lock:
            if self._state == WAITING:
                self._listeners.append(fn)
                return
        fn(self)

    def _changed(self) -> None:
        with self._lock:
            listeners, self._listeners = self._listeners, []
        for fn in listeners:
            fn(self)

    def __repr__(self) -> str:
        return (f"PendingRequest(id={self.id}, harness={self.harness!r}, "
                f"task_id={self.task_id!r}, state={self._state})")


def message_text(message: Mapping[str, Any]) -> str:
    """The text parts of one chat message joined (image parts left out)."""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(p.get("text", "")) for p in content
                         if isinstance(p, Mapping) and p.get("type") == "text")
    return ""


class RequestQueue:
    """The requests waiting for a person, oldest first.

    :meth:`put` adds one (the server does); answered and abandoned requests leave the queue by
    themselves. :meth:`subscribe` registers a callback run after every change (an entry added
    or gone), on the thread that made the change. :meth:`take` (blocking, for a terminal prompt
    in its own thread) and :meth:`next` (awaitable) give the oldest waiting request.
    ``end_episode(harness, task_id)`` lets the person end an episode; the server registers the
    handler with :meth:`set_end_handler`.
    """

    def __init__(self) -> None:
        self._items: list[PendingRequest] = []
        self._cond = threading.Condition()
        self._subscribers: list[Callable[[], None]] = []
        self._end_handler: Callable[[str, str], bool] | None = None

    def put(self, request: PendingRequest) -> None:
        with self._cond:
            self._items.append(request)
            self._items.sort(key=lambda r: (r.arrived_monotonic, r.id))
            self._cond.notify_all()
        request.on_done(self._remove)
        self._notify()

    def _remove(self, request: PendingRequest) -> None:
        with self._cond:
            if request in self._items:
                self._items.remove(request)
            self._cond.notify_all()
        self._notify()

    def pending(self) -> list[PendingRequest]:
        """The waiting requests, oldest first (a copy)."""
        with self._cond:
            return [r for r in self._items if not r.done]

    def oldest(self) -> PendingRequest | None:
        items = self.pending()
        return items[0] if items else None

    def __len__(self) -> int:
        return len(self.pending())

    def take(self, timeout: float | None = None) -> PendingRequest | None:
        """Block until a request waits, then return the oldest (it stays queued until answered
        or abandoned); None after ``timeout`` seconds."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while True:
                for r in self._items:
                    if not r.done:
                        return r
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return None
                self._cond.wait(left)

    async def next(self) -> PendingRequest:
        """The oldest waiting request, waiting on the running event loop until there is one."""
        loop = asyncio.get_running_loop()
        while True:
            found = self.oldest()
            if found is not None:
                return found
            changed = loop.create_future()

            def settle(fut: asyncio.Future[None] = changed) -> None:
                if not fut.done():
                    fut.set_result(None)

            def wake() -> None:
                loop.call_soon_threadsafe(settle)

            unsubscribe = self.subscribe(wake)
            try:
                if self.oldest() is None:
                    await changed
            finally:
                unsubscribe()

    def subscribe(self, fn: Callable[[], None]) -> Callable[[], None]:
        """Call ``fn()`` after each change; returns the function that unsubscribes."""
        with self._cond:
            self._subscribers.append(fn)

        def unsubscribe() -> None:
            with self._cond:
                if fn in self._subscribers:
                    self._subscribers.remove(fn)
        return unsubscribe

    def _notify(self) -> None:
        with self._cond:
            subscribers = list(self._subscribers)
        for fn in subscribers:
            fn()

    def set_end_handler(self, handler: Callable[[str, str], bool] | None) -> None:
        """The server's hook behind :meth:`end_episode`."""
        self._end_handler = handler

    def end_episode(self, harness: str, task_id: str) -> bool:
        """End the episode of ``(harness, task_id)`` as the person asked: its waiting request
        is abandoned and the harness's next request starts a new episode. False when no such
        episode runs."""
        handler = self._end_handler
        return handler(harness, task_id) if handler is not None else False


__all__ = ["ABANDONED", "ANSWERED", "MAX_PIXELS", "WAITING", "PendingRequest", "Reply",
           "RequestImage", "RequestQueue", "ToolCall", "ToolSpec", "message_text"]
