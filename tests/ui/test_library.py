"""The library: games -> packs -> levels with thumbnails, optimal lengths and filters; the
start panel's setting and budget choices reach the episode."""

from __future__ import annotations

from playbench.app.ui.models.catalog import LevelFilter, packs
from playbench.games.registry import available
from tests.ui.helpers import ARROW_OF, give_up, key, start_level, wait_end


def test_games_packs_levels_thumbnails_and_filters(make_window, qtbot):
    window = make_window()
    lib = window.library
    titles = [lib.games.item(i).text() for i in range(lib.games.count())]
    # The bundled games first, in their order; installed plugin kinds after; then the kinds
    # with a task panel (browser games, web tasks...), web tasks last.
    assert titles[:6] == ["Sokoban", "Maze", "Sudoku", "8-queens", "Tower of Hanoi", "15-puzzle"]
    assert titles[-1] == "Web tasks" and len(titles) == len(available()) + len(lib.panels)
    assert "Browser games" in titles[len(available()):]
    lib.select("sokoban", "magebench-mini")
    assert len(lib.rows) == 20 and lib.count.text() == "20 of 20 levels"
    qtbot.waitUntil(lambda: len(lib._thumbs) == 20, timeout=20000)
    assert not lib.levels.item(0, 0).icon().isNull()
    assert lib.levels.item(0, 4).text() == str(lib.rows[0].optimal)

    lib.min_opt.setValue(10)
    assert lib.shown and all(r.optimal >= 10 for r in lib.shown)
    lib.max_opt.setValue(12)
    assert all(10 <= r.optimal <= 12 for r in lib.shown)
    lib.min_opt.setValue(0)
    lib.max_opt.setValue(0)
    lib.search.setText("7x7")
    assert lib.shown and all("7x7" in r.title for r in lib.shown)
    lib.search.setText("no such level")
    assert lib.shown == [] and lib.empty.isVisible() and not lib.start.play.isEnabled()


def test_packs_are_in_natural_order():
    names = [p.label for p in packs("maze")]
    assert names.index("depth-4") < names.index("depth-8") < names.index("depth-12")


def test_filter_without_a_known_optimal_only_passes_unbounded():
    from playbench.app.ui.models.catalog import LevelRow
    from playbench.games.base import Level
    row = LevelRow(Level("maze", "x"), {}, None)
    assert LevelFilter().accepts(row) and not LevelFilter(min_optimal=1).accepts(row)


def test_setting_and_budget_choices_reach_the_episode(make_window, qtbot):
    window = make_window()
    start = window.library.start
    window.library.select("maze", "ingvp")
    start.setting.setCurrentIndex(start.setting.findData("ingvp:image-one"))
    assert start.max_actions.value() == 0        # one-step: one submission, no action cap
    start.setting.setCurrentIndex(start.setting.findData("default"))
    assert start.max_actions.value() == 50
    session = start_level(qtbot, window, "maze", "ingvp", 4, max_actions=12)
    assert session.budget.max_actions == 12
    assert window.play_place.view("board").hud.actions_left.text() == "12"
    row = window.state.store.episode(session.episode_id)
    assert row.episode.budget["max_actions"] == 12 and row.episode.setting == "default"


def test_every_browser_kind_gets_its_own_entry_and_panel(make_window, qtbot, monkeypatch):
    """The Library lists kinds, not "the web": a second kind played in the browser view (as
    the browser games of a later kind will be) gets its own entry and task panel."""
    from playbench.games import kind as kind_module
    from playbench.games.kind import Registry, default_registry
    from playbench.games.web.kind import WebKind

    class MoreWeb(WebKind):
        name, title = "more-web", "More web tasks"

    installed = default_registry()
    both = Registry(entry_points=[], kinds=[*installed.listing(), MoreWeb()])
    monkeypatch.setattr(kind_module, "_DEFAULT", [both])  # the app sees one more kind
    window = make_window()
    lib = window.library
    titles = [lib.games.item(i).text() for i in range(lib.games.count())]
    assert titles[-2:] == ["Web tasks", "More web tasks"]
    web = [p for p in lib.panels if p.kind.view == "browser"]
    assert [p.kind.name for p in web] == ["web", "more-web"]
    assert lib.panel("web") is web[0]
    lib.select("more-web")
    qtbot.waitUntil(lambda: not web[1].isHidden())
    assert web[0].isHidden() and not lib.levels.isVisibleTo(lib)
    lib.select("web")
    assert not web[0].isHidden() and web[1].isHidden()
    lib.select(available()[0], "ingvp")
    assert all(p.isHidden() for p in lib.panels) and lib.levels.isVisibleTo(lib)


def test_each_task_panel_says_how_its_own_kind_is_played(make_window, qtbot):
    """A panel's help and its Play button come from its kind: CSS repair and WebUI used to show
    the web tasks' text ("Play in the browser pane") because the panel chose by view."""
    window = make_window()
    panels = {p.kind.name: p for p in window.library.panels}
    expected = {"web": ("in the browser pane", "Play in the browser pane"),
                "browser-games": ("on the game pane", "Play in the game pane (Play)"),
                "webui": ("in the code editor", "Play in the code editor (Play)"),
                "css-repair": ("on the CSS repair tools", "Play in the CSS repair tools (Play)")}
    for name, (tab, button) in expected.items():
        panel = panels[name]
        window.library.select(name)
        qtbot.waitUntil(lambda: not panel.isHidden() and panel.player.findData("human") >= 0)
        panel.player.setCurrentIndex(panel.player.findData("human"))
        assert f"opens it in Play, {tab}" in panel.how.text(), name
        qtbot.waitUntil(lambda: panel.play.text() == button, timeout=3000)
    web_words = panels["web"].how.text()
    assert all(p.how.text() != web_words for n, p in panels.items() if n != "web")


def test_task_columns_come_from_the_kind_and_none_is_empty(make_window, qtbot):
    """WebUI and CSS repair name their own columns (``library_columns``), and every cell of
    every task is filled; web tasks keep the web columns. No CSS-repair cell names the broken
    property, its rule or either value (only the hint says what looks wrong)."""
    from playbench.app.ui.browser_library import COLUMNS
    from playbench.games.css_repair.project import breakage_from_text, original_value

    window = make_window()
    panels = {p.kind.name: p for p in window.library.panels}
    for name in ("webui", "css-repair", "web", "browser-games"):
        panel = panels[name]
        window.library.select(name)
        qtbot.waitUntil(lambda: not panel.isHidden() and panel.table.rowCount() > 0,
                        timeout=30000)
        # Straight from one kind's panel to the next: the new panel gets the room (it used
        # to keep a width of 0, leaving the games list alone across the window).
        qtbot.waitUntil(lambda: panel.width() > 2 * window.library.games.width())
        table = panel.table
        headers = tuple(table.horizontalHeaderItem(c).text() for c in range(table.columnCount()))
        own = panel.kind.capabilities.library_columns
        if name == "web":  # unchanged: the web facts
            assert not own and headers == COLUMNS
            row = panel.shown[0]
            assert [table.item(0, c).text() for c in range(3)] == \
                [str(row.task_id), row.intent, row.difficulty]
            continue
        assert own and headers == (*COLUMNS[:2], *own), name
        if name == "browser-games":  # the game's target score, from its catalog entry
            assert own == ("Target",)
            targets = [panel.shown[r].level.meta.get("target") for r in range(table.rowCount())]
            assert any(isinstance(t, (int, float)) for t in targets)
            assert [table.item(r, 2).text() for r in range(table.rowCount())] == [
                f"{t:g}" if isinstance(t, (int, float)) else "-" for t in targets]
            continue
        for r in range(table.rowCount()):
            cells = [table.item(r, c).text().strip() for c in range(table.columnCount())]
            assert all(cell and cell != "-" for cell in cells), (name, r, cells)
            if name == "css-repair":  # the project's name is in the objective already
                b = breakage_from_text(panel.shown[r].level.text)
                secrets = {b.selector, b.property, b.wrong, original_value(b)} - {None}
                words = [c for c in cells[3:] if not c.isdigit()]
                assert not any(s in c for s in secrets for c in words), (cells, secrets)
        panel.select_task(panel.shown[-1].task_id)
        assert all(v in panel.facts.text() for v in panel.shown[-1].values)


def test_levels_the_annotator_played_or_solved_are_marked(make_window, qtbot, monkeypatch):
    """Issue 28: the Levels table had no mark of what one had played. The "You" column reads
    the annotator's episodes from the database (off the UI thread) and is read again when the
    person comes back to the Library after playing; another annotator has marks of their own."""
    import threading

    from PySide6.QtCore import Qt

    import playbench.app.ui.models.level_marks as marks_model
    from playbench.app.ui.library import MARK_COLUMN
    threads: list[threading.Thread] = []
    real = marks_model.level_marks

    def read(*args):
        threads.append(threading.current_thread())
        return real(*args)
    monkeypatch.setattr(marks_model, "level_marks", read)
    window = make_window()
    lib = window.library

    def marks() -> dict[int, str]:
        return {r.level.number: lib.levels.item(i, MARK_COLUMN).text()
                for i, r in enumerate(lib.shown) if lib.levels.item(i, MARK_COLUMN).text()}

    def read_again() -> None:
        qtbot.waitUntil(lambda: lib.marks.reading.task is not None
                        and lib.marks.reading.task.done(), timeout=10000)

    lib.select("sokoban", "ingvp")
    read_again()
    assert lib.levels.horizontalHeaderItem(MARK_COLUMN).text() == "You"
    assert marks() == {}  # an empty database: no level is anybody's yet
    assert threads and threading.main_thread() not in threads

    session = start_level(qtbot, window, "sokoban", "ingvp", 1)
    for move in session.task.level.meta["solution"]:
        key(qtbot, window.play_place.view("board").board, ARROW_OF[move])
    wait_end(qtbot, session)
    assert session.result.end_reason == "solved"
    session = start_level(qtbot, window, "sokoban", "ingvp", 2)
    give_up(qtbot, window.play_place.view("board"))
    wait_end(qtbot, session)
    window.show_page(lib)  # back to the Library, as after any episode
    qtbot.waitUntil(lambda: marks() == {1: "✓", 2: "○"}, timeout=10000)
    assert lib.levels.item(0, MARK_COLUMN).toolTip() == "You played this level once, solved."
    assert lib.levels.item(0, MARK_COLUMN).data(Qt.ItemDataRole.AccessibleTextRole) == "solved"
    assert lib.levels.item(1, MARK_COLUMN).toolTip() == \
        "You played this level once, not solved yet."
    lib.search.setText(lib.shown[1].title)  # a filtered table keeps each level's mark
    assert marks() == {2: "○"}
    lib.search.setText("")

    window.switch_annotator("someone-else")
    qtbot.waitUntil(lambda: marks() == {}, timeout=10000)
    assert threading.main_thread() not in threads


def test_mark_texts_say_the_counts_in_words():
    from playbench.app.ui.models.level_marks import mark_text
    from playbench.db.progress import LevelMark
    assert mark_text(None) == ("", "You have not played this level.")
    assert mark_text(LevelMark(3, 0)) == ("○", "You played this level 3 times, not solved yet.")
    assert mark_text(LevelMark(3, 1)) == ("✓", "You played this level 3 times, solved in 1 play.")
    assert mark_text(LevelMark(2, 2))[1] == "You played this level 2 times, solved in 2 plays."
