"""``playbench levels --import`` and ``playbench run --levels`` on MageBench's Sokoban layout
(fixtures made by gym-sokoban itself: tests/games/data/magebench), end to end."""

from __future__ import annotations

import json
import os
import pickle
from pathlib import Path

import pytest

from tests.cli.test_foundation_cli import rows

DATA = Path(__file__).parents[1] / "games" / "data" / "magebench"
LIST = DATA / "Sokoban_all.json"
BOUNDS = json.loads((DATA / "Sokoban" / "upper_bound.json").read_text())
NAMES = [Path(p).stem for p in json.loads(LIST.read_text())]


def test_levels_import_lists_the_magebench_levels_with_their_optimal_lengths(cli):
    r = cli("levels", "sokoban", "--import", str(LIST))
    assert r.code == 0, r.err
    table = rows(r.out)
    assert [x[1] for x in table] == NAMES
    assert [int(x[-1]) for x in table] == [BOUNDS[n]["steps"] for n in NAMES]
    one = cli("levels", "sokoban", "--import", str(DATA / "Sokoban" / f"{NAMES[1]}.pkl"))
    assert one.code == 0 and rows(one.out)[0][1] == NAMES[1]


def test_run_scores_against_the_upper_bound_files_r_best(cli):
    solver = cli("run", "--game", "sokoban", "--levels", str(LIST), "--player", "solver",
                 "--setting", "magebench:online")
    assert solver.code == 0, solver.err
    body = rows(solver.out)[:-1]
    assert [(r[2], float(r[6]), int(r[7])) for r in body] == \
        [("solved", 100.0, BOUNDS[n]["steps"]) for n in NAMES]
    idle = cli("run", "--game", "sokoban", "--levels", f"{LIST}:2-3", "--player", "idle",
               "--setting", "magebench:global")
    assert idle.code == 0, idle.err
    # MageBench: (best running reward - R_best) * 5 + 100, the running best starting at 0
    assert [float(r[6]) for r in rows(idle.out)[:-1]] == \
        [pytest.approx(100 - 5 * BOUNDS[n]["reward"]) for n in NAMES[1:]]


class _System:
    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return os.system, (f"touch {self.marker}",)


def test_a_hostile_pickle_stops_the_import_with_a_message_and_runs_nothing(cli, tmp_path):
    marker = tmp_path / "marker"
    bad = tmp_path / "7-Sokoban-v0.pkl"
    bad.write_bytes(pickle.dumps(_System(marker)))
    for args in (("levels", "sokoban", "--import", str(bad)),
                 ("run", "--game", "sokoban", "--levels", str(bad), "--player", "solver")):
        r = cli(*args)
        assert r.code != 0 and "Traceback" not in r.err
        assert str(bad) in r.err and "refused global 'posix.system'" in r.err
        assert not marker.exists()
