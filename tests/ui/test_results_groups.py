"""The Results tab shows a kind's rows per sub-group: browser-game episodes recorded in the
window's own SQLite database appear as an overall row and one row per GameWorld game, with
SR (accuracy) and PG (completion) worked out by hand in ``tests/results/test_result_groups``,
and the kind's note under the table."""

from __future__ import annotations

from tests.results.test_result_groups import EXPECTED, GAME, seed_games
from tests.ui.test_results_view import computed


def test_the_results_tab_shows_sr_and_pg_per_game(make_window, qtbot):
    window = make_window()
    seed_games(window.state.store)
    view = window.results
    window.show_page(view)
    computed(qtbot, view)
    view.game.setCurrentIndex(view.game.findData(GAME))
    assert view.game.currentData() == GAME
    view.recompute()
    computed(qtbot, view)

    table = view.table
    headings = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    col = {name: headings.index(name) for name in ("Game", "Episodes", "Levels",
                                                    "Accuracy %", "Completion")}
    shown = [table.item(i, col["Game"]).text() for i in range(table.rowCount())]
    assert shown == [GAME, f"{GAME} / 01_2048", f"{GAME} / 02_snake"]
    for i, group in enumerate(EXPECTED):
        sr, pg, tasks, episodes = EXPECTED[group]
        assert table.item(i, col["Episodes"]).text() == str(episodes)
        assert table.item(i, col["Levels"]).text() == str(tasks)
        # "25.0 [0.0, 50.0]  n=2": the value first
        assert float(table.item(i, col["Accuracy %"]).text().split()[0]) == sr, group
        assert float(table.item(i, col["Completion"]).text().split()[0]) == pg, group
    assert "success rate (SR)" in view.scope_note.text()
