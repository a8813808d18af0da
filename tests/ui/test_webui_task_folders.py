"""The Library adds MageBench WebUI task folders and list files as they are published: the
WebUI panel's button says so and offers a folder or a file (the kind's ``source_picker``, no
branch in the app), and an added folder or list lists its tasks by their MageBench names."""

from __future__ import annotations

from pathlib import Path

RESOURCES = Path(__file__).parents[1] / "webui" / "magebench_files" / "resources"


def test_the_webui_panel_adds_task_folders_and_lists(make_window, qtbot):
    window = make_window()
    panel = {p.kind.name: p for p in window.library.panels}["webui"]
    window.library.select("webui")
    assert panel.add_file.text() == "Add task folder…"
    menu = panel.add_file.menu()
    assert menu is not None and [a.text() for a in menu.actions()] == ["A folder…", "A file…"]
    # Other kinds keep their own buttons.
    assert {p.kind.name: p for p in window.library.panels}["web"].add_file.menu() is None

    panel.add_task_file(str(RESOURCES / "WebUI" / "Drop-Zone"))
    qtbot.waitUntil(lambda: panel.table.rowCount() == 1, timeout=20000)
    assert panel.rows[0].level.title == "Drop-Zone"
    assert panel.sets.currentText() == "Drop-Zone (folder)"

    panel.add_task_file(str(RESOURCES / "WebUI_mini.json"))
    qtbot.waitUntil(lambda: panel.table.rowCount() == 3, timeout=20000)
    assert [r.level.title for r in panel.rows] == ["Counter-Card", "Signup-Form", "Drop-Zone"]
