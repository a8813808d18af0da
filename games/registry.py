"""Board games among the registered task kinds (``playbench.games.kind``): a thin layer for callers
that want a board game's :class:`~playbench.games.base.GameSpec` by name.

The kinds themselves come from the ``playbench.tasks`` entry points; a board kind is one whose
view is ``"board"`` and that carries a ``spec`` (:class:`playbench.games.board_kind.BoardKind`).
"""

from __future__ import annotations

from playbench.games.base import GameSpec
from playbench.games.kind import Registry, UnknownKind, board_spec, default_registry


class UnknownGame(UnknownKind):
    """No board game of that name; the message lists the ones there are."""


def _kinds(registry: Registry | None) -> Registry:
    return registry if registry is not None else default_registry()


def available(registry: Registry | None = None) -> list[str]:
    """Board games (kinds built from a GameSpec: levels in packs, whatever surface a person
    plays them on), in listing order."""
    return [k.name for k in _kinds(registry).listing() if board_spec(k) is not None]


def get(name: str, registry: Registry | None = None) -> GameSpec:
    """The spec of a board game; an unknown name lists the valid ones."""
    kinds = _kinds(registry)
    spec = board_spec(kinds.get(name)) if name in kinds else None
    if spec is None:
        raise UnknownGame(f"unknown game {name!r} (valid: {', '.join(available(kinds))})")
    return spec
