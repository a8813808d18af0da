"""The model demo's transcript as text: one entry per decision, written as HTML for a label.

An entry holds the model's stated reasoning, its raw reply with the parsed action marked, what
each resulting step did (valid, or the invalid kind and reason), and what the call cost.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from playbench.app.core.recorder import StepRecord
from playbench.app.core.types import Action, Decision
from playbench.app.ui.models.wording import action_text

MARK = "background:#ffe27a;color:#1d1d1d;border-radius:3px;padding:0 2px"
RAW_LIMIT = 4000


BREAK_EVERY = 24
"""Characters: a longer run without a space (a JSON blob, a URL, a base64 image) gets a
zero-width break chance this often, so a reply card wraps to its pane's width instead of
growing past it (Qt's labels wrap only where the text allows it)."""

_LONG_RUN = re.compile(rf"\S{{{BREAK_EVERY + 1},}}")


def breakable(text: str) -> str:
    """``text`` with a zero-width space after every ``BREAK_EVERY`` characters of any run
    longer than that (shown the same; only where a line may break changes)."""
    def split(m: re.Match[str]) -> str:
        run = m.group(0)
        return "\u200b".join(run[i:i + BREAK_EVERY] for i in range(0, len(run), BREAK_EVERY))
    return _LONG_RUN.sub(split, text)


def _esc(text: str) -> str:
    return html.escape(breakable(text), quote=False)


def mark_action(raw: str, action: str | None) -> str:
    """The escaped reply with the last standalone occurrence of ``action`` highlighted."""
    raw = raw if len(raw) <= RAW_LIMIT else raw[:RAW_LIMIT] + " ..."
    if not action:
        return _esc(raw)
    pattern = re.compile(r"(?<![A-Za-z0-9])" + re.escape(action) + r"(?![A-Za-z0-9])")
    found = list(pattern.finditer(raw))
    if not found:
        return _esc(raw)
    m = found[-1]
    return (_esc(raw[:m.start()]) + f'<span style="{MARK}">{_esc(m.group(0))}</span>'
            + _esc(raw[m.end():]))


def usage_line(decision: Decision, think_ms: float) -> str:
    """``answered in 1.27 s (request 772 ms) · 389 + 4 tokens · $0.0000``."""
    u = decision.usage
    head = f"answered in {think_ms / 1000:.2f} s"
    if u.latency_ms:
        head += f" (request {u.latency_ms:,.0f} ms" + (
            f", {u.requests} attempts)" if u.requests > 1 else ")")
    parts = [head]
    if u.prompt_tokens or u.completion_tokens:
        parts.append(f"{u.prompt_tokens:,} + {u.completion_tokens:,} tokens")
    parts.append(f"${u.cost:.4f}")
    return " · ".join(parts)


def step_html(r: StepRecord) -> str:
    if r.valid:
        what = "changed the state" if r.changed else "valid, nothing changed"
        return (f'<div style="color:#1f7a3a">step {r.index + 1}: '
                f'<span style="{MARK}">{_esc(action_text(r.action))}</span> - {what}</div>')
    action = f'<span style="{MARK}">{_esc(r.action)}</span> ' if r.action else ""
    return (f'<div style="color:#b3261e">step {r.index + 1}: {action}invalid '
            f'({_esc(r.invalid_kind or "")}): {_esc(r.invalid_reason or "")}</div>')


def decision_html(decision: Decision, records: Sequence[StepRecord]) -> str:
    """Reasoning, reply (action marked), per-step outcome and usage of one decision."""
    first = next((e.text for e in decision.entries if isinstance(e, Action)), None)
    parts = []
    if decision.reasoning:
        parts.append(f'<div style="color:#555;font-style:italic">{_esc(decision.reasoning)}'
                     "</div>")
    reply = mark_action(decision.raw, first) if decision.raw else "<i>(empty reply)</i>"
    parts.append(f'<pre style="white-space:pre-wrap;margin:4px 0">{reply}</pre>')
    parts.extend(step_html(r) for r in records)
    return "".join(parts)


def partial_html(text: str) -> str:
    """The reply received so far, with a marker that more is coming."""
    body = _esc(text) if text else ""
    return f"{body}<span style='color:#888'> &#8230;</span>"
