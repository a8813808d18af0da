"""`playbench export --format hf` of a long recording (issue 31): rows/s and peak RSS.

    .venv/bin/python benchmarks/bench_export_hf.py [--steps 10000 100000] [--per-episode 100]

Target: peak RSS must not grow with the number of steps (the export writes shard by shard from a
bounded group of episodes, app/exports/walk.py), so the 100,000-step export peaks within a few
MB of the 10,000-step one.

A real maze episode is played by the solver and exported as JSONL; its step lines are copied,
renumbered, into ``--per-episode``-step episodes and each step given its own frame (the solver's
first frame with a block of pixels changed, 2,000 different PNGs in turn), so that the
dataset's images do not collapse into a few repeated values; that bundle is imported into a new
SQLite file. Then, in a fresh process each, ``playbench export --format hf`` writes it. Peak RSS
is the export process's own (``os.wait4``); times are wall-clock, start-up and imports included
(the first line shows what start-up alone costs: ``export --help``).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from PIL import Image

PLAYBENCH = Path(sys.executable).with_name("playbench")
FRAMES = 2_000


def _run(args: list[str], cwd: Path) -> tuple[float, float, int, str]:
    """(seconds, peak RSS MB, exit code, last output line) of one command."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "PLAYBENCH_CONFIG_DIR": str(cwd / "cfg")}
    start = time.perf_counter()
    with open(cwd / "out.txt", "wb") as out:
        proc = subprocess.Popen([str(PLAYBENCH), *args], stdout=out, stderr=out, cwd=cwd,
                                env=env)
        _, status, usage = os.wait4(proc.pid, 0)
    code = os.waitstatus_to_exitcode(status)
    lines = (cwd / "out.txt").read_text(errors="replace").strip().splitlines()
    return time.perf_counter() - start, usage.ru_maxrss / 1024, code, \
        lines[-1][:110] if lines else ""


def _frames(template: Path, out: Path) -> list[str]:
    """``FRAMES`` different PNGs made from the template's first frame; their names."""
    first = sorted((template / "frames").iterdir())[0]
    image = Image.open(first).convert("RGB")
    names = []
    for i in range(FRAMES):
        copy = image.copy()
        copy.paste((i % 256, (i // 256) * 17 % 256, 90), (4, 4, 36, 36))
        buf = io.BytesIO()
        copy.save(buf, format="PNG")
        name = hashlib.sha256(buf.getvalue()).hexdigest()
        (out / f"{name}.png").write_bytes(buf.getvalue())
        names.append(name)
    return names


def write_bundle(template: Path, out: Path, steps: int, per_episode: int) -> None:
    """A JSONL export of ``steps`` steps in episodes of ``per_episode``."""
    episode = json.loads((template / "episodes.jsonl").read_text().splitlines()[0])
    lines = [json.loads(s) for s in (template / "steps.jsonl").read_text().splitlines()
             if json.loads(s)["episode"] == episode["id"]]
    (out / "frames").mkdir(parents=True)
    frames = _frames(template, out / "frames")
    n = 0
    with open(out / "episodes.jsonl", "w") as ef, open(out / "steps.jsonl", "w") as sf:
        while n < steps:
            count = min(per_episode, steps - n)
            uid = str(uuid.uuid4())
            ef.write(json.dumps({**episode, "id": uid, "n_steps": count, "study": None,
                                 "start_frame": f"{frames[n % FRAMES]}.png"}) + "\n")
            for i in range(count):
                s = lines[i % len(lines)]
                sf.write(json.dumps({**s, "episode": uid, "index": i, "decision": i,
                                     "frame": f"{frames[(n + i + 1) % FRAMES]}.png"}) + "\n")
            n += count
    (out / "studies.jsonl").write_text("")
    manifest = json.loads((template / "manifest.json").read_text())
    manifest.update(episodes=-(-steps // per_episode), steps=steps, studies=0)
    (out / "manifest.json").write_text(json.dumps(manifest))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, nargs="+", default=[10_000, 100_000])
    ap.add_argument("--per-episode", type=int, default=100)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        db = f"sqlite:///{work / 'template.sqlite3'}"
        for cmd in (["run", "--game", "maze", "--levels", "ingvp:1", "--player", "solver",
                     "--no-progress", "--db", db],
                    ["export", "--format", "jsonl", "--out", str(work / "template"),
                     "--db", db]):
            _, _, code, last = _run(cmd, work)
            assert code == 0, last
        start = time.perf_counter()
        with subprocess.Popen([sys.executable, "-c", "import datasets, pyarrow.parquet; "
                               "import playbench.app.exports.hf"]) as proc:
            _, _, usage = os.wait4(proc.pid, 0)
        print(f"imports alone (datasets, pyarrow): {time.perf_counter() - start:.1f} s, peak "
              f"{usage.ru_maxrss / 1024:.0f} MB")
        print(f"{'steps':>8} {'episodes':>8} {'seconds':>8} {'rows/s':>8} {'peak MB':>8} "
              f"{'data MB':>8}  answer")
        peaks, times = [], []
        for steps in args.steps:
            bundle = work / f"bundle-{steps}"
            write_bundle(work / "template", bundle, steps, args.per_episode)
            target = f"sqlite:///{work / f'db-{steps}.sqlite3'}"
            _, _, code, last = _run(["import", str(bundle), "--db", target], work)
            assert code == 0, last
            out = work / f"hf-{steps}"
            seconds, peak, code, last = _run(["export", "--format", "hf", "--out", str(out),
                                              "--db", target], work)
            size = sum(p.stat().st_size for p in (out / "data").iterdir()) / 1e6
            peaks.append(peak)
            times.append(seconds)
            print(f"{steps:8,} {-(-steps // args.per_episode):8,} {seconds:8.1f} "
                  f"{steps / seconds:8,.0f} {peak:8.0f} {size:8.0f}  exit {code}: {last}")
        if len(peaks) > 1:
            print(f"target: peak RSS flat with steps; measured {peaks[0]:.0f} MB -> "
                  f"{peaks[-1]:.0f} MB ({peaks[-1] - peaks[0]:+.0f} MB for "
                  f"{args.steps[-1] / args.steps[0]:.0f}x the steps)")
            extra = (args.steps[-1] - args.steps[0]) / max(times[-1] - times[0], 1e-9)
            print(f"rate past start-up and imports (difference of the two runs): "
                  f"{extra:,.0f} rows/s")


if __name__ == "__main__":
    main()
