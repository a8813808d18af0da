"""WebUI figures (issue 16): AES scoring time and render time per submission.

1. AES scoring of a 200-element page (target under 1 s): a generated page of 200 annotated
   truth elements and 400 candidate elements (each truth element once in place, once as a
   slightly larger wrapper with one child - the case the descendant penalty exists for), scored
   with :func:`playbench.games.webui.aes.aes`; also the same page rendered in Chromium, read
   (truth and submission reads) and scored, to show the reading's share.
2. Render time per submission on the bundled pages: ``WebUIEnv.step`` with the reference page
   (fresh browser context, load, one read per state, the scripted interactions with their game-
   time pauses, screenshots) - p50 / p95 / max over the tasks picked, in the shared Chromium.

    .venv/bin/python benchmarks/bench_webui.py [--tasks N] [--repeat R]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from playbench.games.browser.browser import Browser
from playbench.games.coding.sandbox import Sandbox, SiteServer
from playbench.games.types import Task
from playbench.games.webui.aes import Element, aes, needed_properties
from playbench.games.webui.env import WebUIEnv
from playbench.games.webui.render import run_page
from playbench.games.webui.tasks import load_levels

TEXT = ("text", "font-size", "font-weight", "color")


def synthetic(n: int) -> tuple[list[Element], list[Element]]:
    truth, gen = [], []
    for i in range(n):
        x, y = (i % 8) * 230.0, (i // 8) * 60.0
        box = (x, y, x + 200.0, y + 40.0)
        values = {"text": f"item {i}", "font-size": f"{12 + i % 7}px", "font-weight": "400",
                  "color": f"rgb({i % 256}, 40, 90)"}
        truth.append(Element(box, 0, values, "text", TEXT, f"<p>{i}</p>"))
        gen.append(Element(box, 0, {**values, "font-size": f"{13 + i % 7}px"}))
        gen.append(Element((x - 4, y - 4, x + 204, y + 44), 1, values))
    return truth, gen


def page_html(n: int) -> str:
    cells = "".join(f'<p data-filter-by="text" data-evalby="text|font-size|font-weight|color" '
                    f'style="display:inline-block;width:200px;height:40px;margin:10px;'
                    f'font-size:{12 + i % 7}px">item {i}</p>' for i in range(n))
    return f"<!DOCTYPE html><html><body>{cells}</body></html>"


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


async def main(tasks: int, repeat: int) -> None:
    truth, gen = synthetic(200)
    times = []
    for _ in range(max(3, repeat)):
        start = time.perf_counter()
        score, _ = aes([truth], [gen])
        times.append(time.perf_counter() - start)
    print(f"AES, 200 truth x 400 page elements (synthetic): median {statistics.median(times):.3f}"
          f" s, max {max(times):.3f} s (score {score:.3f})")
    async with Browser() as browser:
        with SiteServer() as server:
            sandbox = Sandbox(browser, server)
            html = page_html(200)
            t0 = time.perf_counter()
            t_run = await run_page(sandbox, {"index.html": html}, [], shots=False)
            t1 = time.perf_counter()
            states = [s or [] for s in t_run.states]
            g_run = await run_page(sandbox, {"index.html": html}, [],
                                   props=needed_properties(states[0]), shots=False)
            t2 = time.perf_counter()
            score, _ = aes(states, g_run.states)
            t3 = time.perf_counter()
            print(f"AES, 200-element page in Chromium: truth render+read {t1 - t0:.2f} s, "
                  f"submission render+read {t2 - t1:.2f} s, scoring {t3 - t2:.3f} s "
                  f"({len(states[0])} truth, {len(g_run.states[0] or [])} page elements; "
                  f"score {score:.3f})")
        levels = load_levels("webui")
        picked = [levels[i * len(levels) // tasks] for i in range(tasks)]
        renders: list[float] = []
        for level in picked:
            env = WebUIEnv(browser=browser)
            task = Task("webui", level, {}, "webui")
            await env.reset(task, 0)
            answer = env.oracle()
            assert answer
            for _ in range(repeat):
                start = time.perf_counter()
                tr = await env.step(env.parse_action(answer[0]))
                renders.append(time.perf_counter() - start)
                assert tr.reward > 0.999, (level.meta["id"], tr.reward)
            await env.close()
        print(f"render + score per submission ({len(renders)} submissions over {len(picked)} "
              f"pages, 1920 x 1080, screenshots on): p50 {pct(renders, .5):.2f} s, "
              f"p95 {pct(renders, .95):.2f} s, max {max(renders):.2f} s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    asyncio.run(main(args.tasks, args.repeat))
