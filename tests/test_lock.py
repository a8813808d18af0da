"""The lock file: pyproject.toml and uv.lock agree, this environment holds exactly what the lock
says, and a release published after locking changes nothing that `./bootstrap` installs.

Everything here runs offline: uv validates the lock against pyproject.toml without asking the
index, and the "newer release" is a local folder of wheels made by the test.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest
from uv import find_uv_bin

ROOT = Path(__file__).resolve().parents[1]
SYNC = ["sync", "--frozen", "--compile-bytecode", "--extra", "test", "--extra", "postgres"]
"""What `./bootstrap test` installs (keep in step with it)."""


def uv(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if not k.startswith("UV_")}
    return subprocess.run([find_uv_bin(), "--no-progress", *args], cwd=cwd, text=True,
                          capture_output=True, env={**base, **(env or {})}, timeout=300)


def test_bootstrap_installs_with_the_command_these_tests_check():
    text = (ROOT / "bootstrap").read_text()
    assert " ".join(SYNC) in text
    assert "sync --frozen --compile-bytecode --extra postgres --no-dev --inexact" in text


@pytest.mark.parametrize("module", ["sqlalchemy.sql.compiler", "numpy", "pydantic", "jinja2",
                                    "playbench.app.core.episode", "playbench.db.store"])
def test_installed_code_comes_with_its_bytecode(module):
    """Every process starts from compiled bytecode, even where PYTHONDONTWRITEBYTECODE keeps
    Python from writing any: bootstrap compiles it at install (without it, importing
    SQLAlchemy took 0.61 s instead of 0.26 s in every `playbench` process)."""
    import importlib
    import importlib.util

    source = importlib.import_module(module).__file__
    assert source is not None
    cached = Path(importlib.util.cache_from_source(source))
    assert cached.is_file(), f"{module}: no bytecode at {cached}"


def test_the_lock_agrees_with_pyproject():
    run = uv("lock", "--check", "--offline", cwd=ROOT)
    assert run.returncode == 0, run.stderr


def test_a_dependency_added_to_pyproject_alone_fails_the_check(tmp_path):
    for name in ("pyproject.toml", "uv.lock", "README.md"):
        shutil.copy(ROOT / name, tmp_path / name)
    shutil.copytree(ROOT / "tests" / "plugins" / "lightsout", tmp_path / "tests" / "plugins"
                    / "lightsout")
    assert uv("lock", "--check", "--offline", cwd=tmp_path).returncode == 0
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace(
        '"pygame>=2.5",', '"pygame>=2.5",\n    "attrs>=23",', 1))
    # The same copy passed above: the planted line is the only difference. (Offline, uv says
    # the lock must be updated, or that it cannot resolve the new requirement without the index.)
    run = uv("lock", "--check", "--offline", cwd=tmp_path)
    assert run.returncode != 0
    assert "needs to be updated" in run.stderr or "No solution found" in run.stderr, run.stderr


def test_this_environment_is_exactly_the_lock():
    """Every locked package at its locked version, and nothing else (what `pip freeze` shows
    equals the lock for this interpreter)."""
    if Path(sys.prefix).resolve() != (ROOT / ".venv").resolve():
        pytest.fail(f"run from the .venv that ./bootstrap test makes, not {sys.prefix}")
    run = uv(*SYNC, "--check", cwd=ROOT, env={"UV_PROJECT_ENVIRONMENT": sys.prefix})
    assert run.returncode == 0, run.stdout + run.stderr


# --- a newer release published after locking -------------------------------------------------

def wheel(folder: Path, name: str, version: str) -> None:
    """A minimal pure-Python wheel whose module says its version."""
    dist = f"{name}-{version}.dist-info"
    files = {
        f"{name}/__init__.py": f'VERSION = "{version}"\n',
        f"{dist}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
        f"{dist}/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\n"
                         "Tag: py3-none-any\n",
    }
    files[f"{dist}/RECORD"] = "".join(f"{f},,\n" for f in files) + f"{dist}/RECORD,,\n"
    with zipfile.ZipFile(folder / f"{name}-{version}-py3-none-any.whl", "w") as z:
        for path, text in files.items():
            z.writestr(path, text)


def installed_version(venv: Path) -> str:
    out = subprocess.run([str(venv / "bin" / "python"), "-c",
                          "import pbtoy; print(pbtoy.VERSION)"], capture_output=True, text=True)
    return out.stdout.strip()


def test_a_release_published_after_locking_is_not_installed(tmp_path):
    index = tmp_path / "index"
    index.mkdir()
    wheel(index, "pbtoy", "1.0")
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text(textwrap.dedent("""\
        [project]
        name = "app"
        version = "0"
        requires-python = ">=3.11"
        dependencies = ["pbtoy>=1.0"]
        """))
    where = ["--no-index", "--find-links", str(index)]
    python = ["--python", sys.executable]
    assert uv("lock", *where, *python, cwd=project).returncode == 0
    wheel(index, "pbtoy", "1.1")  # published after the lock was made

    for n in (1, 2):  # two fresh installs from the same lock
        venv = tmp_path / f"fresh-{n}"
        run = uv("sync", "--frozen", "--no-install-project", *where, *python, cwd=project,
                 env={"UV_PROJECT_ENVIRONMENT": str(venv)})
        assert run.returncode == 0, run.stderr
        assert installed_version(venv) == "1.0"
    # The check can fail: without the lock the same range takes the newer release.
    loose = tmp_path / "loose"
    assert uv("venv", *python, str(loose), cwd=project).returncode == 0
    run = uv("pip", "install", *where, "--python", str(loose / "bin" / "python"), "pbtoy>=1.0",
             cwd=project)
    assert run.returncode == 0, run.stderr
    assert installed_version(loose) == "1.1"
