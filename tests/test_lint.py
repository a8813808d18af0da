"""ruff and mypy run as part of the test suite, with the configuration in pyproject.toml.

Any finding fails the test and is printed. Planted findings in a scratch tree with the same
configuration show that both checks can fail, and that mypy's strict flags reach the lower
layers (app.core, games, evaluators, db) and stop there.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.lint

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("app", "games", "evaluators", "db")


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=cwd, capture_output=True, text=True)


def scratch_tree(tmp_path: Path, files: dict[str, str]) -> Path:
    """pyproject.toml, the four top-level packages holding only ``files``, and the ``playbench``
    package that links them as the repository's does."""
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / "playbench").mkdir()
    (tmp_path / "playbench" / "__init__.py").write_text("")
    for pkg in LAYERS:
        (tmp_path / pkg).mkdir()
        (tmp_path / pkg / "__init__.py").write_text("")
        (tmp_path / "playbench" / pkg).symlink_to(Path("..") / pkg)
    for where, text in files.items():
        path = tmp_path / where
        path.parent.mkdir(parents=True, exist_ok=True)
        for parent in path.relative_to(tmp_path).parents:
            init = tmp_path / parent / "__init__.py"
            if parent != Path(".") and not init.exists():
                init.write_text("")
        path.write_text(text)
    return tmp_path


def test_ruff_finds_nothing():
    result = run(["ruff", "check", "--no-cache", "--output-format", "concise", "."], ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_finds_nothing():
    result = run(["mypy"], ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_reports_a_planted_finding(tmp_path):
    tree = scratch_tree(tmp_path, {"games/planted.py": "import os\n\n\ndef f() -> int:\n"
                                                       "    return 1\n"})
    result = run(["ruff", "check", "--no-cache", "--output-format", "concise", "."], tree)
    assert result.returncode != 0
    assert "games/planted.py:1:8: F401" in result.stdout


def test_mypy_is_strict_in_the_lower_layers_only(tmp_path):
    untyped = "def double(x):\n    return x * 2\n"
    tree = scratch_tree(tmp_path, {
        "games/planted.py": untyped,
        "app/core/planted.py": untyped,
        "app/ui/planted.py": untyped,
        "evaluators/wrong.py": "def n() -> int:\n    return 'one'\n",
    })
    result = run(["mypy", "--cache-dir", str(tmp_path / ".cache")], tree)
    assert result.returncode != 0
    out = result.stdout
    assert "games/planted.py:1: error: Function is missing a type annotation" in out, out
    assert "app/core/planted.py:1: error: Function is missing a type annotation" in out, out
    assert "evaluators/wrong.py:2: error: Incompatible return value type" in out, out
    assert "app/ui/planted.py" not in out, out
