"""The installed play surfaces, found through the ``playbench.surfaces`` entry-point group.

PlayBench's own surfaces are registered there by its own ``pyproject.toml``, exactly as a
plugin registers one, so the window has no list of them.
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Sequence
from functools import cached_property

from playbench.app.ui.surface import Surface
from playbench.games.kind import KindError, Registry, UnknownKind, default_registry

ENTRY_POINT_GROUP = "playbench.surfaces"


class UnknownSurface(KeyError):
    """No installed surface has this name."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown surface"


class SurfaceRegistry:
    """Surfaces by name, loaded from their entry points on first use (or given, in tests)."""

    def __init__(self, entry_points: Sequence[importlib.metadata.EntryPoint] | None = None,
                 surfaces: Sequence[Surface] = (), kinds: Registry | None = None) -> None:
        self._entry_points = entry_points
        self._given = {s.name: s for s in surfaces}
        self._loaded: dict[str, Surface] = {}
        self.kinds = kinds if kinds is not None else default_registry()

    @cached_property
    def _points(self) -> dict[str, importlib.metadata.EntryPoint]:
        points = self._entry_points
        if points is None:
            points = list(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP))
        return {ep.name: ep for ep in points}

    def names(self) -> list[str]:
        return list(dict.fromkeys([*self._given, *self._points]))

    def get(self, name: str) -> Surface:
        found = self._given.get(name) or self._loaded.get(name)
        if found is not None:
            return found
        point = self._points.get(name)
        if point is None:
            raise UnknownSurface(f"no play surface named {name!r} is installed "
                                 f"(installed: {', '.join(self.names()) or 'none'})")
        try:
            loaded = point.load()
        except Exception as err:  # a broken plugin costs its own surface, not the window
            raise UnknownSurface(f"play surface {name!r} ({point.value}) failed to load: "
                                 f"{err}") from err
        if not isinstance(loaded, Surface) or loaded.name != name:
            raise UnknownSurface(f"the entry point {point.value!r} for surface {name!r} is "
                                 "not a surface of that name (see app/ui/surface.py)")
        self._loaded[name] = loaded
        return loaded

    def for_game(self, game: str) -> Surface:
        """The surface a person plays ``game``'s kind on (its ``view``)."""
        try:
            view = self.kinds.get(game).view
        except (UnknownKind, KindError) as err:
            raise UnknownSurface(f"{game!r} cannot be played here: {err}") from err
        return self.get(view)


__all__ = ["ENTRY_POINT_GROUP", "SurfaceRegistry", "UnknownSurface"]
