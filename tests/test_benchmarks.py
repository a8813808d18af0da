"""Every benchmark still runs (issue 32: a benchmark nobody runs rots - bench_results.py had
stopped importing its own database unnoticed). Each script in benchmarks/ is run as a user runs
it, at a small size, in the ``bench`` tier (so CI's full run has it, plain ``pytest`` does not);
the test fails when one exits with an error. A new script must be added to :data:`SMALL` (or,
with the reason, to :data:`NOT_RUN`), which the first test checks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = ROOT / "benchmarks"

SMALL: dict[str, tuple[list[str], tuple[str, ...]]] = {
    "bench_browser_pane.py": (["--clicks", "2"], ("browser",)),
    "bench_browser_step.py": (["--steps", "3", "--games", "01_2048"], ("browser",)),
    "bench_bundled_games.py": (["01_2048"], ("browser",)),
    "bench_cli_start.py": (["--rounds", "1"], ()),
    "bench_css_repair.py": (["--small"], ("browser",)),
    "bench_endpoint_limits.py": ([], ()),
    "bench_export_hf.py": (["--steps", "1000"], ()),
    "bench_foundation.py": ([], ()),
    "bench_game_pane.py": (["--presses", "2", "--seconds", "0.5"], ("browser",)),
    "bench_import.py": (["--steps", "2000", "--episodes", "2"], ()),
    "bench_level_limits.py": ([], ()),
    "bench_model_overhead.py": (["--small"], ()),
    "bench_model_throughput.py": (["--small"], ()),
    "bench_page_sandbox.py": ([], ("browser",)),
    "bench_puzzles.py": (["--quick", "--rooms", "1"], ()),
    "bench_results.py": (["--small"], ()),
    "bench_sweep_ray.py": (["--concurrency", "2", "--cells", "2", "--latency", "50",
                            "--workers", "1"], ("ray",)),
    "bench_ui.py": (["--presses", "2", "--starts", "1", "--db", "sqlite", "--games", "sokoban",
                     "--episodes", "2"], ()),
    "bench_web_frames.py": (["--repeat", "1", "--seconds", "0.5", "--viewport", "1280x720"],
                            ("browser",)),
    "bench_webui.py": (["--tasks", "1", "--repeat", "1"], ("browser",)),
    "bench_yaml_bombs.py": (["--timeout", "30", "--oversize-mb", "2"], ()),
    "profile_model_step.py": (["--levels", "1"], ()),
    "bench_football.py": (["--seconds", "1"], ("football",)),
}
"""Script -> (its small-size arguments, the heavy tiers it needs besides ``bench``)."""

NOT_RUN = {
    "bench_bundle.py": "builds the desktop bundle (minutes); the bundle tier's own tests run "
                       "that build and time the bundle's start",
    "gym_sokoban_rooms.py": "compares with gym-sokoban, which needs a venv of its own (old gym, "
                            "NumPy 1)",
    "magebench_sokoban_fixtures.py": "makes committed test fixtures with gym-sokoban's own "
                                     "environment, in a venv of its own",
}


def test_every_benchmark_is_run_or_says_why_not():
    scripts = {p.name for p in BENCHMARKS.glob("*.py")}
    assert scripts == set(SMALL) | set(NOT_RUN)


def _param(name: str):
    args, tiers = SMALL[name]
    return pytest.param(name, args, id=name.removesuffix(".py"),
                        marks=[pytest.mark.bench, *(getattr(pytest.mark, t) for t in tiers)])


@pytest.mark.parametrize(("script", "args"), [_param(n) for n in sorted(SMALL)])
def test_the_benchmark_runs_at_a_small_size(script, args, tmp_path):
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "QT_QPA_PLATFORM": "offscreen",
           "PLAYBENCH_CONFIG_DIR": str(tmp_path / "config")}
    done = subprocess.run([sys.executable, str(BENCHMARKS / script), *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, (f"{script} {' '.join(args)} failed:\n"
                                  f"{done.stdout[-1500:]}\n{done.stderr[-2500:]}")
