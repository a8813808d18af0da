"""The client side of the football engine: finds an interpreter with Google Research Football,
starts the engine server (``worker.py``) in its own process and talks to it.

Why a separate process: GRF 2.10.2 builds against Boost.Python, which Debian ships for its own
Python 3.11 only, while PlayBench runs on 3.12 (``docs/football.md`` says how the extra is
installed); GRF also allows one rendering engine per process. The server needs a display: GRF
renders with OpenGL into a window of its own, and its offscreen EGL path gives much darker
frames than a real GL context, so the server runs under ``xvfb-run`` (software GL, a private
display, so GRF's window never shows on the person's screen); only where Xvfb is missing does
it use ``DISPLAY``.
"""

from __future__ import annotations

import base64
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import weakref
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import numpy as np

WORKER = Path(__file__).with_name("worker.py")
PYTHON_VARIABLE = "PLAYBENCH_FOOTBALL_PYTHON"
"""Names the interpreter that has ``gfootball`` (when it is not PlayBench's own)."""
SIBLING_VENV = ".venv-football"
"""Where ``./bootstrap ... --with-football`` puts that interpreter: beside PlayBench's .venv."""
ENABLE_HINT = ("Football needs Google Research Football (gfootball 2.10.2). From a PlayBench "
               "checkout run `./bootstrap app --with-football` (installs the build packages and "
               "builds GRF into .venv-football, about 5 minutes), or install "
               "`playbench[football]` into a Python 3.11 environment and set "
               f"{PYTHON_VARIABLE} to its python. See docs/football.md.")
RAW_KEYS = ("ball", "ball_owned_team", "ball_owned_player", "left_team", "right_team", "score",
            "steps_left")


class EngineError(RuntimeError):
    """The engine could not be started or answered with an error (its message included)."""


def find_python(environ: Mapping[str, str] | None = None) -> str | None:
    """The interpreter to run the engine with, or None when none is installed: the one named
    by :data:`PYTHON_VARIABLE`, else PlayBench's own when it has ``gfootball``, else the one in
    ``.venv-football`` beside PlayBench's virtual environment."""
    env = os.environ if environ is None else environ
    named = env.get(PYTHON_VARIABLE)
    if named:
        return named if Path(named).exists() or shutil.which(named) else None
    if importlib.util.find_spec("gfootball") is not None:
        return sys.executable
    venv = Path(sys.prefix).parent / SIBLING_VENV
    installed = any(venv.glob("lib/python3*/site-packages/gfootball/__init__.py"))
    return str(venv / "bin" / "python") if installed else None


def unavailable_reason(environ: Mapping[str, str] | None = None) -> str | None:
    """None when football can be played here, else what is missing and how to enable it."""
    return None if find_python(environ) else ENABLE_HINT


@dataclass(frozen=True)
class Step:
    raw: dict[str, Any]
    done: bool


QUIET_WIDTH = 32
"""The frame width when nobody looks at the frames: GRF's rendering engine still runs (the
worker's docstring says why), and a small picture keeps its start and any stray draw cheap."""


class Engine:
    """One engine server process. ``width``: the frame width (height is 9/16 of it); a
    change of width takes effect at the next start of the process."""

    def __init__(self, *, width: int = QUIET_WIDTH, python: str | None = None,
                 environ: Mapping[str, str] | None = None) -> None:
        self.width = width
        self._python = python
        self._environ = dict(os.environ if environ is None else environ)
        self._proc: subprocess.Popen[str] | None = None
        self._finalizer: weakref.finalize[Any, Any] | None = None

    def _start(self) -> subprocess.Popen[str]:
        python = self._python or find_python(self._environ)
        if python is None:
            raise EngineError(ENABLE_HINT)
        cmd = [python, "-u", str(WORKER)]
        env = dict(self._environ)
        env.setdefault("SDL_AUDIODRIVER", "dummy")
        # GRF draws into a window of its own: a private Xvfb display keeps that window off
        # the person's screen; only without Xvfb does it fall back to the real display.
        xvfb = shutil.which("xvfb-run")
        if xvfb is not None:
            cmd = [xvfb, "-a", "-s", "-screen 0 1280x800x24", *cmd]
        elif not env.get("DISPLAY"):
            raise EngineError("football frames need a display: install Xvfb (Debian package "
                              "xvfb) or set DISPLAY")
        env.pop("SDL_VIDEODRIVER", None)  # GRF needs a real video driver for its GL context
        try:
            proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.DEVNULL, text=True, env=env, bufsize=1)
        except OSError as err:
            raise EngineError(f"cannot start the football engine with {python}: {err}") from None
        self._finalizer = weakref.finalize(self, _stop, proc)
        return proc

    def call(self, msg: Mapping[str, Any]) -> dict[str, Any]:
        if self._proc is None or self._proc.poll() is not None:
            self._proc = self._start()
        stdin: IO[str] | None = self._proc.stdin
        stdout: IO[str] | None = self._proc.stdout
        assert stdin is not None and stdout is not None
        try:
            stdin.write(json.dumps(msg) + "\n")
            stdin.flush()
            line = stdout.readline()
        except (BrokenPipeError, OSError) as err:
            raise EngineError(f"the football engine stopped ({err})") from None
        if not line:
            code = self._proc.wait()
            raise EngineError(f"the football engine stopped (exit code {code})")
        answer: dict[str, Any] = json.loads(line)
        if "error" in answer:
            raise EngineError(f"the football engine refused {msg.get('cmd')!r}: "
                              f"{answer['error']}")
        return answer

    def reset(self, scenario: Mapping[str, Any], seed: int) -> dict[str, Any]:
        answer = self.call({"cmd": "reset", "scenario": dict(scenario), "seed": seed,
                            "width": self.width})
        raw: dict[str, Any] = answer["obs"]
        return raw

    def step(self, action: int) -> Step:
        answer = self.call({"cmd": "step", "action": action})
        return Step(answer["obs"], bool(answer["done"]))

    def frame(self) -> np.ndarray:
        answer = self.call({"cmd": "frame"})
        data = base64.b64decode(answer["rgb"])
        return np.frombuffer(data, dtype=np.uint8).reshape(answer["height"], answer["width"], 3)

    def close(self) -> None:
        if self._finalizer is not None:
            self._finalizer()
        self._proc = None


def _stop(proc: subprocess.Popen[str]) -> None:
    """End an engine process (asked first, then killed)."""
    if proc.poll() is not None:
        return
    try:
        if proc.stdin is not None:
            proc.stdin.write(json.dumps({"cmd": "quit"}) + "\n")
            proc.stdin.close()
        proc.wait(timeout=5)
    except (OSError, ValueError, subprocess.TimeoutExpired):
        proc.kill()
        proc.wait()
