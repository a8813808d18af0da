"""The Library's start panel says what Play starts, and lists model profiles added on the
command line while the app runs - without Settings > OK."""

from __future__ import annotations

import os
import subprocess
import sys

from playbench.app.ui.models.start import start_summary


def test_the_summary_marks_a_model_player_and_a_budget_that_is_not_the_settings():
    assert start_summary("Me - annotator a", True, 50, 0, 50, 0) == (
        "You play with 50 actions, no time limit.", False)
    text, unusual = start_summary("Model: gpt (x)", False, 50, 0, 50, 0)
    assert unusual and text.startswith("gpt (x) plays")
    text, unusual = start_summary("Me - annotator a", True, 12, 90, 50, 0)
    assert unusual and text == ("You play with 12 actions, 90 s. The setting's own budget is "
                                "50 actions, no time limit.")


def test_a_budget_kept_from_the_last_level_is_shown_as_not_the_default(make_window, qtbot):
    window = make_window()
    lib, start = window.library, window.library.start
    lib.select("maze", "ingvp")
    lib.select_level(1)
    assert start.summary.text() == "You play with 50 actions, no time limit."
    assert start.summary.objectName() == "hint"
    start.max_actions.setValue(7)
    lib.select_level(2)  # the panel keeps the choice from level to level...
    assert start.max_actions.value() == 7
    assert "7 actions" in start.summary.text()  # ...and now says so
    assert "own budget is 50 actions" in start.summary.text()
    assert start.summary.objectName() == "warning"
    start.player.setCurrentIndex(start.player.findData("random"))
    assert start.summary.text().startswith("random plays")


def test_a_profile_added_on_the_command_line_is_listed_when_the_library_is_shown_again(
        make_window, qtbot, config_dir):
    window = make_window()
    start = window.library.start
    assert start.player.findData("model:added-later") < 0
    env = {**os.environ, "PLAYBENCH_CONFIG_DIR": str(config_dir)}
    run = subprocess.run([sys.executable, "-m", "playbench", "models", "add", "added-later",
                          "--base-url", "http://127.0.0.1:9/v1", "--model", "m"],
                         env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    window.show_page(window.studies)  # the annotator looks elsewhere, then back
    window.show_page(window.library)
    qtbot.waitUntil(lambda: start.player.findData("model:added-later") >= 0, timeout=5000)
