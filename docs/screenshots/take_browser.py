"""Screenshots of the web-task views, taken from the real app window under Xvfb (a sibling of
``take.py``).

    xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python docs/screenshots/take_browser.py

It starts the app on a scratch database, opens the Library's "Web tasks" entry, plays a
classifieds task in the browser pane as a person would (a search typed into the page, the
pointer over a listing, the Set-of-Marks shown), then the same pane with the marks hidden and a
field being typed into, then the model demo on a web task, and saves library-web.png,
browser-pane.png, browser-pane-plain.png and browser-demo.png next to this file.
"""

from __future__ import annotations

import sys
from typing import Any

from shots import go_ahead, prepare, run_tour, settle, shoot, until

SCRATCH = prepare("playbench-web-shots-", {"annotator": "ann-07", "demo_delay": 0.5})


async def tour(window: Any) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    lib = window.library
    lib.select("web")
    panel = lib.panel("web")
    await until(lambda: bool(panel.rows))
    panel.select_task(24)
    await settle()
    shoot(window, "library-web")

    view = window.play_place.view("browser")
    canvas = view.page.canvas

    def idle() -> bool:
        s = view.session
        return s is not None and s.episode_id != 0 and (s.result is not None or (
            s.player.waiting and not view.inputs.in_flight and not view.inputs.waiting))

    def at(tag: str, text: str) -> Any:
        e = next(e for e in view.session.observation.info["som"]
                 if e["tag"] == tag and e["text"].startswith(text))
        x, y, w, h = e["box"]
        return canvas.from_page(x + w / 2, y + h / 2).toPoint()

    async def start(task_id: int, setting: str = "default") -> None:
        window.show_page(lib)
        lib.select("web")
        panel.select_task(task_id)
        panel.player.setCurrentIndex(panel.player.findData("human"))
        panel.setting.setCurrentIndex(panel.setting.findData(setting))
        old = view.session
        panel.play.click()
        go_ahead()
        await until(lambda: view.session is not old and idle())
        await until(lambda: view.page.frames_received > 0)

    # 1. The pane with the Set-of-Marks: a search typed into the page, a listing pointed at.
    await start(24)
    QTest.mouseClick(canvas, Qt.MouseButton.LeftButton, pos=at("INPUT", "Search"))
    QTest.keyClicks(canvas, "guitar")
    QTest.keyClick(canvas, Qt.Key.Key_Return)
    await until(lambda: len(view.session.steps) == 1 and idle())
    await settle(1.0)
    listing = next(e for e in view.session.observation.info["som"]
                   if e["tag"] == "A" and "$" in e["text"])
    x, y, w, h = listing["box"]
    QTest.mouseMove(canvas, canvas.from_page(x + w / 2, y + h / 3).toPoint())
    view._hovered((x + w / 2, y + h / 3))
    await settle(0.6)
    shoot(window, "browser-pane")

    # 2. The same kind of page without marks, a field being typed into (not sent yet).
    view.marks.setChecked(False)
    await start(25)
    view.marks.setChecked(False)
    await settle(1.5)  # the listing photos finish loading
    QTest.mouseClick(canvas, Qt.MouseButton.LeftButton, pos=at("INPUT", "Search"))
    QTest.keyClicks(canvas, "red lamp")
    await until(lambda: view.hi.typing is not None and view.hi.typing.buffer == "red lamp")
    await settle(0.6)
    shoot(window, "browser-pane-plain")
    view.stop()
    await until(lambda: view.session.result is not None)

    # 3. The model demo on a web task: the page as the model sees it, paused mid-run.
    window.show_page(lib)
    panel.select_task(17)
    panel.player.setCurrentIndex(panel.player.findData("model:demo"))
    panel.setting.setCurrentIndex(panel.setting.findData("vwa:som"))
    panel.play.click()
    go_ahead()
    demo = window.demo
    await until(lambda: demo.session is not None and len(demo.session.steps) >= 2)
    demo._toggle_pause()
    await until(lambda: demo.pacer.waiting)
    await settle(0.8)
    shoot(window, "browser-demo")
    demo._toggle_pause()
    await until(lambda: demo.session.result is not None)


def main() -> int:
    return run_tour(tour)


if __name__ == "__main__":
    sys.exit(main())
