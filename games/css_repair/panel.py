"""The CSS repair tool panel's state (no Qt here): what a person picks, reads and edits, turned
into the same tool calls a model makes (:mod:`playbench.games.css_repair.tools`).

A person works like VAB-CSS's agent (docs/reference/web.md, "VAB CSS"): pick an element of
the page, see the rules that style it, read one rule, edit one property, revert, and say the
page is fixed. Each control of the app's CSS surface calls one method here, which builds the
call's canonical text and hands it on with the raw gesture, so the step is recorded as exactly
the tool call a model would make (``edit_rule(".card", "padding", "20px")``), read through the
kind's parser like a model's reply. The panel also keeps what the last observation said: the
result of the last tool, the SSIM, the elements of the page and the rule shown. The kind hands
a fresh panel to each episode (:meth:`CssRepairKind.tool_panel`); the app knows it only by the
shape its surface asks for.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from playbench.games.css_repair.tools import (
    EDIT_RULE,
    FIXED,
    GET_SELECTORS,
    REVERT,
    SELECT_RULE,
    Call,
)

_TAG = re.compile(r"<([a-zA-Z][a-zA-Z0-9]*)([^>]*)>")
_ATTR = re.compile(r"""\b(id|class)\s*=\s*["']([^"']*)["']""")
_SELECTOR_LINE = re.compile(r"^- <[^>]+> .*?: (.*)$")
_QUOTED = re.compile(r"'((?:[^'\\]|\\.)*)'")
_DECLARATION = re.compile(r"^\s+([a-z-]+): (.*);$")
_SET = re.compile(r"^Set ([a-z-]+): (.*?) in '(.*?)' \(")
SKIP = frozenset({"html", "head", "meta", "title", "link", "script", "style", "br", "option"})


def page_elements(html: str) -> list[str]:
    """A CSS selector for each distinct element of the page (tag, id, classes), in document
    order: the choices of the view's element list."""
    out: list[str] = []
    for m in _TAG.finditer(html):
        tag = m.group(1).lower()
        if tag in SKIP:
            continue
        attrs = dict(_ATTR.findall(m.group(2)))
        name = tag + (f"#{attrs['id']}" if attrs.get("id") else "") + "".join(
            f".{c}" for c in attrs.get("class", "").split())
        if name not in out:
            out.append(name)
    return out


def selectors_in(result: str) -> list[str]:
    """The rule selectors a ``get_selectors_by_html_elements`` result lists, without repeats."""
    out: list[str] = []
    for line in result.splitlines():
        m = _SELECTOR_LINE.match(line)
        if m:
            for s in _QUOTED.findall(m.group(1)):
                if s not in out:
                    out.append(s)
    return out


def declarations_in(result: str) -> list[tuple[str, str]]:
    """The (property, value) pairs of the rule a ``select_rule`` result shows."""
    return [(m.group(1), m.group(2)) for m in map(_DECLARATION.match, result.splitlines()) if m]


Submit = Callable[[str, str], None]
"""Hands one call on: its canonical text and the raw gesture (``pick:header.top``)."""


@dataclass
class ToolPanel:
    """The state behind the surface; ``submit`` hands each call to the person's player."""

    submit: Submit
    html: str = ""
    hint: str = ""
    result: str = ""
    ssim: float | None = None
    start_ssim: float | None = None
    selectors: tuple[str, ...] = ()
    rule: tuple[tuple[str, str], ...] = ()
    rule_selector: str = ""
    last_call: str = ""

    def observe(self, observation: Any) -> None:
        """Take in an observation of the environment (text, info)."""
        info = dict(getattr(observation, "info", {}) or {})
        self.ssim = info.get("ssim")
        self.start_ssim = info.get("start_ssim")
        self.result = str(info.get("result", ""))
        text = getattr(observation, "text", "") or ""
        head, _, html = text.partition("Current HTML (index.html):\n")
        self.html = html
        self.hint = head.split("\n", 1)[0].removeprefix("Hint: ") if head else ""
        if self.last_call.startswith(GET_SELECTORS):
            self.selectors = tuple(selectors_in(self.result))
        if self.last_call.startswith(SELECT_RULE):
            self.rule = tuple(declarations_in(self.result))
        elif self.last_call.startswith(EDIT_RULE) and self.result.startswith("Set "):
            m = _SET.match(self.result)
            if m and m.group(3) == self.rule_selector:  # shown rule: no round spent on it
                prop, value = m.group(1), m.group(2)
                known = dict(self.rule)
                known[prop] = value
                self.rule = tuple(known.items())

    def elements(self) -> list[str]:
        return page_elements(self.html)

    def _send(self, call: Call, raw: str) -> str:
        text = call.text()
        self.last_call = text
        self.submit(text, raw)
        return text

    def pick(self, element: str) -> str:
        """Find the rules of the elements matching ``element`` (the element list's choice)."""
        return self._send(Call(GET_SELECTORS, (element,)), f"pick:{element}")

    def show_rule(self, selector: str) -> str:
        self.rule_selector = selector
        return self._send(Call(SELECT_RULE, (selector,)), f"rule:{selector}")

    def edit(self, selector: str, prop: str, value: str) -> str:
        return self._send(Call(EDIT_RULE, (selector, prop.strip(), value.strip())),
                          f"edit:{selector}")

    def revert(self) -> str:
        return self._send(Call(REVERT), "button:revert")

    def fixed(self) -> str:
        return self._send(Call(FIXED), "button:fixed")

    def listed_selectors(self) -> bool:
        """Whether the last call listed the rules of an element (the rule list changes)."""
        return self.last_call.startswith(GET_SELECTORS)

    def status(self) -> str:
        """One line for the view: the similarity now and at the start."""
        if self.ssim is None:
            return "Rendering..."
        start = f" (start {self.start_ssim:.3f})" if self.start_ssim is not None else ""
        return f"SSIM to the target: {self.ssim:.3f}{start}; success above 0.9"


__all__ = ["Submit", "ToolPanel", "declarations_in", "page_elements", "selectors_in"]
