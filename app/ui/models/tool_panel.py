"""What the CSS surface asks of a kind played through a panel of the model's tools (no Qt).

VAB-CSS's person works with the tools its model calls (pick an element, read a rule, edit a
property, revert, say it is fixed). The tool names and the way their results read belong to
the kind, so the kind makes the panel's state (``tool_panel(submit)``) and the surface only
draws it and forwards the person's choices; :class:`ToolPanel` is the shape the surface uses.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from playbench.app.players.human import HumanInput
from playbench.games.kind import TaskKind


class ToolPanel(Protocol):
    """One episode's panel: the page's elements, the rules found, the rule shown, the last
    tool's result and the similarity; each action method submits one tool call."""

    hint: str
    result: str
    ssim: float | None
    start_ssim: float | None
    selectors: tuple[str, ...]
    rule: tuple[tuple[str, str], ...]
    rule_selector: str
    last_call: str

    def observe(self, observation: Any) -> None: ...
    def elements(self) -> list[str]: ...
    def pick(self, element: str) -> str: ...
    def show_rule(self, selector: str) -> str: ...
    def edit(self, selector: str, prop: str, value: str) -> str: ...
    def revert(self) -> str: ...
    def fixed(self) -> str: ...
    def status(self) -> str: ...
    def listed_selectors(self) -> bool:
        """Whether the last call listed the rules of an element (the rule list changes)."""


@runtime_checkable
class ToolPanels(Protocol):
    """A kind played through a tool panel."""

    def tool_panel(self, submit: Callable[[str, str], None]) -> ToolPanel: ...


class NoToolPanel(TypeError):
    """The task's kind has no tool panel to play it with."""


def panel_for(kind: Any, submit: Callable[[HumanInput], None]) -> ToolPanel:
    """A fresh panel of ``kind`` whose calls reach ``submit`` as a person's moves."""
    if not isinstance(kind, ToolPanels):
        raise NoToolPanel(f"{kind.name if isinstance(kind, TaskKind) else kind!r} is not "
                          "played with a tool panel")
    return kind.tool_panel(lambda text, raw: submit(HumanInput.move(text, raw)))


__all__ = ["NoToolPanel", "ToolPanel", "ToolPanels", "panel_for"]
