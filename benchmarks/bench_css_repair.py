"""Time per CSS-repair edit: rendering the page in a fresh sandboxed Chromium context and the
SSIM to the target, over one task of each bundled project (three edits per task: the fix, a
revert, the fix again). Run: ``.venv/bin/python benchmarks/bench_css_repair.py [--small]``
(``--small``: the first project only, as CI runs it so the script cannot rot)."""

from __future__ import annotations

import argparse
import asyncio
import statistics

from playbench.games.browser.browser import Browser
from playbench.games.coding.sandbox import SiteServer
from playbench.games.css_repair.env import CssRepairEnv
from playbench.games.css_repair.kind import KIND
from playbench.games.css_repair.project import breakage_from_text
from playbench.games.types import Task


async def main(projects: int | None) -> None:
    levels, seen = [], set()
    for level in KIND.load("css-repair"):
        project = breakage_from_text(level.text).project
        if project not in seen:
            seen.add(project)
            levels.append(level)
    levels = levels[:projects]
    renders: list[float] = []
    scores: list[float] = []
    async with Browser() as browser:
        with SiteServer() as server:
            for level in levels:
                env = CssRepairEnv(browser, server)
                await env.reset(Task(KIND.name, level, {}, "css-repair"), 0)
                env.timings.clear()
                fix = (env.oracle() or [])[0]
                for text in (fix, "revert_last_edit()", fix):
                    await env.step(env.parse_action(text))
                renders += [r for r, _ in env.timings]
                scores += [s for _, s in env.timings]
                await env.close()
    for name, values in (("render", renders), ("ssim", scores)):
        print(f"{name}: median {statistics.median(values) * 1000:.0f} ms, "
              f"max {max(values) * 1000:.0f} ms over {len(values)} edits")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--small", action="store_true", help="the first project only")
    asyncio.run(main(1 if ap.parse_args().small else None))
