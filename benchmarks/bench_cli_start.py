"""Command-line start-up: wall time of whole processes, the way a user or a shell completion
starts them, beside two references measured in the same rounds - ``python -c pass`` (the
interpreter alone) and ``python -m pip --version`` (issue 32's yardstick).

Rounds interleave the commands so that a busy machine slows every one alike; the table shows
each command's median and its ratio to pip's median. Target: ``--version``, ``--help`` and
``COMMAND --help`` <= 0.2 s on a quiet machine, i.e. no slower than pip beside them.

    .venv/bin/python benchmarks/bench_cli_start.py [--rounds 15]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

PLAYBENCH = str(Path(sys.executable).with_name("playbench"))
COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "python -m pip --version": [sys.executable, "-m", "pip", "--version"],
    "playbench --version": [PLAYBENCH, "--version"],
    "playbench --help": [PLAYBENCH, "--help"],
    "playbench run --help": [PLAYBENCH, "run", "--help"],
    "playbench study --help": [PLAYBENCH, "study", "--help"],
    "playbench games": [PLAYBENCH, "games"],
}
TARGET_S = 0.2


def wall(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    times: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for cmd in COMMANDS.values():  # one warm-up each (file cache)
        wall(cmd)
    for _ in range(args.rounds):
        for name, cmd in COMMANDS.items():
            times[name].append(wall(cmd))
    pip = statistics.median(times["python -m pip --version"])
    print(f"load average {os.getloadavg()[0]:.2f}, {args.rounds} rounds")
    print(f"{'command':26} {'median s':>9} {'p90 s':>7} {'x pip':>6}  target")
    for name, values in times.items():
        med = statistics.median(values)
        p90 = sorted(values)[int(0.9 * (len(values) - 1))]
        timed = name.startswith("playbench") and ("help" in name or "version" in name)
        target = f"<= {TARGET_S} s" if timed else "-"
        print(f"{name:26} {med:9.3f} {p90:7.3f} {med / pip:6.2f}  {target}")


if __name__ == "__main__":
    main()
