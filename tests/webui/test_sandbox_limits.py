"""WebUI's page sandbox and stored fields (issue 27), through the real loop into a real SQLite
file with real Chromium: a model-written page's WebRTC attempt sends nothing and is recorded on
its step; a page that allocates without end crashes alone and the episode goes on; a 50 MB
reply is stored cut in every column, saying so."""

from __future__ import annotations

import hashlib

import pytest
import pytest_asyncio

from playbench.app.agents.client import ModelReply
from playbench.app.agents.player import ModelPlayer
from playbench.app.agents.profiles import ModelProfile
from playbench.app.agents.protocols import make_protocols
from playbench.app.agents.protocols.base import Reply
from playbench.app.core.play import play
from playbench.app.core.recorder import DbRecorder
from playbench.app.core.settings import get_setting
from playbench.app.core.task import Task
from playbench.app.core.types import Usage
from playbench.db.caps import FIELD_LIMIT, NOTE_ROOM
from playbench.db.engine import open_database
from playbench.db.store import Store
from playbench.games.browser.browser import Browser
from playbench.games.webui.env import TargetCache, WebUIEnv
from playbench.games.webui.kind import SETTINGS
from playbench.games.webui.tasks import load_levels
from tests.web.conftest import ListPlayer
from tests.web.probes import UdpListener, runaway_script, webrtc_script

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.browser]

LEVEL = next(lv for lv in load_levels("webui") if lv.meta["id"] == "form-02")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser():
    async with Browser() as b:
        yield b


@pytest.fixture(scope="module")
def targets() -> TargetCache:
    return TargetCache()


@pytest.fixture
def store(tmp_path):
    s = Store(open_database(f"sqlite:///{tmp_path / 'webui.sqlite3'}"))
    yield s
    s.db.dispose()


def answer(body: str) -> str:
    return f"```html\n<!doctype html><html><body><h1>hi</h1>{body}</body></html>\n```"


async def run(browser, targets, store, player, setting="webui:online"):
    task = Task("webui", LEVEL, {}, "webui")
    result = await play(task, player, setting=get_setting(setting, "webui"),
                        budget=SETTINGS[setting].budget, recorder=DbRecorder(store),
                        make_env=lambda t: WebUIEnv(browser=browser, targets=targets))
    return result, store.steps(result.episode_id)


async def test_a_pages_webrtc_sends_nothing_and_is_on_its_step(browser, targets, store):
    with UdpListener() as udp:
        page = answer(f"<script>{webrtc_script(udp.port)}</script>")
        result, steps = await run(browser, targets, store, ListPlayer([page]))
    assert result.status == "done", result.end_reason
    assert udp.received == []
    webrtc = [b for b in steps[0].info.get("blocked", []) if b["type"] == "webrtc"]
    assert {b["url"] for b in webrtc} == {f"stun:127.0.0.1:{udp.port}",
                                          f"turn:127.0.0.1:{udp.port}?transport=udp"}
    assert all(b["via"] == "webrtc" for b in webrtc)


async def test_a_runaway_page_crashes_alone_and_the_episode_goes_on(browser, targets, store):
    runaway = answer(f"<script>{runaway_script(2048, 'arrays')}; grow();</script>")
    result, steps = await run(browser, targets, store,
                              ListPlayer([runaway, answer("<p>calm</p>")]))
    assert result.status == "done", result.end_reason
    assert len(steps) == 2
    assert steps[0].info["failure"] and "crashed" in steps[0].info["failure"]
    assert "out of memory" in steps[0].info["failure"]
    assert steps[0].reward == 0.0
    assert steps[1].info["failure"] is None  # the next page renders in the same browser


class FiftyMegabytes:
    """A completer whose every answer is one page of 50 MB (the text of a runaway model)."""

    def __init__(self) -> None:
        self.text = answer("<p>" + "x" * (50 * 1024 * 1024) + "</p>")

    async def complete(self, prompt, headers=None, on_text=None) -> ModelReply:
        return ModelReply(Reply(self.text), Usage(requests=1), "stop", (), "fifty")


async def test_a_50_mb_reply_is_stored_cut_in_every_column(browser, targets, store):
    model = FiftyMegabytes()
    player = ModelPlayer(ModelProfile(name="fifty", base_url="http://127.0.0.1:9/v1",
                                      model="none"), model, make_protocols(),
                         lambda frame: "data:,")
    result, steps = await run(browser, targets, store, player, "webui:global")
    assert result.status == "done", result.end_reason
    (step,) = steps
    with store.db.engine.connect() as conn:
        sizes = conn.exec_driver_sql(
            "SELECT length(CAST(action AS BLOB)), length(CAST(raw AS BLOB)), "
            "length(CAST(info AS BLOB)) FROM steps WHERE episode_id = ?",
            (result.episode_id,)).one()
    assert all(size <= FIELD_LIMIT + NOTE_ROOM for size in sizes), sizes
    whole = model.text.encode()
    cut = step.info["cut"]["action"]
    assert cut["bytes"] == len(whole) and cut["sha256"] == hashlib.sha256(whole).hexdigest()
    assert step.action.endswith(f"of {len(whole)} bytes stored; sha256 {cut['sha256']}]")
    assert "reply cut by PlayBench" in step.raw[-200:]
    assert "the limit is" in step.info["failure"]  # too large to render, as before
