"""YAML limits (issue 27, "Foreign files"): peak RSS and time of the real commands given an alias
bomb, deep nesting and an oversize file, as a browser-games catalog task, a study file
(`study create`) and a sweep file (`sweep run`).

    .venv/bin/python benchmarks/bench_yaml_bombs.py [--timeout S] [--oversize-mb N]

Each case is one `playbench` process; its own peak RSS comes from ``os.wait4`` and its time is
wall-clock from start to exit (imports included, about 1-2 s on a quiet machine). A process is
held to 3 GB of address space and ``--timeout`` seconds (default 120), so an old build that
expands the bomb fails here instead of taking the machine; such a case prints its limit.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

ROOT = Path(__file__).resolve().parents[1]
PLAYBENCH = Path(sys.executable).with_name("playbench")
CATALOG = ROOT / "games" / "browser_games" / "bundled"
ADDRESS_SPACE = 3 * 1024 ** 3


def alias_bomb(key: str, levels: int = 9) -> str:
    """``key`` bound to ten aliases of ten aliases ... of ``"lol"``: 10^levels strings."""
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, levels):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    lines.append(f"{key}: *a{levels - 1}")
    return "\n".join(lines) + "\n"


def deep(key: str, depth: int = 100_000) -> str:
    return f"{key}: " + "[" * depth + "]" * depth + "\n"


def oversize(key: str, megabytes: int) -> Callable[[TextIO], None]:
    """A writer of a ``megabytes`` MB list, written in pieces: the file is never held in this
    process's memory, whose RSS at fork would otherwise count as the command's peak."""
    def write(out: TextIO) -> None:
        row = "  - " + "x" * 76 + "\n"
        out.write(f"{key}:\n")
        rows = megabytes * 1_000_000 // len(row)
        for _ in range(rows // 1000):
            out.write(row * 1000)
        out.write(row * (rows % 1000))
    return write


Body = str | Callable[[TextIO], None]


def write_file(path: Path, head: str, body: Body) -> None:
    """``head`` then ``body`` (text, or a writer called with the open file)."""
    with path.open("w") as out:
        out.write(head)
        if isinstance(body, str):
            out.write(body)
        else:
            body(out)


def catalog_case(work: Path, body: Body) -> list[str]:
    """A copy of the bundled catalog whose breakout task 03_02 is ``body``."""
    root = work / "catalog"
    if not root.exists():
        shutil.copytree(CATALOG, root)
    task = root / "catalog" / "tasks" / "03_breakout" / "03_02.yaml"
    original = (CATALOG / "catalog" / "tasks" / "03_breakout" / "03_02.yaml").read_text()
    write_file(task, original.replace("max_steps: 100\n", ""), body)
    return ["run", "--game", "browser-games", "--tasks", "03_breakout:2", "--player", "idle",
            "--no-progress", "--db", f"sqlite:///{work / 'c.sqlite3'}",
            "--catalog", str(root)]


def study_case(work: Path, body: Body) -> list[str]:
    path = work / "study.yaml"
    write_file(path, "name: bomb\nbudget: {max_actions: 5}\n"
               "tasks:\n  - {game: maze, levels: ingvp:1}\n", body)
    return ["study", "create", str(path), "--db", f"sqlite:///{work / 's.sqlite3'}"]


def sweep_case(work: Path, body: Body) -> list[str]:
    path = work / "sweep.yaml"
    write_file(path, "name: bomb\nparticipants: [solver]\n"
               "tasks:\n  - {game: maze, levels: ingvp:1}\n", body)
    return ["sweep", "run", str(path), "--db", f"sqlite:///{work / 'w.sqlite3'}"]


def measure(argv: list[str], timeout: float) -> tuple[float, float, str, int]:
    """(seconds, peak RSS in MB, last output line (cut), bytes printed) of one command."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy"}
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        # the shell sets the limit and execs playbench; the child's ru_maxrss includes this
        # small script's RSS at fork (about 20 MB), which exec does not reset
        command = shlex.join([str(PLAYBENCH), *argv])
        proc = subprocess.Popen(["/bin/sh", "-c", f"ulimit -v {ADDRESS_SPACE // 1024}; "
                                 f"exec {command}"], stdout=out, stderr=out, env=env, cwd=ROOT)
        timer = threading.Timer(timeout, proc.send_signal, (signal.SIGKILL,))
        timer.start()
        _, status, usage = os.wait4(proc.pid, 0)  # this child's own peak RSS
        timer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.perf_counter() - start
        size = out.tell()
        out.seek(max(0, size - 4000))
        tail = out.read().decode("utf-8", "replace").strip().splitlines()
    if proc.returncode == -signal.SIGKILL:
        answer = f"killed after {timeout:.0f} s"
    else:
        answer = f"exit {proc.returncode}: " + (tail[-1] if tail else "")
    return seconds, usage.ru_maxrss / 1024, answer[:120], size


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--oversize-mb", type=int, default=64)
    args = ap.parse_args()
    cases = [("catalog task", catalog_case, "max_steps"),
             ("study create", study_case, "seed"),
             ("sweep run", sweep_case, "seed")]
    bombs = [("alias bomb 10^9", lambda key: alias_bomb(key)),
             ("nesting 100,000", lambda key: deep(key)),
             (f"oversize {args.oversize_mb} MB", lambda key: oversize(key, args.oversize_mb))]
    print(f"{'command':<14} {'input':<18} {'seconds':>8} {'peak MB':>8} {'printed':>9}  answer")
    for label, make, key in cases:
        for bomb, body in bombs:
            with tempfile.TemporaryDirectory() as tmp:
                argv = make(Path(tmp), body(key))
                seconds, peak, answer, printed = measure(argv, args.timeout)
            print(f"{label:<14} {bomb:<18} {seconds:8.2f} {peak:8.0f} {printed:9,}  {answer}")


if __name__ == "__main__":
    main()
