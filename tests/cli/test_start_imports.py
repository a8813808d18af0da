"""The command line answers ``--version`` and ``--help`` without loading what only a command's
work needs (issue 32): a whole process is started the way a user starts it, and the modules
it imported are read from ``python -X importtime``. Deterministic - it counts modules, not
milliseconds; the wall times are measured by benchmarks/bench_cli_start.py."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

HEAVY = ("sqlalchemy", "alembic", "numpy", "scipy", "matplotlib", "PIL", "pygame", "PySide6",
         "playwright", "openai", "httpx", "pydantic", "yaml", "jinja2", "tqdm", "gymnasium",
         "qasync", "keyring", "ray")
"""Third-party packages none of the start-up paths may import."""

HEAVY_STDLIB = ("asyncio", "ssl", "sqlite3", "concurrent")
"""Standard-library packages only a command's work needs (asyncio alone was 20-45 ms of a
0.13 s ``--version``): commands, the kinds' included, import them inside the function."""

def command_modules() -> tuple[str, ...]:
    """The modules of the commands kinds add (``playbench.commands``) and their packages:
    ``--help`` lists those commands, so it loads them (each is light by contract)."""
    from importlib.metadata import entry_points
    names: set[str] = set()
    for ep in entry_points(group="playbench.commands"):
        parts = ep.module.split(".")
        names.update(".".join(parts[:i]) for i in range(2, len(parts) + 1))
    return tuple(sorted(names))


LIGHT_PLAYBENCH = ("playbench", "playbench.app", "playbench.app.cli", "playbench.app.choices",
                   "playbench.games", "playbench.games.commands", "playbench.games.plugins",
                   *command_modules())


def imported_modules(*args: str) -> list[str]:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "playbench", *args],
                          capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    names = []
    for line in done.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            name = line.rsplit("|", 1)[1].strip()
            if name != "imported package":
                names.append(name)
    assert "playbench.app.cli" in names, "importtime printed nothing to read"
    return names


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["run", "--help"],
                                  ["study", "--help"], ["results", "--help"],
                                  ["export", "--help"]])
def test_start_up_imports_no_heavy_package(args):
    names = imported_modules(*args)
    heavy = sorted({n for n in names if n.split(".")[0] in HEAVY + HEAVY_STDLIB})
    assert heavy == [], f"playbench {' '.join(args)} imported {heavy}"
    ours = sorted(n for n in names if n.startswith("playbench")
                  and not n.startswith("playbench.app.cli") and n not in LIGHT_PLAYBENCH)
    assert ours == [], f"playbench {' '.join(args)} imported {ours}"


def test_a_command_still_loads_what_it_uses(tmp_path):
    """The work of a command (here ``games``) runs with its imports made inside it."""
    done = subprocess.run([sys.executable, "-m", "playbench", "games"], capture_output=True,
                          text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "sokoban" in done.stdout


def test_a_run_without_a_model_loads_no_model_client(tmp_path):
    """A solver run hands its environments the means to make a model judge, but makes none:
    the OpenAI client (about 1 s of imports per process) stays unloaded."""
    names = imported_modules("run", "--game", "sokoban", "--levels", "ingvp:1", "--player",
                             "solver", "--no-progress", "--db",
                             f"sqlite:///{tmp_path / 'run.sqlite3'}")
    assert "playbench.app.core.episode" in names  # the run did its work
    loaded = sorted({n.split(".")[0] for n in names} & {"openai", "httpx", "jinja2"})
    assert loaded == [], f"a solver run imported {loaded}"
