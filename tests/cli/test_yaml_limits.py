"""Issue 27, foreign files: every YAML the product reads - a browser-games catalog task, a study
file, a sweep file - refuses an alias bomb, deep nesting and an oversize file with a short
message naming the file (and line), and the real commands do so with flat memory."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from playbench.app.studies import StudyFileError, load_study_file
from playbench.app.studies.sweepfile import SweepFileError, load_sweep_file
from playbench.games.browser_games.catalog import Catalog, CatalogError
from playbench.games.yamlfile import MAX_BYTES, MAX_DEPTH
from tests.yaml_bombs import alias_bomb

BUNDLED = Path(__file__).resolve().parents[2] / "games" / "browser_games" / "bundled"
TASK = Path("catalog", "tasks", "03_breakout", "03_02.yaml")
SHORT = 600


def catalog_with(tmp: Path, body: str) -> tuple[Path, Path]:
    """A copy of the bundled catalog whose breakout task 2 ends with ``body``; (root, file)."""
    root = tmp / "catalog"
    shutil.copytree(BUNDLED, root)
    original = (BUNDLED / TASK).read_text()
    (root / TASK).write_text(original.replace("max_steps: 100\n", "") + body)
    return root, root / TASK


def study_with(tmp: Path, body: str) -> Path:
    path = tmp / "study.yaml"
    path.write_text("name: bombs\nbudget: {max_actions: 5}\n"
                    "tasks:\n  - {game: maze, levels: 'ingvp:1'}\n" + body)
    return path


def sweep_with(tmp: Path, body: str) -> Path:
    path = tmp / "sweep.yaml"
    path.write_text("name: bombs\nparticipants: [solver]\n"
                    "tasks:\n  - {game: maze, levels: 'ingvp:1'}\n" + body)
    return path


def oversize(key: str) -> str:
    return f"{key}:\n" + "  - xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n" * (MAX_BYTES // 48)


def nested(key: str) -> str:
    return f"{key}:\n" + "".join("  " * (i + 1) + "a:\n" for i in range(MAX_DEPTH + 5)) + \
        "  " * (MAX_DEPTH + 6) + "b: 1\n"


BODIES: dict[str, Callable[[str], str]] = {
    "alias bomb": lambda key: alias_bomb(key),
    "deep nesting": nested,
    "oversize": oversize,
}
EXPECTED = {
    "alias bomb": r": line \d+, column \d+: aliases stand for more than 100,000 values",
    "deep nesting": rf": line \d+, column \d+: lists and mappings nest deeper than {MAX_DEPTH}",
    "oversize": r": (file: )?too big: 4\.\d MB \(PlayBench reads YAML files of up to 4 MiB\)",
}


def read_catalog_task(tmp: Path, body: str) -> tuple[str, str]:
    root, path = catalog_with(tmp, body)
    with pytest.raises(CatalogError) as caught:
        Catalog(root).task("03_breakout", "03_02")
    return str(caught.value), str(path)


def read_study(tmp: Path, body: str) -> tuple[str, str]:
    path = study_with(tmp, body)
    with pytest.raises(StudyFileError) as caught:
        load_study_file(path)
    return str(caught.value), str(path)


def read_sweep(tmp: Path, body: str) -> tuple[str, str]:
    path = sweep_with(tmp, body)
    with pytest.raises(SweepFileError) as caught:
        load_sweep_file(path)
    return str(caught.value), str(path)


@pytest.mark.parametrize("bomb", list(BODIES))
@pytest.mark.parametrize("reader,key", [(read_catalog_task, "max_steps"), (read_study, "seed"),
                                        (read_sweep, "seed")],
                         ids=["catalog task", "study file", "sweep file"])
def test_every_yaml_reader_refuses_each_bomb_briefly(tmp_path, reader, key, bomb):
    message, path = reader(tmp_path, BODIES[bomb](key))
    assert message.startswith(path), message
    assert re.search(EXPECTED[bomb], message), message
    assert len(message) < SHORT, message


# ``python -m playbench ARGS`` that writes its own peak RSS (VmHWM) to the file named by
# PEAK_FILE when it exits. Not ru_maxrss: a child's ru_maxrss starts at its parent's RSS at
# fork (a pytest worker's few hundred MB) and exec does not reset it; VmHWM belongs to the
# process image after exec.
MEASURED = """
import atexit, os, runpy, sys
def peak():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            open(os.environ["PEAK_FILE"], "w").write(line.split()[1])
atexit.register(peak)
sys.argv = ["playbench", *sys.argv[1:]]
runpy.run_module("playbench", run_name="__main__", alter_sys=True)
"""


def run_measured(args: list[str], cwd: Path, timeout: float = 90) -> tuple[int, str, float]:
    """(exit code, stderr, peak RSS in MB) of ``python -m playbench ARGS``, held to 2 GB of
    address space (by the shell that execs it) and killed after ``timeout`` seconds."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", PLAYBENCH_CONFIG_DIR=str(cwd / "config"),
               PEAK_FILE=str(cwd / "peak.txt"))
    command = shlex.join([sys.executable, "-c", MEASURED, *args])
    err_path = cwd / "stderr.txt"
    with open(err_path, "wb") as err:
        proc = subprocess.Popen(["/bin/sh", "-c", f"ulimit -v {2 * 1024 ** 2}; exec {command}"],
                                stdout=subprocess.DEVNULL, stderr=err, cwd=cwd, env=env)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    peak = cwd / "peak.txt"
    peak_mb = int(peak.read_text()) / 1024 if peak.exists() else float("inf")
    return proc.returncode, err_path.read_text(errors="replace"), peak_mb


def catalog_command(tmp: Path) -> tuple[list[str], Path]:
    root, path = catalog_with(tmp, alias_bomb("max_steps"))
    return ["run", "--game", "browser-games", "--tasks", "03_breakout:2", "--player", "idle",
            "--no-progress", "--db", f"sqlite:///{tmp / 'db.sqlite3'}",
            "--catalog", str(root)], path


def study_command(tmp: Path) -> tuple[list[str], Path]:
    path = study_with(tmp, alias_bomb("seed"))
    return ["study", "create", str(path), "--db", f"sqlite:///{tmp / 'db.sqlite3'}"], path


def sweep_command(tmp: Path) -> tuple[list[str], Path]:
    path = sweep_with(tmp, alias_bomb("seed"))
    return ["sweep", "run", str(path), "--db", f"sqlite:///{tmp / 'db.sqlite3'}"], path


@pytest.mark.parametrize("command", [catalog_command, study_command, sweep_command],
                         ids=["run browser-games", "study create", "sweep run"])
def test_the_commands_refuse_an_alias_bomb_with_flat_memory(tmp_path, command):
    args, path = command(tmp_path)
    code, err, peak_mb = run_measured(args, tmp_path)
    assert code in (1, 2), (code, err[-500:])
    assert "Traceback" not in err and len(err) < SHORT, err[-500:]
    assert str(path) in err and "aliases stand for more than 100,000 values" in err, err
    # a playbench process that reads nothing costs about 75 MB here (its imports); the bomb
    # stands for 10^9 strings, so expanding any of it would cost gigabytes
    assert peak_mb < 250, peak_mb
