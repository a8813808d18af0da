"""Outside harnesses played through PlayBench's loop: the hub that turns their requests into
episodes, and the two players that answer them - a person through the request queue
(``playbench serve-human``, the app's "Answer a harness" view) and a real endpoint the requests
are forwarded to (``playbench proxy``).

The HTTP server (``playbench.app.harness.server``) hands each request to :class:`ExternalHub`,
which keeps one episode per (harness, task) and starts it with
:func:`playbench.app.core.play.play` on the hub's event loop, so steps, frames, tokens and
timing are recorded by the same recorder as every other episode, and exports, Compare and
Results read them unchanged. The episodes are recorded under the task kind that declares
``playbench.games.harness.HarnessTasks`` (found by that capability, not by its name).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from playbench.app.agents.redact import Redactor
from playbench.app.core.events import EpisodeEvent, Listener, Started
from playbench.app.core.play import play
from playbench.app.core.player import PlayContext, Player
from playbench.app.core.recorder import DbRecorder, Recorder
from playbench.app.core.types import Action, Decision, Observation, Usage
from playbench.app.harness.env import HARNESS_ENDED, PERSON_ENDED, Answer, Exchange, Session
from playbench.app.harness.queue import Reply, RequestQueue
from playbench.app.harness.wire import HttpAnswer, error_answer, estimate_tokens, read_reply
from playbench.db.store import Store
from playbench.games.harness import HarnessTasks, harness_kind
from playbench.games.kind import EnvServices, default_registry

log = logging.getLogger(__name__)

HUMAN_MODEL = "playbench-human"
"""The model id serve-human answers as (``GET /v1/models``)."""

PASSED_HEADERS = frozenset({"retry-after", "retry-after-ms", "x-request-id",
                            "openai-processing-ms"})
"""Upstream response headers the proxy passes back to the harness (with every
``x-ratelimit-*``): what OpenAI clients act on (waiting before a retry) or log. Nothing else
goes back - not ``Set-Cookie``, not a debug header that may repeat the key; the server writes
its own framing (the body is passed on whole)."""


def passed_header(name: str) -> bool:
    """Whether an upstream response header goes back to the harness (:data:`PASSED_HEADERS`)."""
    lowered = name.lower()
    return lowered in PASSED_HEADERS or lowered.startswith("x-ratelimit-")


PlayerMaker = Callable[[Exchange], Player]
"""Makes the player of a new episode from its first request."""


class _FrameKeys:
    """The frame digest (``playbench.app.core.png.frame_digest``: pixels and shape) of each picture
    of a request, so that a step's recorded image parts (SHA-256 of the bytes sent) can be matched
    with stored frames; pictures seen in earlier requests are not decoded again."""

    def __init__(self) -> None:
        self._known: dict[str, str] = {}

    def __call__(self, exchange: Exchange, observation: Observation) -> list[str]:
        from playbench.app.core.png import frame_digest

        images = exchange.pending.images
        if images and observation.frame is not None:
            self._known.setdefault(images[-1].digest, frame_digest(observation.frame))
        keys = []
        for image in images:
            if image.digest not in self._known:
                try:
                    self._known[image.digest] = frame_digest(image.rgb())
                except ValueError:
                    self._known[image.digest] = ""
            keys.append(self._known[image.digest])
        return keys


def _abandoned(exchange: Exchange) -> Decision:
    reason = exchange.pending.reason or "abandoned"
    return Decision.act(Action("(abandoned)", Answer(None, problem=reason)), raw="")


class QueuePlayer:
    """A person answering harness requests: each request goes on the queue, and the decision
    is whatever the person gives it (or an abandoned request when the harness stopped
    waiting first)."""

    kind = "human"
    spec = "human:serve"

    def __init__(self, queue: RequestQueue, annotator: str) -> None:
        self.queue = queue
        self.name = annotator
        self._frames = _FrameKeys()

    def details(self) -> dict[str, Any]:
        return {"player": self.spec, "annotator": self.name}

    async def act(self, observation: Observation, context: PlayContext) -> Decision:
        exchange: Exchange = observation.info["exchange"]
        pending = exchange.pending
        frames = {"image_frames": self._frames(exchange, observation)}
        self.queue.put(pending)
        reply = await pending.wait()
        if reply is None:
            return dataclasses.replace(_abandoned(exchange), info=frames)
        from playbench.app.agents.player import (
            cap_reply,  # (loads the model client: only when used)
        )

        prompt, completion = estimate_tokens(exchange.request, reply.canonical())
        text, _ = cap_reply(reply.canonical())
        return Decision.act(Action(text, Answer(reply)), raw=text,
                            usage=Usage(prompt, completion, requests=1), info=frames)


class ProxyPlayer:
    """An upstream OpenAI-compatible endpoint answering: each request is forwarded as it came
    (the model replaced by the profile's when one is given) and the upstream answer - a
    reply, an HTTP error, a broken body - goes back to the harness as it came, but for its
    headers (:data:`PASSED_HEADERS` only) and the key. The key is sent upstream only: masked
    in whatever comes back before the harness, the record or the log sees it
    (``playbench.app.agents.redact``)."""

    kind = "model"

    def __init__(self, upstream: str, model: str, *, key: str | None = None,
                 override_model: bool = False, timeout: float = 600.0,
                 headers: dict[str, str] | None = None) -> None:
        self.upstream = upstream.rstrip("/")
        self.name = model
        self.spec = f"proxy:{model}"
        self._model = model if override_model else None
        self._key = key
        self._timeout = timeout
        self._headers = dict(headers or {})
        self._redact = Redactor([key, *self._headers.values()])
        self._frames = _FrameKeys()

    def details(self) -> dict[str, Any]:
        from playbench.app.agents.profiles import public_url

        return {"player": self.spec, "upstream": public_url(self.upstream)}

    def _forward(self, body: bytes) -> HttpAnswer:
        """One blocking POST upstream (run in a worker thread); every answer - an HTTP error
        included - comes back whole, and a connection that fails becomes a 502."""
        import http.client
        import urllib.error
        import urllib.request

        headers = {"Content-Type": "application/json", **self._headers}
        if self._key:
            headers["Authorization"] = f"Bearer {self._key}"
        request = urllib.request.Request(f"{self.upstream}/chat/completions", data=body,
                                         headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=self._timeout) as response:
                status, got, data = response.status, response.headers, response.read()
        except urllib.error.HTTPError as err:
            status, got, data = err.code, err.headers, err.read()
        except (OSError, http.client.HTTPException) as err:
            why = self._redact.text(f"upstream failed: {type(err).__name__}: {err}")
            return error_answer(502, why, "upstream_error")
        return self._masked(status, got, data)

    def _masked(self, status: int, headers: Any, data: bytes) -> HttpAnswer:
        """The upstream answer as it may go back to the harness and into the record: only
        :data:`PASSED_HEADERS`, and the key (every secret of the profile) masked wherever it
        appears - an error that echoes it, a 200 whose text repeats it. An error body is
        masked by pattern too (``Bearer ...``, ``key=...``); an answer only for the known
        secrets, so the model's own words pass unchanged."""
        mask = self._redact.known if status == 200 else self._redact.text
        text = data.decode("utf-8", "surrogateescape")
        body = mask(text).encode("utf-8", "surrogateescape")
        passed = tuple((k, self._redact.text(v)) for k, v in headers.items()
                       if passed_header(k))
        kind = self._redact.text(headers.get("Content-Type", "application/json"))
        return HttpAnswer(status, body, kind, passed)

    async def act(self, observation: Observation, context: PlayContext) -> Decision:
        exchange: Exchange = observation.info["exchange"]
        body = dict(exchange.request.body)
        if self._model is not None:
            body["model"] = self._model
        started = time.monotonic()
        answer = await asyncio.to_thread(self._forward, json.dumps(body).encode("utf-8"))
        latency = (time.monotonic() - started) * 1000.0
        reply, (prompt, completion), problem = read_reply(answer)
        from playbench.app.agents.player import REPLY_LIMIT, cap_reply

        raw, size = cap_reply(answer.body.decode("utf-8", "replace"))  # masked already
        info: dict[str, Any] = {"image_frames": self._frames(exchange, observation)}
        if size > REPLY_LIMIT:
            info["reply_cut"] = {"stored_bytes": REPLY_LIMIT, "reply_bytes": size}
        text = cap_reply(reply.canonical())[0] if reply is not None \
            else f"(HTTP {answer.status})"
        return Decision.act(Action(text, Answer(reply, answer, problem)), raw=raw,
                            usage=Usage(prompt, completion, latency_ms=latency, requests=1),
                            info=info)


@dataclass
class _Run:
    session: Session
    task: asyncio.Task[Any]
    episode_id: int = 0


class ExternalHub:
    """One episode per (harness, task) at a time, started on ``loop`` as requests arrive.

    ``make_player`` gives the player of a new episode; ``via`` (``serve-human``, ``proxy``) is
    kept in the episode's meta. ``queue`` (serve-human) gets the person's "end this episode"
    hook. ``listeners`` follow every episode (the app's live views). ``idle_seconds``: an
    episode with no request for that long ends as ``idle``.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop, store: Store, make_player: PlayerMaker,
                 *, via: str, models: Sequence[str] = (HUMAN_MODEL,),
                 queue: RequestQueue | None = None, listeners: Sequence[Listener] = (),
                 idle_seconds: float | None = 300.0, recorder: Recorder | None = None) -> None:
        self.loop = loop
        self.store = store
        self.make_player = make_player
        self.via = via
        self.models = list(models)
        self.listeners = list(listeners)
        self.idle_seconds = idle_seconds
        self._recorder = recorder
        self._own_recorder: DbRecorder | None = None
        self._runs: dict[tuple[str, str], _Run] = {}
        self._last: dict[tuple[str, str], int] = {}
        self._latest_of: dict[str, tuple[str, str]] = {}
        self._kind: HarnessTasks | None = None
        self.episodes: list[int] = []
        """Ids of the episodes this hub started, in order."""
        if queue is not None:
            queue.set_end_handler(self.end_by_person)

    @property
    def kind(self) -> HarnessTasks:
        """The task kind the episodes are recorded under (found by its capability,
        ``playbench.games.harness.harness_kind``, on first use)."""
        if self._kind is None:
            self._kind = harness_kind(default_registry())
        return self._kind

    @property
    def recorder(self) -> Recorder:
        if self._recorder is None:
            self._own_recorder = DbRecorder(self.store)
            self._recorder = self._own_recorder
        return self._recorder

    # -- from server threads ---------------------------------------------------------------

    def submit(self, exchange: Exchange) -> None:
        self.loop.call_soon_threadsafe(self._route, exchange)

    def model_ids(self) -> list[str]:
        return list(self.models)

    def report(self, harness: str, task_id: str | None, scores: dict[str, float | None],
               ) -> dict[str, Any] | None:
        future = asyncio.run_coroutine_threadsafe(self._report(harness, task_id, scores),
                                                  self.loop)
        return future.result(60)

    def end(self, harness: str, task_id: str) -> bool:
        future = asyncio.run_coroutine_threadsafe(self._end(harness, task_id, HARNESS_ENDED),
                                                  self.loop)
        return future.result(60)

    def end_by_person(self, harness: str, task_id: str) -> bool:
        """The queue's end hook: end the pair's running episode (from any thread)."""
        run = self._runs.get((harness, task_id))
        return run is not None and run.session.end(PERSON_ENDED)

    # -- on the loop -----------------------------------------------------------------------

    def _route(self, exchange: Exchange) -> None:
        key = (exchange.harness, exchange.task_id)
        self._latest_of[exchange.harness] = key
        run = self._runs.get(key)
        if run is not None and run.session.offer(exchange):
            return
        session = Session(key[0], key[1], self.loop, idle_seconds=self.idle_seconds)
        session.offer(exchange)
        try:
            player = self.make_player(exchange)
        except Exception as err:  # a player that cannot be made answers the harness
            log.error("cannot answer %s/%s: %s", key[0], key[1], err)
            session.close()
            exchange.complete(error_answer(503, f"cannot answer: {err}", "server_error"))
            return
        holder: dict[str, _Run] = {}
        task = self.loop.create_task(self._play(key, session, player, holder))
        holder["run"] = self._runs[key] = _Run(session, task)

    async def _play(self, key: tuple[str, str], session: Session, player: Player,
                    holder: dict[str, _Run]) -> None:
        def started(event: EpisodeEvent) -> None:
            if isinstance(event, Started):
                holder["run"].episode_id = event.episode_id
                self._last[key] = event.episode_id
                self.episodes.append(event.episode_id)

        kind = self.kind
        setting = kind.settings()["default"]
        try:
            await play(kind.task_for(*key), player, setting=setting, budget=setting.budget,
                       recorder=self.recorder,
                       meta={"harness": key[0], "task_id": key[1], "via": self.via},
                       listeners=[started, *self.listeners],
                       services=EnvServices(extra={"session": session}))
        except Exception:
            log.exception("episode of %s/%s failed", *key)
        finally:
            session.close()
            if self._runs.get(key) is holder.get("run"):
                del self._runs[key]

    async def _end(self, harness: str, task_id: str, reason: str,
                   scores: dict[str, float | None] | None = None) -> bool:
        run = self._runs.get((harness, task_id))
        if run is None:
            return False
        run.session.end(reason, scores)
        await asyncio.shield(run.task)
        return True

    async def _report(self, harness: str, task_id: str | None,
                      scores: dict[str, float | None]) -> dict[str, Any] | None:
        key = (harness, task_id) if task_id is not None else self._latest_of.get(harness)
        if key is None:
            return None
        run = self._runs.get(key)
        if run is not None:
            await self._end(*key, HARNESS_ENDED, scores)
        episode = self._last.get(key)
        if episode is None:
            return None
        # Also when the episode just ended by itself (its last request, idle): the scores are
        # written after its finish, which rewrites the episode's score rows.
        await asyncio.to_thread(self.store.set_scores, episode, scores)
        return {"episode": episode, "harness": key[0], "task": key[1], "scores": scores}

    async def aclose(self) -> None:
        """End every running episode (as ended by the person) and wait for their records."""
        runs = list(self._runs.values())
        for run in runs:
            run.session.end(PERSON_ENDED)
        for run in runs:
            try:
                await asyncio.wait_for(asyncio.shield(run.task), 30)
            except TimeoutError:
                run.task.cancel()
        if self._own_recorder is not None:
            self._own_recorder.close()


def human_reply(text: str) -> Reply:
    """A terminal line as a reply: ``/tool NAME {json}`` is a tool call, anything else text."""
    from playbench.app.harness.queue import ToolCall

    if text.startswith("/tool "):
        name, _, args = text[6:].strip().partition(" ")
        parsed = json.loads(args or "{}")
        if not isinstance(parsed, dict):
            raise ValueError("tool arguments must be a JSON object")
        return Reply(tool_call=ToolCall(name, parsed))
    return Reply(text)


__all__ = ["HUMAN_MODEL", "PASSED_HEADERS", "ExternalHub", "PlayerMaker", "ProxyPlayer",
           "QueuePlayer", "human_reply", "passed_header"]
