"""What ``playbench`` with no command does: open the desktop app, or, where the UI cannot start
(no PySide6, no display), explain why and play a short headless demo."""

from __future__ import annotations

import argparse
import gc
import sys
from typing import Any


def launch_app(args: argparse.Namespace) -> int:
    """Open the window, or explain why not and play the headless demo. The cyclic garbage
    collector is paused until the window is interactive: the start imports some 800 modules
    and makes objects that live as long as the app, and each collection on the way walks that
    growing heap again for no garbage (70 ms of a 0.9 s start on the 2-core machine; issue 32)."""
    gc.disable()
    try:
        code = _open_window(args)
    finally:
        gc.enable()
    return headless_demo() if code is None else code


def _collect_again(_window: Any) -> None:
    """The window is up: what the start made lives as long as the app, so it is moved out of
    the collector's way (``gc.freeze``) and later collections walk only what play makes."""
    gc.freeze()
    gc.enable()


def _open_window(args: argparse.Namespace) -> int | None:
    """The app's exit code, or None (after saying why) where the window cannot open."""
    try:
        # The Qt-free part of the app first: once PySide6 is imported, it reads the source of
        # every module imported after it (to see whether it uses PySide's ``__feature__``
        # switches) - 80 ms of the start for the database, studies and game modules.
        import playbench.app.ui.models.app_state  # noqa: F401
        from playbench.app.ui.main import run_app  # the desktop shell, when installed
    except ImportError as err:
        print(f"The desktop app is not available here ({err}); running the headless demo.",
              file=sys.stderr)
        return None
    try:
        return run_app(args, on_ready=_collect_again)
    except ImportError as err:  # playbench.app.ui.main.NoDisplay: nowhere to open a window
        print(f"The desktop app cannot open a window here ({err}); running the headless demo.",
              file=sys.stderr)
        return None


def headless_demo() -> int:
    """Generate three Sokoban rooms and let the solver play them, recorded in memory."""
    import asyncio

    from playbench.app.core.budget import Budget
    from playbench.app.core.recorder import MemoryRecorder
    from playbench.app.core.runs import RunRequest, run_many
    from playbench.app.core.settings import get_setting
    from playbench.app.core.task import Task
    from playbench.app.players.scripted import SolverPlayer
    from playbench.games import registry

    spec = registry.get(registry.available()[0])  # the first board game listed (Sokoban)
    levels = spec.generate(3, 2026, None, width=8, height=8)
    tasks = [Task(spec.name, lv, {}, "demo") for lv in levels]
    recorder = MemoryRecorder()
    request = RunRequest(tasks, lambda t, r: SolverPlayer(), get_setting("default"),
                         Budget(max_actions=50))
    results = asyncio.run(run_many(request, recorder))
    for task, result in zip(tasks, results, strict=True):
        moves = "".join(s.action or "?" for s in result.steps)
        print(f"level {task.level.number}: {result.end_reason} in {len(result.steps)} moves "
              f"({moves}); completion {result.scores['completion']:.0f}")
    return 0
