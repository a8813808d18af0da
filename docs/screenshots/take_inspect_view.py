"""The screenshot of PlayBench episodes in Inspect AI's log viewer (docs/export-format.md,
"Inspect AI logs"): the mixed recording of the export tests (people, a model and scripts on
Sokoban, maze and a web task) exported with ``export --format inspect``, bundled with
``inspect view bundle`` (Inspect's own static viewer, no server of Inspect's running) and
opened in Debian's Chromium from a small HTTP server on 127.0.0.1 that answers range requests
(the viewer reads the ``.eval`` archives by byte range, which neither a ``file://`` page nor
Python's plain ``http.server`` gives it).

    .venv/bin/python docs/screenshots/take_inspect_view.py [--keep DIR]

Saves inspect-view.png (the log list), inspect-samples.png (a person's Sokoban log) and
inspect-sample.png (one of its episodes) next to this file. Needs the ``inspect`` extra.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from playwright.async_api import async_playwright, expect  # noqa: E402

from playbench.app.exports.inspect_log import export_inspect  # noqa: E402
from playbench.games.browser.browser import chromium_executable  # noqa: E402
from tests.exports.mixed_source import build_mixed  # noqa: E402


class _Ranges(SimpleHTTPRequestHandler):
    """A static server that answers ``Range: bytes=A-B`` with 206: the viewer reads a ``.eval``
    archive's directory and entries by range, and gives up on a server that sends the whole
    file instead (Python's own handler does)."""

    def log_message(self, format: str, *args: object) -> None:
        pass

    def send_head(self):  # type: ignore[no-untyped-def]
        wanted = re.fullmatch(r"bytes=(\d*)-(\d*)", self.headers.get("Range", ""))
        path = Path(self.translate_path(self.path))
        if wanted is None or not path.is_file():
            return super().send_head()
        data = path.read_bytes()
        first, last = wanted.groups()
        if first:
            start, end = int(first), min(int(last) if last else len(data) - 1, len(data) - 1)
        else:
            start, end = max(len(data) - int(last or 0), 0), len(data) - 1
        self.send_response(206)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Range", f"bytes {start}-{end}/{len(data)}")
        self.send_header("Content-Length", str(end - start + 1))
        self.send_header("Accept-Ranges", "bytes")
        self.end_headers()
        return io.BytesIO(data[start:end + 1])


def bundle(folder: Path) -> tuple[Path, int]:
    store = build_mixed(folder)
    report = export_inspect(store, folder / "logs")
    store.db.dispose()
    inspect = shutil.which("inspect", path=str(Path(sys.executable).parent)) or "inspect"
    subprocess.run([inspect, "view", "bundle", "--log-dir", str(folder / "logs"),
                    "--output-dir", str(folder / "bundle")], check=True)
    print(f"{len(report.logs)} logs bundled in {folder / 'bundle'}")
    return folder / "bundle", len(report.logs)


async def shoot(site: str, logs: int) -> None:
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=chromium_executable(),
                                           args=["--no-sandbox"], chromium_sandbox=False)
        page = await browser.new_page(viewport={"width": 1400, "height": 900})
        await page.goto(site)
        await page.get_by_text("human/alice").first.wait_for(timeout=30_000)
        # the list fills in each log's header as it is read: wait for every one of them
        await expect(page.get_by_text("setting=")).to_have_count(logs, timeout=60_000)
        await page.screenshot(path=str(HERE / "inspect-view.png"))
        row = page.locator("[role=row]").filter(has_text="human/alice").filter(
            has_text='setting="default"')
        await row.get_by_text("pilot", exact=True).click()
        await page.get_by_text("sokoban-").first.wait_for(timeout=30_000)
        await page.screenshot(path=str(HERE / "inspect-samples.png"))
        await page.get_by_text("sokoban-").first.click()
        await page.get_by_text("step 0:").first.wait_for(timeout=30_000)
        await page.screenshot(path=str(HERE / "inspect-sample.png"))
        await browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, help="build in this directory and keep it")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="playbench-inspect-shot-") as scratch:
        folder = args.keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        root, logs = bundle(folder)
        server = ThreadingHTTPServer(("127.0.0.1", 0),
                                     functools.partial(_Ranges, directory=str(root)))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            asyncio.run(shoot(f"http://127.0.0.1:{server.server_port}/", logs))
        finally:
            server.shutdown()


if __name__ == "__main__":
    main()
