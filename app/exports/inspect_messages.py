"""One recorded episode as Inspect AI chat messages (``inspect_ai.model.ChatMessage``).

PlayBench records what a player saw and did, not the prompt text a model was sent (the prompt is
rebuilt from the observation by the protocol, and the chat export re-plays episodes to show it).
So the messages are built from what is stored, the same way for people and models:

- a user message opening the episode: the task (game, level, setting, objective) and the first
  frame;
- per decision, an assistant message: a model's whole reply (its separate reasoning as a
  ``ContentReasoning``), or the action text a person's input was read as (the raw key or click in
  the message's metadata);
- after it, a user message with what the decision did (valid or the reason it was refused, state
  changed, reward) and the frame after each of its steps.

Every image is a PNG data URI; the message's ``metadata["frames"]`` names the frame hash of each
image in order, so the importer can store the frames under their own hashes again.
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Sequence
from itertools import groupby
from typing import Any

from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageUser,
    Content,
    ContentImage,
    ContentReasoning,
    ContentText,
)

from playbench.db.steps import StoredStep

FrameBytes = Callable[[str], bytes | None]
"""Frame hash -> its PNG (None when the frame is not stored)."""

_INPUT_TEXT_LONGEST = 4000
"""Characters of the level text quoted in a sample's input (a web task's JSON can be long;
the whole text is in the sample's metadata)."""


def data_uri(png: bytes) -> str:
    """A PNG as the ``data:`` URI Inspect's ``ContentImage`` carries."""
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def png_of_uri(uri: str) -> bytes | None:
    """The PNG bytes of a ``data:image/png;base64,`` URI (None for anything else)."""
    head = "data:image/png;base64,"
    if not uri.startswith(head):
        return None
    try:
        return base64.b64decode(uri[len(head):], validate=True)
    except ValueError:
        return None


def task_text(episode: dict[str, Any]) -> str:
    """The sample's input: what the task is, in words a reader of the log can follow."""
    level = episode["level"]
    title = f" ({level['title']})" if level.get("title") else ""
    text = level.get("text") or ""
    if len(text) > _INPUT_TEXT_LONGEST:
        text = text[:_INPUT_TEXT_LONGEST] + " ..."
    fence = "~~~~" if "```" in text else "```"  # the viewer renders markdown: keep the text
    return (f"{episode['game']} level {level['number']}{title}, setting {episode['setting']}, "
            f"budget {episode['budget'].get('max_actions')} actions.\n\n{fence}\n{text}\n"
            f"{fence}")


def _images(hashes: Sequence[str | None], frame_png: FrameBytes
            ) -> tuple[list[Content], list[str]]:
    parts: list[Content] = []
    names: list[str] = []
    for digest in hashes:
        if not digest:
            continue
        png = frame_png(digest)
        if png is None:
            continue
        parts.append(ContentImage(image=data_uri(png)))
        names.append(digest)
    return parts, names


def _user(text: str, hashes: Sequence[str | None], frame_png: FrameBytes) -> ChatMessageUser:
    images, names = _images(hashes, frame_png)
    content: list[Content] = [ContentText(text=text), *images]
    return ChatMessageUser(content=content, metadata={"frames": names} if names else None,
                           source="input")


def _outcome(step: StoredStep) -> str:
    if step.valid:
        change = "changed the state" if step.changed else "left the state as it was"
        return f"step {step.index}: {step.action} - valid, {change}, reward {step.reward:g}"
    kind = f" ({step.invalid_kind})" if step.invalid_kind else ""
    return f"step {step.index}: {step.action or '(no action)'} - invalid{kind}: " \
           f"{step.invalid_reason or ''}".rstrip()


def _answer(kind: str, model: str, steps: Sequence[StoredStep]) -> ChatMessageAssistant:
    first = steps[0]
    if kind == "model":
        content: list[Content] = []
        reasoning = first.info.get("reasoning")
        if isinstance(reasoning, str) and reasoning:
            content.append(ContentReasoning(reasoning=reasoning))
        content.append(ContentText(text=first.raw))
        return ChatMessageAssistant(content=content, model=model, source="generate",
                                    metadata={"decision": first.decision})
    actions = " ".join(s.action or "(unreadable)" for s in steps)
    return ChatMessageAssistant(content=actions, model=model, source="generate",
                                metadata={"decision": first.decision,
                                          "raw": [s.raw for s in steps]})


def episode_messages(episode: dict[str, Any], steps: Sequence[StoredStep], model: str,
                     start_frame: str | None, frame_png: FrameBytes) -> list[ChatMessage]:
    """The episode's conversation: its start, then each decision and what it did.
    ``episode`` is the episode's export object (``playbench.app.exports.jsonl``)."""
    kind = episode["participant"]["kind"]
    messages: list[ChatMessage] = [_user(task_text(episode), [start_frame], frame_png)]
    for _, group in groupby(steps, key=lambda s: s.decision):
        decision = list(group)
        messages.append(_answer(kind, model, decision))
        messages.append(_user("\n".join(_outcome(s) for s in decision),
                              [s.frame for s in decision], frame_png))
    end = episode.get("end_reason") or episode["status"]
    messages.append(ChatMessageUser(content=f"episode ended: {end}", source="input"))
    return messages


def frames_of(messages: Sequence[ChatMessage]) -> dict[str, bytes]:
    """Frame hash -> PNG of every image :func:`episode_messages` put in ``messages``
    (attachments resolved)."""
    out: dict[str, bytes] = {}
    for m in messages:
        names = (m.metadata or {}).get("frames")
        if not isinstance(names, list) or isinstance(m.content, str):
            continue
        images = [c.image for c in m.content if isinstance(c, ContentImage)]
        for name, uri in zip(names, images, strict=False):
            png = png_of_uri(uri)
            if isinstance(name, str) and png is not None:
                out[name] = png
    return out
