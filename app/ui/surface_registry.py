"""The installed play surfaces, found through the ``playbench.surfaces`` entry-point group.

PlayBench's own surfaces are registered there by its own ``pyproject.toml``, exactly as a
plugin registers one, so the window has no list of them.
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Sequence

from playbench.app.ui.surface import Surface
from playbench.games.kind import KindError, Registry, UnknownKind, default_registry
from playbench.games.plugins import EntryPointRegistry

ENTRY_POINT_GROUP = "playbench.surfaces"


class UnknownSurface(KeyError):
    """No installed surface has this name."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown surface"


class SurfaceRegistry(EntryPointRegistry[Surface]):
    """Surfaces by name, loaded from their entry points on first use (or given, in tests)."""

    group = ENTRY_POINT_GROUP

    def __init__(self, entry_points: Sequence[importlib.metadata.EntryPoint] | None = None,
                 surfaces: Sequence[Surface] = (), kinds: Registry | None = None) -> None:
        super().__init__(entry_points, surfaces)
        self.kinds = kinds if kinds is not None else default_registry()

    def accepts(self, plugin: object, name: str) -> bool:
        return isinstance(plugin, Surface) and plugin.name == name

    def unknown(self, name: str) -> Exception:
        return UnknownSurface(f"no play surface named {name!r} is installed "
                              f"(installed: {', '.join(self.names()) or 'none'})")

    def refused(self, name: str, point: importlib.metadata.EntryPoint,
                err: Exception | None) -> Exception:
        # a broken plugin costs its own surface, not the window
        if err is not None:
            return UnknownSurface(f"play surface {name!r} ({point.value}) failed to load: "
                                  f"{err}")
        return UnknownSurface(f"the entry point {point.value!r} for surface {name!r} is not "
                              "a surface of that name (see app/ui/surface.py)")

    def for_game(self, game: str) -> Surface:
        """The surface a person plays ``game``'s kind on (its ``view``)."""
        try:
            view = self.kinds.get(game).view
        except (UnknownKind, KindError) as err:
            raise UnknownSurface(f"{game!r} cannot be played here: {err}") from err
        return self.get(view)


__all__ = ["ENTRY_POINT_GROUP", "SurfaceRegistry", "UnknownSurface"]
