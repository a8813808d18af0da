"""Play settings: what a player is shown and how it answers, the same for humans and models.

The names follow the papers (puzzles.md, web.md): ING-VP's six settings, MageBench's global and
online, our tool-calling settings, and VisualWebArena's two page views for web tasks. The prompt
protocols (app.agents) and the human play view both read these flags, which is what keeps the
two conditions matched.

Board settings (``games`` None) apply to every board game; the web settings apply to web tasks
only; ``default`` applies to everything (for web tasks it shows what ``vwa:som`` shows).
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

    def applies_to(self, game: str | None) -> bool:
        """Whether the setting can be played with ``game`` (None: any game)."""
        if game is None:
            return True
        if self.games is not None:
            return game in self.games
        return game != WEB or self.name == DEFAULT

    def default_budget(self, game: str) -> Budget:
        """The paper's default budget for this setting."""
        if game == WEB:
            return web_budget()
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
WEB = "web"
DEFAULT = "default"


def web_budget() -> Budget:
    """VisualWebArena's defaults (web.md): 30 actions; stop after 3 unreadable replies in a row
    or 5 identical actions in a row. The same values as ``app.web.env.vwa_budget()``, written
    here so that listing settings does not load the browser code (a test keeps them equal)."""
    return Budget(max_actions=30, stop_after_unparseable=3, stop_after_identical=5)

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
    # VWA's Set-of-Marks agent sees the marked screenshot and the [id] [tag] [text] list; its
    # text-only agents see page text alone (web.md). Both answer with one VWA action per call.
    Setting("vwa:som", "both", games=(WEB,),
            description="VWA Set-of-Marks: marked screenshot + element list, one action per call"),
    Setting("vwa:text", "text", games=(WEB,),
            description="VWA text only: the element list without the screenshot, one action"),
]}


class UnknownSetting(KeyError):
    def __str__(self) -> str:
        return self.args[0]


def get_setting(name: str, game: str | None = None) -> Setting:
    """The setting called ``name``, checked against the game; errors list the valid names."""
    s = SETTINGS.get(name)
    if s is None or not s.applies_to(game or None):
        valid = [n for n, v in SETTINGS.items() if v.applies_to(game or None)]
        raise UnknownSetting(f"unknown setting {name!r}" + (f" for {game}" if game else "")
                             + f" (valid: {', '.join(valid)})")
    return s


def undo_allowed(setting: Setting, game: str) -> bool:
    return setting.undo and game in UNDO_GAMES
