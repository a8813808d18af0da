"""The model player: a :class:`~playbench.app.core.player.Player` that asks a chat model.

Per decision it builds the setting's prompt (``protocols``), sends it through the run's shared
client (``session``), reads the reply into decision entries and returns them with the reply
text, the model's stated reasoning and what the call cost. A reply that cannot be read is an
invalid decision (a recorded, counted step); only a call that keeps failing after its retries
raises, which the loop records as an infrastructure error.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

import numpy as np

from playbench.app.agents.client import ModelReply
from playbench.app.agents.hints import HEADER, encode_hint, hint_from_context
from playbench.app.agents.preamble import with_instructions
from playbench.app.agents.profiles import ModelProfile
from playbench.app.agents.protocols import family_of
from playbench.app.agents.protocols.base import Prompt, PromptProtocol, Turn
from playbench.app.core.player import PlayContext
from playbench.app.core.settings import undo_allowed
from playbench.app.core.types import Decision, Invalid, Observation
from playbench.db.caps import cut_text

REPLY_LIMIT = 256 * 1024
"""The most of one reply stored with a step, in UTF-8 bytes (docs/security.md, Limits). A
longer reply is stored cut to this size, ending with a note saying so; the step's info gives
both sizes. Without the cap a runaway model's 10 MB reply is stored on every step."""


def cap_reply(text: str, limit: int = REPLY_LIMIT) -> tuple[str, int]:
    """``text`` as it is stored: whole when its UTF-8 form fits ``limit`` bytes, else its
    first ``limit`` bytes (never splitting a character) and a note, by the rule every stored
    field follows (:func:`playbench.db.caps.cut_text`). Returns the stored text and the
    reply's size in bytes."""
    stored, cut = cut_text(text, limit, "reply")
    return stored, (cut["bytes"] if cut else len(text.encode("utf-8", "surrogatepass")))


class Completer(Protocol):
    async def complete(self, prompt: Prompt, headers: Mapping[str, str] | None = None,
                       on_text: Callable[[str], None] | None = None) -> ModelReply: ...


class ModelPlayer:
    kind = "model"

    def __init__(self, profile: ModelProfile, completer: Completer,
                 protocols: Mapping[str, PromptProtocol], image_url) -> None:
        self.profile = profile
        self.name = profile.name
        self.spec = f"model:{profile.name}"
        self.completer = completer
        self.protocols = protocols
        self.image_url = image_url
        self._frames: dict[int, np.ndarray] = {}
        self._first: np.ndarray | None = None
        self.last_prompt: Prompt | None = None
        self.instructions = ""
        """A study's instructions, put in the prompt where the setting allows
        (:mod:`~playbench.app.agents.preamble`)."""
        self.on_partial: Callable[[int, str], None] | None = None
        """Set by a live view: called with (decision, reply text so far) while the answer
        streams in. Without it requests are not streamed."""

    def details(self) -> dict[str, Any]:
        return {"player": self.spec, **self.profile.details()}

    def take_instructions(self, text: str) -> None:
        """Give the study's instructions (``TakesInstructions``)."""
        self.instructions = text

    def _remember(self, observation: Observation, context: PlayContext) -> None:
        if observation.frame is None:
            return
        if context.step == 0 and self._first is None:
            self._first = observation.frame
        self._frames[context.decision] = observation.frame
        keep = self.profile.observation_memory + 1
        for d in [d for d in self._frames if d < context.decision - keep]:
            del self._frames[d]

    def recall(self, observation: Observation, context: PlayContext) -> None:
        """Remember what was shown before a recorded decision that a resume re-applies, so
        the resumed prompts keep the earlier frames an uninterrupted episode's would."""
        self._remember(observation, context)

    def turn(self, observation: Observation, context: PlayContext) -> Turn:
        self._remember(observation, context)
        return Turn(game=context.task.game, setting=context.setting,
                    options=context.task.options, observation=observation,
                    history=context.history, feedback=context.feedback, step=context.step,
                    decision=context.decision,
                    undo=undo_allowed(context.setting, context.task.game),
                    image_url=self.image_url, frames=dict(self._frames),
                    first_frame=self._first)

    async def act(self, observation: Observation, context: PlayContext) -> Decision:
        family = family_of(context.setting, context.task.game)
        protocol = self.protocols[family]
        prompt = with_instructions(protocol.build(self.turn(observation, context)),
                                   protocol.takes_study_instructions, self.instructions)
        self.last_prompt = prompt
        headers = ({HEADER: encode_hint(hint_from_context(context))}
                   if self.profile.state_hints else None)
        partial = self.on_partial
        on_text = None if partial is None else (lambda text: partial(context.decision, text))
        result = await self.completer.complete(prompt, headers, on_text)
        parsed = protocol.parse(result.reply, context.task.game, context.setting, context.parse)
        entries = parsed.entries or (Invalid("no_action", "the reply held no action"),)
        info: dict[str, Any] = {"protocol": family, "requests": result.usage.requests}
        if result.faults:
            info["retried"] = list(result.faults)
        if result.finish_reason and result.finish_reason not in ("stop", "tool_calls"):
            info["finish_reason"] = result.finish_reason
        info.update(parsed.note)
        raw, size = cap_reply(result.reply.raw)
        if raw is not result.reply.raw:
            info["reply_cut"] = {"stored_bytes": REPLY_LIMIT, "reply_bytes": size}
        reasoning = parsed.reasoning
        if isinstance(reasoning, str):
            reasoning = cap_reply(reasoning)[0]
        return Decision(tuple(entries), raw, reasoning=reasoning,
                        usage=result.usage, info=info)
