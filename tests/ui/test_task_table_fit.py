"""The web tasks' table keeps room for the objective: when the Library's table is narrow (a
1024x700 window with a restored splitter gave the objective 25 px: "ject"), the last fact
columns are hidden until the objective keeps its room, and come back when there is space."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from playbench.app.ui.browser_library import OBJECTIVE_ROOM
from playbench.app.ui.models.geometry import columns_to_hide


@given(st.integers(0, 2000), st.lists(st.integers(0, 300), min_size=2, max_size=8),
       st.integers(1, 400))
def test_hiding_keeps_the_room_or_hides_every_fact(width, sections, keep):
    hidden = columns_to_hide(width, sections, 1, keep)
    assert 0 not in hidden and 1 not in hidden
    room = width - sum(w for i, w in enumerate(sections) if i != 1 and i not in hidden)
    every_fact = set(range(2, len(sections)))
    assert room >= keep or hidden == every_fact
    # the last columns go first: what is hidden is a tail of the facts
    assert hidden == set(range(min(hidden, default=len(sections)), len(sections)))
    # nothing is hidden that did not need to be
    if hidden:
        back = min(hidden)
        assert width - (sum(w for i, w in enumerate(sections) if i != 1 and i not in hidden)
                        + sections[back]) < keep


def test_a_narrow_web_task_table_keeps_the_objective_readable(make_window, qtbot):
    window = make_window()
    window.resize(1024, 700)
    lib = window.library
    lib.select("web")
    panel = lib.panel("web")
    qtbot.waitUntil(lambda: bool(panel.rows), timeout=20000)
    table = panel.table
    table.setFixedWidth(340)  # as the restored splitter left it
    qtbot.waitUntil(lambda: table.columnWidth(1) >= OBJECTIVE_ROOM, timeout=5000)
    hidden = [c for c in range(table.columnCount()) if table.isColumnHidden(c)]
    assert hidden and hidden == list(range(hidden[0], table.columnCount()))
    assert not table.isColumnHidden(0)
    table.setFixedWidth(900)
    qtbot.waitUntil(lambda: not any(table.isColumnHidden(c)
                                    for c in range(table.columnCount())), timeout=5000)
    assert table.columnWidth(1) >= OBJECTIVE_ROOM
