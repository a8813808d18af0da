"""How much of a harness's request a step keeps.

Every request of a conversation carries the whole conversation so far, and the step that
answers it records the messages (pictures as digests, ``wire.recorded_messages``). Uncapped,
eight 31 MiB requests grew the database by 228 MB. So what a step stores is bounded:

- a text (a message's content, a text part, any other string field) over :data:`TEXT_LIMIT`
  UTF-8 bytes is cut at a character boundary and ends with a note giving the stored and the
  whole size and the whole text's SHA-256;
- any other part or field whose JSON is over :data:`TEXT_LIMIT` (an audio clip, a huge tool
  call) is replaced by a placeholder ``{"cut_by_playbench": ..., "bytes": N, "sha256": ...}``;
- if the messages are still over :data:`REQUEST_LIMIT` together, the oldest are replaced by
  one such placeholder (with their number) - the newest turns, the ones the answer is about,
  stay whole;
- the offered tools likewise, up to :data:`TOOLS_LIMIT` together (over it, names only).

What was cut is summed up in the step's ``info["request"]["cut"]``. The harness's answer and
the upstream's reply are capped elsewhere (``playbench.app.agents.player.REPLY_LIMIT``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

TEXT_LIMIT = 64 * 1024
"""Bytes of one text (or one other part, as JSON) a step stores."""
REQUEST_LIMIT = 1024 * 1024
"""Bytes of a request's messages (as JSON) a step stores."""
TOOLS_LIMIT = 256 * 1024
"""Bytes of the offered tools (as JSON) a step stores."""


def _size(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False, default=str).encode("utf-8"))


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def cut_text(text: str, limit: int = TEXT_LIMIT) -> str:
    """``text`` if it fits in ``limit`` UTF-8 bytes, else its head with a note saying so."""
    data = text.encode("utf-8")
    if len(data) <= limit:
        return text
    head = data[:limit].decode("utf-8", "ignore")
    return (f"{head}\n[text cut by PlayBench: {len(head.encode('utf-8'))} of {len(data)} bytes "
            f"stored; sha256 {_digest(data)}]")


def placeholder(value: Any, why: str) -> dict[str, Any]:
    """What stands in for a value too big to store: its size and digest, and why."""
    data = json.dumps(value, ensure_ascii=False, default=str).encode("utf-8")
    return {"cut_by_playbench": why, "bytes": len(data), "sha256": _digest(data)}


def _capped(value: Any, counts: dict[str, int]) -> Any:
    """A message field (or part) with its texts cut and big parts replaced."""
    if isinstance(value, str):
        cut = cut_text(value)
        if cut is not value:
            counts["texts"] = counts.get("texts", 0) + 1
        return cut
    if isinstance(value, Mapping):
        return {k: _capped(v, counts) for k, v in value.items()}
    if isinstance(value, list):
        out = []
        for item in value:
            if not isinstance(item, str) and _size(item) > TEXT_LIMIT:
                capped = _capped(item, counts)
                if _size(capped) > 2 * TEXT_LIMIT:  # many small pieces: one placeholder
                    counts["parts"] = counts.get("parts", 0) + 1
                    capped = placeholder(item, f"part over {TEXT_LIMIT} bytes")
                out.append(capped)
            else:
                out.append(_capped(item, counts))
        return out
    return value


def capped_messages(messages: Sequence[Mapping[str, Any]]) -> tuple[list[dict[str, Any]],
                                                                    dict[str, int]]:
    """The messages as a step stores them (see the module docstring), and what was cut:
    ``{"texts": n, "parts": n, "messages": n}`` (empty when nothing was)."""
    counts: dict[str, int] = {}
    out = [dict(_capped(dict(m), counts)) for m in messages]
    kept, total = len(out), 0
    for i in range(len(out) - 1, -1, -1):  # the newest turns first
        size = _size(out[i])
        if total + size > REQUEST_LIMIT:
            break
        total += size
        kept = i
    if kept == len(out) and out:  # the newest message alone is too big
        out[-1] = {"role": out[-1].get("role"),
                   **placeholder(out[-1], f"message over {REQUEST_LIMIT} bytes")}
        kept = len(out) - 1
    if kept > 0:
        older = out[:kept]
        out = [{"role": None, "messages": kept,
                **placeholder(older, f"{kept} earlier messages over {REQUEST_LIMIT} bytes")},
               *out[kept:]]
        counts["messages"] = kept
    return out, counts


def capped_tools(tools: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], bool]:
    """The offered tools as a step stores them, and whether they had to be cut (then each is
    its name and a placeholder for the rest)."""
    if _size(tools) <= TOOLS_LIMIT:
        return tools, False
    return [{"name": cut_text(str(t.get("name", "")), 256),
             **placeholder(t, f"tools over {TOOLS_LIMIT} bytes")} for t in tools], True


__all__ = ["REQUEST_LIMIT", "TEXT_LIMIT", "TOOLS_LIMIT", "capped_messages", "capped_tools",
           "cut_text", "placeholder"]
