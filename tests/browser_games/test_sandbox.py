"""A hostile catalog game in real Chromium (issue 27): its folder links to a secret outside and
its page tries WebRTC and reads the links. The page gets 403s and no datagram leaves; the
WebRTC attempt is on the recorded step, in a real SQLite file. A game that allocates without
end on a key press ends its episode as an error naming the crash, the steps before it kept."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from playbench.app.core.play import play
from playbench.app.core.recorder import DbRecorder
from playbench.db.engine import open_database
from playbench.db.store import Store
from playbench.games.browser.browser import Browser
from playbench.games.browser_games.kind import KIND, SETTINGS
from playbench.games.kind import EnvServices
from playbench.games.types import Task
from tests.browser_games.test_harness import Texts
from tests.web.probes import UdpListener, runaway_script, webrtc_script

pytestmark = [pytest.mark.browser, pytest.mark.asyncio]

CATALOG = Path(__file__).parent / "catalog"
SECRET = "SECRET-outside-the-catalog-9d2e"

READ_LINKS = """
window.__leak = Promise.all(['leak.txt', 'outdir/secret.txt'].map((p) =>
  fetch(p).then(async (r) => [r.status, await r.text()], (e) => [0, String(e)])));
"""


def hostile_catalog(base: Path, udp_port: int, extra: str = "") -> Path:
    root = base / "catalog"
    shutil.copytree(CATALOG, root)
    (base / "outside").mkdir()
    (base / "outside" / "secret.txt").write_text(SECRET)
    game = root / "games" / "benchmark" / "01_probe"
    (game / "leak.txt").symlink_to(base / "outside" / "secret.txt")
    (game / "outdir").symlink_to(base / "outside", target_is_directory=True)
    page = game / "index.html"
    page.write_text(page.read_text().replace(
        '<script src="game_api.js">',
        f"<script>{webrtc_script(udp_port)}{READ_LINKS}{extra}</script>"
        '<script src="game_api.js">'))
    return root


async def test_a_hostile_game_reads_no_link_and_sends_no_webrtc(tmp_path):
    store = Store(open_database(f"sqlite:///{tmp_path / 'games.sqlite3'}"))
    with UdpListener() as udp:
        root = hostile_catalog(tmp_path, udp.port)
        level = KIND.load_with("01_probe/01_01", options={"catalog": str(root)})[0]
        task = Task(KIND.name, level, {}, "test")
        async with Browser() as browser:
            env = KIND.make_env(task, services=EnvServices(extra={"browser": browser}))
            env.use_setting(SETTINGS["default"])
            leaked: list = []

            class Reader(Texts):
                async def act(self, observation, context):
                    if not leaked:
                        leaked.extend(await env.session.page.evaluate("window.__leak"))
                    return await super().act(observation, context)

            result = await play(task, Reader(["step_right", "step_right"]),
                                setting=SETTINGS["default"], budget=SETTINGS["default"].budget,
                                recorder=DbRecorder(store), make_env=lambda t: env)
    assert result.status == "done", result.end_reason
    assert udp.received == []
    assert [status for status, _ in leaked] == [403, 403]
    assert SECRET not in repr(leaked)
    steps = store.steps(result.episode_id)
    webrtc = [b for b in steps[0].info.get("blocked", []) if b["type"] == "webrtc"]
    assert {b["url"] for b in webrtc} == {f"stun:127.0.0.1:{udp.port}",
                                          f"turn:127.0.0.1:{udp.port}?transport=udp"}
    store.db.dispose()


async def test_a_game_that_runs_out_of_memory_ends_its_episode_as_an_error(tmp_path):
    store = Store(open_database(f"sqlite:///{tmp_path / 'oom.sqlite3'}"))
    on_fall = (runaway_script(2048, "arrays") + "document.addEventListener('keydown', "
               "(e) => { if (e.key === 'ArrowDown') grow(); });")
    with UdpListener() as udp:
        root = hostile_catalog(tmp_path, udp.port, on_fall)
    level = KIND.load_with("01_probe/01_01", options={"catalog": str(root)})[0]
    task = Task(KIND.name, level, {}, "test")
    async with Browser() as browser:
        env = KIND.make_env(task, services=EnvServices(extra={"browser": browser}))
        env.use_setting(SETTINGS["default"])
        result = await play(task, Texts(["step_right", "fall", "step_right"]),
                            setting=SETTINGS["default"], budget=SETTINGS["default"].budget,
                            recorder=DbRecorder(store), make_env=lambda t: env)
    assert result.status == "error"
    assert "crashed" in result.end_reason and "out of memory" in result.end_reason
    stored = store.episode(result.episode_id)
    assert stored.episode.status == "error"
    assert [s.action for s in store.steps(result.episode_id)] == ["step_right"]
    store.db.dispose()
