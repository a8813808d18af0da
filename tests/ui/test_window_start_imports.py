"""The desktop window is interactive before the heavy libraries only some places use are
loaded (issue 32: process start -> interactive window <= 1 s). The real app is started in a
subprocess (offscreen Qt, a fresh SQLite file) and, at the moment it reports itself
interactive (the ``on_ready`` hook ``playbench.app.ui.main.run_app`` calls after the window is
shown), lists the packages it has imported. Deterministic: it counts modules, not
milliseconds; benchmarks/bench_ui.py measures the time."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.metadata import entry_points

from playbench.db.engine import open_database

LATER = ("matplotlib", "playwright", "openai", "httpx", "jinja2", "scipy", "pyarrow",
         "datasets", "inspect_ai", "ray", "gymnasium", "keyring", "pygments")
"""Packages the window must not load before it is interactive: plots, reports, browsers, model
clients and exports load when their place or command first needs them, Pygments when a code
view first colours text (the database, and its migrations, are opened before the window
shows)."""


def kind_modules() -> set[str]:
    """The modules the installed task kinds register from (``playbench.tasks``, PlayBench's
    own and the test plugin's): the Library loads them when it lists the games, and a plugin's
    surface when the Play place makes its view, both after the window is interactive."""
    return {point.module for point in entry_points(group="playbench.tasks")}


PROBE = """
import json, sys
from playbench.app.ui.main import run_app
from playbench.app.ui.qt import QTimer

def ready(window):
    print(json.dumps(sorted(sys.modules)), flush=True)
    library = window.library
    print(json.dumps({"games": library.games.count(),
                      "views": len(window.play_place.views())}), flush=True)

    def report():
        print(json.dumps({"games": library.games.count(), "panels": len(library.panels),
                          "views": len(window.play_place.views())}), flush=True)
        window.close()
    if library.games.count():  # listed before the window was up: nothing to wait for
        report()
    else:  # the views are made right after the Library is filled
        library.filled.connect(lambda: QTimer.singleShot(0, report))

sys.exit(run_app(None, ready))
"""


def start_app(probe: str, tmp_path) -> subprocess.CompletedProcess[str]:
    """Run ``probe`` (a script that starts the app) in a fresh process: offscreen Qt, the
    database ``start.sqlite3`` and an annotator already chosen, in ``tmp_path``."""
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "ui.json").write_text('{"annotator": "ann-start"}')
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "SDL_VIDEODRIVER": "dummy",
           "PLAYBENCH_CONFIG_DIR": str(tmp_path / "config"),
           "PLAYBENCH_DB": f"sqlite:///{tmp_path / 'start.sqlite3'}"}
    return subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          env=env, timeout=120, cwd=tmp_path)


def test_the_window_is_interactive_before_the_heavy_packages_load(tmp_path):
    # A person's usual start: the database exists (creating one runs Alembic's migrations,
    # whose Mako templates load Pygments - once, on the first start).
    open_database(f"sqlite:///{tmp_path / 'start.sqlite3'}").dispose()
    done = start_app(PROBE, tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    modules, at_ready, listed = (json.loads(line)
                                 for line in done.stdout.strip().splitlines()[-3:])
    loaded = {m.split(".")[0] for m in modules}
    assert "PySide6" in loaded, "the probe did not see the window's imports"
    early = sorted(loaded & set(LATER))
    assert early == [], f"imported before the window was interactive: {early}"
    kinds = kind_modules()
    assert kinds, "no task kind is installed"
    assert sorted(kinds & set(modules)) == [], "a task kind was loaded before the window " \
        "was interactive (the Library lists the games, the Play place makes its views after)"
    # ... and the Library is filled once the window is up, without anyone asking for it.
    assert at_ready == {"games": 0, "views": 0}, "the Library or the Play place was filled " \
        "before the window was up"
    assert listed["games"] > 0 and listed["panels"] > 0 and listed["views"] >= 5, listed


LAUNCH_PROBE = """
import gc, json, sys
from playbench.app.cli import desktop

order = []
class Watch:
    '''Notes each module as it is first looked for, with whether the collector was on.'''
    def find_spec(self, name, path=None, target=None):
        order.append([name, gc.isenabled()])
        return None
sys.meta_path.insert(0, Watch())

real = desktop._collect_again
def ready(window):
    real(window)
    print(json.dumps({"order": order, "enabled": gc.isenabled(),
                      "frozen": gc.get_freeze_count()}), flush=True)
    window.close()
desktop._collect_again = ready
sys.exit(desktop.launch_app(None))
"""


def test_the_launch_imports_qt_last_with_the_collector_paused(tmp_path):
    """``playbench``'s own start (``launch_app``): the Qt-free modules are imported before
    PySide6 (which reads the source of every module imported after it), the cyclic collector
    is off while the modules load and back on, with the start's objects frozen, once the window
    is interactive (issue 32)."""
    done = start_app(LAUNCH_PROBE, tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    order = [name for name, _ in seen["order"]]
    qt = order.index("PySide6")
    for qt_free in ("sqlalchemy", "playbench.db.store", "playbench.app.studies.protocol",
                    "pydantic", "numpy"):
        assert order.index(qt_free) < qt, f"{qt_free} was imported after PySide6"
    collector_on = {name for name, enabled in seen["order"] if enabled}
    assert not collector_on & {"PySide6", "sqlalchemy", "playbench.app.ui.window"}, \
        "the collector ran while the start's modules were loading"
    assert seen["enabled"] and seen["frozen"] > 10_000, seen
