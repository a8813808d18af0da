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

LATER = ("matplotlib", "playwright", "openai", "httpx", "jinja2", "scipy", "pyarrow",
         "datasets", "inspect_ai", "ray", "gymnasium", "keyring")
"""Packages the window must not load before it is interactive: plots, reports, browsers, model
clients and exports load when their place or command first needs them (the database, and its
migrations, are opened before the window shows)."""

PROBE = """
import json, sys
from playbench.app.ui.main import run_app

def ready(window):
    print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})), flush=True)
    window.close()

sys.exit(run_app(None, ready))
"""


def test_the_window_is_interactive_before_the_heavy_packages_load(tmp_path):
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "ui.json").write_text('{"annotator": "ann-start"}')
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "SDL_VIDEODRIVER": "dummy",
           "PLAYBENCH_CONFIG_DIR": str(tmp_path / "config"),
           "PLAYBENCH_DB": f"sqlite:///{tmp_path / 'start.sqlite3'}"}
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                          env=env, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    loaded = set(json.loads(done.stdout.strip().splitlines()[-1]))
    assert "PySide6" in loaded, "the probe did not see the window's imports"
    early = sorted(loaded & set(LATER))
    assert early == [], f"imported before the window was interactive: {early}"
