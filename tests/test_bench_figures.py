"""bench_results.py's kept figures (issue 32): ``--save`` keeps a run's figures beside the
file's other entries, and a run on a busier machine than the kept figures' does not replace
them (its slower figures would hide a regression), unless told to."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def bench_results():
    spec = importlib.util.spec_from_file_location("bench_results",
                                                  ROOT / "benchmarks" / "bench_results.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


FIGURES = {"leaderboard best of 3 (s)": 0.12, "leaderboard CPU (s)": 0.11,
           "export (steps/s)": 160_000.0, "import (steps/s)": 70_000.0,
           "export CPU (steps/s)": 170_000.0, "import CPU (steps/s)": 75_000.0}


def test_a_busy_run_does_not_replace_quiet_figures(tmp_path, capsys):
    bench = bench_results()
    path = tmp_path / "figures.json"
    other = {"bench_model_overhead": {"small": {"all: median ms": 1.2}}}
    quiet = {**FIGURES, "load average when kept": 0.8}
    path.write_text(json.dumps({**other, "bench_results": {"10000": quiet}}))
    slower = {name: value * 2 for name, value in FIGURES.items()}

    assert not bench.compare(slower, 10_000, True, load=4.0, path=path)
    assert json.loads(path.read_text())["bench_results"]["10000"] == quiet
    assert "not kept" in capsys.readouterr().out

    # as quiet as the kept run (within the slack): kept, the other entries left alone
    assert bench.compare(slower, 10_000, True, load=1.2, path=path)
    now = json.loads(path.read_text())
    assert now["bench_results"]["10000"] == {**slower, "load average when kept": 1.2}
    assert now["bench_model_overhead"] == other["bench_model_overhead"]

    # told to: kept even when busier; another size is its own entry
    assert bench.compare(FIGURES, 10_000, True, load=6.0, path=path, force=True)
    assert bench.compare(FIGURES, 100_000, True, load=6.0, path=path)
    now = json.loads(path.read_text())["bench_results"]
    assert now["10000"]["load average when kept"] == 6.0 and set(now) == {"10000", "100000"}
