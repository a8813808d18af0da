"""The environment of an external task: the harness itself, seen through its chat requests.

An outside harness (VisualAgentBench, GameWorld, ING-VP's own programs, any OpenAI-client
script) sends one chat request per model call. For PlayBench the harness is the environment:
``reset`` waits for its first request, the observation is the request (messages, images,
tools offered), the action is the reply, and ``step`` hands the reply back to the waiting HTTP
request and returns, so the loop commits the step at once; ``advance`` then waits for the
harness's next request, which is the next observation (``playbench.games.env.AwaitsNext``).
An answered exchange is thus recorded even when the harness sends nothing more or the process
is stopped. A person or a recorded upstream model answers through the same loop, budget and
recorder as every other player. A step's frame is the last picture of the request it
answered.

An episode ends when the harness says so (``X-PlayBench-End: 1`` on its last request, or a
``/v1/playbench/score`` or ``/v1/playbench/end`` call), after an idle time without a request,
or when the person ends it. A request nobody answered before the harness stopped waiting is an
invalid step of kind ``timeout`` (abandoned), never dropped.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import hashlib
import json
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from playbench.app.harness.queue import ABANDONED, PendingRequest, Reply, ToolCall
from playbench.app.harness.stored import capped_messages, capped_tools, cut_text
from playbench.app.harness.wire import (
    ChatRequest,
    HttpAnswer,
    error_answer,
    estimate_tokens,
    recorded_messages,
    reply_answer,
)
from playbench.games.base import MoveError
from playbench.games.frame import as_frame
from playbench.games.types import Action, Observation, Setting, Task, Transition

HARNESS_ENDED = "harness_ended"
PERSON_ENDED = "ended_by_person"
IDLE = "idle"


class Exchange:
    """One HTTP request of a harness in flight: the parsed request, its queue entry, whether the
    harness marked it as its last, and the response the server thread waits for."""

    def __init__(self, request: ChatRequest, pending: PendingRequest, *,
                 end: bool = False) -> None:
        self.request = request
        self.pending = pending
        self.end = end
        self._response: concurrent.futures.Future[HttpAnswer] = concurrent.futures.Future()

    @property
    def harness(self) -> str:
        return self.pending.harness

    @property
    def task_id(self) -> str:
        return self.pending.task_id

    def complete(self, answer: HttpAnswer) -> bool:
        """Set the response (the first one wins); False if it was already set."""
        try:
            self._response.set_result(answer)
        except concurrent.futures.InvalidStateError:
            return False
        return True

    @property
    def completed(self) -> bool:
        return self._response.done()

    def response(self, timeout: float | None = None) -> HttpAnswer:
        """Block until the response is set (raises ``TimeoutError``)."""
        try:
            return self._response.result(timeout)
        except concurrent.futures.TimeoutError as err:
            raise TimeoutError("no response yet") from err


@dataclass(frozen=True)
class Answer:
    """What a player gives for one request: a reply to send (``http`` None: the env writes the
    response from ``reply``), or a whole upstream response to pass on unchanged (``http``;
    ``reply`` is what could be read from it, None with ``problem`` when nothing could)."""

    reply: Reply | None
    http: HttpAnswer | None = None
    problem: str = ""


@dataclass(frozen=True)
class _End:
    reason: str


class Session:
    """The requests of one (harness, task) episode, handed from the server to the env.

    :meth:`offer` (any thread) adds a request unless the session stopped accepting (its episode
    is ending: the next request then starts a new episode); :meth:`end` ends it early. The
    env reads with :meth:`next` on its event loop.
    """

    def __init__(self, harness: str, task_id: str, loop: asyncio.AbstractEventLoop, *,
                 idle_seconds: float | None = 300.0) -> None:
        self.harness = harness
        self.task_id = task_id
        self.idle_seconds = idle_seconds
        self._loop = loop
        self._lock = threading.Lock()
        self._items: collections.deque[Exchange | _End] = collections.deque()
        self._event = asyncio.Event()
        self.accepting = True
        self.current: Exchange | None = None
        self.scores: dict[str, float | None] = {}

    def offer(self, exchange: Exchange) -> bool:
        with self._lock:
            if not self.accepting:
                return False
            self._items.append(exchange)
        self._wake()
        return True

    def end(self, reason: str, scores: dict[str, float | None] | None = None) -> bool:
        """Stop the episode after the request in hand (abandoned if still unanswered);
        ``scores`` are what the harness reported. False if it was already ending."""
        with self._lock:
            if not self.accepting:
                if scores:
                    self.scores.update(scores)
                return False
            self.accepting = False
            if scores:
                self.scores.update(scores)
            self._items.append(_End(reason))
        current = self.current
        if current is not None:  # a request still waiting will not be answered now
            current.pending.abandon("the person ended the episode" if reason == PERSON_ENDED
                                    else "the harness ended the episode")
        self._wake()
        return True

    def open_env(self, game: str) -> ExternalEnv:
        """The environment that plays this session's requests, recorded under ``game``
        (``playbench.games.harness.HarnessSession``: the kind's ``make_env`` calls it)."""
        return ExternalEnv(self, game)

    def stop_accepting(self) -> None:
        """Later requests of this harness and task start a new episode."""
        with self._lock:
            self.accepting = False

    def _wake(self) -> None:
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is self._loop:
            self._event.set()
        else:
            self._loop.call_soon_threadsafe(self._event.set)

    async def next(self) -> Exchange | _End:
        """The next request, or an end mark (asked for, or idle for ``idle_seconds``)."""
        while True:
            with self._lock:
                if self._items:
                    return self._items.popleft()
                self._event.clear()
            try:
                await asyncio.wait_for(self._event.wait(), self.idle_seconds)
            except TimeoutError:
                with self._lock:
                    if self._items:
                        return self._items.popleft()
                    self.accepting = False
                    return _End(IDLE)

    def close(self) -> None:
        """No more requests; any still queued are answered with an error (their harness may
        retry, which starts a new episode)."""
        with self._lock:
            self.accepting = False
            left = list(self._items)
            self._items.clear()
        for item in left:
            if isinstance(item, Exchange):
                item.pending.abandon("the episode ended")
                item.complete(error_answer(503, "the episode this request belonged to ended; "
                                                "send it again to start a new one",
                                           "server_error"))


def _observation(exchange: Exchange, end_reason: str | None = None) -> Observation:
    pending = exchange.pending
    frame = None
    if pending.images:
        try:
            frame = as_frame(pending.images[-1].rgb())
        except ValueError:
            frame = None
    info: dict[str, Any] = {"harness": pending.harness, "task_id": pending.task_id,
                            "request": pending, "exchange": exchange}
    if end_reason:
        info["end_reason"] = end_reason
    return Observation(frame, pending.text(), (), info)


def request_facts(exchange: Exchange) -> dict[str, Any]:
    """What a step records about the request it answered (JSON values): the messages with
    images as digests, the tools offered, the images, the model asked for, and times - each
    within the limits of ``playbench.app.harness.stored`` (``request.cut`` says what was
    cut)."""
    pending, request = exchange.pending, exchange.request
    messages, cut = capped_messages(recorded_messages(request.messages, request.images))
    tools, tools_cut = capped_tools([{"name": t.name, "description": t.description,
                                      "parameters": dict(t.parameters)} for t in request.tools])
    facts: dict[str, Any] = {
        "harness": pending.harness, "task_id": pending.task_id,
        "request": {"model": cut_text(request.model, 256), "stream": request.stream,
                    "messages": messages, "tools": tools,
                    "images": [{"sha256": i.digest, "mime": cut_text(i.mime, 100),
                                "message": i.message} for i in request.images],
                    "arrived": pending.arrived}}
    if cut or tools_cut:
        facts["request"]["cut"] = {**cut, **({"tools": len(tools)} if tools_cut else {})}
    think = pending.think_ms()
    if think is not None:
        facts["answer_ms"] = round(think, 3)
    if pending.shown_monotonic is not None:
        facts["queued_ms"] = round((pending.shown_monotonic - pending.arrived_monotonic)
                                   * 1000.0, 3)
    return facts


class ExternalEnv:
    """The harness as an environment (see the module docstring)."""

    def __init__(self, session: Session, game: str) -> None:
        self.session = session
        self.game = game
        self._steps = 0
        self._hash = ""
        self._current: Exchange | None = None
        self._awaiting = False

    async def advance(self) -> Observation | None:
        """The harness's next request after an answered one (or the end of the episode:
        asked for, or idle); None when the last step ended the episode already."""
        if not self._awaiting:
            return None
        self._awaiting = False
        return await self._advance()

    async def _advance(self) -> Observation:
        item = await self.session.next()
        if isinstance(item, _End):
            assert self._current is not None
            return _observation(self._current, item.reason)
        self._current = self.session.current = item
        self._hash = _digest(item)
        return _observation(item)

    async def reset(self, task: Task, seed: int) -> Observation:
        item = await self.session.next()
        if isinstance(item, _End):
            raise RuntimeError(f"the harness sent no request ({item.reason})")
        self._current = self.session.current = item
        self._hash = _digest(item)
        return _observation(item)

    async def step(self, action: Action) -> Transition:
        exchange = self._current
        assert exchange is not None
        answer = action.move if isinstance(action.move, Answer) else Answer(Reply(action.text))
        facts = request_facts(exchange)
        valid, kind, why = True, None, None
        if exchange.pending.state == ABANDONED:
            valid, kind = False, "timeout"
            why = f"abandoned: {exchange.pending.reason}"
            exchange.complete(error_answer(504, f"no answer: {exchange.pending.reason}",
                                           "timeout"))
        elif answer.http is not None:
            exchange.complete(answer.http)
            facts["http_status"] = answer.http.status
            if answer.reply is None:
                valid, why = False, answer.problem or "the upstream answer could not be read"
                kind = "no_action" if answer.http.status != 200 else "malformed"
        elif answer.reply is not None:
            exchange.pending.answer(answer.reply)  # no-op when the person answered it
            usage = estimate_tokens(exchange.request, answer.reply.canonical())
            exchange.complete(reply_answer(answer.reply, model=exchange.request.model
                                           or "playbench-human", stream=exchange.request.stream,
                                           usage=usage))
            facts["http_status"] = 200
        else:
            valid, kind, why = False, "no_action", answer.problem or "no answer was given"
            exchange.complete(error_answer(503, why, "server_error"))
        if answer.reply is not None:
            call = answer.reply.tool_call
            # A plain text reply is the step's action already; only text beside a tool call
            # is kept here.
            facts["reply"] = {"tool_call": None if call is None else
                              {"name": call.name, "arguments": dict(call.arguments)},
                              "text": answer.reply.text if call is not None else None}
        self._steps += 1
        # The step is returned (and so recorded) as soon as the answer is handed over; the
        # harness's next request is awaited afterwards, in :meth:`advance`.
        if exchange.end:
            self.session.stop_accepting()
            obs = _observation(exchange, HARNESS_ENDED)
        else:
            obs = _observation(exchange)
            self._awaiting = True
        ended = obs.info.get("end_reason")
        return Transition(obs, valid, True, 0.0, terminated=bool(ended), reason=why,
                          info=facts, invalid_kind=kind)

    def parse_action(self, text: str) -> Action:
        """A reply as text; ``NAME {json}`` is a tool call when the request offers ``NAME``."""
        offered = {t.name for t in self._current.request.tools} if self._current else set()
        name, _, rest = text.strip().partition(" ")
        if name in offered and rest.strip().startswith("{"):
            try:
                args = json.loads(rest)
            except json.JSONDecodeError as err:
                raise MoveError(f"tool arguments are not JSON: {err}", "malformed") from None
            reply = Reply(tool_call=ToolCall(name, args))
        else:
            reply = Reply(text)
        return Action(reply.canonical(), Answer(reply))

    def vocabulary(self) -> list[str]:
        """Replies are free text or tool calls: there is no list to pick from."""
        return []

    def legal_actions(self) -> list[str]:
        return []

    def snapshot(self) -> Any:
        return self._steps

    async def restore(self, snapshot: Any) -> Observation:
        raise MoveError("a harness cannot go back", "not_allowed")

    def state_hash(self) -> str:
        return self._hash

    def oracle(self) -> list[str] | None:
        return None

    async def score(self, steps: Sequence[Any], setting: Setting,
                    end_reason: str | None = None) -> dict[str, float | None]:
        """What the harness reported (``score``, ``solved``), None where it reported nothing."""
        return {"score": None, "solved": None, **self.session.scores}

    async def close(self) -> None:
        self.session.close()
        current = self._current
        if current is not None and not current.completed:
            current.pending.abandon("the episode ended")
            current.complete(error_answer(503, "the episode ended before this request was "
                                               "answered", "server_error"))


def _digest(exchange: Exchange) -> str:
    """A hash of the request (messages with image digests, tools): the env's state."""
    request = exchange.request
    blob = json.dumps([recorded_messages(request.messages, request.images),
                       [t.name for t in request.tools]], sort_keys=True, default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]


__all__ = ["HARNESS_ENDED", "IDLE", "PERSON_ENDED", "Answer", "Exchange", "ExternalEnv",
           "Session", "request_facts"]
