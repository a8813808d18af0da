"""Objects other packages register under an entry-point group, found by name.

Task kinds (``playbench.tasks``), play surfaces (``playbench.surfaces``) and kinds' commands
(``playbench.commands``) are all plugins of this one shape: an entry point names an object,
listing the names loads no plugin's code, and ``get`` loads one on first use and checks it is
what the group holds. A plugin that fails to import or is not what its group holds is refused
by name - it costs its own entry, never the program.
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Sequence
from functools import cached_property
from typing import Generic, TypeVar

T = TypeVar("T")

EntryPoint = importlib.metadata.EntryPoint


class EntryPointRegistry(Generic[T]):
    """The plugins of :attr:`group` by name (``entry_points`` or ``given`` replace the
    installed ones, in tests). Subclasses say what they hold (:meth:`accepts`) and how a
    missing or refused plugin is reported (:meth:`unknown`, :meth:`refused`)."""

    group: str = ""

    def __init__(self, entry_points: Sequence[EntryPoint] | None = None,
                 given: Sequence[T] = ()) -> None:
        self._entry_points = entry_points
        self._given: dict[str, T] = {self.name_of(g): g for g in given}
        self._loaded: dict[str, T] = {}

    @cached_property
    def _points(self) -> dict[str, EntryPoint]:
        points = self._entry_points
        if points is None:
            points = list(importlib.metadata.entry_points(group=self.group))
        return {ep.name: ep for ep in points}

    def names(self) -> list[str]:
        """The registered names in a stable order (given ones first, then as installed)."""
        return list(dict.fromkeys([*self._given, *self._points]))

    def where(self, name: str) -> str:
        """Where the plugin ``name`` comes from: its entry point's ``module:object``."""
        point = self._points.get(name)
        return point.value if point is not None else "given"

    def get(self, name: str) -> T:
        """The plugin named ``name``, loaded on first use."""
        found = self._given.get(name) or self._loaded.get(name)
        if found is not None:
            return found
        point = self._points.get(name)
        if point is None:
            raise self.unknown(name)
        try:
            loaded: T = point.load()
        except Exception as err:  # noqa: BLE001 - a broken plugin costs its own entry only
            raise self.refused(name, point, err) from err
        if not self.accepts(loaded, name):
            raise self.refused(name, point, None)
        self._loaded[name] = loaded
        return loaded

    # -- what a subclass says -----------------------------------------------------------------

    def name_of(self, plugin: T) -> str:
        """The name a given plugin is registered under."""
        name: str = getattr(plugin, "name")  # noqa: B009 - every plugin kind has one
        return name

    def accepts(self, plugin: object, name: str) -> bool:
        """Whether ``plugin``, loaded for ``name``, is what this group holds."""
        raise NotImplementedError

    def unknown(self, name: str) -> Exception:
        """The error for a name nothing is registered under."""
        raise NotImplementedError

    def refused(self, name: str, point: EntryPoint, err: Exception | None) -> Exception:
        """The error for a plugin that failed to load (``err``) or is not what this group
        holds (``err`` None)."""
        raise NotImplementedError


__all__ = ["EntryPoint", "EntryPointRegistry"]
