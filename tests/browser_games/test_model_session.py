"""A model plays a browser game through ``serve-model`` over real HTTP: ``playbench run
--game browser-games --catalog DIR --tasks GAME/TASK --player model:NAME`` in a subprocess,
real Chromium, the episode recorded in SQLite. The scripted policy cycles the game YAML's
``demo_policy`` as tool calls; the random policy picks from the interface's vocabulary.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from playbench.app.agents.serve import ModelServer, ServeOptions
from playbench.app.cli import main
from playbench.db.engine import open_database
from playbench.db.store import Store
from playbench.games.browser_games.catalog import Catalog

pytestmark = pytest.mark.browser

CATALOG = Path(__file__).parent / "catalog"


def cli(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "playbench", *args], capture_output=True,
                          text=True, env=env, cwd=cwd, timeout=300)


@pytest.mark.parametrize(("policy", "setting"), [("scripted", "tools:semantic"),
                                                 ("random", "tools:computer-use")])
def test_a_model_session_over_http_is_recorded(tmp_path, policy, setting):
    db = tmp_path / "model.sqlite3"
    env = dict(os.environ, PLAYBENCH_DB=f"sqlite:///{db}",
               PLAYBENCH_CONFIG_DIR=str(tmp_path / "config"))
    with ModelServer(ServeOptions(port=0, policy=policy)) as server:
        added = cli(["models", "add", "stand-in", "--base-url", server.url, "--model",
                     f"playbench-{policy}", "--state-hints"], env, tmp_path)
        assert added.returncode == 0, added.stderr
        proc = cli(["run", "--game", "browser-games", "--tasks", "01_probe/01_01", "--player",
                    "model:stand-in", "--setting", setting, "--budget", "12", "--no-progress",
                    "--catalog", str(CATALOG)], env, tmp_path)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        requests = server.stats.requests
    store = Store(open_database(f"sqlite:///{db}"))
    (row,) = store.episodes()
    steps = store.steps(row.episode.id)
    assert row.participant.kind == "model" and row.episode.setting == setting
    assert row.episode.status == "done" and requests >= len(steps) > 0
    assert row.task.game == "browser-games"
    role = Catalog(CATALOG).game("01_probe").role
    if policy == "scripted":
        demo = ["step_right", "wait"]
        assert [s.action for s in steps] == [demo[i % 2] for i in range(len(steps))]
        assert all(s.valid for s in steps)
        assert row.scores["solved"] == 1.0 and row.scores["completion"] == 100.0
        assert all("reasoning" in (s.raw or "") for s in steps)
    else:
        allowed = {f"press_key {k}" for k in role.computer_use.allowed_keys}
        assert all(s.action in allowed | {"click 640 360", "wait 0.1"} for s in steps)
        assert len(steps) == 12 or row.scores["solved"] == 1.0


def test_run_refuses_an_option_the_kind_does_not_declare(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PLAYBENCH_DB", f"sqlite:///{tmp_path / 'x.sqlite3'}")
    monkeypatch.setenv("PLAYBENCH_CONFIG_DIR", str(tmp_path / "config"))
    calls = [(["run", "--game", "browser-games", "--tasks", "01_probe/01_01", "--player",
               "idle", "--catalogue", str(CATALOG)], "--catalogue"),
             (["run", "--game", "sokoban", "--levels", "microban:1", "--player", "idle",
               "--catalog", str(CATALOG)], "--catalog"),
             (["levels", "--catalog", "x"], "unrecognized arguments")]
    for argv, named in calls:
        with pytest.raises(SystemExit) as ended:
            main(argv)
        assert ended.value.code == 2, argv
        assert named in capsys.readouterr().err, argv
