"""Prompt protocols, one module per paper family, chosen by the play setting's name (and, for
web tasks, by the game)."""

from __future__ import annotations

from playbench.app.agents.protocols.base import (
    Parsed,
    Prompt,
    PromptProtocol,
    Reader,
    Reply,
    ToolCall,
    Turn,
)
from playbench.app.agents.protocols.ingvp import IngVP
from playbench.app.agents.protocols.magebench import MageBench
from playbench.app.agents.protocols.tools import Tools
from playbench.app.agents.protocols.vwa import Vwa
from playbench.app.agents.protocols.webui import WebUI
from playbench.app.agents.templates import Templates
from playbench.app.core.settings import Setting
from playbench.games.kind import default_registry, protocol_family

FAMILIES = ("ingvp", "magebench", "tools", "vwa", "webui")


def family_of(setting: Setting | str, game: str | None = None) -> str:
    """``ingvp``, ``magebench``, ``tools``, ``vwa`` or ``webui`` for a setting. A kind that
    names its ``protocol_family`` (web tasks: ``vwa``) plays every setting with it; ``default``
    for a board game plays as ING-VP with both the picture and the text."""
    name = setting if isinstance(setting, str) else setting.name
    head = name.split(":", 1)[0]
    own = kind_family(game)
    if own in FAMILIES:
        return own
    return head if head in FAMILIES else "ingvp"


def kind_family(game: str | None) -> str | None:
    """The protocol family a kind plays every setting with (its declared
    ``capabilities.protocol_family``), or None."""
    if not game:
        return None
    kinds = default_registry()
    if game not in kinds:
        return None
    return protocol_family(kinds.get(game))


def make_protocols(templates: Templates | None = None, *, image_detail: str | None = None,
                   action_memory: int = 5, observation_memory: int = 1,
                   tool_choice: str | None = "auto") -> dict[str, PromptProtocol]:
    """One instance of each protocol family sharing one template set."""
    t = templates or Templates()
    return {"ingvp": IngVP(t, image_detail),
            "magebench": MageBench(t, image_detail, action_memory, observation_memory),
            "tools": Tools(t, image_detail, tool_choice),
            "vwa": Vwa(t, image_detail),
            "webui": WebUI(t, image_detail, action_memory, observation_memory)}


__all__ = ["IngVP", "MageBench", "Tools", "Vwa", "Parsed", "Prompt", "PromptProtocol", "Reader",
           "Reply", "ToolCall", "Turn", "WebUI", "family_of", "kind_family", "make_protocols"]
