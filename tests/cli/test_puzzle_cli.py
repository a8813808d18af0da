"""Level files on the command line for all six games: export the shipped ``ingvp`` pack in
ING-VP's own format, import it back unchanged, and play levels straight from such a file.

Most calls go through ``playbench.app.cli.main`` in this process (the same parser and handlers as
the
``playbench`` executable, without a Python start-up per call); one test runs the real command.
"""

from __future__ import annotations

import json

import pytest

from playbench.app.cli import main
from playbench.games import build_packs
from playbench.games.packs import detect_format, load_file, resolve
from playbench.games.registry import get
from tests.games.bundled import BOARD_GAMES

JSON_GAMES = ("hanoi", "npuzzle", "queens", "sudoku")


@pytest.fixture
def call(tmp_path, monkeypatch, capsys):
    """``call("levels", ...)`` -> (exit code, stdout, stderr), run in a fresh directory."""
    monkeypatch.chdir(tmp_path)

    def run(*args: str) -> tuple[int, str, str]:
        try:
            code = main(list(args))
        except SystemExit as stop:  # usage errors leave through argparse
            code = stop.code
        out = capsys.readouterr()
        return code, out.out, out.err

    return run


def rows(out: str) -> list[list[str]]:
    lines = out.strip().splitlines()
    dash = next(i for i, line in enumerate(lines) if set(line.replace(" ", "")) == {"-"})
    return [line.split() for line in lines[dash + 1:]]


def export_ingvp(call, game: str, name: str = "their.txt") -> str:
    code, out, err = call("levels", game, "--pack", "ingvp", "--export", name, "--format",
                          "ingvp", "--no-solve")
    assert code == 0, err
    assert f"wrote 50 levels to {name} (ingvp)" in out
    return name


@pytest.mark.parametrize("game", BOARD_GAMES)
def test_ingvp_export_then_import_gives_the_same_levels(call, tmp_path, game):
    spec = get(game)
    name = export_ingvp(call, game)
    theirs = tmp_path / name
    ours = resolve(spec, "ingvp").levels
    imported = load_file(spec, theirs)  # format detected from the content
    assert [(lv.number, lv.text) for lv in imported] == [(lv.number, lv.text) for lv in ours]
    if game in JSON_GAMES:
        assert detect_format(spec, theirs, theirs.read_text()) == "ingvp"
    # import, then export again: the identity, byte for byte
    code, _, err = call("levels", game, "--import", name, "--export", "again.txt", "--format",
                        "ingvp", "--no-solve")
    assert code == 0, err
    assert (tmp_path / "again.txt").read_bytes() == theirs.read_bytes()


@pytest.mark.parametrize("game", BOARD_GAMES)
def test_our_pack_format_round_trips_byte_for_byte(call, tmp_path, game):
    pack = build_packs.find(f"{game}/ingvp")
    shipped = build_packs.pack_path(pack)
    code, _, err = call("levels", game, "--pack", "ingvp", "--out", "ours" + shipped.suffix,
                        "--no-solve")
    assert code == 0, err
    assert (tmp_path / ("ours" + shipped.suffix)).read_bytes() == shipped.read_bytes()
    code, _, err = call("levels", game, "--import", str(shipped), "--out", "back" +
                        shipped.suffix, "--no-solve")
    assert code == 0, err
    assert (tmp_path / ("back" + shipped.suffix)).read_bytes() == shipped.read_bytes()


@pytest.mark.parametrize("game", BOARD_GAMES)
def test_play_levels_from_an_ingvp_file(call, db_url, game):
    name = export_ingvp(call, game)
    for forced in ((), ("--level-format", "ingvp")):
        code, out, err = call("run", "--game", game, "--levels", f"{name}:3-4", "--player",
                              "solver", "--no-progress", "--db", db_url, *forced)
        assert code == 0, err
        body = rows(out)
        assert [r[2:6] for r in body[:2]] == [["solved", "1", "100", "100"]] * 2
        assert body[-1][0] == "mean" and "pooled over all" in out


@pytest.mark.parametrize("game", BOARD_GAMES)
def test_play_a_pack_file_by_path_with_its_format_forced(call, db_url, game):
    spec = get(game)
    path = build_packs.pack_path(build_packs.find(f"{game}/ingvp"))
    code, out, err = call("run", "--game", game, "--levels", f"{path}:50", "--player", "solver",
                          "--level-format", spec.default_format, "--db", db_url, "--no-progress")
    assert code == 0, err
    assert rows(out)[0][2:4] == ["solved", "1"]


@pytest.mark.parametrize("game", JSON_GAMES)
def test_forcing_the_wrong_format_is_an_error_naming_the_file(call, db_url, game):
    name = export_ingvp(call, game)
    code, _, err = call("run", "--game", game, "--levels", name, "--player", "solver",
                        "--level-format", "pack", "--db", db_url, "--no-progress")
    assert code == 1 and err.startswith(f"playbench run: {name}:1: level 1: missing field")


def test_the_installed_command_plays_an_ingvp_file(cli):
    code = cli("levels", "sudoku", "--pack", "ingvp:1-3", "--export", "s.jsonl", "--format",
               "ingvp", "--no-solve")
    assert code.code == 0, code.err
    r = cli("run", "--game", "sudoku", "--levels", "s.jsonl", "--player", "idle",
            "--no-progress")
    assert r.code == 0, r.err
    table = rows(r.out)
    # end, solved, completion (10 blanks x 10 points = 0), efficiency (no action: none)
    assert [x[2:6] for x in table[:3]] == [["gave_up", "0", "0", "-"]] * 3
    assert table[3] == ["mean", "0", "0", "-", "-", "0"]
    assert "efficiency: mean of levels - " in r.out


@pytest.mark.parametrize("change,field", [
    ({"number": 10**30}, "number"),       # main: OverflowError storing the task in SQLite
    ({"optimal": "eight"}, "optimal"),    # main: TypeError when the episode was scored
])
def test_run_refuses_a_pack_line_of_the_wrong_type_before_playing(call, db_url, tmp_path,
                                                                  change, field):
    code, _, err = call("levels", "hanoi", "--pack", "ingvp:1", "--export", "one.jsonl",
                        "--format", "pack", "--no-solve")
    assert code == 0, err
    path = tmp_path / "one.jsonl"
    record = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**record, **change}) + "\n", encoding="utf-8")
    code, _, err = call("run", "--game", "hanoi", "--levels", "one.jsonl", "--player", "solver",
                        "--db", db_url, "--no-progress")
    assert code == 1 and err.startswith(f"playbench run: one.jsonl:1: level 1: field '{field}' "
                                        "must be a ")
