"""The environment protocol the loop drives and the board adapter, re-exported from
:mod:`playbench.games.env` (where kinds can use them without importing the app), and
:func:`make_env`, which asks the task's kind for its environment."""

from __future__ import annotations

from playbench.games.base import MoveError
from playbench.games.env import AwaitsNext, BoardTaskEnv, Env
from playbench.games.kind import make_env

__all__ = ["AwaitsNext", "Env", "BoardTaskEnv", "make_env", "MoveError"]
