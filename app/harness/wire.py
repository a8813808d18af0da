"""The OpenAI chat wire format as an outside harness speaks it: reading a request body into a
:class:`~playbench.app.harness.queue.PendingRequest`, naming its harness and task, and writing a
reply back as a ``chat.completion`` object or as server-sent ``chat.completion.chunk`` events.

Pure functions over bytes and dicts; the HTTP server (``playbench.app.harness.server``) calls
them.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import time
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from playbench.app.harness.checks import BodyError, check_chat, load_json
from playbench.app.harness.queue import (
    PendingRequest,
    Reply,
    RequestImage,
    ToolCall,
    ToolSpec,
    message_text,
)

HARNESS_HEADER = "X-PlayBench-Harness"
TASK_HEADER = "X-PlayBench-Task"
END_HEADER = "X-PlayBench-End"
TASK_FROM = ("first-user", "system")
"""Where a task id comes from when the harness sends no ``X-PlayBench-Task`` header: a hash
of the first user message (text and images), or of the system prompt."""


MAX_MESSAGES = 4096
"""Most messages one request may carry (a long agent run has a few hundred)."""
MAX_IMAGES = 256
"""Most image parts one request may carry (each is decoded to be shown and recorded)."""


class WireError(BodyError):
    """A request body that is not a chat completion request; the message says what is wrong
    (sent back to the harness with HTTP 400, ``param`` naming the field)."""


@dataclass(frozen=True)
class HttpAnswer:
    """A whole HTTP response: status, headers and body bytes."""

    status: int
    body: bytes
    content_type: str = "application/json"
    headers: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class ChatRequest:
    """A parsed request body and what it asks for."""

    body: Mapping[str, Any]
    messages: tuple[Mapping[str, Any], ...]
    tools: tuple[ToolSpec, ...]
    images: tuple[RequestImage, ...]
    stream: bool
    model: str
    user: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)


def parse_body(raw: bytes) -> ChatRequest:
    """Read a ``/v1/chat/completions`` body; image parts must be data URLs (``data:...;base64``)
    since a person has to see them and the record has to keep them. A body that is not a chat
    request raises :class:`WireError` naming the field (``playbench.app.harness.checks``)."""
    try:
        body = load_json(raw)
        check_chat(body)
    except BodyError as err:
        raise WireError(str(err), err.param) from None
    messages = body["messages"]
    if len(messages) > MAX_MESSAGES:
        raise WireError(f"messages has {len(messages)} entries; the limit is {MAX_MESSAGES}",
                        "messages")
    images: list[RequestImage] = []
    for i, m in enumerate(messages):
        content = m.get("content")
        if not isinstance(content, list):
            continue
        for j, part in enumerate(content):
            if part.get("type") == "image_url":
                images.append(_image(part, f"messages[{i}].content[{j}].image_url", i))
            if len(images) > MAX_IMAGES:
                raise WireError(f"messages carry more than {MAX_IMAGES} images", "messages")
    tools = tuple(_tool(t) for t in body.get("tools") or ())
    return ChatRequest(body=body, messages=tuple(messages), tools=tools, images=tuple(images),
                       stream=bool(body.get("stream")), model=str(body.get("model") or ""),
                       user=str(body.get("user") or ""))


def _image(part: Mapping[str, Any], where: str, message: int) -> RequestImage:
    ref = part.get("image_url")
    url = ref.get("url") if isinstance(ref, Mapping) else ref
    if not isinstance(url, str) or not url.startswith("data:") or "," not in url:
        raise WireError(f"{where}: image parts must be data URLs (data:image/png;base64,...)",
                        where)
    head, data = url[5:].split(",", 1)
    if not head.endswith(";base64"):
        raise WireError(f"{where}: image data URLs must be base64", where)
    try:
        decoded = base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError) as err:
        raise WireError(f"{where} is not valid base64: {err}", where) from None
    return RequestImage(decoded, head[: -len(";base64")] or "image/png", message)


def _tool(spec: Mapping[str, Any]) -> ToolSpec:
    fn = spec["function"]  # its shape is checked (checks.check_chat)
    params = fn.get("parameters")
    return ToolSpec(fn["name"], str(fn.get("description") or ""),
                    params if isinstance(params, Mapping) else {})


KEY_PREFIX = "harness:"
"""An API key ``harness:NAME`` names the harness (for harnesses that can set a key but no
header). Any other key is never read, so a real provider key sent by mistake is not recorded."""


def task_key(request: ChatRequest, headers: Mapping[str, str],
             task_from: str = "first-user") -> tuple[str, str]:
    """``(harness, task id)`` of a request. The harness is the ``X-PlayBench-Harness`` header,
    else an API key of the form ``harness:NAME`` (``Authorization: Bearer harness:NAME``), else
    the body's ``user`` field, else ``harness``. The task id is the ``X-PlayBench-Task`` header,
    else a hash of the first user message (``task_from="first-user"``: its text and image
    digests) or of the system prompt (``"system"``)."""
    if task_from not in TASK_FROM:
        raise ValueError(f"task_from must be one of {', '.join(TASK_FROM)}, got {task_from!r}")
    lower = {k.lower(): v for k, v in headers.items()}
    key = lower.get("authorization", "").removeprefix("Bearer ").strip()
    named = key[len(KEY_PREFIX):].strip() if key.startswith(KEY_PREFIX) else ""
    harness = lower.get(HARNESS_HEADER.lower(), "").strip() or named \
        or request.user.strip() or "harness"
    task = lower.get(TASK_HEADER.lower(), "").strip()
    if not task:
        task = task_hash(request, task_from)
    return harness[:120], task[:200]


def task_hash(request: ChatRequest, task_from: str = "first-user") -> str:
    """A short stable id for the task a conversation starts (see :func:`task_key`)."""
    roles = ("system", "developer") if task_from == "system" else ("user",)
    for i, m in enumerate(request.messages):
        if m.get("role") in roles:
            digests = [img.digest for img in request.images if img.message == i]
            text = message_text(m)
            blob = json.dumps([m.get("role"), text, digests], ensure_ascii=False)
            return "msg-" + hashlib.sha256(blob.encode("utf-8")).hexdigest()[:12]
    return "msg-none"


def pending_request(request: ChatRequest, harness: str, task_id: str,
                    ident: int | None = None) -> PendingRequest:
    """The queue entry for a parsed request (``ident``: its number, see PendingRequest.id)."""
    return PendingRequest(harness=harness, task_id=task_id, messages=request.messages,
                          tools=request.tools, images=request.images, model=request.model,
                          tool_choice=request.body.get("tool_choice"), ident=ident)


def recorded_messages(messages: Sequence[Mapping[str, Any]],
                      images: Sequence[RequestImage]) -> list[dict[str, Any]]:
    """The messages as a step records them: each image part replaced by its digest (the
    picture itself is stored once as a frame), so a long conversation stays small."""
    by_message: dict[int, list[RequestImage]] = {}
    for img in images:
        by_message.setdefault(img.message, []).append(img)
    out: list[dict[str, Any]] = []
    for i, m in enumerate(messages):
        content = m.get("content")
        if isinstance(content, list):
            pics = iter(by_message.get(i, ()))
            parts: list[Any] = []
            for part in content:
                if isinstance(part, Mapping) and part.get("type") == "image_url":
                    pic = next(pics, None)
                    parts.append({"type": "image", "sha256": pic.digest if pic else "",
                                  "mime": pic.mime if pic else ""})
                else:
                    parts.append(part)
            out.append({**m, "content": parts})
        else:
            out.append(dict(m))
    return out


def estimate_tokens(request: ChatRequest, reply_text: str) -> tuple[int, int]:
    """Prompt and completion tokens of a person's reply, estimated as serve-model does
    (4 characters a token, 85 per image): no tokenizer is involved when a person answers."""
    chars = sum(len(message_text(m)) for m in request.messages)
    if request.tools:
        chars += len(json.dumps(request.body.get("tools"), default=str))
    return chars // 4 + 85 * len(request.images) + 1, len(reply_text) // 4 + 1


def _message(reply: Reply) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": reply.text or None}
    if reply.tool_call is not None:
        message["tool_calls"] = [{"id": f"call_{uuid.uuid4().hex[:12]}", "type": "function",
                                  "function": {"name": reply.tool_call.name,
                                               "arguments": reply.tool_call.arguments_json()}}]
    elif message["content"] is None:
        message["content"] = ""
    return message


def reply_answer(reply: Reply, *, model: str, stream: bool,
                 usage: tuple[int, int]) -> HttpAnswer:
    """The HTTP response carrying a person's reply: one ``chat.completion`` object, or for
    ``stream`` the ``chat.completion.chunk`` events (role, content, tool call, finish, usage)
    followed by ``data: [DONE]``."""
    ident = f"chatcmpl-{uuid.uuid4().hex[:12]}"
    created = int(time.time())
    finish = "tool_calls" if reply.tool_call is not None else "stop"
    counts = {"prompt_tokens": usage[0], "completion_tokens": usage[1],
              "total_tokens": usage[0] + usage[1]}
    message = _message(reply)
    if not stream:
        body = {"id": ident, "object": "chat.completion", "created": created, "model": model,
                "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                "usage": counts}
        return HttpAnswer(200, json.dumps(body).encode("utf-8"))
    base = {"id": ident, "object": "chat.completion.chunk", "created": created, "model": model}

    def chunk(delta: dict[str, Any], done: str | None = None) -> dict[str, Any]:
        return {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": done}]}

    events = [chunk({"role": "assistant", "content": ""})]
    if reply.text:
        events.append(chunk({"content": reply.text}))
    for i, call in enumerate(message.get("tool_calls") or ()):
        events.append(chunk({"tool_calls": [{"index": i, **call}]}))
    events.append(chunk({}, finish))
    events.append({**base, "choices": [], "usage": counts})
    text = "".join(f"data: {json.dumps(e)}\n\n" for e in events) + "data: [DONE]\n\n"
    return HttpAnswer(200, text.encode("utf-8"), "text/event-stream")


def error_answer(status: int, message: str, kind: str = "invalid_request_error",
                 param: str | None = None) -> HttpAnswer:
    """An OpenAI-style error body (``param``: the request field at fault, if one is)."""
    body = {"error": {"message": message, "type": kind, "param": param, "code": status}}
    return HttpAnswer(status, json.dumps(body).encode("utf-8"))


def read_reply(answer: HttpAnswer) -> tuple[Reply | None, tuple[int, int], str]:
    """What an upstream answer says: the reply (None when the status is not 200 or the body
    cannot be read as a completion or an event stream), the usage it reports, and why it could
    not be read ("" when it could)."""
    if answer.status != 200:
        return None, (0, 0), f"upstream answered HTTP {answer.status}"
    text = answer.body.decode("utf-8", "replace")
    try:
        if answer.content_type.startswith("text/event-stream") or text.startswith("data:"):
            return _read_stream(text)
        body = json.loads(text)
        message = body["choices"][0]["message"]
        usage = body.get("usage") or {}
        return (_reply_of(message.get("content"), message.get("tool_calls")),
                (int(usage.get("prompt_tokens") or 0), int(usage.get("completion_tokens") or 0)),
                "")
    except (json.JSONDecodeError, KeyError, IndexError, TypeError, ValueError) as err:
        return None, (0, 0), f"upstream body is not a chat completion ({type(err).__name__})"


def _reply_of(content: Any, calls: Any) -> Reply:
    text = content if isinstance(content, str) else ""
    if calls:
        fn = calls[0]["function"]
        args = fn.get("arguments") or "{}"
        parsed = json.loads(args) if isinstance(args, str) else args
        if not isinstance(parsed, dict):
            raise ValueError("tool arguments are not an object")
        return Reply(text, ToolCall(str(fn["name"]), parsed))
    return Reply(text)


def _read_stream(text: str) -> tuple[Reply | None, tuple[int, int], str]:
    content: list[str] = []
    calls: dict[int, dict[str, Any]] = {}
    usage = (0, 0)
    done = False
    for line in text.splitlines():
        if not line.startswith("data:"):
            continue
        data = line[5:].strip()
        if data == "[DONE]":
            done = True
            continue
        event = json.loads(data)
        if event.get("usage"):
            u = event["usage"]
            usage = (int(u.get("prompt_tokens") or 0), int(u.get("completion_tokens") or 0))
        for choice in event.get("choices") or ():
            delta = choice.get("delta") or {}
            if delta.get("content"):
                content.append(str(delta["content"]))
            for call in delta.get("tool_calls") or ():
                slot = calls.setdefault(int(call.get("index", 0)), {"name": "", "arguments": ""})
                fn = call.get("function") or {}
                slot["name"] += fn.get("name") or ""
                slot["arguments"] += fn.get("arguments") or ""
    if not done:
        return None, usage, "upstream event stream ended before [DONE]"
    tool_calls = [{"function": calls[i]} for i in sorted(calls)]
    return _reply_of("".join(content), tool_calls), usage, ""


__all__ = ["END_HEADER", "HARNESS_HEADER", "KEY_PREFIX", "MAX_IMAGES", "MAX_MESSAGES",
           "TASK_FROM", "TASK_HEADER", "ChatRequest",
           "HttpAnswer", "WireError", "error_answer", "estimate_tokens", "parse_body",
           "pending_request", "read_reply", "recorded_messages", "reply_answer", "task_hash",
           "task_key"]
