"""The real process: ``playbench`` with no arguments opens the window; closing it (the window's
close, or Ctrl-C) never hangs or aborts, and a running episode is saved as interrupted. Also:
the Qt-free modules really import no Qt."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from playbench.db.engine import open_database
from playbench.db.store import Store

ROOT = Path(__file__).resolve().parents[2]
PLAYBENCH = str(Path(sys.executable).with_name("playbench"))

DRIVER = textwrap.dedent("""
    import sys
    from PySide6.QtCore import QTimer
    from playbench.app.ui.main import run_app

    def ready(window):
        lib = window.library
        lib.select("sokoban", "ingvp")
        lib.select_level(1)
        lib.start.play.click()
        session = window.play_place.view("board").session
        solution = session.task.level.meta["solution"]
        def moves():
            for m in solution[:2]:
                view = window.play_place.view("board")
                view._key({"U": "Up", "D": "Down", "L": "Left", "R": "Right"}[m])
        def report():
            if len(session.steps) >= 2:
                print(f"EPISODE {session.episode_id} STEPS {len(session.steps)}", flush=True)
                if sys.argv[1] == "close":
                    window.close()
            else:
                QTimer.singleShot(20, report)
        QTimer.singleShot(50, moves)
        QTimer.singleShot(60, report)

    sys.exit(run_app(None, on_ready=ready))
""")


def _env(tmp_path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(PLAYBENCH_DB=f"sqlite:///{tmp_path / 'app.sqlite3'}",
               PLAYBENCH_CONFIG_DIR=str(tmp_path / "config"), QT_QPA_PLATFORM="offscreen",
               PYTHONPATH=str(ROOT))
    (tmp_path / "config").mkdir(exist_ok=True)
    (tmp_path / "config" / "ui.json").write_text('{"annotator": "ann-proc"}')
    return env


@pytest.mark.parametrize("how", ["close", "sigint"])
def test_closing_the_app_saves_the_running_episode_as_interrupted(tmp_path, how):
    proc = subprocess.Popen([sys.executable, "-c", DRIVER, how], cwd=ROOT, env=_env(tmp_path),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("EPISODE"), line + proc.stderr.read()
        episode_id = int(line.split()[1])
        if how == "sigint":
            proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    err = proc.stderr.read()
    proc.stdout.close()
    proc.stderr.close()
    assert code == 0, err                       # no abort, no segfault at exit
    assert "Traceback" not in err, err
    db = open_database(f"sqlite:///{tmp_path / 'app.sqlite3'}")
    try:
        row = Store(db).episode(episode_id)
        assert (row.episode.status, row.episode.n_steps) == ("interrupted", 2)
    finally:
        db.dispose()


def test_playbench_without_arguments_opens_the_window(tmp_path):
    env = _env(tmp_path)
    env["PLAYBENCH_STARTUP_REPORT"] = "1"
    proc = subprocess.Popen([PLAYBENCH], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        while True:
            line = proc.stderr.readline()
            assert line, "the app ended before its window was up"
            if line.startswith("interactive after"):
                break
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
        proc.stderr.close()


def test_the_qt_free_modules_import_no_qt():
    modules = ["playbench.app.ui.models." + m for m in (
        "session", "launch", "catalog", "records", "pacing", "prefs", "profiles", "transcript",
        "start", "app_state")]
    modules += ["playbench.app.players.human", "playbench.app.players.board_input",
                "playbench.app.players.plans"]
    code = (f"import sys; import {', '.join(modules)}; "
            "bad = [m for m in sys.modules if m.split('.')[0] in "
            "('PySide6', 'shiboken6', 'qasync')]; print(bad); sys.exit(1 if bad else 0)")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert result.returncode == 0, result.stdout + result.stderr
