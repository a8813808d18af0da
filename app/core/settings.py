"""Play settings: what a player is shown and how it answers, the same for humans and models.

The names follow the papers (puzzles.md): ING-VP's six settings, MageBench's global and online,
plus our tool-calling settings. The prompt protocols (app.agents) and the human play view both
read these flags, which is what keeps the two conditions matched.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.core.budget import Budget


@dataclass(frozen=True)
class Setting:
    name: str
    observation: str = "image"      # image | text | both
    one_step: bool = False          # the whole plan from the first observation
    history: bool = False           # earlier outputs are shown (and undo allowed if the game does)
    undo: bool = False
    games: tuple[str, ...] | None = None  # None = every board game
    description: str = ""

    def default_budget(self, game: str) -> Budget:
        """The paper's default budget for this setting."""
        if self.name.startswith("magebench:"):
            # MageBench: 50 steps; global = one answer holding the whole list.
            return Budget(max_actions=50, max_decisions=1 if self.one_step else None)
        if self.one_step:
            # ING-VP one-step: one model call, the whole list executed.
            return Budget(max_actions=None, max_decisions=1)
        # ING-VP multi-step: 50 model calls per level, each one action.
        return Budget(max_actions=50)


# Undo is part of ING-VP's history settings for these games only (puzzles.md).
UNDO_GAMES = ("sokoban", "queens", "sudoku")

_INGVP = []
for _obs in ("image", "text"):
    _INGVP += [
        Setting(f"ingvp:{_obs}-multi", _obs,
                description=f"ING-VP: {_obs} each step, one action per call, no history"),
        Setting(f"ingvp:{_obs}-multi-history", _obs, history=True, undo=True,
                description=f"ING-VP: {_obs} each step, earlier outputs shown, undo where allowed"),
        Setting(f"ingvp:{_obs}-one", _obs, one_step=True,
                description=f"ING-VP: first {_obs} only, the whole action list in one answer"),
    ]

SETTINGS: dict[str, Setting] = {s.name: s for s in [
    Setting("default", "both", description="Everything shown; one action per decision"),
    *_INGVP,
    Setting("magebench:global", "image", one_step=True, games=("sokoban",),
            description="MageBench Global: first frame only, the whole action list"),
    Setting("magebench:online", "image", history=True, games=("sokoban",),
            description="MageBench Online: one action per call, recent actions and frames"),
    Setting("tools:image", "image", description="Actions offered as function tools; image"),
    Setting("tools:text", "text", description="Actions offered as function tools; text"),
]}


class UnknownSetting(KeyError):
    def __str__(self) -> str:
        return self.args[0]


def get_setting(name: str, game: str | None = None) -> Setting:
    """The setting called ``name``, checked against the game; errors list the valid names."""
    s = SETTINGS.get(name)
    if s is None or (game and s.games is not None and game not in s.games):
        valid = [n for n, v in SETTINGS.items() if not game or v.games is None or game in v.games]
        raise UnknownSetting(f"unknown setting {name!r}" + (f" for {game}" if game else "")
                             + f" (valid: {', '.join(valid)})")
    return s


def undo_allowed(setting: Setting, game: str) -> bool:
    return setting.undo and game in UNDO_GAMES
