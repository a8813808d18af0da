"""A study's instructions in a model's prompt: the text the human participants read, put
before the setting's own prompt as a clearly delimited block.

Only the protocols whose prompts PlayBench wrote itself take it (each says so with its
``takes_study_instructions``: the tools family, GameWorld's section order in our wording, and
our wording of MageBench WebUI). The paper-exact families (ING-VP, MageBench, VWA) are left as
the papers wrote them: an extra block would make their scores incomparable with the published
ones. docs/studies.md lists which is which.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from playbench.app.agents.protocols.base import Prompt, text_part

OPEN = "=== Study instructions (the same text the human participants were given) ==="
CLOSE = "=== End of the study instructions; the task follows ==="


def preamble(instructions: str) -> str:
    """The delimited block put before the prompt."""
    return f"{OPEN}\n{instructions.strip()}\n{CLOSE}\n\n"


def with_instructions(prompt: Prompt, takes_them: bool, instructions: str) -> Prompt:
    """``prompt`` with the study's instructions before its first message's text when its
    protocol ``takes_them``; unchanged otherwise or without instructions."""
    if not instructions.strip() or not takes_them or not prompt.messages:
        return prompt
    first = dict(prompt.messages[0])
    content: Any = first.get("content")
    block = preamble(instructions)
    if isinstance(content, str):
        first["content"] = block + content
    elif isinstance(content, list):
        first["content"] = [text_part(block), *content]
    else:
        return prompt
    return replace(prompt, messages=[first, *prompt.messages[1:]])
