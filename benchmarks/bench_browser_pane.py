"""Browser pane figures (offscreen Qt, real Chromium, the offline classifieds site):

1. human click -> new frame painted, p50 / p95: a real mouse click on a link in the pane (the
   real main window, a human episode of task 0, VWA's 1280 x 2048 viewport). Three clocks stop:
   ``first frame`` - the first screencast frame painted after the click (often the link's hover
   or pressed look, then the page as it loads); ``page shown`` - the first painted frame that
   already shows the final page (same picture, by a 48 x 48 grey signature, as the frame on
   screen once everything settled); ``step recorded`` - the step's observation is in (marks,
   URL and HUD updated). The path: input queue, HumanPlayer, Episode, WebTaskEnv.step
   (Playwright click, page load), Chromium's screencast, JPEG decode in a worker, paint.
2. wheel notch -> new frame painted, p50 / p95 (``scroll [down]`` / ``scroll [up]`` in turn, on a
   page made long enough to scroll).
3. stream frames per second painted in the pane: idle (nothing changes on the page), and while
   the page scrolls continuously (a requestAnimationFrame loop), at 1280 x 2048 and 1280 x 720;
   and, for comparison, the most a screenshot loop could deliver (capture + PNG decode).

    .venv/bin/python benchmarks/bench_browser_pane.py [--clicks N]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
SCRATCH = Path(tempfile.mkdtemp(prefix="playbench-bench-pane-"))
os.environ["PLAYBENCH_CONFIG_DIR"] = str(SCRATCH / "config")
(SCRATCH / "config").mkdir()
(SCRATCH / "config" / "ui.json").write_text('{"annotator": "ann-bench"}')

LONG_PAGE = "document.body.style.minHeight = '9000px'"
ANIMATE = """(ms) => new Promise((done) => {
  const end = performance.now() + ms;
  function tick() { window.scrollBy(0, 6);
    if (window.scrollY + innerHeight >= document.body.scrollHeight - 10) window.scrollTo(0, 0);
    if (performance.now() < end) requestAnimationFrame(tick); else done(); }
  requestAnimationFrame(tick); })"""


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def signature(image) -> bytes:
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage
    small = image.scaled(48, 48, Qt.AspectRatioMode.IgnoreAspectRatio,
                         Qt.TransformationMode.SmoothTransformation)
    return bytes(small.convertToFormat(QImage.Format.Format_Grayscale8).constBits())


def same(a: bytes, b: bytes, tol: float = 3.0) -> bool:
    return sum(abs(x - y) for x, y in zip(a, b, strict=False)) / max(1, len(a)) <= tol


async def until(cond, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise TimeoutError("benchmark condition not reached")
        await asyncio.sleep(0.002)


class Painted:
    """Every new frame the canvas paints: (time, signature)."""

    def __init__(self, canvas) -> None:
        self.canvas = canvas
        self.log: list[tuple[float, bytes]] = []
        self._seen = 0
        canvas.painted.connect(self._painted)

    def _painted(self) -> None:
        if self.canvas.frames_painted != self._seen:
            self._seen = self.canvas.frames_painted
            self.log.append((time.perf_counter(), signature(self.canvas.image)))


async def run(clicks: int) -> None:
    from PySide6.QtCore import QPoint, QPointF, Qt
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from playbench.app.core.events import Stepped
    from playbench.app.ui.main import build
    from playbench.app.ui.models.app_state import AppState
    from playbench.app.ui.models.prefs import PrefsStore

    window, state = build(AppState(PrefsStore(SCRATCH / "config"),
                                   db_url=f"sqlite:///{SCRATCH / 'bench.sqlite3'}"))
    window.resize(1480, 920)
    window.show()
    lib = window.library
    lib.select("web")
    await until(lambda: bool(lib.panel("web").rows))
    lib.panel("web").select_task(0)
    lib.panel("web").player.setCurrentIndex(lib.panel("web").player.findData("human"))
    lib.panel("web").max_actions.setValue(999)
    lib.panel("web").play.click()
    view = window.play_place.view("browser")
    canvas = view.page.canvas

    def idle() -> bool:
        s = view.session
        return s is not None and s.episode_id != 0 and (s.result is not None or (
            s.player.waiting and not view.host.inputs.in_flight and not view.host.inputs.waiting))

    await until(idle, 60)
    await until(lambda: view.page.frames_received > 0)
    session = view.session
    stepped: list[float] = []
    session.subscribe(lambda e: stepped.append(time.perf_counter())
                      if isinstance(e, Stepped) else None)
    painted = Painted(canvas)

    def target(tag: str, text: str) -> QPoint:
        e = next(e for e in session.observation.info["som"]
                 if e["tag"] == tag and e["text"] == text)
        x, y, w, h = e["box"]
        return canvas.from_page(x + w / 2, y + h / 2).toPoint()

    async def settle() -> None:
        await until(idle)
        quiet = time.perf_counter()
        while time.perf_counter() - quiet < 0.4:  # no frame for 400 ms: the page is still
            await asyncio.sleep(0.02)
            if painted.log and painted.log[-1][0] > quiet:
                quiet = painted.log[-1][0]

    first, shown, recorded = [], [], []
    targets = [("A", "Cars"), ("A", "Swapyard")]
    await settle()
    for i in range(clicks):
        at = target(*targets[i % 2])
        n_paint, n_step = len(painted.log), len(stepped)
        t0 = time.perf_counter()
        QTest.mouseClick(canvas, Qt.MouseButton.LeftButton, pos=at)
        await until(lambda: len(stepped) > n_step)
        await settle()
        after = painted.log[n_paint:]
        final = signature(canvas.image)
        first.append((after[0][0] - t0) * 1e3)
        shown.append((next(t for t, sig in after if same(sig, final)) - t0) * 1e3)
        recorded.append((stepped[n_step] - t0) * 1e3)

    page = session.env.session.page
    await page.evaluate(LONG_PAGE)
    await settle()
    notch = []
    for i in range(max(6, clicks // 2)):  # down, up, down...: VWA stops after 5 identical
        delta = -120 if i % 2 == 0 else 120
        n_paint, n_step = len(painted.log), len(stepped)
        t0 = time.perf_counter()
        ev = QWheelEvent(QPointF(200, 200), QPointF(canvas.mapToGlobal(QPoint(200, 200))),
                         QPoint(0, 0), QPoint(0, delta), Qt.MouseButton.NoButton,
                         Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
        QApplication.sendEvent(canvas, ev)
        await until(lambda: len(stepped) > n_step)
        await settle()
        if len(painted.log) > n_paint:
            notch.append((painted.log[n_paint][0] - t0) * 1e3)

    print("\nBrowser pane, viewport 1280x2048 (VWA), screencast JPEG quality "
          f"{view.stream.quality if view.stream else '-'}; ms over {clicks} clicks")
    print(f"{'measure':34s} {'p50':>8s} {'p95':>8s} {'mean':>8s}")
    for name, xs in (("click -> first new frame painted", first),
                     ("click -> final page painted", shown),
                     ("click -> step recorded", recorded),
                     ("wheel notch -> new frame painted", notch)):
        print(f"{name:34s} {statistics.median(xs):8.1f} {pct(xs, 0.95):8.1f} "
              f"{statistics.mean(xs):8.1f}")

    print("\nStream frames per second painted in the pane")
    for size in ((1280, 2048), (1280, 720)):
        await page.set_viewport_size({"width": size[0], "height": size[1]})
        await page.evaluate(LONG_PAGE)
        await settle()
        n_recv, n_paint = view.page.frames_received, len(painted.log)
        t0 = time.perf_counter()
        await asyncio.sleep(3.0)
        idle_fps = (len(painted.log) - n_paint) / (time.perf_counter() - t0)
        idle_recv = (view.page.frames_received - n_recv) / (time.perf_counter() - t0)
        n_recv, n_paint = view.page.frames_received, len(painted.log)
        t0 = time.perf_counter()
        await page.evaluate(ANIMATE, 3000)
        dt = time.perf_counter() - t0
        fps = (len(painted.log) - n_paint) / dt
        recv = (view.page.frames_received - n_recv) / dt
        print(f"  {size[0]}x{size[1]}: idle {idle_fps:5.1f} fps painted ({idle_recv:.1f} "
              f"received); scrolling {fps:5.1f} fps painted ({recv:.1f} received)")

    from PySide6.QtGui import QImage
    for size in ((1280, 2048), (1280, 720)):
        await page.set_viewport_size({"width": size[0], "height": size[1]})
        times = []
        for _ in range(8):
            t0 = time.perf_counter()
            data = await session.env.session.screenshot()
            QImage.fromData(data, "PNG")
            times.append((time.perf_counter() - t0) * 1e3)
        med = statistics.median(times)
        print(f"  alternative, screenshot loop {size[0]}x{size[1]}: {med:.0f} ms per frame "
              f"(capture + PNG decode on the UI thread) = at most {1000 / med:.1f} fps")

    view.stop()
    await until(lambda: session.result is not None)
    closed = asyncio.get_running_loop().create_future()
    window.closed.connect(lambda: closed.done() or closed.set_result(None))
    window.close()
    await asyncio.wait_for(closed, 30)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=20)
    args = parser.parse_args()
    import qasync
    from PySide6.QtWidgets import QApplication

    from playbench.app.ui.style import apply_style
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setQuitOnLastWindowClosed(False)
    apply_style(app)
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    with loop:
        loop.run_until_complete(run(args.clicks))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
