"""A checker of ATIF v1.6 trajectories, written from the field rules of the Harbor project's RFC
0001 (docs/rfcs/0001-trajectory-format.md; read in its v1.7 text, whose version history lists
what v1.6 added and which v1.7 changes do not apply to v1.6). It returns every broken rule as
``path: reason``; an empty list means the document keeps them all.

Rules checked:
- root: ``schema_version`` (text, here ``ATIF-v1.6``), ``session_id`` (text; required up to
  v1.6), ``agent`` and ``steps`` are required; ``notes`` text, ``final_metrics`` and ``extra``
  objects when present; no other root fields (v1.7's ``trajectory_id`` and
  ``subagent_trajectories`` are not v1.6);
- agent: ``name`` and ``version`` text; ``model_name`` text, ``tool_definitions`` list, ``extra``
  object when present;
- steps: ``step_id`` whole numbers 1, 2, 3... in order; ``source`` one of system, user, agent;
  ``message`` text or a list of content parts; ``timestamp`` ISO 8601 when present;
  ``model_name``, ``reasoning_effort``, ``reasoning_content``, ``tool_calls`` and ``metrics``
  only on agent steps; ``observation`` on agent or system steps only;
- a tool call has ``tool_call_id`` and ``function_name`` (text) and ``arguments`` (an object);
  its id is unique in the step;
- an observation has ``results`` (a list); a result's ``source_call_id``, when given, names a
  tool call of the same step; its ``content`` is text or a list of content parts;
- a content part is ``text`` (with ``text``, without ``source``) or ``image`` (with ``source``,
  without ``text``); an image source has ``media_type`` (image/jpeg, png, gif or webp) and
  ``path`` (text);
- metrics and final metrics: the token counts whole numbers, ``cost_usd`` a number, ``extra``
  an object.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

MEDIA_TYPES = ("image/jpeg", "image/png", "image/gif", "image/webp")
ROOT_FIELDS = {"schema_version", "session_id", "agent", "steps", "notes", "final_metrics",
               "continued_trajectory_ref", "extra"}
AGENT_ONLY = ("model_name", "reasoning_effort", "reasoning_content", "tool_calls", "metrics")
STEP_FIELDS = {"step_id", "timestamp", "source", "message", "observation", "extra",
               "is_copied_context", *AGENT_ONLY}
TOKEN_FIELDS = ("prompt_tokens", "completion_tokens", "cached_tokens")


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


class _Problems(list):
    def need(self, where: str, obj: dict, name: str, check, what: str,
             required: bool = True) -> None:
        if name not in obj or obj[name] is None:
            if required:
                self.append(f"{where}.{name}: required")
            return
        if not check(obj[name]):
            self.append(f"{where}.{name}: must be {what}")


def _content(p: _Problems, where: str, value: Any) -> None:
    if isinstance(value, str):
        return
    if not isinstance(value, list):
        p.append(f"{where}: must be text or a list of content parts")
        return
    for i, part in enumerate(value):
        at = f"{where}[{i}]"
        if not isinstance(part, dict):
            p.append(f"{at}: must be an object")
            continue
        kind = part.get("type")
        if kind == "text":
            p.need(at, part, "text", lambda v: isinstance(v, str), "text")
            if "source" in part:
                p.append(f"{at}.source: not allowed on a text part")
        elif kind == "image":
            if "text" in part:
                p.append(f"{at}.text: not allowed on an image part")
            source = part.get("source")
            if not isinstance(source, dict):
                p.append(f"{at}.source: required object on an image part")
                continue
            p.need(f"{at}.source", source, "media_type", lambda v: v in MEDIA_TYPES,
                   f"one of {', '.join(MEDIA_TYPES)}")
            p.need(f"{at}.source", source, "path", lambda v: isinstance(v, str) and v != "",
                   "a non-empty path or URL")
        else:
            p.append(f"{at}.type: must be 'text' or 'image'")


def _metrics(p: _Problems, where: str, m: Any, prefix: str = "") -> None:
    if not isinstance(m, dict):
        p.append(f"{where}: must be an object")
        return
    for name in TOKEN_FIELDS:
        p.need(where, m, prefix + name, _is_int, "a whole number", required=False)
    p.need(where, m, prefix + "cost_usd", _is_number, "a number", required=False)
    p.need(where, m, "extra", lambda v: isinstance(v, dict), "an object", required=False)


def _timestamp(v: Any) -> bool:
    if not isinstance(v, str):
        return False
    try:
        datetime.fromisoformat(v.replace("Z", "+00:00"))
    except ValueError:
        return False
    return True


def _step(p: _Problems, i: int, step: Any) -> None:
    at = f"steps[{i}]"
    if not isinstance(step, dict):
        p.append(f"{at}: must be an object")
        return
    for name in sorted(set(step) - STEP_FIELDS):
        p.append(f"{at}.{name}: not a v1.6 step field")
    if step.get("step_id") != i + 1 or not _is_int(step.get("step_id")):
        p.append(f"{at}.step_id: must be {i + 1} (sequential from 1)")
    source = step.get("source")
    if source not in ("system", "user", "agent"):
        p.append(f"{at}.source: must be 'system', 'user' or 'agent'")
    if "message" not in step:
        p.append(f"{at}.message: required")
    else:
        _content(p, f"{at}.message", step["message"])
    p.need(at, step, "timestamp", _timestamp, "an ISO 8601 time", required=False)
    if source != "agent":
        for name in AGENT_ONLY:
            if step.get(name) is not None:
                p.append(f"{at}.{name}: only agent steps may have it")
    if source == "user" and step.get("observation") is not None:
        p.append(f"{at}.observation: not on a user step")
    p.need(at, step, "model_name", lambda v: isinstance(v, str), "text", required=False)
    p.need(at, step, "reasoning_content", lambda v: isinstance(v, str), "text",
           required=False)
    p.need(at, step, "extra", lambda v: isinstance(v, dict), "an object", required=False)
    calls = step.get("tool_calls")
    ids: set[str] = set()
    if calls is not None:
        if not isinstance(calls, list):
            p.append(f"{at}.tool_calls: must be a list")
            calls = []
        for j, call in enumerate(calls):
            where = f"{at}.tool_calls[{j}]"
            if not isinstance(call, dict):
                p.append(f"{where}: must be an object")
                continue
            p.need(where, call, "tool_call_id", lambda v: isinstance(v, str), "text")
            p.need(where, call, "function_name", lambda v: isinstance(v, str), "text")
            p.need(where, call, "arguments", lambda v: isinstance(v, dict), "an object")
            if call.get("tool_call_id") in ids:
                p.append(f"{where}.tool_call_id: repeated in the step")
            ids.add(call.get("tool_call_id"))
    if step.get("metrics") is not None:
        _metrics(p, f"{at}.metrics", step["metrics"])
    obs = step.get("observation")
    if obs is not None:
        results = obs.get("results") if isinstance(obs, dict) else None
        if not isinstance(results, list):
            p.append(f"{at}.observation.results: required list")
            return
        for j, result in enumerate(results):
            where = f"{at}.observation.results[{j}]"
            if not isinstance(result, dict):
                p.append(f"{where}: must be an object")
                continue
            ref = result.get("source_call_id")
            if ref is not None and ref not in ids:
                p.append(f"{where}.source_call_id: names no tool call of this step")
            if "content" in result and result["content"] is not None:
                _content(p, f"{where}.content", result["content"])


def atif_problems(doc: Any, version: str = "ATIF-v1.6") -> list[str]:
    """Every rule of ATIF ``version`` (v1.6) that ``doc`` breaks."""
    p = _Problems()
    if not isinstance(doc, dict):
        return ["trajectory: must be an object"]
    for name in sorted(set(doc) - ROOT_FIELDS):
        p.append(f"{name}: not a v1.6 root field")
    if doc.get("schema_version") != version:
        p.append(f"schema_version: must be {version!r}")
    p.need("", doc, "session_id", lambda v: isinstance(v, str) and v != "", "non-empty text")
    agent = doc.get("agent")
    if not isinstance(agent, dict):
        p.append("agent: required object")
    else:
        p.need("agent", agent, "name", lambda v: isinstance(v, str) and v != "", "text")
        p.need("agent", agent, "version", lambda v: isinstance(v, str) and v != "", "text")
        p.need("agent", agent, "model_name", lambda v: isinstance(v, str), "text",
               required=False)
        p.need("agent", agent, "tool_definitions", lambda v: isinstance(v, list), "a list",
               required=False)
        p.need("agent", agent, "extra", lambda v: isinstance(v, dict), "an object",
               required=False)
    steps = doc.get("steps")
    if not isinstance(steps, list):
        p.append("steps: required list")
    else:
        for i, step in enumerate(steps):
            _step(p, i, step)
    p.need("", doc, "notes", lambda v: isinstance(v, str), "text", required=False)
    p.need("", doc, "extra", lambda v: isinstance(v, dict), "an object", required=False)
    final = doc.get("final_metrics")
    if final is not None:
        _metrics(p, "final_metrics", final, prefix="total_")
        p.need("final_metrics", final, "total_steps", _is_int, "a whole number",
               required=False)
    return [s.lstrip(".") for s in p]


def image_paths(doc: dict) -> set[str]:
    """Every image path a trajectory refers to."""
    out: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            if value.get("type") == "image" and isinstance(value.get("source"), dict):
                out.add(value["source"]["path"])
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
    walk(doc["steps"])
    return out
