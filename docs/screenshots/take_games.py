"""Screenshots of browser games in play, taken from the real app window under Xvfb (a sibling
of ``take_browser.py``).

    xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python docs/screenshots/take_games.py

It starts the app on a scratch database, opens the Library's "Browser games" entry, plays the
bundled 2048 in the Play place's game pane as a person would (arrow keys, same clock), then
lets the offline demo model (``serve-model``'s scripted policy, over HTTP) play Snake in
Models > Model demo, and saves game-person.png and game-model.png next to this file.
"""

from __future__ import annotations

import sys
from typing import Any

from shots import go_ahead, prepare, run_tour, settle, shoot, until

SCRATCH = prepare("playbench-game-shots-", {"annotator": "ann-07", "demo_delay": 0.6})
KIND = "browser-games"


async def tour(window: Any) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    lib = window.library
    lib.select(KIND)
    panel = next(p for p in lib.panels if p.game == KIND)
    await until(lambda: bool(panel.rows))

    def pick(title: str, player: str) -> None:
        window.show_page(lib)
        lib.select(KIND)
        row = next(r for r in panel.rows if r.level.title == title)
        panel.select_task(row.task_id)
        panel.player.setCurrentIndex(panel.player.findData(player))
        panel.setting.setCurrentIndex(panel.setting.findData("default"))
        panel.play.click()
        go_ahead()

    # 1. A person plays 2048 (task 2) in the Play place's game pane: arrow keys, one action each.
    view = window.play_place.view("game")
    pick("01_2048/01_02", "human")

    def idle() -> bool:
        s = view.session
        return s is not None and s.episode_id != 0 and (s.result is not None or (
            s.player.waiting and not view.inputs.in_flight and not view.inputs.waiting))

    await until(lambda: idle() and view.page.frames_received > 0, timeout=120)
    canvas = view.page.canvas
    for n, key in enumerate([Qt.Key.Key_Left, Qt.Key.Key_Up, Qt.Key.Key_Right, Qt.Key.Key_Up,
                             Qt.Key.Key_Left, Qt.Key.Key_Up, Qt.Key.Key_Left, Qt.Key.Key_Down,
                             Qt.Key.Key_Left, Qt.Key.Key_Up, Qt.Key.Key_Left, Qt.Key.Key_Up]):
        QTest.keyClick(canvas, key)
        await until(lambda n=n: len(view.session.steps) > n and idle())
    await settle(1.0)
    shoot(window, "game-person")
    view.stop()
    await until(lambda: view.session.result is not None)

    # 2. The offline demo model plays Snake in the Model demo, paused mid-run.
    pick("02_snake/02_02", "model:demo")
    demo = window.demo
    await until(lambda: demo.session is not None and len(demo.session.steps) >= 6, timeout=180)
    demo._toggle_pause()
    await until(lambda: demo.pacer.waiting)
    await settle(0.8)
    shoot(window, "game-model")
    demo.stop_episode()


def main() -> int:
    return run_tour(tour)


if __name__ == "__main__":
    sys.exit(main())
