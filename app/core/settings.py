"""Play settings: what a player is shown and how it answers, the same for humans and models.

Every task kind owns its settings (``TaskKind.settings()``: ING-VP's six, MageBench's global
and online where a kind opts in, our tool-calling settings, VisualWebArena's two page views for
web tasks), each with the paper's default budget for that kind. This module only asks the
kinds: :func:`get_setting` checks a name against a kind, :func:`all_settings` is the union over
kinds (for listings that are not about one kind), :func:`undo_allowed` combines a setting's
undo flag with the kind's. The prompt protocols (playbench.app.agents) and the human play view both
read the same flags, which is what keeps the two conditions matched.
"""

from __future__ import annotations

from collections.abc import Mapping

from playbench.games.compat import UnknownCompat, compat_setting, split_name
from playbench.games.kind import Registry, default_registry
from playbench.games.types import Setting

__all__ = ["Setting", "UnknownSetting", "DEFAULT", "get_setting", "settings_for",
           "all_settings", "undo_allowed"]

DEFAULT = "default"


class UnknownSetting(KeyError):
    def __str__(self) -> str:
        return str(self.args[0])


def settings_for(game: str, registry: Registry | None = None) -> Mapping[str, Setting]:
    """The settings ``game``'s kind can be played in, with that kind's default budgets."""
    kinds = registry if registry is not None else default_registry()
    return kinds.get(game).settings()


def all_settings(registry: Registry | None = None) -> dict[str, Setting]:
    """Every setting some kind offers, in the kinds' order (the first kind's object for a name
    several kinds share: budgets differ per kind, so ask :func:`get_setting` with the game)."""
    kinds = registry if registry is not None else default_registry()
    out: dict[str, Setting] = {}
    for kind in kinds.listing():
        for name, s in kind.settings().items():
            out.setdefault(name, s)
    return out


def get_setting(name: str, game: str | None = None, registry: Registry | None = None) -> Setting:
    """The setting called ``name`` as ``game``'s kind defines it (any kind's without a game);
    errors list the valid names. ``NAME+compat=PROFILE`` is ``NAME`` as a published harness
    plays it (:mod:`playbench.games.compat`, e.g. ``ingvp:text-one+compat=ingvp-code``)."""
    known = settings_for(game, registry) if game else all_settings(registry)
    base, profile = split_name(name)
    s = known.get(base)
    if s is None:
        raise UnknownSetting(f"unknown setting {base!r}" + (f" for {game}" if game else "")
                             + f" (valid: {', '.join(known)})")
    if profile is None:
        return s
    kinds = registry if registry is not None else default_registry()
    kind = kinds.get(game) if game and game in kinds else None
    try:
        return compat_setting(s, profile, kind)
    except UnknownCompat as err:
        raise UnknownSetting(str(err)) from None


def undo_allowed(setting: Setting, game: str, registry: Registry | None = None) -> bool:
    """Whether undo is offered: the setting has it and the kind allows it (ING-VP: only some
    games have undo in the history settings, puzzles.md)."""
    if not setting.undo:
        return False
    kinds = registry if registry is not None else default_registry()
    return game in kinds and kinds.get(game).undo


def __getattr__(name: str) -> object:
    """``SETTINGS``: :func:`all_settings` under its old name, built on each use."""
    if name == "SETTINGS":
        return all_settings()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
