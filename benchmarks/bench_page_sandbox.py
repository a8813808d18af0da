"""The page sandbox's probes (issue 27), measured: WebRTC datagrams that reach a listener on
127.0.0.1, what a symbolic link in a game folder serves, the stored size of a 50 MB step, and
the peak memory of Chromium's processes while a page allocates 2.5 GiB.

    .venv/bin/python benchmarks/bench_page_sandbox.py [--no-memory-cap]

``--no-memory-cap`` runs the runaway page with ``PLAYBENCH_PAGE_MEMORY_MB=0`` (the browser as it
was before the cap) for comparison. Peak memory is the largest sum of resident sizes of this
process's children (Playwright's driver and Chromium's processes), sampled every 50 ms.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import socket
import sys
import tempfile
import threading
from pathlib import Path

from playbench.app.core.recorder import DbRecorder, EpisodeStart
from playbench.db.engine import open_database
from playbench.db.steps import StepRecord
from playbench.db.store import Store
from playbench.games.browser.browser import Browser
from playbench.games.browser.memory import MEMORY_ENV, descendants
from playbench.games.browser.session import SessionOptions
from playbench.games.browser_games.server import StaticServer

RTC_PAGE = """<!doctype html><script>
window.done = (async () => { const out = [];
  for (const name of ['RTCPeerConnection', 'webkitRTCPeerConnection']) {
    try { const pc = new window[name]({iceServers: [{urls: 'stun:127.0.0.1:PORT'},
            {urls: 'turn:127.0.0.1:PORT?transport=udp', username: 'PAGE-DATA', credential: 'x'}]});
          pc.createDataChannel('x'); await pc.setLocalDescription(await pc.createOffer());
          await new Promise((r) => setTimeout(r, 1500)); out.push(name + ' ran');
    } catch (e) { out.push(name + ' ' + e.name); } }
  return out; })();
</script>"""

RUNAWAY_PAGE = """<!doctype html><script>
window.kept = []; window.grow = () => { for (let i = 0; i < 80; i++) {
  const a = new Uint8Array(32 * 1024 * 1024); a.fill(7); window.kept.push(a); }
  return window.kept.length; };
</script>"""


def rss_mb(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


async def webrtc_and_memory(folder: Path) -> dict[str, object]:
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("127.0.0.1", 0))
    got: list[bytes] = []

    def listen() -> None:
        while True:
            try:
                got.append(udp.recvfrom(65536)[0])
            except OSError:
                return

    threading.Thread(target=listen, daemon=True).start()
    (folder / "rtc.html").write_text(RTC_PAGE.replace("PORT", str(udp.getsockname()[1])))
    (folder / "runaway.html").write_text(RUNAWAY_PAGE)
    out: dict[str, object] = {}
    with StaticServer(folder) as server:
        async with Browser() as browser:
            session = await browser.new_session(SessionOptions(frozenset({server.host})))
            await session.open_tabs([server.url("rtc.html")])
            out["webrtc_page_saw"] = await session.page.evaluate("window.done")
            out["webrtc_blocked_records"] = [b["url"] for b in session.take_blocked()
                                            if b["type"] == "webrtc"]
            await session.close()
            out["webrtc_datagrams_received"] = len(got)
            session = await browser.new_session(SessionOptions(frozenset({server.host}),
                                                               action_timeout_ms=60_000))
            await session.open_tabs([server.url("runaway.html")])
            growing = asyncio.ensure_future(session.page.evaluate("grow()"))
            peak = 0.0
            while not growing.done():
                await asyncio.sleep(0.05)
                peak = max(peak, rss_mb(descendants(os.getpid())))
            try:
                out["runaway_page_result"] = f"kept {await growing} x 32 MiB"
            except Exception as err:
                out["runaway_page_result"] = str(err).splitlines()[0][:120]
            out["runaway_peak_chromium_mb"] = round(peak)
            out["page_memory_limit_mb"] = browser.memory_mb
            await session.close()
    udp.close()
    return out


def symlink_probe(base: Path) -> dict[str, object]:
    (base / "outside.txt").write_text("root:x:0:0:SECRET")
    game = base / "games" / "g"
    game.mkdir(parents=True)
    (game / "index.html").write_text("game")
    (game / "leak.txt").symlink_to(base / "outside.txt")
    (game / "up").symlink_to(base, target_is_directory=True)
    out = {}
    with StaticServer(base / "games") as server:
        for path in ("/g/leak.txt", "/g/up/outside.txt", "/g/%2e%2e/%2e%2e/outside.txt"):
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
            conn.request("GET", path)
            reply = conn.getresponse()
            body = reply.read()
            out[path] = f"{reply.status}, secret served: {b'SECRET' in body}"
            conn.close()
    return out


def stored_50mb(base: Path) -> dict[str, object]:
    store = Store(open_database(f"sqlite:///{base / 'caps.sqlite3'}"))
    writer = DbRecorder(store)
    page = "```html\n<p>" + "x" * (50 * 1024 * 1024) + "</p>\n```"

    async def record() -> int:
        episode = await writer.begin(EpisodeStart(
            "webui", "bench", "", 1, "", "bench", {}, "script", "bench", {}, "webui:global",
            "script:bench", {}, {}, 0, f"pid:{os.getpid()}", ""), None)
        await writer.step(episode, StepRecord(0, 0, page, page, True, None, None, True, 0.0,
                                              "s"), None)
        return episode

    asyncio.run(record())
    with store.db.engine.connect() as conn:
        sizes = conn.exec_driver_sql(
            "SELECT length(CAST(action AS BLOB)), length(CAST(raw AS BLOB)), "
            "length(CAST(info AS BLOB)) FROM steps").one()
    store.db.dispose()
    return {"reply_bytes": len(page), "stored_action_bytes": sizes[0],
            "stored_raw_bytes": sizes[1], "stored_info_bytes": sizes[2]}


def main() -> None:
    if "--no-memory-cap" in sys.argv:
        os.environ[MEMORY_ENV] = "0"
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        for name in ("pages", "links"):
            (base / name).mkdir()
        report = {"symlinks": symlink_probe(base / "links"),
                  "stored_50mb_step": stored_50mb(base),
                  **asyncio.run(webrtc_and_memory(base / "pages"))}
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
