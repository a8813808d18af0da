"""What a harness's JSON body must look like before anything acts on it.

Every check raises :class:`BodyError` naming the field (``messages[2].content[0].text``) and
what is wrong with it; the server answers that as HTTP 400 in OpenAI's error shape. The
checks run before a request reaches a queue, a person's screen or the database, so a body
that passes them cannot break the code after them:

- JSON only: no ``NaN``/``Infinity`` literals, nesting at most :data:`MAX_DEPTH` deep (a
  200,000-deep array would otherwise exhaust the parser's stack);
- text only: no lone UTF-16 surrogates (``"\\ud800"`` is valid JSON, but no UTF-8 text, so
  a terminal, Qt or the database cannot take it);
- the fields of a chat request with the types the OpenAI API gives them.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any

MAX_DEPTH = 64
"""Deepest nesting of arrays and objects accepted in a body (a tool's JSON schema is the
deepest part of a real request: a dozen levels)."""

_SURROGATE = re.compile("[\ud800-\udfff]")


class BodyError(ValueError):
    """A body that is not what the endpoint takes; the message names the field, and
    ``param`` is that field's path (OpenAI's error ``param``), None for the whole body."""

    def __init__(self, message: str, param: str | None = None) -> None:
        super().__init__(message)
        self.param = param


def _constant(name: str) -> Any:
    raise BodyError(f"{name} is not a JSON number")


def load_json(raw: bytes) -> Any:
    """The JSON value of a request body (UTF-8), checked for depth and lone surrogates."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise BodyError(f"the body is not UTF-8 text: {err.reason} at byte {err.start}") \
            from None
    try:
        value = json.loads(text, parse_constant=_constant)
    except json.JSONDecodeError as err:
        raise BodyError(f"the body is not JSON: {err}") from None
    except RecursionError:
        raise BodyError(f"the body is nested deeper than {MAX_DEPTH} levels") from None
    check_value(value)
    return value


def check_value(value: Any, path: str = "") -> None:
    """Refuse nesting beyond :data:`MAX_DEPTH`, lone surrogates in any string (keys too) and
    non-finite numbers. Iterative, so a deep value cannot exhaust the stack here either."""
    stack: list[tuple[Any, str, int]] = [(value, path, 0)]
    while stack:
        item, where, depth = stack.pop()
        if len(where) > 120:  # a deep path is named by its start
            where = where[:120] + "..."
        if isinstance(item, str):
            _text(item, where)
        elif isinstance(item, float):
            if not math.isfinite(item):
                raise BodyError(f"{where or 'the body'} is not a finite number", where or None)
        elif isinstance(item, (dict, list)):
            if depth >= MAX_DEPTH:
                raise BodyError(f"{where or 'the body'} is nested deeper than {MAX_DEPTH} "
                                "levels", where or None)
            if isinstance(item, dict):
                for key, sub in item.items():
                    _text(key, f"{where or 'the body'} (a key)")
                    stack.append((sub, f"{where}.{_shown(key)}" if where else _shown(key),
                                  depth + 1))
            else:
                stack.extend((sub, f"{where}[{i}]", depth + 1) for i, sub in enumerate(item))


def _text(value: str, where: str) -> None:
    found = _SURROGATE.search(value)
    if found is not None:
        raise BodyError(f"{where or 'the body'} holds a lone surrogate (\\u{ord(found[0]):04x} "
                        f"at character {found.start()}), which is not text", where or None)


def _shown(key: str) -> str:
    key = key if len(key) <= 40 else key[:40] + "..."
    return key if key.isidentifier() else json.dumps(key)


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


def _want(value: Any, types: type | tuple[type, ...], where: str, what: str, *,
          optional: bool = True) -> None:
    if value is None and optional:
        return
    if isinstance(value, bool) and bool not in (types if isinstance(types, tuple) else (types,)):
        raise BodyError(f"{where} must be {what}, not {_kind(value)}", where)
    if not isinstance(value, types):
        raise BodyError(f"{where} must be {what}, not {_kind(value)}", where)


def check_chat(body: Any) -> None:
    """The fields of a ``/v1/chat/completions`` body that PlayBench reads, with their types."""
    if not isinstance(body, dict):
        raise BodyError(f"the body must be a JSON object, not {_kind(body)}")
    messages = body.get("messages")
    _want(messages, list, "messages", "a non-empty array of message objects", optional=False)
    if not messages:
        raise BodyError("messages must be a non-empty array of message objects", "messages")
    for i, message in enumerate(messages):
        _message(message, f"messages[{i}]")
    tools = body.get("tools")
    _want(tools, list, "tools", "an array of tool objects")
    for i, tool in enumerate(tools or ()):
        _tool(tool, f"tools[{i}]")
    _want(body.get("stream"), bool, "stream", "true or false")
    _want(body.get("model"), str, "model", "a string")
    _want(body.get("user"), str, "user", "a string")
    _want(body.get("tool_choice"), (str, dict), "tool_choice", "a string or an object")


def _message(message: Any, where: str) -> None:
    _want(message, dict, where, "a message object", optional=False)
    _want(message.get("role"), str, f"{where}.role", "a string", optional=False)
    content = message.get("content")
    _want(content, (str, list), f"{where}.content", "a string, an array of parts or null")
    for j, part in enumerate(content if isinstance(content, list) else ()):
        _part(part, f"{where}.content[{j}]")
    _want(message.get("name"), str, f"{where}.name", "a string")
    _want(message.get("tool_call_id"), str, f"{where}.tool_call_id", "a string")
    calls = message.get("tool_calls")
    _want(calls, list, f"{where}.tool_calls", "an array of tool calls")
    for j, call in enumerate(calls or ()):
        at = f"{where}.tool_calls[{j}]"
        _want(call, dict, at, "a tool call object", optional=False)
        _want(call.get("id"), str, f"{at}.id", "a string")
        fn = call.get("function")
        _want(fn, dict, f"{at}.function", "an object", optional=False)
        _want(fn.get("name"), str, f"{at}.function.name", "a string", optional=False)
        _want(fn.get("arguments"), (str, dict), f"{at}.function.arguments",
              "a string or an object")


def _part(part: Any, where: str) -> None:
    _want(part, dict, where, "a content part object", optional=False)
    kind = part.get("type")
    _want(kind, str, f"{where}.type", "a string", optional=False)
    if kind == "text":
        _want(part.get("text"), str, f"{where}.text", "a string", optional=False)
    elif kind == "image_url":
        ref = part.get("image_url")
        _want(ref, (str, dict), f"{where}.image_url", "an object with a url", optional=False)
        url = ref.get("url") if isinstance(ref, Mapping) else ref
        _want(url, str, f"{where}.image_url.url", "a string", optional=False)


def _tool(tool: Any, where: str) -> None:
    _want(tool, dict, where, "a tool object", optional=False)
    fn = tool.get("function")
    _want(fn, dict, f"{where}.function", "an object {\"name\": ...}", optional=False)
    _want(fn.get("name"), str, f"{where}.function.name", "a string", optional=False)
    _want(fn.get("description"), str, f"{where}.function.description", "a string")
    _want(fn.get("parameters"), dict, f"{where}.function.parameters", "an object")


__all__ = ["MAX_DEPTH", "BodyError", "check_chat", "check_value", "load_json"]
