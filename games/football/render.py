"""Pictures of football states: GRF's own rendered frame (through the engine) for play, and a
small top-down sketch of a scenario for the Library, drawn without the engine."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from playbench.games.football.game import FootballRules, MatchState
from playbench.games.football.scenarios import Y_LIMIT, Scenario

GRASS = (46, 125, 50)
LINE = (235, 235, 235)
OURS = (250, 215, 40)
THEIRS = (60, 110, 230)
BALL = (255, 255, 255)
FRAME_WIDTH = 640
"""The width of play frames unless the options name one (height 9/16 of it)."""


class FootballRenderer:
    """Frames from GRF: each frame is the engine's picture of the state (replayed to it when
    the engine is elsewhere), at the options' ``width`` when they name one (a new width
    restarts the engine), else at the engine's (the env sets it before the engine starts)."""

    def __init__(self, rules: FootballRules, options: Mapping[str, Any] | None = None) -> None:
        self.rules = rules
        width = int((options or {}).get("width", 0) or 0)
        engine = rules.engine
        if width and width != engine.width:
            engine.close()
            engine.width = width
            rules.forget()

    def render(self, state: MatchState) -> np.ndarray:
        self.rules.reach(state)
        return self.rules.engine.frame()

    def locate(self, state: MatchState, x: float, y: float) -> None:
        """Nothing on the pitch is a click target: people play with the keyboard."""
        return None


def sketch(s: Scenario, width: int = 160) -> np.ndarray:
    """A top-down sketch of the scenario: pitch, our players yellow, opponents blue, ball
    white (RGB uint8, ``width`` x ``0.42 * width``)."""
    height = max(8, int(round(width * Y_LIMIT)))
    img = np.empty((height, width, 3), dtype=np.uint8)
    img[:] = GRASS
    img[0, :] = img[-1, :] = img[:, 0] = img[:, -1] = LINE
    img[:, width // 2] = LINE

    def at(x: float, y: float) -> tuple[int, int]:
        col = int(round((x + 1) / 2 * (width - 1)))
        row = int(round((y + Y_LIMIT) / (2 * Y_LIMIT) * (height - 1)))
        return row, col

    r = max(1, width // 80)
    for p in s.players:
        row, col = at(p.x, p.y)
        img[max(0, row - r):row + r + 1, max(0, col - r):col + r + 1] = (
            OURS if p.side == "L" else THEIRS)
    row, col = at(*s.ball)
    img[max(0, row - r):row + r + 1, max(0, col - r):col + r + 1] = BALL
    return img
