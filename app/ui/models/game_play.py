"""A person playing a browser game in the game pane, without Qt.

The pane (``playbench.app.ui.game_pane``) hands every key press, key release and click here;
:class:`GameInputs` turns them into the same canonical actions a model sends, through the task
kind's own person-input table (``TaskKind.person_input``, for browser games
``playbench.games.browser_games.inputs.PersonInput``): under semantic controls ``ArrowLeft`` is
``move_left``; under computer-use it is ``press_key ArrowLeft``. The episode runs each action
for the duration the game binds to it, the same clock as a model's
(docs/reference/browser-games.md).

A held key is ONE action: the press makes it, the keyboard's auto-repeat while the key stays
down makes nothing, the release ends the hold (the pane shows how long it was; the action
still runs for its bound duration). Each action counts against the task's budget (GameWorld's
100) exactly as a model's does, invalid ones included.

:func:`game_figures` reads what the HUD shows - actions left, score, best, progress, target and
whether the game is paused between actions (same clock) or runs on (real time) - from the
session's budget and the observation's ``info["hud"]``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from playbench.app.ui.models.outcome import BLIND_END, STUDY_PAUSED, end_head
from playbench.app.ui.models.web_session import WebInput
from playbench.app.ui.models.wording import count


class PersonTable(Protocol):
    """What a kind's person-input object offers the pane (``TaskKind.person_input``)."""

    def key(self, name: str, state: Any = None) -> Any:
        """A gesture (``.text``, ``.raw``) for one key, or None when it is no action."""

    def press(self, target: Any, state: Any = None) -> Any:
        """A gesture for a click at ``(x, y)`` in page pixels, or None."""

    def controls_help(self) -> str:
        """The game's keys and clicks in words, named from its catalog entry."""


@dataclass(frozen=True)
class Refusal:
    """An input that is no action of this game (shown to the person, costs nothing)."""

    text: str


REPEAT_GAP = 0.02
"""Seconds: a release and a press of the same key closer than this (by the window system's
event times) are the keyboard's auto-repeat, sent as a release-press pair where the window
system cannot flag repeats (Xvfb, some X servers); a person's own release and press of one key
are always further apart."""


class GameInputs:
    """A person's keys and clicks as canonical actions (see the module docstring)."""

    def __init__(self, table: PersonTable, interface: str = "semantic") -> None:
        self.table = table
        self.interface = interface
        self.held: dict[str, float] = {}
        """Keys down now, with the time each went down (seconds, the caller's clock)."""
        self.last_hold_ms: float | None = None
        self._released: dict[str, tuple[float, float]] = {}
        """Each key's last release: (release time, when that hold began)."""

    def key_down(self, name: str, now: float | None, auto_repeat: bool = False
                 ) -> WebInput | Refusal | None:
        """A key went down at ``now`` (the window system's event time in seconds, or None
        when the event carries none). The action it makes, a refusal to show, or None: the
        keyboard's auto-repeat of a key held down, flagged as such or seen as a release and a
        press at the same moment, is still the one action of that hold."""
        if auto_repeat:
            return None
        last = self._released.pop(name, None)
        if now is not None and last is not None and now - last[0] < REPEAT_GAP:
            self.held[name] = last[1]
            return None
        # (a press of a key thought held is a new press: its release was lost elsewhere)
        self.held[name] = now if now is not None else 0.0
        gesture = self.table.key(name)
        if gesture is None or not getattr(gesture, "text", None):
            return Refusal(f"{name} is not a control of this game (nothing was sent; it costs "
                           "no action)")
        info = {"input": "human", "device": "key", "key": name, "interface": self.interface}
        return WebInput("move", gesture.text, gesture.raw, info)

    def key_up(self, name: str, now: float | None) -> float | None:
        """A key came up: how long it has been held (ms; None when it was not down here or
        the events carry no time)."""
        down = self.held.pop(name, None)
        if down is None or now is None:
            return None
        self._released[name] = (now, down)
        self.last_hold_ms = max(0.0, (now - down) * 1000)
        return self.last_hold_ms

    def release_all(self) -> None:
        """Forget held keys (the pane lost the keyboard: their releases will not come)."""
        self.held.clear()
        self._released.clear()

    def click(self, x: float, y: float, button: str = "left") -> WebInput | Refusal:
        """A click at page pixel (x, y): the action, or a refusal (a click no control of a
        semantic game is bound to)."""
        target = (round(x), round(y)) if button == "left" else (round(x), round(y), button)
        gesture = self.table.press(target)
        if gesture is None or not getattr(gesture, "text", None):
            return Refusal(f"a click at ({x:.0f}, {y:.0f}) is no control of this game "
                           "(nothing was sent)")
        return WebInput("move", gesture.text, gesture.raw,
                        {"input": "human", "device": "mouse", "interface": self.interface})


@dataclass(frozen=True)
class GameFigures:
    """The game HUD's figures, as text."""

    actions_left: str
    score: str
    best: str
    progress: str
    target: str
    clock: str
    """``Same clock: paused between actions`` or ``Real time: the game runs on``."""
    progress_value: float
    reached: bool


def _fmt(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def game_figures(hud: Mapping[str, Any], actions_left: int | None,
                 limit: int | None) -> GameFigures:
    """The HUD's figures from the environment's ``hud`` facts and the budget."""
    progress = float(hud.get("progress") or 0.0)
    left = "no limit" if actions_left is None else (
        f"{actions_left} of {limit}" if limit is not None else str(actions_left))
    clock = ("" if "realtime" not in hud  # not known before the game's first state
             else "Real time: the game runs on between your actions" if hud["realtime"]
             else "Same clock: the game is paused between your actions")
    return GameFigures(left, _fmt(hud.get("score")), _fmt(hud.get("best")),
                       f"{round(100 * progress)}%", _fmt(hud.get("target")), clock, progress,
                       bool(hud.get("success")))


def game_end_text(result: Any, *, blind: bool = False, study: bool = False) -> str:
    """The game pane's banner once an episode ended: why, after how many actions, and the
    progress and success the task's evaluator gave (neither in a blind study)."""
    if result.status == "interrupted":
        return STUDY_PAUSED if study else \
            "Interrupted - the actions so far are saved (a game cannot be resumed)."
    if result.status == "error":
        return f"The game stopped with an error ({result.end_reason}); its actions are kept."
    if blind:
        return BLIND_END
    n = len(result.steps)
    scores = result.scores
    progress = scores.get("progress")
    text = f"{end_head(result.end_reason)} after {count(n, 'action')}."
    if progress is not None:
        text += f" Progress {round(100 * float(progress))}%"
        text += " - target reached." if scores.get("solved") else "."
    return text
