"""A person's keys and clicks as the same canonical actions a model sends.

GameWorld limited people to 100 primitive actions (key presses or clicks) as it limits models
to 100 commands (docs/reference/browser-games.md). Here a key press - however long it is held -
is one action, executed for the duration the game's table binds to it (same clock as a model);
a click is one action. Under semantic controls a key becomes the registered control bound to it
(``ArrowLeft`` -> ``move_left``) and a click on a grid game the nearest bound cell's control;
under computer-use it becomes ``press_key KEY`` / ``click X Y``, and a key outside the game's
allowed keys still becomes an action, which the environment records as invalid with its
reason. Qt-free: the pane passes key names (``Left``, ``Space``, ``A``) and page points.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from playbench.games.browser_games.controls import (
    COMPUTER_USE,
    Controls,
    key_allowed,
    key_name,
    semantic_text,
)
from playbench.games.kind import Gesture

CELL_RADIUS = 40
"""Pixels: how far from a bound cell's centre a click still names that cell."""

PANE_KEYS = {"Return": "Enter", "Up": "ArrowUp", "Down": "ArrowDown", "Left": "ArrowLeft",
             "Right": "ArrowRight", "Esc": "Escape"}
"""Key names of the desktop view (``playbench.app.ui.keys``) that differ from the browser's."""


class PersonInput:
    """Turns a person's input into gestures for one task and interface."""

    selected: Any = None
    uses_digits = False

    def __init__(self, controls: Controls) -> None:
        self.controls = controls
        role = controls.role
        self._by_key: dict[tuple[str, ...], str] = {}
        for c in role.semantic:
            if c.binding.action in ("press_key", "press_keys") and c.binding.keys:
                combo = tuple(key_name(k) for k in c.binding.keys)
                self._by_key.setdefault(combo, c.id)

    @property
    def interface(self) -> str:
        return self.controls.interface

    @staticmethod
    def browser_key(name: str) -> str:
        """A desktop key name as a browser key name (``Left`` -> ``ArrowLeft``; a letter is
        lower case, as the game sees an unshifted key)."""
        mapped = PANE_KEYS.get(name, name)
        if len(mapped) == 1:
            return mapped.lower()
        return key_name(mapped)

    def key(self, name: str, state: Any = None) -> Gesture | None:
        """The action for one key press (None: not an action under semantic controls)."""
        key = self.browser_key(name)
        raw = f"key:{name}"
        if self.interface == COMPUTER_USE:
            return Gesture(f"press_key {key}", raw)
        control = self._by_key.get((key,))
        if control is None and len(key) == 1:
            control = next((c for combo, c in self._by_key.items()
                            if len(combo) == 1 and combo[0].lower() == key), None)
        return Gesture(control, raw) if control is not None else None

    def keys(self, names: list[str], state: Any = None) -> Gesture | None:
        """A key combination held together (``ArrowUp`` + ``ArrowRight``) as one action."""
        keys = tuple(dict.fromkeys(self.browser_key(n) for n in names))
        raw = "key:" + "+".join(names)
        if len(keys) == 1:
            return self.key(names[0], state)
        if self.interface == COMPUTER_USE:
            return Gesture(f"press_keys {'+'.join(keys)}", raw)
        found = next((c for combo, c in self._by_key.items() if set(combo) == set(keys)), None)
        return Gesture(found, raw) if found is not None else None

    def press(self, target: Any, state: Any = None) -> Gesture | None:
        """A click at ``target`` = ``(x, y)`` or ``(x, y, "right")`` in page pixels."""
        if not isinstance(target, (tuple, list)) or len(target) < 2:
            return None
        x, y = int(target[0]), int(target[1])
        button = str(target[2]) if len(target) > 2 else "left"
        raw = f"click:{x},{y}" + (f",{button}" if button != "left" else "")
        if self.interface == COMPUTER_USE:
            verb = "right_click" if button == "right" else "click"
            return Gesture(f"{verb} {x} {y}", raw)
        return self._semantic_click(x, y, button, raw)

    def _semantic_click(self, x: int, y: int, button: str, raw: str) -> Gesture | None:
        best: tuple[float, str, str] | None = None
        for c in self.controls.role.semantic:
            b = c.binding
            if b.action not in ("click", "double_click", "right_click"):
                continue
            if (b.button == "right") != (button == "right"):
                continue
            spots: Mapping[str, tuple[int, int]] = (
                b.cells if b.cell_param else ({"": b.point} if b.point else {}))
            for cell, (cx, cy) in spots.items():
                d = ((cx - x) ** 2 + (cy - y) ** 2) ** 0.5
                if d <= CELL_RADIUS and (best is None or d < best[0]):
                    args = {b.cell_param: cell} if b.cell_param else {}
                    best = (d, semantic_text(c.id, args), c.id)
        return Gesture(best[1], raw) if best is not None else None

    def release(self, target: Any, state: Any = None) -> Gesture | None:
        return None

    def digit(self, d: int, state: Any = None) -> Gesture | None:
        return self.key(str(d), state)

    def clear(self) -> None:
        self.selected = None

    def controls_help(self) -> str:
        """The game's keys (and clicks) as a person reads them, from its catalog entry: each
        key-bound semantic control with its description ("ArrowUp: Slide all tiles up."), or
        under computer-use controls the allowed keys. A help line saying only "the game's
        keys" left a person guessing which they were."""
        role = self.controls.role
        if self.interface == COMPUTER_USE:
            cu = role.computer_use
            keys = ", ".join(key_name(k) for k in cu.allowed_keys) or "none"
            clicks = "clicks on the page are actions too" if cu.allow_clicks else \
                "clicks are not used"
            return f"Keys: {keys}; {clicks}."
        lines = []
        for c in role.semantic:
            b = c.binding
            if b.action in ("press_key", "press_keys") and b.keys:
                lines.append(f"{' + '.join(key_name(k) for k in b.keys)}: {c.description}")
            elif b.action in ("click", "double_click", "right_click"):
                what = "right-click" if b.button == "right" else b.action.replace("_", " ")
                lines.append(f"{what} {'a cell' if b.cell_param else 'its spot'}: "
                             f"{c.description}")
        return "Controls: " + (" · ".join(lines) if lines else "none for a person")

    def allowed(self, name: str) -> bool:
        """Whether a key is one of the game's allowed keys (for the HUD's key legend)."""
        return key_allowed(self.browser_key(name), self.controls.role.computer_use.allowed_keys)


def hud_lines(hud: Mapping[str, Any], actions_left: int | None) -> list[str]:
    """The person's heads-up display as short lines: actions left, score, progress, target."""
    def fmt(v: Any) -> str:
        return "-" if v is None else (f"{v:g}" if isinstance(v, float) else str(v))

    progress = hud.get("progress")
    return [f"Actions left: {fmt(actions_left)}",
            f"Score: {fmt(hud.get('score'))} (best {fmt(hud.get('best'))})",
            f"Progress: {0 if progress is None else round(100 * float(progress))}%",
            f"Target: {fmt(hud.get('target'))}",
            "Real time" if hud.get("realtime") else "Paused between actions"]
