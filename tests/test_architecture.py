"""The import contracts of docs/architecture.md: Qt only in app/ui and never in app/ui/models;
games/ and evaluators/ below app/ and db/; only db/ imports SQLAlchemy and the table models; the
layer order inside app/ down to resources/; no cycles between sibling packages; task kinds
independent of each other, the shared game layers below every kind, and the app reaching kinds
only through the registry and the shared layers.

The contracts live in pyproject.toml ([tool.importlinter]); import-linter checks them on the real
code, and a planted violation in a copy of the tree shows each check can fail.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

pytestmark = pytest.mark.lint

ROOT = Path(__file__).resolve().parents[1]
LINT = [sys.executable, "-c", "from importlinter.cli import lint_imports_command; "
        "lint_imports_command()"]


PACKAGES = ("app", "games", "evaluators", "db", "resources")


def contract_count() -> int:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return len(config["tool"]["importlinter"]["contracts"])


def lint(cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([*LINT, "--no-cache"], cwd=cwd, capture_output=True, text=True,
                          env={"PYTHONPATH": str(cwd), "PATH": "/usr/bin:/bin"})


def plant(tmp_path: Path, where: str, line: str) -> None:
    """A copy of the checked packages and the contracts, with ``line`` written to ``where``."""
    for pkg in PACKAGES:
        shutil.copytree(ROOT / pkg, tmp_path / pkg,
                        ignore=shutil.ignore_patterns("__pycache__", "*.png"))
    shutil.copytree(ROOT / "playbench", tmp_path / "playbench", symlinks=True,
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / where).write_text(line)


def test_the_real_tree_keeps_the_contract():
    result = lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"Contracts: {contract_count()} kept, 0 broken" in result.stdout


@pytest.mark.parametrize("where,line", [
    ("games/planted.py", "import PySide6.QtCore\n"),
    ("app/core/planted.py", "def later():\n    import qasync\n"),
    ("evaluators/planted.py", "from playbench.db import models\n"),
    ("games/planted.py", "from playbench.app.core import types\n"),
    ("db/planted.py", "from shiboken6 import Shiboken\n"),
])
def test_a_violation_breaks_the_check(tmp_path, where, line):
    plant(tmp_path, where, line)
    result = lint(tmp_path)
    assert result.returncode != 0, result.stdout
    assert "broken" in result.stdout


@pytest.mark.parametrize("where,line", [
    ("app/exports/planted.py", "import sqlalchemy as sa\n"),
    ("resources/planted.py", "from sqlalchemy.orm import Session\n"),
    ("app/results/planted.py", "from playbench.db.models import Step\n"),
    ("app/core/planted.py", "def later():\n    from playbench.db import models\n"),
])
def test_tables_outside_db_break_the_check(tmp_path, where, line):
    """SQLAlchemy and the table models belong to db/: a planted use elsewhere breaks that
    contract by name (and the tree without it keeps it, above)."""
    plant(tmp_path, where, line)
    result = lint(tmp_path)
    assert result.returncode != 0, result.stdout
    assert "Only db knows the tables BROKEN" in result.stdout


@pytest.mark.parametrize("where,line,contract", [
    ("app/core/planted.py", "from playbench.app.players import factory\n", "Layers"),
    ("app/agents/planted.py", "def later():\n    import playbench.app.players.human\n", "Layers"),
    ("app/studies/planted.py", "import playbench.app.results.leaderboard\n", "Layers"),
    ("games/planted.py", "import playbench.app.core.episode\n", "Layers"),
    ("resources/planted.py", "from playbench.games import base\n", "Layers"),
    ("app/ui/models/planted.py", "from PySide6 import QtCore\n", "View models are Qt-free"),
    ("app/ui/models/planted.py", "import playbench.app.ui.play\n",
     "No cycles between sibling packages"),
])
def test_layers_models_and_cycles_break_the_check(tmp_path, where, line, contract):
    """The layer order of docs/architecture.md, Qt-free view models and acyclic siblings: each
    planted violation breaks the contract it names."""
    plant(tmp_path, where, line)
    result = lint(tmp_path)
    assert result.returncode != 0, result.stdout
    broken = [ln for ln in result.stdout.splitlines() if ln.endswith("BROKEN")]
    assert any(ln.startswith(contract) for ln in broken), result.stdout


@pytest.mark.parametrize("where,line,contract", [
    ("games/sokoban/planted.py", "from playbench.games.sudoku import rules\n",
     "Task kinds are independent of each other"),
    ("games/css_repair/planted.py", "def later():\n    import playbench.games.web.tasks\n",
     "Task kinds are independent of each other"),
    ("games/browser/planted.py", "from playbench.games.web import tasks\n",
     "Shared game layers import no kind"),
    ("games/planted_shared.py", "from playbench.games.football import kind\n",
     "Shared game layers import no kind"),
    ("app/core/planted.py", "from playbench.games.web.tasks import GAME\n",
     "The app imports no kind's internals"),
    ("app/ui/models/planted.py", "import playbench.games.external.kind\n",
     "The app imports no kind's internals"),
    # the let-through imports are the named modules' only, not the rest of their package
    ("app/cli/planted.py", "from playbench.games.web.tasks import GAME\n",
     "The app imports no kind's internals"),
    ("app/ui/models/planted.py", "from playbench.games.css_repair.tools import Call\n",
     "The app imports no kind's internals"),
])
def test_kinds_and_their_importers_break_the_check(tmp_path, where, line, contract):
    """A kind importing another kind, a shared layer importing a kind, and the app reaching
    into a kind's package each break the contract they name."""
    if where == "games/planted_shared.py":  # a new top-level module is listed like the rest
        config = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
        plant(tmp_path, where, line)
        (tmp_path / "pyproject.toml").write_text(config.replace(
            '"playbench.games.yamlfile",\n]', '"playbench.games.yamlfile",\n'
            '    "playbench.games.planted_shared",\n]', 1))
    else:
        plant(tmp_path, where, line)
    result = lint(tmp_path)
    assert result.returncode != 0, result.stdout
    # a contract with let-through imports reports "BROKEN (N ignored imports)"
    assert any(ln.startswith(f"{contract} BROKEN") for ln in result.stdout.splitlines()), \
        result.stdout


def _contract(name: str) -> dict:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    found = [c for c in config["tool"]["importlinter"]["contracts"] if c["name"] == name]
    assert len(found) == 1, name
    return found[0]


def test_every_games_package_is_a_kind_or_a_shared_layer():
    """Each package and module under games/ is in exactly one of the two lists the contracts
    use - the independent kinds, or the shared layers - and every installed kind's package is
    a kind there, so a new kind or a new shared module cannot sit outside both checks."""
    import importlib.metadata

    from playbench.games.kind import ENTRY_POINT_GROUP

    kinds = set(_contract("Task kinds are independent of each other")["modules"])
    shared = _contract("Shared game layers import no kind")
    assert set(shared["forbidden_modules"]) == kinds
    layers = set(shared["source_modules"])
    assert not kinds & layers
    found = {f"playbench.games.{p.name}" for p in (ROOT / "games").iterdir()
             if (p / "__init__.py").is_file()}
    found |= {f"playbench.games.{p.stem}" for p in (ROOT / "games").glob("*.py")
              if p.stem != "__init__"}
    assert found == kinds | layers, (sorted(found - kinds - layers), sorted(kinds | layers - found))
    assert set(_contract("The app imports no kind's internals")["forbidden_modules"]) == kinds
    points = importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
    bundled = {".".join(p.module.split(".")[:3]) for p in points
               if p.module.startswith("playbench.games.")}
    assert len(bundled) >= 12 and bundled <= kinds, sorted(bundled - kinds)


def old_top_level_imports(source: str) -> list[int]:
    """Lines of ``source`` that import a package by its repository name (``games.kind``) instead
    of its installed one (``playbench.games.kind``): installed, those names do not exist."""
    import ast

    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        if any(name.split(".")[0] in PACKAGES for name in names):
            lines.append(node.lineno)
    return lines


def test_everything_imports_the_packages_by_their_installed_name():
    roots = [*PACKAGES, "tests", "benchmarks", "docs", "packaging", "playbench"]
    found = []
    for root in roots:
        for path in sorted((ROOT / root).rglob("*.py")) if (ROOT / root).is_dir() else []:
            if root != "playbench" and path.is_relative_to(ROOT / "playbench"):
                continue
            lines = old_top_level_imports(path.read_text(encoding="utf-8"))
            found += [f"{path.relative_to(ROOT)}:{n}" for n in lines]
    assert not found, f"imports by repository name (write playbench.<package>): {found[:20]}"


@pytest.mark.parametrize("source,bad", [
    ("from games.kind import TaskKind\n", [1]),
    ("import os\nimport db.engine\n", [2]),
    ("def f():\n    from app import cli\n", [2]),
    ("from playbench.games.kind import TaskKind\nfrom . import sibling\nimport gamesx\n", []),
])
def test_the_old_import_check_can_fail(source, bad):
    assert old_top_level_imports(source) == bad
