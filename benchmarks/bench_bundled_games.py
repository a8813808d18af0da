"""What each bundled browser game's `demo_policy` scores in 100 steps.

Plays every game of the bundled catalog (or the games named on the command line) the way the
paused step loop does - the game is paused between steps; a step resumes it, runs one semantic
control of the demo cycle for its bound duration and pauses it again, then reads getState() - and
resets after a failed end as `continue_on_fail` does. Prints the best score, how many of the
game's five tasks that meets, and the resets. Seed 1.

    .venv/bin/python benchmarks/bench_bundled_games.py [GAME ...]
"""

from __future__ import annotations

import sys
import time
from importlib import resources
from pathlib import Path

from playwright.sync_api import Browser, sync_playwright

from playbench.games.browser.browser import chromium_executable
from playbench.games.browser_games.catalog import Catalog
from playbench.games.browser_games.page import control_script
from playbench.games.browser_games.server import StaticServer

STEPS = 100


def play(browser: Browser, catalog: Catalog, game: str) -> tuple[float, int, int, float]:
    """(best score, tasks met, resets, mean wall ms per step) for one game."""
    spec = catalog.game(game)
    targets = [catalog.task(game, t).target for t in catalog.task_ids(game)]
    with StaticServer(catalog.game_dir(game).parent) as server:
        ctx = browser.new_context(viewport={"width": 1280, "height": 720})
        ctx.add_init_script("window.__PB_SEED = 1;")
        ctx.add_init_script(control_script())
        page = ctx.new_page()
        page.goto(server.url(f"{catalog.game_dir(game).name}/{catalog.entry_page(spec)}"))
        page.wait_for_function("window.gameAPI && gameAPI.getState().status !== 'loading'")
        page.evaluate("__pauseGame()")
        best, resets = 0.0, 0
        t0 = time.perf_counter()
        for i in range(STEPS):
            control = spec.role.control(spec.demo_policy[i % len(spec.demo_policy)])
            assert control is not None
            b = control.binding
            hold = b.duration if b.duration is not None else spec.role.computer_use.hold_duration
            page.evaluate("__resumeGame()")
            for k in b.keys:
                page.keyboard.down(k)
            page.wait_for_timeout(int(hold * 1000))
            for k in reversed(b.keys):
                page.keyboard.up(k)
            page.evaluate("__pauseGame()")
            state = page.evaluate("gameAPI.getState()")
            best = max(best, float(state["game_state"]["score"]))
            if state["terminal"]["isTerminal"]:
                page.evaluate("gameAPI.reset({})")
                resets += 1
        per_step = (time.perf_counter() - t0) * 1000 / STEPS
        ctx.close()
    return best, sum(best >= t for t in targets), resets, per_step


def main() -> None:
    root = Path(str(resources.files("playbench.games.browser_games") / "bundled"))
    catalog = Catalog(root)
    games = sys.argv[1:] or catalog.game_ids()
    print(f"{'game':<16} {'best':>6} {'task 1':>7} {'tasks met':>9} {'resets':>6} {'ms/step':>8}")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable() or "/usr/bin/chromium",
                                    args=["--no-sandbox"])
        for game in games:
            best, met, resets, ms = play(browser, catalog, game)
            first = catalog.task(game, catalog.task_ids(game)[0]).target
            row = f"{game:<16} {best:>6g} {first:>7g} {met:>7}/5 {resets:>6} {ms:>8.0f}"
            print(row, flush=True)
        browser.close()


if __name__ == "__main__":
    main()
