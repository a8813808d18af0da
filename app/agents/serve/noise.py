"""Noisy replies for the offline endpoint: with probability P a reply is replaced by a random
move in the right format, or by one of the ways real models get the format wrong (no answer, a
cut-off answer, a word outside the vocabulary, two answers, a bad tool call). Every one of them
must come back from our parsers as a classified invalid step or a legal-format move."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

from playbench.app.agents.protocols import family_of
from playbench.app.agents.protocols.base import PromptProtocol, Reply, ToolCall
from playbench.app.agents.serve.web import malformed_web
from playbench.app.core.settings import Setting
from playbench.games.kind import default_registry, foreign_answer

_PROSE = ("Let me look at the board carefully before deciding.",
          "I am not sure which move is best here; the position is tricky.",
          "")



def _foreign(game: str) -> object:
    """An ING-VP answer value that is not a move of the kind (its declared
    ``capabilities.foreign_answer``)."""
    kinds = default_registry()
    return foreign_answer(kinds.get(game)) if game in kinds else "?"


def _tool_names(game: str) -> list[str]:
    kinds = default_registry()
    answers = kinds.get(game).answers if game in kinds else None
    return [n for n, _, _ in answers.tool_specs()] if answers is not None else []


def malformed(family: str, game: str, setting: Setting, rng: random.Random) -> Reply:
    """One badly formatted reply for the protocol family."""
    if family == "vwa":
        return malformed_web(rng)
    k = rng.randrange(4)
    if family == "tools":
        if k == 0:
            return Reply(rng.choice(_PROSE) or "No action.")
        if k == 1:
            return Reply("", (ToolCall("c0", "teleport", '{"reasoning": "faster"}'),))
        if k == 2:
            return Reply("", (ToolCall("c0", "move_up" if "move_up" in _tool_names(game)
                                       else "place_queen", '{"row": 3,'),))
        return Reply("", (ToolCall("c0", "a", "{}"), ToolCall("c1", "b", "{}")))
    if family == "magebench":
        if k == 0:
            return Reply(rng.choice(_PROSE) or "...")
        if k == 1:
            return Reply("analyze\nThe box must go up.\naction\nJump")
        if k == 2:
            return Reply("analyze\nTwo steps.\naction\nUp, Left")
        return Reply("Analyze\nNothing to add.\nActions\n")
    if k == 0:
        return Reply(rng.choice(_PROSE) or "(thinking)")
    if k == 1:
        return Reply('{"output": ')
    if k == 2:
        return Reply(json.dumps({"output": _foreign(game)}))
    return Reply('{"output": 1} or maybe {"output": 2}')


def noisy(protocol: PromptProtocol, game: str, setting: Setting, random_move: Sequence[str],
          rng: random.Random) -> Reply:
    """Half the time a random move in the right format, otherwise a malformed reply."""
    if random_move and rng.random() < 0.5:
        return protocol.format_answer(list(random_move), game, setting, "A guess.")
    return malformed(family_of(setting, game), game, setting, rng)
