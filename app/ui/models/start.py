"""What the library hands to the play and demo views: one level, who plays it, how.

A :class:`StartRequest` carries the pack's levels too, so that a finished episode can offer
the next level with the same player, setting, budget and rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from playbench.app.core import settings as play_settings
from playbench.app.core.budget import Budget
from playbench.app.core.settings import Setting, get_setting
from playbench.app.core.task import Task
from playbench.app.ui.models.catalog import PackRef
from playbench.app.ui.models.wording import count
from playbench.games.base import Level, level_rule_options
from playbench.games.kind import default_registry

SCRIPTED_PLAYERS = ("solver", "random", "random-legal")
"""Scripted players the demo view can show besides model profiles."""


@dataclass(frozen=True)
class StartRequest:
    pack: PackRef
    levels: tuple[Level, ...]
    index: int
    player: str
    """``human``, ``model:NAME`` or a scripted player (``solver``, ``random``...)."""
    setting: str
    budget: Budget
    rules: Mapping[str, str] = field(default_factory=dict)
    seed: int = 0

    @property
    def game(self) -> str:
        return self.pack.game

    @property
    def level(self) -> Level:
        return self.levels[self.index]

    @property
    def is_human(self) -> bool:
        return self.player == "human"

    def task(self) -> Task:
        """The chosen level as a task: the rule options in ``rules`` (chosen in Settings) win;
        the others take the level's own stored choice (an imported ING-VP Hanoi level's disk
        order), else their default (:func:`playbench.games.base.level_rule_options`)."""
        kinds = default_registry()
        options = (level_rule_options(kinds.get(self.game).rule_options, self.level, self.rules)
                   if self.game in kinds else dict(self.rules))
        return Task(self.game, self.level, options, self.pack.source)

    def the_setting(self) -> Setting:
        return get_setting(self.setting, self.game)

    def next(self) -> StartRequest | None:
        """The same start for the pack's next level, or None after the last."""
        if self.index + 1 >= len(self.levels):
            return None
        return replace(self, index=self.index + 1)


def settings_for(game: str) -> list[Setting]:
    """The play settings a game can be played in, in its kind's order."""
    return list(play_settings.settings_for(game).values())


def budget_for(setting: Setting, game: str, max_actions: int | None,
               seconds: float | None = None) -> Budget:
    """The setting's default budget with the person's choices: ``max_actions`` None keeps the
    default, 0 means no action limit; ``seconds`` 0 or None means no time limit."""
    budget = get_setting(setting.name, game).budget
    changes: dict[str, object] = {}
    if max_actions is not None:
        changes["max_actions"] = max_actions or None
    if seconds:
        changes["seconds"] = float(seconds)
    if changes.get("max_actions", budget.max_actions) is None and budget.max_decisions is None:
        changes["max_actions"] = 200  # a multi-step episode must end somewhere
    return budget.merged(**changes) if changes else budget


def _limits(max_actions: int, seconds: int) -> str:
    actions = count(max_actions, "action") if max_actions else \
        "no action limit"
    return f"{actions}, " + (f"{seconds} s" if seconds else "no time limit")


def start_summary(player_label: str, human: bool, max_actions: int, seconds: int,
                  default_actions: int, default_seconds: int) -> tuple[str, bool]:
    """What pressing Play starts, in one line, and whether it is worth a second look: someone
    other than the person plays, or the budget is not the setting's own (the panel keeps the
    last choices from level to level, so a changed budget or a model player can otherwise be
    started by accident)."""
    who = "You play" if human else f"{player_label.split(': ', 1)[-1]} plays"
    text = f"{who} with {_limits(max_actions, seconds)}."
    unusual = not human
    if (max_actions, seconds) != (default_actions, default_seconds):
        text += f" The setting's own budget is {_limits(default_actions, default_seconds)}."
        unusual = True
    return text, unusual


def heading(game_title: str, source: str, level: Level) -> tuple[str, str]:
    """A level's title and the line under it (game, pack, number), without repeating the
    pack name that many bundled titles already start with."""
    title = level.title or f"Level {level.number}"
    name = source.rsplit("/", 1)[-1]
    return title, f"{game_title} · {name} · level {level.number}"
