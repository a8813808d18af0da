"""Shared pieces of the web tests: one Chromium, one classifieds site and one stand-in judge per
test module (pytest-asyncio module loops), and helpers that play a task through the real loop."""

from __future__ import annotations

import pytest
import pytest_asyncio

from playbench.app.agents.judge import ModelJudge
from playbench.app.agents.profiles import ModelProfile
from playbench.app.core.episode import Episode
from playbench.app.core.recorder import MemoryRecorder
from playbench.app.core.settings import get_setting
from playbench.app.core.task import Task
from playbench.app.players.scripted import SolverPlayer
from playbench.games.browser.browser import Browser
from playbench.games.web.config import WebConfig
from playbench.games.web.env import WebTaskEnv
from playbench.games.web.kind import VWA_BUDGET
from playbench.resources.web.site import ClassifiedsServer
from tests.web.fakes import FakeJudgeServer


@pytest.fixture(scope="module")
def site():
    server = ClassifiedsServer()
    server.start()
    yield server
    server.stop()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser():
    b = Browser()
    await b.start()
    yield b
    await b.close()


@pytest.fixture(scope="module")
def judge_url():
    with FakeJudgeServer() as url:
        yield url


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def judge(judge_url):
    j = ModelJudge(ModelProfile(name="stand-in-judge", base_url=judge_url, model="fake",
                                max_retries=0))
    yield j
    await j.aclose()


@pytest.fixture
def make_env(browser, site):
    """``make_env(plan=..., **kw)``: a WebTaskEnv on the shared browser and site."""
    def make(plan: str = "reference", **kw) -> WebTaskEnv:
        kw.setdefault("config", WebConfig())
        return WebTaskEnv(browser=browser, sites={"CLASSIFIEDS": (site.base_url, site.reset_url)},
                          plan=plan, **kw)
    return make


async def play(env: WebTaskEnv, task: Task, player=None, budget=None):
    """Play one episode through the real loop (memory recorder); returns the result."""
    recorder = MemoryRecorder()
    episode = Episode(env, player or SolverPlayer(), task, setting=get_setting("default"),
                      budget=budget or VWA_BUDGET, recorder=recorder)
    try:
        return await episode.run()
    finally:
        await env.close()


class ListPlayer:
    """Sends the given texts one per decision (parsed through the loop), then gives up;
    ``seen`` keeps each (observation, feedback) it was shown."""

    kind, name, spec = "script", "list", "list"

    def __init__(self, texts):
        self.texts = list(texts)
        self.seen = []

    def details(self):
        return {}

    async def act(self, observation, context):
        from playbench.app.core.types import Decision
        from playbench.games.base import MoveError
        self.seen.append((observation, context.feedback))
        if not self.texts:
            return Decision.quit("done")
        text = self.texts.pop(0)
        try:
            return Decision.act(context.parse(text), raw=text)
        except MoveError as err:
            return Decision.invalid(err.kind, err.reason, raw=text)


def web_task(task_id: int = 500, start: str = "__CLASSIFIEDS__", **eval_spec) -> Task:
    """A one-off task on the offline site (string match on "ok" unless told otherwise)."""
    import json

    from playbench.games.web.tasks import load_text
    ev = eval_spec or {"eval_types": ["string_match"], "reference_answers": {"exact_match": "ok"}}
    obj = {"sites": ["classifieds"], "task_id": task_id, "start_url": start, "intent": "test",
           "require_login": False, "storage_state": None, "eval": ev}
    return Task("web", load_text(json.dumps(obj), "test")[0], {}, "test")
