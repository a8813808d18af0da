"""Surfaces found by entry point: a broken plugin surface is refused by name and costs the
window that surface only."""

from __future__ import annotations

from importlib.metadata import EntryPoint

import pytest

from playbench.app.ui.surface_registry import ENTRY_POINT_GROUP, SurfaceRegistry, UnknownSurface


def broken(name: str, value: str) -> EntryPoint:
    return EntryPoint(name=name, value=value, group=ENTRY_POINT_GROUP)


def test_a_surface_that_fails_to_import_is_refused_by_name():
    surfaces = SurfaceRegistry(entry_points=[broken("ghost", "no_such_module_here:SURFACE")])
    assert surfaces.names() == ["ghost"]
    with pytest.raises(UnknownSurface, match="'ghost'.*failed to load"):
        surfaces.get("ghost")


def test_an_entry_point_that_is_no_surface_is_refused():
    surfaces = SurfaceRegistry(entry_points=[broken("odd", "os.path:join")])
    with pytest.raises(UnknownSurface, match="not a surface"):
        surfaces.get("odd")


def test_a_broken_plugin_costs_the_play_place_its_own_surface_only(qtbot, aloop, tmp_path):
    from playbench.app.ui.models.app_state import AppState
    from playbench.app.ui.models.prefs import PrefsStore
    from playbench.app.ui.play_place import PlayPlace
    from playbench.app.ui.surface import SurfaceContext

    installed = SurfaceRegistry()
    points = [broken("ghost", "no_such_module_here:SURFACE"),
              broken("board", "playbench.app.ui.surfaces.board:SURFACE")]
    reported: list[BaseException] = []
    state = AppState(PrefsStore(tmp_path / "cfg"), db_url=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    place = PlayPlace(SurfaceContext(state, reported.append),
                      SurfaceRegistry(entry_points=points, kinds=installed.kinds),
                      lambda _view: None)
    qtbot.addWidget(place)
    assert [type(v).__name__ for v in place.views()] == ["PlayView"]
    assert len(reported) == 1 and "ghost" in str(reported[0])
    with pytest.raises(UnknownSurface):
        place.view("ghost")
