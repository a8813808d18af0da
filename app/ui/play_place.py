"""The Play place: one page of the window whatever the task's surface.

It holds one view per registered surface (app/ui/surfaces) and shows the one the task being
played needs; the window asks it for "the view ``game`` is played on" and never names a surface.
"""

from __future__ import annotations

from collections.abc import Callable

from playbench.app.ui.qt import QLabel, QStackedWidget, Qt, QWidget
from playbench.app.ui.surface import SurfaceContext, SurfaceView
from playbench.app.ui.surface_registry import SurfaceRegistry, UnknownSurface


class PlayPlace(QStackedWidget):
    """The registered surfaces' views, one shown at a time."""

    def __init__(self, ctx: SurfaceContext, surfaces: SurfaceRegistry,
                 wire: Callable[[SurfaceView], None], parent: QWidget | None = None, *,
                 make_views: bool = True) -> None:
        """``make_views`` False makes each view when it is first asked for (or by
        :meth:`make_views`): the app makes them once its window is up, since loading the
        surfaces' plugins and building their widgets is not needed for the first paint."""
        super().__init__(parent)
        self.ctx = ctx
        self.surfaces = surfaces
        self.empty = QLabel("Nothing is being played. Choose a level or task in the Library "
                            "and press Play.")
        self.empty.setObjectName("hint")
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.addWidget(self.empty)
        self._views: dict[str, SurfaceView] = {}
        self._tried: set[str] = set()
        self._hooks: list[Callable[[SurfaceView], object]] = [wire]
        if make_views:
            self.make_views()

    def make_views(self) -> None:
        """Make the view of every registered surface not made yet (a broken plugin is
        reported and costs its own surface only)."""
        for name in self.surfaces.names():
            self._make(name)

    def _make(self, name: str) -> SurfaceView | None:
        if name in self._views or name in self._tried:
            return self._views.get(name)
        self._tried.add(name)
        try:
            view = self.surfaces.get(name).make_view(self.ctx)
        except Exception as err:  # noqa: BLE001 - a broken plugin costs its own surface
            self.ctx.report(err)
            return None
        self._views[name] = view
        self.addWidget(view)
        for hook in self._hooks:
            hook(view)
        return view

    def on_view(self, hook: Callable[[SurfaceView], object]) -> None:
        """Call ``hook`` with every view: those made already, and each one made later."""
        self._hooks.append(hook)
        for view in list(self._views.values()):
            hook(view)

    def view(self, surface: str) -> SurfaceView:
        """The view of the surface named ``surface`` (made now if it was not yet)."""
        found = self._views.get(surface)
        if found is None and surface in self.surfaces.names():
            found = self._make(surface)
        if found is None:
            raise UnknownSurface(f"no play surface named {surface!r} is installed")
        return found

    def view_for(self, game: str) -> SurfaceView:
        """The view a person plays ``game`` on (its kind's surface)."""
        return self.view(self.surfaces.for_game(game).name)

    def views(self) -> list[SurfaceView]:
        """The views made so far (a view not made yet has nothing running)."""
        return list(self._views.values())

    def running(self) -> SurfaceView | None:
        """The view whose person's task is running, or None."""
        return next((v for v in self._views.values() if v.host.running() is not None), None)

    def show_view(self, view: SurfaceView) -> None:
        self.setCurrentWidget(view)

    @property
    def shown(self) -> SurfaceView | None:
        current = self.currentWidget()
        return current if isinstance(current, SurfaceView) else None


__all__ = ["PlayPlace"]
