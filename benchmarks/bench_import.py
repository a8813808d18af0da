"""`playbench import` of a big bundle (issue 27, "Foreign files"): steps/s and peak RSS.

    .venv/bin/python benchmarks/bench_import.py [--steps 1000000] [--episodes 10]

A real maze episode is played by the solver and exported; its episode and step lines are then
copied, renumbered, into a bundle of ``--steps`` steps over ``--episodes`` episodes (the same
few frames referenced again and again, as a long recording's would be). Then, each in a fresh
process: `import --check` (the checking pass alone) and `import` (check and write) into a new
SQLite file. Peak RSS is each process's own (``os.wait4``); times are wall-clock, imports
included.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PLAYBENCH = Path(sys.executable).with_name("playbench")


def _run(args: list[str], cwd: Path) -> tuple[float, float, int, str]:
    """(seconds, peak RSS MB, exit code, last stderr/stdout line) of one command."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "PLAYBENCH_CONFIG_DIR": str(cwd / "cfg")}
    start = time.perf_counter()
    with open(cwd / "out.txt", "wb") as out:
        proc = subprocess.Popen([str(PLAYBENCH), *args], stdout=out, stderr=out, cwd=cwd,
                                env=env)
        _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    lines = (cwd / "out.txt").read_text(errors="replace").strip().splitlines()
    return (time.perf_counter() - start, usage.ru_maxrss / 1024, proc.returncode,
            lines[-1][:100] if lines else "")


def write_bundle(template: Path, out: Path, steps: int, episodes: int) -> None:
    """``steps`` steps over ``episodes`` copies of the template's first episode."""
    episode = json.loads((template / "episodes.jsonl").read_text().splitlines()[0])
    step_lines = [json.loads(s) for s in (template / "steps.jsonl").read_text().splitlines()
                  if json.loads(s)["episode"] == episode["id"]]
    out.mkdir()
    (out / "frames").mkdir()
    for frame in (template / "frames").iterdir():
        (out / "frames" / frame.name).write_bytes(frame.read_bytes())
    per = [steps // episodes + (1 if i < steps % episodes else 0) for i in range(episodes)]
    with open(out / "episodes.jsonl", "w") as ef, open(out / "steps.jsonl", "w") as sf:
        for n in per:
            uid = str(uuid.uuid4())
            ef.write(json.dumps({**episode, "id": uid, "n_steps": n, "study": None}) + "\n")
            for i in range(n):
                s = step_lines[i % len(step_lines)]
                sf.write(json.dumps({**s, "episode": uid, "index": i, "decision": i}) + "\n")
    (out / "studies.jsonl").write_text("")
    manifest = json.loads((template / "manifest.json").read_text())
    manifest.update(episodes=episodes, steps=steps, studies=0)
    (out / "manifest.json").write_text(json.dumps(manifest))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=1_000_000)
    ap.add_argument("--episodes", type=int, default=10)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        db = f"sqlite:///{work / 'source.sqlite3'}"
        for cmd in (["run", "--game", "maze", "--levels", "ingvp:1", "--player", "solver",
                     "--no-progress", "--db", db],
                    ["export", "--format", "jsonl", "--out", str(work / "template"),
                     "--db", db]):
            seconds, _, code, last = _run(cmd, work)
            assert code == 0, last
        start = time.perf_counter()
        write_bundle(work / "template", work / "bundle", args.steps, args.episodes)
        size = (work / "bundle" / "steps.jsonl").stat().st_size
        print(f"bundle: {args.steps:,} steps in {args.episodes} episodes, steps.jsonl "
              f"{size / 1e6:.0f} MB, written in {time.perf_counter() - start:.1f} s")
        print(f"{'command':<14} {'seconds':>8} {'steps/s':>9} {'peak MB':>8}  answer")
        for label, extra in (("import --check", ["--check"]), ("import", [])):
            target = f"sqlite:///{work / (label.replace(' ', '') + '.sqlite3')}"
            seconds, peak, code, last = _run(["import", *extra, str(work / "bundle"),
                                              "--db", target], work)
            print(f"{label:<14} {seconds:8.1f} {args.steps / seconds:9,.0f} {peak:8.0f}  "
                  f"exit {code}: {last}")


if __name__ == "__main__":
    main()
