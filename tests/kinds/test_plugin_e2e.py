"""The Lights Out plugin end to end, through the app's real surfaces: a person in the desktop
window (real key and mouse events), the solver and random players and a model behind
``serve-model`` through the real ``playbench`` command in subprocesses with real SQLite files,
then export, import into an empty database, and Results.

Nothing here tells the app about Lights Out: it is found through its entry point only.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass

import pytest
from pb_lightsout import KIND, SPEC
from pb_lightsout.kind import LEVEL_DIR
from PySide6.QtCore import Qt

from playbench.app.ui.models.prefs import Prefs, PrefsStore
from tests.ui.conftest import ANNOTATOR
from tests.ui.helpers import centre, click_frame, key, start_level, wait_end, wait_ready, wait_steps


@dataclass
class Result:
    code: int
    out: str
    err: str


@pytest.fixture
def pb(tmp_path, db_url):
    """``pb("run", ...)`` runs ``python -m playbench`` in a subprocess against this test's database
    and a private config directory; ``db=`` overrides the database URL."""
    env = dict(os.environ, PLAYBENCH_DB=db_url, SDL_VIDEODRIVER="dummy",
               PLAYBENCH_CONFIG_DIR=str(tmp_path / "config"))

    def run(*args: str, db: str | None = None, timeout: float = 300) -> Result:
        proc = subprocess.run([sys.executable, "-m", "playbench", *args], capture_output=True,
                              text=True, env=dict(env, PLAYBENCH_DB=db or db_url),
                              cwd=tmp_path, timeout=timeout)
        return Result(proc.returncode, proc.stdout, proc.stderr)

    run.env = env
    return run


@pytest.fixture
def levels_file(tmp_path) -> str:
    """Three generated 4x4 boards in the plugin's own level format."""
    path = tmp_path / "lights.txt"
    path.write_text(SPEC.formats["blocks"].dump(SPEC.generate(3, 5, None, size=4)))
    return str(path)


@pytest.fixture
def serve_model(pb):
    """A ``serve-model --policy oracle`` subprocess; yields its base URL."""
    proc = subprocess.Popen([sys.executable, "-m", "playbench", "serve-model", "--port", "0",
                             "--policy", "oracle"], stdout=subprocess.PIPE, text=True,
                            env=pb.env)
    try:
        line = proc.stdout.readline()
        assert "listening on http://127.0.0.1:" in line, line
        yield line.split("listening on ")[1].split()[0]
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        proc.stdout.close()


def lightsout_rows(result: Result) -> list[dict]:
    assert result.code == 0, result.err
    return [r for r in json.loads(result.out)["rows"] if r["game"] == "lightsout"]


def test_solver_and_random_through_the_cli(pb, levels_file):
    r = pb("run", "--game", "lightsout", "--levels", levels_file, "--player", "solver",
           "--no-progress")
    assert r.code == 0, r.err
    assert r.out.count("solved") >= 3
    r = pb("run", "--game", "lightsout", "--levels", levels_file, "--player", "random",
           "--budget", "6", "--no-progress")
    assert r.code == 0, r.err
    rows = {row["participant"]: row for row in lightsout_rows(pb("results", "--format", "json"))}
    assert rows["solver"]["accuracy"] == 100.0 and rows["solver"]["episodes"] == 3
    assert rows["random"]["episodes"] == 3 and rows["random"]["mean_actions"] == 6
    assert pb("replay", "--verify", "--all").code == 0


@pytest.mark.parametrize("setting", ["ingvp:text-multi", "ingvp:image-one", "tools:text"])
def test_a_model_behind_serve_model_solves_the_boards(pb, levels_file, serve_model, setting):
    r = pb("models", "add", "oracle", "--base-url", serve_model, "--model", "playbench-oracle",
           "--state-hints", "--max-retries", "0")
    assert r.code == 0, r.err
    r = pb("run", "--game", "lightsout", "--levels", levels_file, "--player", "model:oracle",
           "--setting", setting, "--no-progress")
    assert r.code == 0, r.err
    rows = lightsout_rows(pb("results", "--format", "json"))
    assert [(row["participant"], row["setting"], row["accuracy"]) for row in rows] == [
        ("oracle", setting, 100.0)]


def test_levels_and_solve_commands_use_the_plugins_bundled_pack(pb):
    """``playbench levels`` lists the plugin's pack (``KIND.sources()``), shows a range of it
    with the pack's optima, and ``playbench solve`` solves one of its levels by name."""
    levels = KIND.load("starter")
    r = pb("levels", "lightsout")
    assert r.code == 0, r.err
    assert r.out.strip().endswith("packs: starter"), r.out
    r = pb("levels", "lightsout", "--pack", "starter:2-3")
    assert r.code == 0, r.err
    lines = r.out.strip().splitlines()
    body = lines[next(i for i, line in enumerate(lines) if set(line.replace(" ", "")) == {"-"})
                 + 1:]
    assert [(int(line.split()[0]), int(line.split()[-1])) for line in body] == [
        (lv.number, lv.meta["optimal"]) for lv in levels[1:3]]
    r = pb("solve", "lightsout", "starter:2")
    assert r.code == 0, r.err
    assert r.out.splitlines()[0] == f"level 2: {levels[1].meta['optimal']} moves"
    r = pb("levels", "lightsout", "--pack", "nonesuch")
    assert r.code != 0 and "packs: starter" in r.err


def test_export_import_into_an_empty_database_and_results(pb, levels_file, tmp_path):
    assert pb("run", "--game", "lightsout", "--levels", levels_file, "--player", "solver",
              "--no-progress").code == 0
    out = tmp_path / "export"
    r = pb("export", "--format", "jsonl", "--out", str(out))
    assert r.code == 0, r.err
    episodes = [json.loads(line) for line in (out / "episodes.jsonl").read_text().splitlines()]
    assert len(episodes) == 3
    fresh = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
    r = pb("import", str(out), db=fresh)
    assert r.code == 0, r.err
    before = lightsout_rows(pb("results", "--format", "json"))
    after = lightsout_rows(pb("results", "--format", "json", db=fresh))
    assert after == before and after[0]["episodes"] == 3
    assert pb("replay", "--verify", "--all", db=fresh).code == 0


def test_results_view_model_lists_the_plugin(pb, levels_file, db_url):
    """The Results view's Qt-free model: the game menu and the table rows name Lights Out."""
    from playbench.app.ui.models.results_data import ResultsQuery, choices, compute, row_cells
    from playbench.db.engine import open_database
    from playbench.db.store import Store

    assert pb("run", "--game", "lightsout", "--levels", levels_file, "--player", "solver",
              "--no-progress").code == 0
    store = Store(open_database(db_url))
    assert "lightsout" in choices(store).games
    data = compute(store, ResultsQuery(game="lightsout"))
    cells = row_cells(data)
    assert [row[0] for row in cells] == ["lightsout"] and len(data.episodes) == 3


def solve_by_mouse_and_keys(qtbot, window, session, press: str = "Space",
                            recorded: str = "Space") -> None:
    """Press an optimal plan on the board: the first cell by a click, the second by moving the
    cursor there with the arrow keys and pressing ``press`` (a Qt key; the app names it
    ``recorded``), the rest by clicks; then check what was recorded."""
    plan = SPEC.solve(None, SPEC.make_rules({}).start(session.task.level), None)
    board = window.play_place.view("board").board
    first, second, *rest = plan
    click_frame(qtbot, board, *centre(session.geometry.area(session.state, first)))
    wait_steps(qtbot, session, 1)
    wait_ready(qtbot, session)
    # the cursor starts on the clicked cell; arrows move it (no action), Space presses it
    for _ in range(second.row - first.row):
        key(qtbot, board, "Down")
    for _ in range(abs(second.col - first.col)):
        key(qtbot, board, "Right" if second.col > first.col else "Left")
    assert window.play_place.view("board").input.selected == (second.row, second.col)
    assert len(session.steps) == 1
    key(qtbot, board, press)
    wait_steps(qtbot, session, 2)
    for cell in rest:
        wait_ready(qtbot, session)
        click_frame(qtbot, board, *centre(session.geometry.area(session.state, cell)))
    wait_end(qtbot, session)
    assert session.result.end_reason == "solved"
    steps = window.state.store.steps(session.episode_id)
    assert [s.action for s in steps] == [f"[{c.row}, {c.col}]" for c in plan]
    assert steps[0].raw == f"click:cell {first.row},{first.col}"
    assert steps[1].raw == f"key:{recorded} at cell {second.row},{second.col}"
    assert all(s.valid for s in steps)


def three_press_level() -> int:
    return next(lv.number for lv in KIND.load("starter") if lv.meta["optimal"] >= 3)


def test_a_person_solves_a_bundled_board_with_mouse_and_keys(make_window, qtbot):
    """The Library lists the plugin's bundled pack (``KIND.sources()``) like any other."""
    window = make_window()
    session = start_level(qtbot, window, "lightsout", "starter", three_press_level())
    solve_by_mouse_and_keys(qtbot, window, session)


def test_a_person_solves_a_board_from_an_added_level_file(config_dir, make_window, qtbot):
    """A level file in the plugin's own format, added to the Library as a person does."""
    path = str(LEVEL_DIR / "starter.txt")
    PrefsStore(config_dir).save(Prefs(annotator=ANNOTATOR, level_files={"lightsout": [path]}))
    window = make_window()
    session = start_level(qtbot, window, "lightsout", path, three_press_level())
    solve_by_mouse_and_keys(qtbot, window, session, press="Return", recorded="Enter")


def test_a_study_file_names_the_plugins_bundled_pack(tmp_path):
    """A study's ``levels`` field reaches the plugin's own packs through ``KIND.load``."""
    from playbench.app.studies import load_study_file
    from tests.studies.helpers import study_yaml

    spec = load_study_file(study_yaml(tmp_path, practice=[], tasks=[
        {"game": "lightsout", "levels": "starter:2-3"}]))
    assert [(t.task.game, t.task.level) for t in spec.scored] == [
        ("lightsout", lv) for lv in KIND.load("starter")[1:3]]


# -- a surface of the plugin's own: the lightpad kind plays on the plugin's button pad ------------


def test_the_pad_kind_names_the_plugins_own_surface():
    """The surface is found through its entry point only, by the name the kind gives."""
    from pb_lightsout.pad import KIND as PAD
    from pb_lightsout.pad_surface import SURFACE

    from playbench.app.ui.surface_registry import SurfaceRegistry

    surfaces = SurfaceRegistry()
    assert "lightpad" in surfaces.names()
    assert surfaces.for_game(PAD.name) is SURFACE and PAD.view == SURFACE.name


def pad_plan(session) -> list:
    from pb_lightsout.pad import PAD_SPEC
    return PAD_SPEC.solve(None, PAD_SPEC.make_rules({}).start(session.task.level), None)


def test_a_person_solves_a_board_on_the_plugins_button_pad(make_window, qtbot):
    """The Play place shows the plugin's own view; each button press is the action a model
    would send, recorded with the person's raw input, through the one episode host."""
    from pb_lightsout.pad import KIND as PAD

    window = make_window()
    number = next(lv.number for lv in PAD.load("starter") if lv.meta["optimal"] >= 3)
    session = start_level(qtbot, window, PAD.name, "starter", number)
    view = window.play_place.view_for(PAD.name)
    assert type(view).__module__ == "pb_lightsout.pad_surface"
    assert window.current_page() is view  # the place shows the pad, not the board
    plan = pad_plan(session)
    for cell in plan:
        wait_ready(qtbot, session)
        qtbot.waitUntil(lambda cell=cell: (cell.row, cell.col) in view.buttons)
        qtbot.mouseClick(view.buttons[(cell.row, cell.col)], Qt.MouseButton.LeftButton)
    wait_end(qtbot, session)
    assert session.result.end_reason == "solved"
    assert "Solved" in view.status.text()
    steps = window.state.store.steps(session.episode_id)
    assert [s.action for s in steps] == [f"[{c.row}, {c.col}]" for c in plan]
    assert [s.raw for s in steps] == [f"button:{c.row},{c.col}" for c in plan]


def test_giving_up_on_the_pad_asks_first_and_ends_the_episode(make_window, qtbot):
    """Give up on the plugin's surface goes through the host's question, as on every surface."""
    from pb_lightsout.pad import KIND as PAD

    from tests.ui.helpers import give_up

    window = make_window()
    session = start_level(qtbot, window, PAD.name, "starter", 1)
    view = window.play_place.view_for(PAD.name)
    give_up(qtbot, view)
    wait_end(qtbot, session)
    assert session.result.end_reason == "gave_up"


def test_a_script_plays_the_pad_kind_in_the_model_demo(make_window, qtbot):
    """The surface's model session: the solver plays a pad level in the Models place."""
    from pb_lightsout.pad import KIND as PAD

    window = make_window()
    session = start_level(qtbot, window, PAD.name, "starter", 2, player="solver")
    wait_end(qtbot, session, timeout=30000)
    assert session.result.end_reason == "solved"
    assert window.current_page() is window.demo


def test_a_model_behind_serve_model_solves_the_pad_kind(pb, serve_model):
    r = pb("models", "add", "oracle", "--base-url", serve_model, "--model", "playbench-oracle",
           "--state-hints", "--max-retries", "0")
    assert r.code == 0, r.err
    r = pb("run", "--game", "lightpad", "--levels", "starter:1-3", "--player", "model:oracle",
           "--setting", "tools:image", "--no-progress")
    assert r.code == 0, r.err
    r = pb("results", "--format", "json")
    rows = [row for row in json.loads(r.out)["rows"] if row["game"] == "lightpad"]
    assert [(row["participant"], row["accuracy"], row["episodes"]) for row in rows] == [
        ("oracle", 100.0, 3)]
