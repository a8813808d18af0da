"""The recording proxy's exchanges as the model demo view shows them, Qt-free.

The proxy's hub runs one episode per harness task on the app's event loop and tells its
listeners about each as it goes (``playbench.app.core.episode`` events) - the same events the demo
view follows for a model episode it started itself. :class:`ExchangeFeed` turns them into cards:
one per request, shown as soon as the request arrives (harness, task, the last thing the
harness said, its images and tools) and completed once the exchange is recorded (the reply,
the HTTP status passed back, tokens and latency; an upstream error in red). Several harness
tasks may run at once, so cards are numbered across episodes in arrival order.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from playbench.app.core.events import Deciding, Ended, EpisodeEvent, Started, Stepped
from playbench.app.core.recorder import StepRecord
from playbench.app.core.types import Observation
from playbench.app.harness.queue import message_text
from playbench.app.harness.shown import safe_text
from playbench.app.ui.models.wording import count

TEXT_LIMIT = 600
"""Characters of the harness's last message shown on a card (the whole request is recorded;
the episode viewer shows it all)."""


def _esc(text: str) -> str:
    return html.escape(safe_text(text), quote=False)


def _cut(text: str, limit: int = TEXT_LIMIT) -> str:
    return text if len(text) <= limit else text[:limit] + " …"


@dataclass(frozen=True)
class Card:
    """One exchange: ``key`` numbers it in arrival order; ``done`` once recorded."""

    key: int
    head: str
    body: str
    done: bool = False


@dataclass(frozen=True)
class FeedUpdate:
    """What changed: a card to show (new or completed), the frame to show (the request's last
    image), and a line for the status bar."""

    card: Card | None = None
    frame: np.ndarray | None = None
    status: str = ""


def request_html(request: Any) -> str:
    """A request (``playbench.app.harness.queue.PendingRequest``) in a few lines: the last
    message's text, how many images and which tools came with it."""
    messages = list(getattr(request, "messages", ()))
    last = messages[-1] if messages else {}
    role = str(last.get("role", "?")) if isinstance(last, Mapping) else "?"
    text = message_text(last).replace("\n", " ") if isinstance(last, Mapping) else ""
    parts = [f'<div><b>{_esc(role)}</b>: {_esc(_cut(text)) or "<i>(no text)</i>"}</div>']
    extra = [f"{len(messages)} messages"]
    images = len(getattr(request, "images", ()))
    if images:
        extra.append(count(images, "image"))
    tools = [t.name for t in getattr(request, "tools", ())]
    if tools:
        extra.append("tools: " + ", ".join(tools))
    parts.append(f'<div style="color:#5d6675">{_esc(" · ".join(extra))}</div>')
    return "".join(parts)


def reply_html(record: StepRecord) -> str:
    """The recorded exchange's answer: the reply (text or tool call), the HTTP status passed
    back to the harness, or why nothing usable came back."""
    info = record.info or {}
    status = info.get("http_status")
    reply = info.get("reply")
    lines = []
    if isinstance(reply, Mapping):
        call = reply.get("tool_call")
        if isinstance(call, Mapping):
            args = json.dumps(call.get("arguments", {}), ensure_ascii=False)
            lines.append(f'<div>→ tool call <b>{_esc(str(call.get("name", "?")))}</b> '
                         f"{_esc(_cut(args, 300))}</div>")
        text = str(reply.get("text") or "")
        if text:
            lines.append(f'<pre style="white-space:pre-wrap;margin:4px 0">{_esc(_cut(text))}'
                         "</pre>")
    if not record.valid:
        lines.append(f'<div style="color:#b3261e">{_esc(record.invalid_kind or "invalid")}: '
                     f"{_esc(record.invalid_reason or '')}</div>")
    facts = []
    if status is not None:
        facts.append(f"HTTP {status} passed back")
    if record.prompt_tokens or record.completion_tokens:
        facts.append(f"{record.prompt_tokens:,} + {record.completion_tokens:,} tokens")
    if record.latency_ms:
        facts.append(f"upstream {record.latency_ms:,.0f} ms")
    if facts:
        lines.append(f'<div style="color:#5d6675">{_esc(" · ".join(facts))}</div>')
    return "".join(lines) or "<i>(nothing came back)</i>"


class ExchangeFeed:
    """Follows the proxy's episodes and says what to show after each event (:meth:`event`)."""

    def __init__(self) -> None:
        self._latest: dict[int, Observation] = {}
        self._keys: dict[tuple[int, int], int] = {}
        self._asked: dict[int, str] = {}
        self._who: dict[int, str] = {}
        self.exchanges = 0
        """Exchanges recorded so far."""

    def event(self, event: EpisodeEvent) -> FeedUpdate | None:
        """The update ``event`` calls for (None: nothing to show)."""
        if isinstance(event, Started):
            self._latest[event.episode_id] = event.observation
            info = event.observation.info or {}
            self._who[event.episode_id] = (f"{info.get('harness', '?')} · task "
                                           f"{info.get('task_id', '?')}")
            return FeedUpdate(status=f"Episode #{event.episode_id} started: "
                                     f"{self._who[event.episode_id]}")
        if isinstance(event, Deciding):
            obs = event.observation or self._latest.get(event.episode_id)
            if obs is None:
                return None
            key = self._key(event.episode_id, event.context.decision)
            request = (obs.info or {}).get("request")
            body = request_html(request) if request is not None else _esc(_cut(obs.text))
            self._asked[key] = body
            head = f"{self._head(key, event.episode_id, event.context.decision)} · waiting " \
                   "for the upstream model"
            return FeedUpdate(Card(key, head, body), obs.frame)
        if isinstance(event, Stepped):
            r = event.record
            key = self._key(event.episode_id, r.decision)
            self._latest[event.episode_id] = event.observation
            self.exchanges += 1
            head = self._head(key, event.episode_id, r.decision)
            body = self._asked.pop(key, "") + '<hr style="border:0;border-top:1px solid #ddd">' \
                + reply_html(r)
            return FeedUpdate(Card(key, head, body, done=True))
        if isinstance(event, Ended):
            who = self._who.pop(event.episode_id, "")
            self._latest.pop(event.episode_id, None)
            res = event.result
            return FeedUpdate(status=f"Episode #{event.episode_id} ({who}) ended "
                                     f"({res.end_reason or res.status}) after "
                                     f"{len(res.steps)} exchanges")
        return None

    def _key(self, episode: int, decision: int) -> int:
        return self._keys.setdefault((episode, decision), len(self._keys))

    def _head(self, key: int, episode: int, decision: int) -> str:
        return (f"#{key + 1} · {self._who.get(episode, '?')} · episode {episode}, request "
                f"{decision + 1}")
