"""The screenshot of a study report (docs/studies.md, "Report"): the small study of the report
tests (two annotators, a scripted solver and a random player, a check task, a declared and a
post-hoc exclusion rule) written with ``write_report`` and shown by Chromium from disk.

    .venv/bin/python docs/screenshots/take_study_report.py

Saves study-report.png next to this file.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from playwright.async_api import async_playwright  # noqa: E402

from playbench.app.exports.report import write_report  # noqa: E402
from playbench.games.browser.browser import chromium_executable  # noqa: E402
from tests.studies.report_study import NAME, make_study  # noqa: E402


async def main() -> None:
    with tempfile.TemporaryDirectory(prefix="playbench-report-shot-") as scratch:
        folder = Path(scratch)
        store = await make_study(folder, f"sqlite:///{folder / 'pb.db'}",
                                 description="Pilot human baseline on small Sokoban rooms, "
                                             "with one attention check.")
        written = write_report(store, NAME, folder / "report")
        store.db.dispose()
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=chromium_executable(),
                                               args=["--no-sandbox"], chromium_sandbox=False)
            page = await browser.new_page(viewport={"width": 1200, "height": 1500})
            await page.goto(written.html.as_uri())
            await page.screenshot(path=str(HERE / "study-report.png"))
            await browser.close()


if __name__ == "__main__":
    asyncio.run(main())
