"""Game pane figures: how fast a person sees a real-time game react (offscreen Qt, real Chromium).

A 1280 x 720 page in real Chromium is streamed into the pane's page widget exactly as the app
does it (``app.ui.models.page_stream.PageStream`` -> ``app.ui.browser_page.PageView``); two
figures come out:

1. key press -> first changed frame painted, p50 / p95 / mean over ``--presses`` presses: the
   page fills its canvas with a new colour on every ``keydown``; the clock starts when the pane
   sends the synthetic key (the same Playwright ``keyboard.down`` the game pane uses) and stops
   at the first paint of the widget whose frame shows the new colour (read from the painted
   image's centre pixel).
2. frames per second painted while the page animates steadily (a ``requestAnimationFrame``
   loop that moves a block and shifts the background every frame), and frames received.

    .venv/bin/python benchmarks/bench_game_pane.py [--presses N] [--seconds S]

The stream settings under test are :class:`PageStream`'s defaults (``--quality`` overrides the
JPEG quality); ``--legacy`` measures the web pane's earlier settings (quality 85, full-size
frames, no size hint; the decoder is today's) for comparison.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

PAGE = """<!doctype html><html><body style="margin:0;overflow:hidden;background:#000">
<canvas id="c" width="1280" height="720"></canvas><script>
const c = document.getElementById('c'), g = c.getContext('2d');
const colours = ['#d03020', '#20a040', '#2050d0', '#e0c020'];
let n = 0, animate = false, t = 0;
function draw() {
  g.fillStyle = colours[n % 4]; g.fillRect(0, 0, 1280, 720);
  if (animate) { g.fillStyle = '#fff'; g.fillRect((t * 7) % 1200, 300, 80, 80); }
}
window.addEventListener('keydown', (e) => { n += 1; draw(); });
window.startAnimation = () => { animate = true;
  (function tick() { t += 1; draw(); if (animate) requestAnimationFrame(tick); })(); };
window.stopAnimation = () => { animate = false; };
draw();
</script></body></html>"""
COLOURS = [(0xD0, 0x30, 0x20), (0x20, 0xA0, 0x40), (0x20, 0x50, 0xD0), (0xE0, 0xC0, 0x20)]


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def near(rgb: tuple[int, int, int], want: tuple[int, int, int], tol: int = 40) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(rgb, want, strict=True))


async def until(cond, timeout: float = 20.0) -> None:
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise TimeoutError("benchmark condition not reached")
        await asyncio.sleep(0.001)


async def run(presses: int, seconds: float, quality: int | None, legacy: bool,
              width: int) -> None:
    from playwright.async_api import async_playwright

    from playbench.app.ui.browser_page import PageView
    from playbench.app.ui.models.page_stream import PageStream
    from playbench.games.browser.browser import LAUNCH_ARGS, NO_SANDBOX, chromium_executable

    view = PageView()
    view.resize(width + 16, round(width * 720 / 1280) + 40)
    view.show()
    canvas = view.canvas
    paints: list[tuple[float, tuple[int, int, int]]] = []

    def painted() -> None:
        if canvas.image is None or canvas.last_paint_at == 0.0:
            return
        if paints and paints[-1][0] == canvas.last_paint_at:
            return
        c = canvas.image.pixelColor(canvas.image.width() // 2, canvas.image.height() // 4)
        paints.append((canvas.last_paint_at, (c.red(), c.green(), c.blue())))

    canvas.painted.connect(painted)
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=chromium_executable(),
                                           args=[*LAUNCH_ARGS, NO_SANDBOX])
        context = await browser.new_context(viewport={"width": 1280, "height": 720})
        page = await context.new_page()
        await page.set_content(PAGE)

        class Session:  # what PageStream.follow reads
            pass
        session = Session()
        session.page, session.context = page, context  # type: ignore[attr-defined]
        if legacy:
            stream = PageStream(view.show_jpeg, quality=85)
        else:
            stream = PageStream(view.show_jpeg, **({"quality": quality} if quality else {}),
                                frame_size=view.canvas.device_size)
        await stream.follow(session)
        await until(lambda: len(paints) > 0)
        await asyncio.sleep(0.5)

        latencies: list[float] = []
        for i in range(presses):
            want = COLOURS[(i + 1) % 4]
            n0 = len(paints)
            t0 = time.perf_counter()
            await page.keyboard.down("ArrowRight")
            await until(lambda n0=n0, want=want: any(near(rgb, want) for _, rgb in paints[n0:]))
            hit = next(t for t, rgb in paints[n0:] if near(rgb, want))
            latencies.append((hit - t0) * 1e3)
            await page.keyboard.up("ArrowRight")
            await asyncio.sleep(0.15 + 0.05 * (i % 3))  # let the stream go quiet, vary phase

        n0, r0 = len(paints), view.frames_received
        await page.evaluate("startAnimation()")
        t0 = time.perf_counter()
        await asyncio.sleep(seconds)
        dt = time.perf_counter() - t0
        fps, recv = (len(paints) - n0) / dt, (view.frames_received - r0) / dt
        drawn = await page.evaluate("t") / dt
        await page.evaluate("stopAnimation()")
        await stream.stop()
        await browser.close()

    label = "legacy (quality 85, full-size frames)" if legacy else (
        f"quality {stream.quality}, frames sized to the widget")
    print(f"\nGame pane stream, page 1280x720, widget {canvas.width()}x{canvas.height()} "
          f"(frames {canvas.image.width()}x{canvas.image.height()}), "
          f"{label}")
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} (other work "
          "on the machine slows Chromium and the pane alike)")
    print(f"key press -> first changed frame painted over {presses} presses: "
          f"p50 {statistics.median(latencies):.1f} ms, p95 {pct(latencies, 0.95):.1f} ms, "
          f"mean {statistics.mean(latencies):.1f} ms")
    print(f"steady animation: {fps:.1f} frames/s painted ({recv:.1f} received; the page drew "
          f"{drawn:.1f}) over {seconds:.0f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--quality", type=int, default=None)
    parser.add_argument("--legacy", action="store_true")
    parser.add_argument("--width", type=int, default=960,
                        help="the page widget's width (the pane as a 1280x800 window shows it)")
    args = parser.parse_args()
    import qasync
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(sys.argv[:1])
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    with loop:
        loop.run_until_complete(run(args.presses, args.seconds, args.quality, args.legacy,
                                    args.width))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
