"""Annotator identity, settings (profiles, database, rules) and bad input: every problem is a
dialog naming the cause and what to do, the app keeps running, nothing recorded is lost."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt

from playbench.app.ui.annotator import AnnotatorDialog
from playbench.app.ui.models.prefs import PrefsStore
from tests.ui.helpers import give_up, start_level, wait_end


def test_first_start_asks_for_a_pseudonym_and_remembers_it(make_window, qtbot, config_dir):
    (config_dir / "ui.json").unlink()
    window = make_window(show_prompts=True)
    dialog = window.findChild(AnnotatorDialog)
    assert dialog is not None and dialog.isVisible()
    assert dialog.name.text().startswith("ann-")      # a pseudonym is suggested
    dialog.name.setText("Jane Doe")                    # a real name with a space: refused
    assert not dialog.ok.isEnabled() and "Not usable" in dialog.problem.text()
    dialog.name.setText("ann-07")
    qtbot.mouseClick(dialog.ok, Qt.MouseButton.LeftButton)
    assert PrefsStore(config_dir).load().annotator == "ann-07"
    assert window.who_action.text() == "Annotator: ann-07"
    session = start_level(qtbot, window, "maze", "ingvp", 1)
    give_up(qtbot, window.play_place.view("board"))
    wait_end(qtbot, session)
    row = window.state.store.episode(session.episode_id)
    assert row.participant.name == "ann-07" and row.episode.meta["annotator"] == "ann-07"


def test_an_unreadable_database_is_explained_and_left_untouched(make_window, qtbot, tmp_path):
    bad = tmp_path / "notes.sqlite3"
    bad.write_bytes(b"this is not a database at all\n" * 100)
    before = bad.read_bytes()
    window = make_window(url=f"sqlite:///{bad}", show_prompts=True)
    assert window.state.store is None
    assert window.problems[0].title == "The database cannot be used"
    assert "Settings > Database" in window.problems[0].todo
    assert window.nodb.isVisible() and not window.library.start.play.isEnabled()
    assert bad.read_bytes() == before
    # The app keeps running: the library browses, and a good database can be chosen.
    window.library.select("queens", "ingvp")
    assert window.library.rows
    dialog = window.open_settings(tab=2)
    dialog.db_path.setText(str(tmp_path / "good.sqlite3"))
    dialog.apply()
    assert window.state.store is not None and not window.nodb.isVisible()
    assert window.library.start.play.isEnabled()


def test_choosing_a_bad_database_keeps_the_current_one(make_window, qtbot, tmp_path):
    window = make_window()
    current = window.state.db_url
    dialog = window.open_settings(tab=2)
    dialog.db_path.setText(str(tmp_path / "missing-dir" / "x.sqlite3"))
    dialog.apply()
    assert dialog.isVisible() and window.state.db_url == current
    assert window.problems[-1].title == "The database cannot be used"
    dialog.reject()


def test_a_missing_level_file_is_explained(make_window, qtbot, tmp_path):
    window = make_window()
    lib = window.library
    path = tmp_path / "mine.xsb"
    path.write_text("; one room\n#####\n#@$.#\n#####\n")
    lib.add_level_file("sokoban", str(path))
    assert len(lib.rows) == 1 and lib.start.play.isEnabled()
    path.unlink()
    lib.select("maze")
    lib.select("sokoban", str(path))
    assert window.problems[-1].title == "The levels cannot be loaded"
    assert "no longer there" in window.problems[-1].cause
    assert lib.rows == [] and not lib.start.play.isEnabled()
    lib.select("sokoban", "ingvp")          # the rest of the library still works
    assert len(lib.rows) == 50


def test_profiles_are_added_edited_and_tested(make_window, qtbot, config_dir, aloop):
    window = make_window()
    dialog = window.open_settings(tab=1)
    tab = dialog.profiles
    assert tab.list.item(0).text().startswith("demo")
    qtbot.mouseClick(tab.test, Qt.MouseButton.LeftButton)      # the built-in demo answers
    qtbot.waitUntil(lambda: tab.result.text().startswith(("OK", "FAILED")), timeout=20000)
    assert tab.result.text().startswith("OK: connected"), tab.result.text()

    qtbot.mouseClick(tab.new, Qt.MouseButton.LeftButton)
    tab.name.setText("local-vllm")
    tab.base_url.setText("not a url")
    qtbot.mouseClick(tab.save, Qt.MouseButton.LeftButton)
    assert "Not saved" in tab.result.text() and "base_url" in tab.result.text()
    tab.base_url.setText("http://127.0.0.1:9/v1")
    tab.model.setText("qwen2-vl")
    tab.key_env.setText("VLLM_KEY")
    tab.input_price.setValue(0.5)
    qtbot.mouseClick(tab.save, Qt.MouseButton.LeftButton)
    stored = json.loads((config_dir / "models.json").read_text())["profiles"]["local-vllm"]
    assert stored["base_url"] == "http://127.0.0.1:9/v1" and stored["api_key"] == "env:VLLM_KEY"
    assert stored["input_price"] == 0.5
    # Testing it: the key variable is not set -> explained, no exception.
    qtbot.mouseClick(tab.test, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: tab.result.text().startswith(("FAILED", "Cannot")), timeout=20000)
    assert "VLLM_KEY" in tab.result.text()
    dialog.reject()
    start = window.library.start
    assert start.player.findData("model:local-vllm") >= 0   # offered in the library


def test_rule_options_are_saved_and_used(make_window, qtbot, config_dir, db_url):
    window = make_window()
    dialog = window.open_settings(tab=3)
    box = dialog.rule_boxes[("sudoku", "wrong_digits")]
    box.setCurrentIndex(box.findData("overwritable"))
    dialog.apply()
    assert window.state.db_url == db_url        # an untouched database field changes nothing
    prefs = PrefsStore(config_dir).load()
    assert prefs.rules["sudoku"]["wrong_digits"] == "overwritable" and prefs.db_url is None
    session = start_level(qtbot, window, "sudoku", "ingvp", 1)
    assert session.task.options["wrong_digits"] == "overwritable"
    assert "wrong_digits=overwritable" in window.library.start.rules.text()


def test_rules_left_unset_are_not_saved_so_levels_keep_their_own(make_window, config_dir):
    """Pressing OK in Settings must not turn every shown default into a choice: a level that
    stores its own rule (an imported Hanoi level's detected disk order) would then be refused
    or played under the wrong rule."""
    window = make_window()
    dialog = window.open_settings(tab=3)
    box = dialog.rule_boxes[("hanoi", "disk_order")]
    assert box.currentData() is None            # nothing chosen yet
    dialog.apply()
    assert PrefsStore(config_dir).load().rules == {}
    dialog = window.open_settings(tab=3)
    box = dialog.rule_boxes[("hanoi", "disk_order")]
    box.setCurrentIndex(box.findData("a-largest"))
    dialog.apply()
    assert PrefsStore(config_dir).load().rules == {"hanoi": {"disk_order": "a-largest"}}
    dialog = window.open_settings(tab=3)         # the saved choice is shown, and kept
    assert dialog.rule_boxes[("hanoi", "disk_order")].currentData() == "a-largest"
    dialog.rule_boxes[("hanoi", "disk_order")].setCurrentIndex(0)
    dialog.apply()
    assert PrefsStore(config_dir).load().rules == {}
