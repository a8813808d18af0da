"""Gymnasium environments for the six board games.

``import playbench.games.gym`` registers ``playbench/Sokoban-v0``, ``playbench/Maze-v0``,
``playbench/Sudoku-v0``, ``playbench/Queens-v0``, ``playbench/Hanoi-v0`` and
``playbench/NPuzzle-v0``::

    import gymnasium
    import playbench.games.gym  # noqa: F401  (registers the environments)

    env = gymnasium.make("playbench/Maze-v0", render_mode="rgb_array")
    frame, info = env.reset(seed=3)              # a level of the ``ingvp`` pack, chosen by seed
    frame, reward, terminated, truncated, info = env.step(2)   # "U"
    print(info["text"])                          # ING-VP's text encoding of the board

Design:
- Actions are a fixed ``Discrete`` space per game (the kind's ``gym_actions``, see
  :func:`actions`): Sokoban and Maze 4
  directions, Hanoi the 12 ordered rod pairs, the 15-puzzle its 15 tiles, 8-queens the 64
  squares row-major, Sudoku 729 = 81 cells x 9 digits. An action the rules refuse leaves the
  board unchanged and still counts as a step, as in ING-VP's code (puzzles.md);
  ``info["action_mask"]`` marks the legal ones.
- The observation is the rendered frame, ``Box(0, 255, (H, W, 3), uint8)``. Frame sizes differ
  between levels of one pack (Sokoban rooms), so H x W is the largest start frame of the pack
  and smaller frames are centred on a dark border; a frame larger than that (a level passed in
  ``options``) is scaled down to fit.
- Rewards: the rules' own where the kind says so (``own_reward``): Sokoban's, MageBench's
  scale (-0.5 a step, +5 box on target, -5 off, +50 solved); the other games 1.0 on the step
  that solves the level, else 0.
- An episode ends (``terminated``) when the level is solved and is ``truncated`` after
  ``max_steps`` actions (default 50, the budget of both ING-VP and MageBench).
- The pack played is ``pack`` if given, else the kind's ``ingvp`` pack where it has one, else
  its first bundled source (``kind.sources()``), so a kind from another package works too.
- ``reset(seed=..., options={"level": Level | index, "pack": name})``: ``pack`` switches to
  another bundled pack (or level file) for this and later resets; ``level`` plays that level
  (an ``int`` is a 0-based index into the pack); otherwise the level is drawn from the pack with
  the environment's seeded generator, so the same seed gives the same level.

This module imports only ``games`` and third-party packages (never ``app`` or ``db``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from PIL import Image

from playbench.games import registry
from playbench.games.base import BoardEnv, Level
from playbench.games.kind import Registry, board_spec, default_registry


def gym_kinds(kinds: Registry | None = None) -> list[Any]:
    """The board kinds that are Gymnasium environments (they give ``gym_actions``)."""
    kinds = kinds if kinds is not None else default_registry()
    return [k for k in kinds.listing() if k.view == "board" and k.gym_actions
            and board_spec(k) is not None]


def actions(game: str) -> tuple[str, ...]:
    """The game's Discrete action space: action ``i`` is the move named ``actions(game)[i]``
    (the kind's ``gym_actions``)."""
    found = default_registry().get(game).gym_actions
    if not found:
        raise ValueError(f"{game} is not a Gymnasium environment (its kind gives no actions)")
    return found

DEFAULT_MAX_STEPS = 50
DEFAULT_PACK = "ingvp"
"""The pack played when none is named and the kind bundles it (ING-VP's levels)."""
BORDER = (30, 32, 38)


class PuzzleEnv(gymnasium.Env):
    """One PlayBench board game as a Gymnasium environment (see the module docstring)."""

    metadata = {"render_modes": ["rgb_array"], "render_fps": 4}

    def __init__(self, game: str, pack: str | None = None, levels: Sequence[Level] | None = None,
                 render_mode: str | None = None, rules: Mapping[str, str] | None = None,
                 render_options: Mapping[str, Any] | None = None,
                 max_steps: int = DEFAULT_MAX_STEPS) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'rgb_array', got {render_mode!r}")
        if max_steps < 2:
            raise ValueError(f"max_steps must be at least 2, got {max_steps}")
        self.game_spec = registry.get(game)
        self.kind = default_registry().get(game)
        self.game = game
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.board: BoardEnv[Any, Any] = BoardEnv(self.game_spec, rules, render_options)
        if levels is not None:
            self.pack = "<given>"
            self.levels: tuple[Level, ...] = tuple(levels)
        else:
            self.pack = pack if pack is not None else self._default_pack()
            self.levels = self._load(self.pack)
        rules_obj = self.board.rules
        self.actions = actions(game)
        self.own_reward = self.kind.capabilities.own_reward
        self._moves = [rules_obj.parse_move(text) for text in self.actions]
        self._index = {rules_obj.format_move(m): i for i, m in enumerate(self._moves)}
        self.action_space = spaces.Discrete(len(self._moves))
        height, width = self._canvas_size(self.levels)
        self._canvas = (height, width)
        self.observation_space = spaces.Box(0, 255, (height, width, 3), dtype=np.uint8)
        self.level: Level | None = None
        self._steps = 0

    # --- set-up ---------------------------------------------------------------------------

    def _default_pack(self) -> str:
        """``ingvp`` where the kind bundles it (the papers' levels), else its first source."""
        names = [s.name for s in self.kind.sources()]
        if not names:
            raise ValueError(f"{self.game} bundles no levels: pass pack= (a level file) or "
                             f"levels=")
        return DEFAULT_PACK if DEFAULT_PACK in names else names[0]

    def _load(self, pack: str) -> tuple[Level, ...]:
        levels = tuple(self.kind.load(pack))
        if not levels:
            raise ValueError(f"{pack!r} holds no {self.game} levels")
        return levels

    def _canvas_size(self, levels: Sequence[Level]) -> tuple[int, int]:
        """The largest start frame of ``levels`` (every level of one pack fits unscaled)."""
        height = width = 0
        for lv in levels:
            self.board.reset(lv)
            frame = self.board.render()
            height, width = max(height, frame.shape[0]), max(width, frame.shape[1])
        return height, width

    # --- Gymnasium API --------------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        options = dict(options or {})
        if "pack" in options:
            self.pack = str(options["pack"])
            self.levels = self._load(self.pack)
        chosen = options.get("level")
        if isinstance(chosen, Level):
            level = chosen
        elif chosen is not None:
            index = int(chosen)
            if not 0 <= index < len(self.levels):
                raise IndexError(f"level index {index} is outside 0..{len(self.levels) - 1}")
            level = self.levels[index]
        else:
            level = self.levels[int(self.np_random.integers(len(self.levels)))]
        if level.game != self.game:
            raise ValueError(f"a {level.game} level cannot be played in the {self.game} env")
        self.level = level
        self.board.reset(level)
        self._steps = 0
        return self._frame(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self.level is None:
            raise RuntimeError("call reset() before step()")
        if not self.action_space.contains(action):
            raise ValueError(f"action {action!r} is not in {self.action_space}")
        move = self._moves[int(action)]
        was_solved = self.board.solved()
        outcome = self.board.step(move)
        self._steps += 1
        solved = self.board.solved()
        if self.own_reward:
            reward = float(outcome.reward)
        else:
            reward = 1.0 if solved and not was_solved else 0.0
        truncated = not solved and self._steps >= self.max_steps
        info = self._info()
        info.update(action=self.actions[int(action)], valid=outcome.valid,
                    changed=outcome.changed, reason=outcome.reason)
        return self._frame(), reward, solved, truncated, info

    def render(self) -> np.ndarray | None:
        if self.render_mode != "rgb_array" or self.level is None:
            return None
        return self._frame()

    def close(self) -> None:
        return None

    # --- helpers --------------------------------------------------------------------------

    def action_of(self, move_text: str) -> int:
        """The action index of a move written in any spelling the game accepts."""
        rules = self.board.rules
        return self._index[rules.format_move(rules.parse_move(move_text))]

    def _info(self) -> dict[str, Any]:
        assert self.level is not None
        mask = np.zeros(len(self._moves), dtype=np.int8)
        for text in self.board.legal_actions():
            index = self._index.get(text)
            if index is not None:
                mask[index] = 1
        return {"text": self.board.text(), "level": self.level.number,
                "title": self.level.title, "pack": self.pack, "steps": self._steps,
                "solved": self.board.solved(), "action_mask": mask}

    def _frame(self) -> np.ndarray:
        return fit(self.board.render(), self._canvas)


def fit(frame: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """``frame`` centred on a ``size`` canvas, scaled down first if it does not fit.
    Always a new, writable array."""
    height, width = size
    h, w = frame.shape[:2]
    if h > height or w > width:
        scale = min(height / h, width / w)
        h, w = max(1, int(h * scale)), max(1, int(w * scale))
        frame = np.asarray(Image.fromarray(frame).resize((w, h), Image.Resampling.LANCZOS))
    canvas = np.empty((height, width, 3), dtype=np.uint8)
    canvas[:] = BORDER
    top, left = (height - h) // 2, (width - w) // 2
    canvas[top:top + h, left:left + w] = frame
    return canvas


def env_id(game: str) -> str:
    """The Gymnasium id of a game's environment (``playbench/<Name>-v0``, the kind's
    ``gym_name``, else its name capitalised)."""
    kind = default_registry().get(game)
    name = kind.capabilities.gym_name or game.capitalize()
    return f"playbench/{name}-v0"


def register_all() -> None:
    """Register every board kind's environment (a no-op for ids already registered)."""
    for kind in gym_kinds():
        if env_id(kind.name) not in gymnasium.registry:
            gymnasium.register(id=env_id(kind.name), entry_point="playbench.games.gym:PuzzleEnv",
                               kwargs={"game": kind.name})


register_all()
