"""Web environment speed: action -> new frame, Set-of-Marks extraction per page, frame rate.

Runs real Chromium against the offline classifieds site on 127.0.0.1 and prints three tables:

1. action -> new frame: ``WebTaskEnv.step`` wall time (the action, waiting for any page load,
   and the next observation: Set-of-Marks, screenshot, boxes drawn), per action kind;
2. Set-of-Marks extraction per page (the in-page collection only) with element counts;
3. frames per second: bare viewport screenshots, and full observations (screenshot + marks).

Usage: ``.venv/bin/python benchmarks/bench_web_frames.py [--repeat N] [--viewport WxH]``.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from playbench.games.browser.browser import Browser
from playbench.games.browser.observe import observe
from playbench.games.browser.som import collect
from playbench.games.web.config import WebConfig
from playbench.games.web.env import WebTaskEnv
from playbench.games.web.tasks import load_text

PAGES = [("home", "/"), ("category (10 cards)", "/index.php?page=search&category=bicycles"),
         ("all listings (12 cards)", "/index.php?page=search"),
         ("listing", "/index.php?page=item&id=1"), ("login", "/index.php?page=login")]


def task(start: str = "__CLASSIFIEDS__"):
    import json
    obj = {"task_id": 0, "start_url": start, "intent": "benchmark",
           "eval": {"eval_types": ["string_match"], "reference_answers": {"exact_match": "x"}}}
    from playbench.app.core.task import Task
    return Task("web", load_text(json.dumps(obj), "bench")[0], {}, "bench")


def stats(samples: list[float]) -> tuple[float, float, float]:
    s = sorted(samples)
    return statistics.median(s), s[min(len(s) - 1, int(len(s) * 0.9))], statistics.mean(s)


def row(name: str, samples: list[float], extra: str = "") -> str:
    med, p90, mean = stats(samples)
    return f"{name:28s} {med:8.1f} {p90:8.1f} {mean:8.1f} {len(samples):5d}  {extra}"


async def by_id(env: WebTaskEnv, tag: str, text: str) -> int:
    assert env.view is not None
    return next(e.id for e in env.view.marks.elements if e.tag == tag and e.text == text)


async def action_to_frame(browser: Browser, repeat: int, viewport, axtree: bool) -> None:
    env = WebTaskEnv(browser=browser, config=WebConfig(), axtree=axtree,
                     default_viewport=viewport)
    await env.reset(task(), 0)
    samples: dict[str, list[float]] = {k: [] for k in (
        "click link (new page)", "type + Enter (search)", "scroll [down]", "hover",
        "go_back", "click missing id")}

    async def timed(kind: str, text: str) -> None:
        t0 = time.perf_counter()
        await env.step(env.parse_action(text))
        samples[kind].append((time.perf_counter() - t0) * 1e3)

    home = env.place("__CLASSIFIEDS__/")
    for _ in range(repeat):
        await env.step(env.parse_action(f"goto [{home}]"))
        await timed("click link (new page)", f"click [{await by_id(env, 'A', 'Cars')}]")
        await timed("go_back", "go_back")
        search = await by_id(env, "INPUT", "Search listings")
        await timed("type + Enter (search)", f"type [{search}] [lamp]")
        await timed("scroll [down]", "scroll [down]")
        await timed("hover", f"hover [{await by_id(env, 'A', 'Cars')}]")
        await timed("click missing id", "click [9999]")
    await env.close()
    print(f"\nAction -> new frame (ms), viewport {viewport[0]}x{viewport[1]}, "
          f"accessibility tree {'on' if axtree else 'off'}")
    print(f"{'action':28s} {'median':>8s} {'p90':>8s} {'mean':>8s} {'n':>5s}")
    for kind, vals in samples.items():
        print(row(kind, vals))


async def som_per_page(browser: Browser, repeat: int, viewport) -> None:
    env = WebTaskEnv(browser=browser, config=WebConfig(), default_viewport=viewport)
    await env.reset(task(), 0)
    assert env.session is not None
    print(f"\nSet-of-Marks extraction per page (ms), viewport {viewport[0]}x{viewport[1]}")
    print(f"{'page':28s} {'median':>8s} {'p90':>8s} {'mean':>8s} {'n':>5s}  marked / text lines")
    for name, path in PAGES:
        await env.session.goto(env.session.page, env.place("__CLASSIFIEDS__") + path)
        times, marks = [], None
        for _ in range(repeat):
            t0 = time.perf_counter()
            marks, _ids = await collect(env.session.page)
            times.append((time.perf_counter() - t0) * 1e3)
        assert marks is not None
        print(row(name, times, f"{len(marks.elements)} / {len(marks.items) - len(marks.elements)}"))
    await env.close()


async def frame_rate(browser: Browser, seconds: float, viewport) -> None:
    env = WebTaskEnv(browser=browser, config=WebConfig(), default_viewport=viewport)
    await env.reset(task("__CLASSIFIEDS__/index.php?page=search"), 0)
    assert env.session is not None
    print(f"\nFrames per second, viewport {viewport[0]}x{viewport[1]} ({seconds:g} s each)")
    for name, fn in (("screenshot (PNG bytes)", env.session.screenshot),
                     ("observation, no a11y tree", lambda: observe(env.session, axtree=False)),
                     ("observation, with a11y tree", lambda: observe(env.session))):
        n, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            await fn()
            n += 1
        el = time.perf_counter() - t0
        print(f"{name:28s} {n / el:8.1f} fps  ({el / n * 1e3:.1f} ms per frame)")
    await env.close()


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--viewport", default="1280x2048,1280x720")
    args = ap.parse_args()
    viewports = [tuple(int(v) for v in vp.split("x")) for vp in args.viewport.split(",")]
    async with Browser() as browser:
        for vp in viewports:
            await action_to_frame(browser, args.repeat, vp, axtree=True)
        await action_to_frame(browser, args.repeat, viewports[0], axtree=False)
        for vp in viewports:
            await som_per_page(browser, args.repeat, vp)
        for vp in viewports:
            await frame_rate(browser, args.seconds, vp)


if __name__ == "__main__":
    asyncio.run(main())
