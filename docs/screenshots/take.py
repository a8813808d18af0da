"""Screenshots of every desktop view, taken from the real app window under Xvfb.

    xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python docs/screenshots/take.py

It starts the app (``playbench.app.ui.main.run_app``) on a scratch database and config directory,
fills
them with demo data (scripted and model runs, an interrupted episode), drives the window to each
view as a person would, and saves PNGs of the screen area the window covers (dialogs included)
next to this file.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from shots import go_ahead, prepare, run_tour, settle, shoot, until

SCRATCH = prepare("playbench-shots-", {"annotator": "ann-07", "demo_delay": 0.25})

ARROWS = {"U": "Up", "D": "Down", "L": "Left", "R": "Right"}


async def seed_data() -> None:
    """Scripted runs and one interrupted human episode, recorded as the app records them."""
    from playbench.app.core.budget import Budget
    from playbench.app.core.recorder import DbRecorder
    from playbench.app.core.runs import RunRequest, run_many
    from playbench.app.core.settings import get_setting
    from playbench.app.core.task import Task
    from playbench.app.players.factory import player_factory
    from playbench.db.engine import open_database
    from playbench.db.store import Store
    from playbench.games import registry
    from playbench.games.packs import resolve

    store = Store(open_database())
    for game, player in (("maze", "solver"), ("hanoi", "random"), ("npuzzle", "solver")):
        spec = registry.get(game)
        levels = resolve(spec, "ingvp:1-2").levels
        tasks = [Task(game, lv, spec.rule_options({}), "ingvp") for lv in levels]
        req = RunRequest(tasks, player_factory(player), get_setting("default"),
                         Budget(max_actions=30))
        await run_many(req, DbRecorder(store))
    store.db.dispose()


async def tour(window: Any) -> None:
    from playbench.app.ui.annotator import AnnotatorDialog
    from playbench.app.ui.models.records import resumable
    from playbench.app.ui.resume import ResumeDialog

    lib = window.library
    # 1. Library
    lib.select("sokoban", "magebench-mini")
    lib.select_level(9)
    await until(lambda: len(lib._thumbs) >= len(lib.rows))
    await settle()
    shoot(window, "library")

    # 2. Play: Sokoban with history and undo, one illegal move shown as feedback
    lib.select("sokoban", "ingvp")
    lib.select_level(7)
    start = lib.start
    start.setting.setCurrentIndex(start.setting.findData("ingvp:image-multi-history"))
    start.player.setCurrentIndex(start.player.findData("human"))
    start.play.click()
    go_ahead()
    play = window.play_place.view("board")
    await until(lambda: play.session is not None and play.session.player.waiting)
    session = play.session
    solution = session.task.level.meta["solution"]
    for m in solution[:3]:
        play._key(ARROWS[m])
        await until(lambda: session.player.waiting)
    await settle(1.2)
    blocked = next(m for m in "UDLR" if m not in session.env.legal_actions())
    play._key(ARROWS[blocked])
    await until(lambda: session.player.waiting and session.steps and not session.steps[-1].valid)
    await settle(0.8)
    shoot(window, "play-sokoban")

    # 3. Play: Tower of Hanoi, a source rod chosen (outlined), waiting for the target
    lib.select("hanoi", "ingvp")
    lib.select_level(4)
    start.setting.setCurrentIndex(start.setting.findData("default"))
    start.play.click()
    go_ahead()
    await until(lambda: play.session is not session and play.session.player.waiting)
    session = play.session
    for move in session.task.level.meta["solution"].split()[:2]:
        for rod in move:
            x, y, w, h = session.geometry.area(session.state, rod)
            play._press(x + w / 2, y + h / 2)
            play._release(x + w / 2, y + h / 2)
        await until(lambda: session.player.waiting)
    rod = session.task.level.meta["solution"].split()[2][0]
    x, y, w, h = session.geometry.area(session.state, rod)
    play._press(x + w / 2, y + h / 2)
    play._release(x + w / 2, y + h / 2)
    await settle(0.6)
    shoot(window, "play-hanoi")

    # 4. Play: one-step planning in Sudoku's text setting
    lib.select("sudoku", "ingvp")
    lib.select_level(2)
    start.setting.setCurrentIndex(start.setting.findData("ingvp:text-one"))
    start.play.click()
    go_ahead()
    await until(lambda: play.session is not session and play.session.player.waiting)
    session = play.session
    puzzle, answer = session.task.level.text, session.task.level.meta["solution"]
    blanks = [i for i, ch in enumerate(puzzle) if ch == "0"][:4]
    play.plan.setPlainText(" ".join(f"{i // 9}{i % 9}:{answer[i]}" for i in blanks))
    await settle(0.6)
    shoot(window, "play-one-step-text")

    # 5. Model demo: the built-in demo profile (serve-model in-process), paused mid-run
    lib.select("sokoban", "depth-8")
    lib.select_level(3)
    start.setting.setCurrentIndex(start.setting.findData("default"))
    start.player.setCurrentIndex(start.player.findData("model:demo"))
    start.play.click()
    go_ahead()
    demo = window.demo
    await until(lambda: demo.session is not None and len(demo.session.steps) >= 5)
    demo._toggle_pause()
    await until(lambda: demo.pacer.waiting)
    await settle(0.6)
    shoot(window, "model-demo")
    demo._toggle_pause()
    await until(lambda: demo.session.result is not None)

    # 6. Episode viewer: the human Sokoban episode, scrubbed to its illegal step
    window.play_place.view("board").stop()
    await settle(0.5)
    window.show_episode(window.play_place.view("board").session.episode_id)
    await settle(0.2)
    human = next(s for s in window.episodes.shown if s.game == "sokoban"
                 and s.participant_kind == "human")
    window.episodes.select(human.id)
    window.episodes.slider.setValue(4)
    await settle(0.6)
    shoot(window, "episode-viewer")

    # 7. Resume prompt (the episodes stopped above are waiting)
    dialog = ResumeDialog(window, resumable(window.state.store), window.resume)
    dialog.open()
    await settle(0.6)
    shoot(window, "resume")
    dialog.reject()

    # 8. Settings: model profiles, with the demo profile's connection tested
    settings = window.open_settings(tab=1)
    settings.profiles.test.click()
    await until(lambda: settings.profiles.result.text().startswith(("OK", "FAILED")))
    await settle(0.4)
    shoot(window, "settings-profiles")
    settings.tabs.setCurrentIndex(3)
    await settle(0.4)
    shoot(window, "settings-rules")
    settings.reject()

    # 9. Annotator dialog and a problem dialog (a level file that disappeared)
    AnnotatorDialog(window, "ann-07", lambda name: None).open()
    await settle(0.5)
    shoot(window, "annotator")
    for d in window.findChildren(AnnotatorDialog):
        d.reject()
    missing = SCRATCH / "my-levels.xsb"
    missing.write_text("; one room\n#####\n#@$.#\n#####\n")
    lib.add_level_file("sokoban", str(missing))
    missing.unlink()
    window.show_page(window.library)
    lib.select("maze")
    lib.select("sokoban", str(missing))
    await settle(0.6)
    shoot(window, "problem-dialog")


def main() -> int:
    asyncio.run(seed_data())
    return run_tour(tour)


if __name__ == "__main__":
    sys.exit(main())
