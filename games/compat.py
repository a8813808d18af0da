"""Compatibility variants of settings: a published harness's observable behaviour, on request.

PlayBench's settings follow the papers' protocols. Where a published harness behaves otherwise
in ways that change scores, a variant reproduces it so that a user can put the two side by side:
the setting's name with ``+compat=<profile>`` (``ingvp:text-multi-history+compat=ingvp-code``).
:func:`playbench.app.core.settings.get_setting` builds the variant from the kind's own setting with
:func:`compat_setting`; the loop reads only the resulting :class:`playbench.games.types.Setting`
flags, so nothing here is special-cased in the loop.

``ingvp-code``: ING-VP's published code as we read it (facts and the reading are in
docs/fidelity.md, "ING-VP", and docs/reference/puzzles.md): the text settings re-send the
first board every step, the history settings show no earlier outputs (the code reads history
from a path it never writes), an undo step changes nothing, and a one-step plan keeps executing
after the goal - except in kinds whose published code stops there (a kind says so with
``compat_exceptions``, see :class:`playbench.games.board_kind.BoardKind`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from playbench.games.types import Setting

if TYPE_CHECKING:
    from playbench.games.kind import TaskKind

SUFFIX = "+compat="
"""What joins a setting's name and a profile's name."""


class UnknownCompat(ValueError):
    """A compatibility profile that does not exist or does not apply to the setting."""


@dataclass(frozen=True)
class CompatProfile:
    """One published harness's behaviour: the setting families it applies to (name prefixes)
    and the :class:`Setting` flags it sets."""

    name: str
    about: str
    families: tuple[str, ...]
    flags: Mapping[str, Any]


PROFILES: Mapping[str, CompatProfile] = {
    "ingvp-code": CompatProfile(
        "ingvp-code",
        "ING-VP's published code: first board text every step, empty history, undo changes "
        "nothing, one-step plans run past the goal",
        ("ingvp:",),
        {"first_text": True, "history_kept": False, "undo_restores": False,
         "stop_at_goal": False},
    ),
}


def split_name(name: str) -> tuple[str, str | None]:
    """``(base setting name, profile name or None)`` of a setting name."""
    base, sep, profile = name.partition(SUFFIX)
    return (base, profile) if sep else (name, None)


def compat_setting(setting: Setting, profile_name: str,
                   kind: TaskKind | None = None) -> Setting:
    """``setting`` as the published harness ``profile_name`` plays it. ``kind`` may declare
    ``capabilities.compat_exceptions`` (profile -> flags where that kind's published code
    differs from the profile's). Raises :class:`UnknownCompat` naming the valid choices."""
    profile = PROFILES.get(profile_name)
    if profile is None:
        raise UnknownCompat(f"unknown compatibility profile {profile_name!r} "
                            f"(valid: {', '.join(PROFILES)})")
    if not setting.name.startswith(profile.families):
        raise UnknownCompat(f"compat={profile_name} applies to the "
                            f"{', '.join(f[:-1] for f in profile.families)} settings, "
                            f"not {setting.name!r}")
    exceptions = kind.capabilities.compat_exceptions if kind is not None else {}
    flags = {**profile.flags, **exceptions.get(profile_name, {})}
    return dataclasses.replace(
        setting, name=f"{setting.name}{SUFFIX}{profile_name}", compat=profile_name,
        description=f"{setting.description} [{profile.about}]", **flags)
