"""Issue 27, foreign input: `playbench levels GAME --generate` refuses a size its board cannot be
played at before allocating anything, naming the allowed range; the largest allowed size still
generates, loads and plays a step."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from playbench.games import registry
from playbench.games.base import BoardEnv
from playbench.games.packs import MAX_BOARD_SIDE, load_file

# Runs each command line through the real CLI entry point, one after the other in one child
# process (starting Python once instead of ten times), and reports each exit code and stderr.
DRIVER = """
import contextlib, io, json, sys
from playbench.app.cli import main
out = []
for argv in json.loads(sys.argv[1]):
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            code = main(argv)
        except SystemExit as stop:
            code = stop.code
        except BaseException as exc:  # what an unbounded generator runs into
            code, err = "raised", io.StringIO(type(exc).__name__ + ": " + str(exc)[:200])
    out.append({"code": code, "err": err.getvalue()})
# VmHWM, not ru_maxrss: the latter starts at the forking pytest worker's RSS
peak = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:")) / 1024
print(json.dumps({"results": out, "peak_mb": peak}))
"""

REFUSALS = [
    (["maze", "--size", "1000001x1000001"], "maze sides must be odd, from 5 to 99 (5x5 to 99x99: "
                                            "PlayBench plays boards of up to 100x100), got "
                                            "1000001x1000001"),
    (["maze", "--size", "101x101"], "maze sides must be odd, from 5 to 99"),
    (["sokoban", "--size", "1000000x1000000", "--boxes", "3"],
     "room sides must be from 4 to 100 (4x4 to 100x100, the largest board PlayBench plays), "
     "got 1000000x1000000"),
    (["sokoban", "--size", "101x50"], "room sides must be from 4 to 100"),
    (["hanoi", "--param", "disks=12"], "12 disks have 16,777,216 positions, more than the "
                                       "65,536 the generator lists; ask for an exact distance"),
    (["hanoi", "--param", "disks=12", "--param", "max_optimal=300"],
     "the positions of 12 disks up to 300 moves from the goal are more than the 65,536"),
    (["hanoi", "--param", "disks=13", "--optimal", "8"], "disks must be 1..12, got 13"),
    (["npuzzle", "--size", "9x9"], "this kind plays the 15-puzzle's 4x4 board only, got 9x9"),
    (["npuzzle", "--size", "5x5"], "this kind plays the 15-puzzle's 4x4 board only, got 5x5"),
    (["npuzzle", "--size", "4x5"], "npuzzle boards are square: give --size NxN, got 4x5"),
    (["sudoku", "--size", "10x10"], "sudoku boards have one size; --size does not apply"),
    (["sudoku", "--param", "blanks=65"], "blanks must be 1..64"),
    (["queens", "--param", "placed=9"], "between 1 and 8 queens can be pre-placed, got 9"),
]


def test_each_generator_refuses_what_its_board_cannot_play(tmp_path):
    argvs = [["levels", game, "--generate", "1", "--no-solve", *rest]
             for game, *rest in (r for r, _ in REFUSALS)]
    # 2 GB of address space (the old maze and Sokoban generators asked for more than 3 GB), set
    # by the shell that execs Python
    command = shlex.join([sys.executable, "-c", DRIVER, json.dumps(argvs)])
    proc = subprocess.run(
        ["/bin/sh", "-c", f"ulimit -v {2 * 1024 ** 2}; exec {command}"], capture_output=True,
        text=True, cwd=tmp_path, timeout=300, env=dict(os.environ, SDL_VIDEODRIVER="dummy"))
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    for (argv, message), got in zip(REFUSALS, report["results"], strict=True):
        game = argv[0]
        assert got["code"] == 2, (argv, got)
        assert got["err"].startswith("playbench levels: error: "), (argv, got)
        assert message in got["err"], (argv, got["err"])
        assert "Traceback" not in got["err"] and game in got["err"]
    # refused before allocating: the whole run stays near the imports' own footprint
    assert report["peak_mb"] < 400, report["peak_mb"]


LARGEST = [
    ("maze", {"width": 99, "height": 99}),
    ("sokoban", {"width": MAX_BOARD_SIDE, "height": MAX_BOARD_SIDE, "boxes": 1}),
    ("npuzzle", {"n": 4}),
    ("hanoi", {"disks": 12, "optimal": 8}),
    ("sudoku", {"blanks": 40}),
    ("queens", {"placed": 1}),
]


@pytest.mark.parametrize("game,params", LARGEST, ids=[g for g, _ in LARGEST])
def test_the_largest_allowed_size_generates_loads_and_plays(tmp_path, game, params):
    spec = registry.get(game)
    [level] = spec.generate(1, 7, **params)
    path = tmp_path / f"big.{game}"
    path.write_text(spec.formats[spec.default_format].dump([level]))
    [loaded] = load_file(spec, Path(path))  # the loader's board limit lets it through
    env: BoardEnv = BoardEnv(spec)
    env.reset(loaded)
    move = env.rules.legal_moves(env.state)[0]
    env.step(move)
    frame = env.render()
    assert frame.ndim == 3 and frame.shape[2] == 3
