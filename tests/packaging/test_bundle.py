"""The self-contained desktop bundle (issue 18): packaging/build.sh freezes PlayBench with
PyInstaller, and the result runs with no Python environment at all.

The bundle is built once per test session (module fixture; nothing is kept between sessions),
with the dependencies of the interpreter running the tests (``--deps-from``), under ``nice``.
Every run of it gets an empty HOME, a PATH of /usr/bin and /bin only and none of this
process's Python or PlayBench variables, so it can only work from what it carries and the
per-user places platformdirs gives it under that HOME.
"""

from __future__ import annotations

import hashlib
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic import command

from playbench.db import engine as db_engine
from playbench.db.engine import head_revision

ROOT = Path(__file__).resolve().parents[2]
GENERIC = {"app", "db", "games", "evaluators", "resources"}
pytestmark = [pytest.mark.bundle, pytest.mark.timeout(3600)]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The build's work directory; the unpacked tarball is its last line of output."""
    work = tmp_path_factory.mktemp("bundle")
    run = subprocess.run(["bash", str(ROOT / "packaging" / "build.sh"),  # nice inside
                          "--deps-from", sys.prefix, "--work", str(work / "work"),
                          "--out", str(work / "dist")],
                         capture_output=True, text=True, timeout=3000)
    assert run.returncode == 0, run.stderr[-4000:]
    stage = Path(run.stdout.strip().splitlines()[-1])
    assert (stage / "playbench").is_file() and (stage / "lib" / "playbench").is_file()
    return stage


@pytest.fixture(scope="module")
def screen(tmp_path_factory) -> Iterator[tuple[str, Path]]:
    """A private Xvfb (it picks a free display) whose framebuffer is a file we can read."""
    fb = tmp_path_factory.mktemp("fb")
    read, write = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x800x24",
                             "-fbdir", str(fb), "-br", "-nolisten", "tcp"],
                            pass_fds=(write,), stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as pipe:
        display = ":" + pipe.readline().strip()
    yield display, fb / "Xvfb_screen0"
    xvfb.terminate()
    xvfb.wait(timeout=30)


def bare_env(home: Path, display: str = "", **extra: str) -> dict[str, str]:
    """Nothing of this process's environment: no virtualenv, no PYTHON*, no XDG_* places."""
    home.mkdir(parents=True, exist_ok=True)
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
    if display:
        env["DISPLAY"] = display
    env.update(extra)
    return env


def user_db(home: Path) -> Path:
    """Where platformdirs puts the database on Linux for this HOME (XDG defaults)."""
    return home / ".local" / "share" / "playbench" / "playbench.sqlite3"


def play(bundle: Path, args: list[str], env: dict[str, str], cwd: Path,
         timeout: float = 600) -> subprocess.CompletedProcess[str]:
    cwd.mkdir(parents=True, exist_ok=True)
    return subprocess.run([str(bundle / "playbench"), *args], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=timeout)


def colours(framebuffer: Path) -> int:
    """How many different pixels the screen shows (Xvfb's XWD file ends with the pixels)."""
    data = framebuffer.read_bytes()[-1280 * 800 * 4:]
    return len({data[i:i + 4] for i in range(0, len(data), 4 * 97)})


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_bundle_plays_a_level_and_opens_the_window(built, screen, tmp_path):
    display, framebuffer = screen
    home, cwd = tmp_path / "home", tmp_path / "cwd"
    env = bare_env(home, display)
    version = play(built, ["--version"], env, cwd)
    assert version.returncode == 0 and version.stdout.startswith("playbench "), version.stderr

    levels = tmp_path / "levels" / "p.xsb"
    gen = play(built, ["levels", "sokoban", "--generate", "2", "--seed", "7", "--size", "7x7",
                       "--boxes", "2", "--out", str(levels)], env, cwd)
    assert gen.returncode == 0, gen.stderr
    assert not user_db(home).exists()
    run = play(built, ["run", "--game", "sokoban", "--levels", str(levels), "--player",
                       "solver", "--no-progress"], env, cwd)
    assert run.returncode == 0, run.stderr
    assert user_db(home).is_file(), "the first start did not create the per-user database"

    assert colours(framebuffer) == 1  # Xvfb's black root: nothing drawn yet
    log = tmp_path / "app.log"
    with log.open("w") as err:
        app = subprocess.Popen([str(built / "playbench")], env={
            **env, "PLAYBENCH_STARTUP_REPORT": "1"}, cwd=cwd, stdout=err, stderr=err)
        try:
            deadline = time.monotonic() + 180
            while "interactive after" not in log.read_text() and app.poll() is None \
                    and time.monotonic() < deadline:
                time.sleep(0.2)
            assert "interactive after" in log.read_text(), log.read_text()[-3000:]
            time.sleep(3)  # the window stays open a few seconds, as a person would see it
            assert app.poll() is None, log.read_text()[-3000:]
            shown = colours(framebuffer)
            app.send_signal(signal.SIGINT)  # the app closes its window on Ctrl-C
            assert app.wait(timeout=60) == 0, log.read_text()[-3000:]
        finally:
            if app.poll() is None:
                app.kill()
    assert shown > 20, f"the screen shows {shown} colours: no window was drawn"

    con = sqlite3.connect(user_db(home))
    try:
        assert con.execute("SELECT version_num FROM playbench_schema").fetchone()[0] == \
            head_revision()
        episodes = con.execute("SELECT id, status, n_steps FROM episodes ORDER BY id").fetchall()
        steps = dict(con.execute("SELECT episode_id, COUNT(*) FROM steps GROUP BY episode_id"))
    finally:
        con.close()
    assert [status for _, status, _ in episodes] == ["done", "done"]
    assert all(n > 0 and steps[i] == n for i, _, n in episodes)
    ends = [row[2] for row in map(str.split, run.stdout.splitlines()) if row and row[0].isdigit()]
    assert ends == ["solved", "solved"], run.stdout
    assert not list(cwd.iterdir()), "the bundle wrote into the working directory"


def test_an_older_database_is_migrated_and_a_newer_one_refused(built, tmp_path):
    old_home = tmp_path / "old"
    path = user_db(old_home)
    path.parent.mkdir(parents=True)
    engine = db_engine.make_engine(f"sqlite:///{path}")
    cfg = db_engine._alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0001")
        conn.exec_driver_sql(
            "INSERT INTO participants (id, uid, kind, name, details, created) "
            "VALUES (1, 'p1', 'script', 'solver', '{}', '2026-01-01')")
    engine.dispose()
    listed = play(built, ["episodes"], bare_env(old_home), tmp_path / "cwd")
    assert listed.returncode == 0, listed.stderr
    con = sqlite3.connect(path)
    assert con.execute("SELECT version_num FROM playbench_schema").fetchone()[0] == \
        head_revision()
    assert con.execute("SELECT name FROM participants").fetchall() == [("solver",)]
    con.execute("UPDATE playbench_schema SET version_num = '9999'")
    con.commit()
    con.close()

    before = digest(path)
    refused = play(built, ["episodes"], bare_env(old_home), tmp_path / "cwd")
    assert refused.returncode != 0
    assert "newer PlayBench" in refused.stderr + refused.stdout
    assert digest(path) == before


def test_the_bundle_drives_chromium_or_says_how_to_get_one(built, tmp_path):
    """Playwright's driver works from inside the bundle (a web task played by the solver in
    the system Chromium), and a missing browser gets the bundle's advice, not `playwright
    install` (there is no Python to run it)."""
    args = ["run", "--game", "web", "--tasks", "classifieds:0-0", "--player", "solver",
            "--no-progress"]
    ok = play(built, args, bare_env(tmp_path / "a", PLAYBENCH_CHROMIUM="/usr/bin/chromium"),
              tmp_path / "cwd")
    assert ok.returncode == 0, ok.stderr[-3000:]
    assert [row[1] for row in map(str.split, ok.stdout.splitlines())
            if row and row[0].isdigit()] == ["done"], ok.stdout
    missing = play(built, args, bare_env(tmp_path / "b", PLAYBENCH_CHROMIUM="/nowhere/chromium"),
                   tmp_path / "cwd")
    assert missing.returncode != 0
    said = missing.stdout + missing.stderr
    assert "bundle carries no browser" in said and "playwright install" not in said


def test_the_bundle_holds_no_generic_names_no_extras_and_no_webengine(built):
    from PyInstaller.archive.readers import CArchiveReader

    exe = CArchiveReader(str(built / "lib" / "playbench"))
    modules = set(exe.open_embedded_archive("PYZ.pyz").toc)
    assert "playbench.app.cli" in modules and "playbench.games.sokoban.kind" in modules
    assert not {m.split(".")[0] for m in modules} & GENERIC
    assert not [m for m in modules if m.split(".")[0] in {"ray", "gfootball", "pytest"}]
    inside = built / "lib" / "_internal"
    assert (inside / "playbench" / "db" / "migrations" / "env.py").is_file()
    assert (inside / "playwright" / "driver" / "node").stat().st_mode & 0o111
    assert not [p for p in inside.rglob("*") if "webengine" in p.name.lower()]
    assert not GENERIC & {p.name for p in inside.iterdir()}


def test_the_wheel_installed_without_dependencies_claims_only_playbench(built):
    """build.sh installed the wheel from the tree with --no-deps --target into the build
    environment: what that install put at the top of site-packages is ours only."""
    env_python = built.parents[1] / "env" / "bin" / "python"
    site = Path(subprocess.run([str(env_python), "-c", "import sysconfig; "
                                "print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    (record,) = site.glob("playbench-*.dist-info/RECORD")
    tops = {line.split("/")[0] for line in record.read_text().splitlines() if line}
    assert {t for t in tops if not t.endswith(".dist-info") and not t.startswith("..")} == \
        {"playbench"}
    assert not GENERIC & {p.name for p in site.iterdir()}
