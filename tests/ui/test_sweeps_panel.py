"""The Studies view's model sweeps panel: a sweep run by the command line beside the app
shows up with its progress, live while it runs and complete when it ends."""

from __future__ import annotations

from playbench.app.agents.serve import ModelServer, ServeOptions
from tests.sweeps.helpers import playbench, sweep_file, write_profile


def test_a_command_line_sweep_shows_in_the_studies_view(qtbot, make_window, db_url, tmp_path):
    server = ModelServer(ServeOptions(latency_ms=120)).start()
    try:
        config = tmp_path / "sweepconfig"
        write_profile(config, "stand", server.url)
        path = sweep_file(tmp_path, "live", ["model:stand"], sokoban="1-3", maze=None,
                          repeats=1)
        window = make_window()
        panel = window.studies.sweeps
        window.show_page(window.studies)
        qtbot.waitUntil(lambda: "No model sweeps yet" in panel.summary.text(), timeout=10000)
        proc = playbench(["sweep", "run", str(path), "--concurrency", "1", "--no-progress"],
                         db=db_url, cwd=tmp_path, config=config, wait=False)
        # Nothing is clicked: the panel notices the sweep and refreshes while it runs.
        qtbot.waitUntil(lambda: bool(panel.rows) and panel.rows[0].active, timeout=60000)
        running = panel.table.item(0, 2).text()
        assert running == "1"
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        qtbot.waitUntil(lambda: panel.rows and panel.rows[0].cells[1] == "3 of 3",
                        timeout=20000)
        assert panel.table.item(0, 0).text() == "live"
        assert panel.table.cellWidget(0, 6).value() == 100
        assert panel.summary.text() == "1 sweep, none running now"
    finally:
        server.stop()
