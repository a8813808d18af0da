"""``playbench levels football --import`` and ``playbench run --levels`` on MageBench's football
layout (our own fixture files in its syntax: tests/football/data/magebench), end to end in a
subprocess. Playing them on the engine is in tests/football/test_grf_magebench.py."""

from __future__ import annotations

import sys
from pathlib import Path

from tests.cli.test_foundation_cli import rows
from tests.football.test_magebench_football import hostile

RESOURCES = Path(__file__).parents[1] / "football" / "data" / "magebench" / "resources"


def test_levels_import_lists_a_list_file_a_scenario_file_and_a_folder(cli):
    r = cli("levels", "football", "--import", str(RESOURCES / "Football_mini.json"))
    assert r.code == 0, r.err
    assert [(x[1], x[2], x[3]) for x in rows(r.out)] == [("R9_R_2", "9", "real-world"),
                                                         ("R5_T_3", "5", "teamwork")]
    one = cli("levels", "football", "--import", str(RESOURCES / "Football" / "R1_P_1.py"))
    assert one.code == 0, one.err
    assert [x[1] for x in rows(one.out)] == ["R1_P_1"]
    folder = cli("levels", "football", "--import", str(RESOURCES / "Football"))
    assert folder.code == 0, folder.err
    assert [x[1] for x in rows(folder.out)] == ["R1_P_1", "R5_T_3", "R9_R_2"]


def test_a_hostile_scenario_file_stops_import_and_run_with_a_message_and_runs_nothing(
        cli, tmp_path):
    marker = tmp_path / "marker"
    path = tmp_path / "R1_P_1.py"
    path.write_text(hostile(marker)["__import__ at the top"][0])
    # an interpreter stands in for GRF's so that `run` gets as far as reading the levels; the
    # file is refused there, before any engine would start
    cli.env["PLAYBENCH_FOOTBALL_PYTHON"] = sys.executable
    for args in (("levels", "football", "--import", str(path)),
                 ("run", "--game", "football", "--levels", str(path), "--player", "idle")):
        r = cli(*args)
        assert r.code != 0 and "Traceback" not in r.err
        assert f"{path}:" in r.err and "__import__('os').system" in r.err, r.err
    assert not marker.exists()
