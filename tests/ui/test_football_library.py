"""The Library with football when Google Research Football is not installed: the scenario is
sketched, Play is off, and the panel says how to enable the kind."""

from __future__ import annotations


def test_the_library_says_how_to_enable_football_when_the_engine_is_missing(
        make_window, qtbot, monkeypatch):
    monkeypatch.setenv("PLAYBENCH_FOOTBALL_PYTHON", "/nonexistent/football/python")
    window = make_window()
    lib = window.library
    lib.select("football", "magebench-mini")
    lib.select_level(2)
    start = lib.start
    qtbot.waitUntil(lambda: "--with-football" in start.facts.text(), timeout=10000)
    assert not start.play.isEnabled()
    assert "--with-football" in start.play.toolTip()
    assert start.preview.isVisible()
    # the level rows get the kind's own sketches (no engine is started for them)
    qtbot.waitUntil(lambda: not lib.levels.item(1, 0).icon().isNull(), timeout=20000)
    # football's scenarios have no optimal length: no Optimal column, filter or fact
    assert lib.levels.isColumnHidden(4) and not lib.min_opt.isVisible()
    assert "optimal" not in start.facts.text()
    lib.select("sokoban", "magebench-mini")  # and a pack that has them shows them again
    assert not lib.levels.isColumnHidden(4) and lib.min_opt.isVisible()
    lib.select_level(1)
    assert "optimal:" in start.facts.text()


def test_the_add_button_offers_football_scenarios_and_lists_magebench_files(
        make_window, qtbot, monkeypatch):
    from pathlib import Path

    from playbench.app.ui import library as library_module
    monkeypatch.setenv("PLAYBENCH_FOOTBALL_PYTHON", "/nonexistent/football/python")
    listed = (Path(__file__).parents[1] / "football" / "data" / "magebench" / "resources"
              / "Football_all.json")
    asked: list[str] = []

    def pick(parent, title, start, filters, **kw):
        asked.append(filters)
        return str(listed), ""

    monkeypatch.setattr(library_module, "open_file_name", pick)
    window = make_window()
    lib = window.library
    lib.select("football", "magebench-mini")
    lib.add_file.click()
    assert "*.py" in asked[0] and "*.football" in asked[0]
    qtbot.waitUntil(lambda: lib.levels.rowCount() == 3, timeout=20000)
    titles = [lib.levels.item(r, 2).text() for r in range(3)]
    assert titles == ["R5_T_3", "R1_P_1", "R9_R_2"]
