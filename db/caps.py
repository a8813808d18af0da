"""One size rule for every text a step stores: at most :data:`FIELD_LIMIT` bytes of it.

A player's output reaches the database in several columns - the action (a WebUI submission is
the whole page the model wrote), the raw reply, the invalid reason (which may quote the
action), and the ``info`` JSON (blocked URLs a page chose, notes, reasoning). Without a bound a
model that writes 50 MB stores 50 MB on every step, in the action column even where the reply
was already cut. :func:`cap_step_row` applies the same rule to each of them just before a row
is written (the recorder and imports alike, through :meth:`StepRecord.to_row`):

- a text of at most ``FIELD_LIMIT + NOTE_ROOM`` UTF-8 bytes is stored whole;
- a longer one keeps its first ``FIELD_LIMIT`` bytes (never splitting a character) and ends
  with a note, ``[action cut by PlayBench: K of N bytes stored; sha256 H]``, where ``H`` is the
  SHA-256 of the whole text, so a copy kept elsewhere can be matched to the step;
- ``info`` is held to :data:`INFO_LIMIT` bytes of JSON (larger: an outside harness's
  request - its chat so far - is kept there, itself held to about 1.3 MiB by
  ``playbench.app.harness.stored``): entries that fit an equal share of it are kept
  whole, the larger ones share the rest and are cut to it (a list keeps its first items, a
  text its head, anything else its JSON cut as text; an entry still too large after that is
  replaced by a note);
- the step's ``info["cut"]`` then names every field that was cut with its original size
  (``bytes``), what was kept (``stored_bytes``) and ``sha256``.

``NOTE_ROOM`` is the room left for the note, so a text cut once (a reply the model player
already cut to its own 256 KiB, :data:`playbench.app.agents.player.REPLY_LIMIT`) is not cut
again. The largest row a step can store is about ``5 x (FIELD_LIMIT + NOTE_ROOM)``.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

FIELD_LIMIT = 256 * 1024
"""Bytes of one stored text field (UTF-8; JSON for ``info``) kept before it is cut."""
INFO_LIMIT = 2 * 1024 * 1024
"""Bytes of a step's ``info`` JSON kept before it is cut."""
NOTE_ROOM = 4096
"""Bytes allowed past :data:`FIELD_LIMIT` for PlayBench's own notes saying what was cut."""
TEXT_FIELDS = ("action", "raw", "invalid_kind", "invalid_reason", "state_hash")
"""The text columns of a step (besides ``info``)."""


def cut_note(what: str, kept: int, total: int, digest: str) -> str:
    return f"\n[{what} cut by PlayBench: {kept} of {total} bytes stored; sha256 {digest}]"


def cut_text(text: str, limit: int, what: str) -> tuple[str, dict[str, Any] | None]:
    """``text`` cut to its first ``limit`` UTF-8 bytes plus a note when it is longer than
    ``limit``: returns the text to store and, when it was cut, ``{"bytes", "stored_bytes",
    "sha256"}``."""
    data = text.encode("utf-8", "surrogatepass")
    if len(data) <= limit:
        return text, None
    head = data[:limit].decode("utf-8", "ignore")
    kept = len(head.encode("utf-8", "surrogatepass"))
    digest = hashlib.sha256(data).hexdigest()
    return (head + cut_note(what, kept, len(data), digest),
            {"bytes": len(data), "stored_bytes": kept, "sha256": digest})


def fit_text(text: str, what: str) -> tuple[str, dict[str, Any] | None]:
    """The stored form of one text field: whole up to ``FIELD_LIMIT + NOTE_ROOM`` bytes, else
    cut to ``FIELD_LIMIT`` with a note (:func:`cut_text`)."""
    if len(text) * 4 <= FIELD_LIMIT + NOTE_ROOM:  # fits whatever its characters are
        return text, None
    if len(text.encode("utf-8", "surrogatepass")) <= FIELD_LIMIT + NOTE_ROOM:
        return text, None
    return cut_text(text, FIELD_LIMIT, what)


def _size(value: Any) -> int:
    return len(json.dumps(value, default=str, ensure_ascii=False).encode("utf-8",
                                                                         "surrogatepass"))


def fit_info(info: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """``info`` held to ``INFO_LIMIT`` bytes of JSON (see the module docstring). Entries
    small enough for an equal share of the room are kept whole; the larger ones share what is
    left equally and are cut to it. Returns the info to store and, when something was cut,
    ``{"bytes", "stored_bytes", "sha256", "entries"}`` naming (the first 20 of) the cut
    entries."""
    whole_text = json.dumps(info, default=str, ensure_ascii=False).encode("utf-8",
                                                                          "surrogatepass")
    whole = len(whole_text)
    if whole <= INFO_LIMIT + NOTE_ROOM:
        return info, None
    sizes = {key: _size(value) + len(json.dumps(str(key))) + 4 for key, value in info.items()}
    out: dict[str, Any] = {}
    cut: list[str] = []
    room = INFO_LIMIT - 2
    for n, key in enumerate(sorted(sizes, key=lambda k: sizes[k])):
        share = room // (len(sizes) - n)
        if sizes[key] <= share:
            out[key] = info[key]
            room -= sizes[key]
            continue
        out[key] = _shrink(info[key], share - len(json.dumps(str(key))) - 4, f"info.{key}")
        room -= min(_size(out[key]) + len(json.dumps(str(key))) + 4, share)
        cut.append(str(key))
    for key in sorted(out, key=lambda k: -_size(out[k])):  # escapes took more than counted
        if _size(out) <= INFO_LIMIT + NOTE_ROOM:
            break
        out[key] = f"[info.{key} cut by PlayBench: {sizes[key]} bytes not stored]"
        if str(key) not in cut:
            cut.append(str(key))
    if _size(out) > INFO_LIMIT + NOTE_ROOM:  # too many entries, or huge keys: the JSON's head
        head = whole_text[:INFO_LIMIT // 2].decode("utf-8", "ignore")
        out = {"info": f"{head}\n[info cut by PlayBench: {whole} bytes]"}
        cut = ["*"]
    return out, {"bytes": whole, "stored_bytes": _size(out),
                 "sha256": hashlib.sha256(whole_text).hexdigest(), "entries": cut[:20]}


def _shrink(value: Any, room: int, what: str) -> Any:
    """``value`` made to take about ``room`` bytes of JSON or less (a text's escapes may take
    more; the caller checks again)."""
    if isinstance(value, list):
        kept: list[Any] = []
        used = 200
        for item in value:
            size = _size(item) + 2  # and its ", "
            if used + size > room:
                break
            kept.append(item)
            used += size
        return [*kept, f"[{what} cut by PlayBench: first {len(kept)} of {len(value)} items]"]
    text = value if isinstance(value, str) else json.dumps(value, default=str,
                                                          ensure_ascii=False)
    return cut_text(text, max(room - 200, 0), what)[0]


def cap_step_row(row: dict[str, Any]) -> dict[str, Any]:
    """A step's column values with every text field and ``info`` held to the rule above; the
    fields that were cut are named in ``info["cut"]``. ``row`` itself is not changed."""
    out = dict(row)
    cuts: dict[str, Any] = {}
    for name in TEXT_FIELDS:
        value = out.get(name)
        if isinstance(value, str):
            out[name], note = fit_text(value, name)
            if note is not None:
                cuts[name] = note
    info = dict(out.get("info") or {})
    info, note = fit_info(info)
    if note is not None:
        cuts["info"] = note
    out["info"] = {**info, "cut": cuts} if cuts else info
    return out


__all__ = ["FIELD_LIMIT", "INFO_LIMIT", "NOTE_ROOM", "TEXT_FIELDS", "cap_step_row", "cut_text",
           "fit_info", "fit_text"]
