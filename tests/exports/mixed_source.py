"""A small mixed recording for the export round trips: people, a model and scripts on two board
kinds (a study of Sokoban and maze levels) and on a web task (the offline classifieds site in
real Chromium), all recorded in a real SQLite file through the one episode loop.

The model is PlayBench's own offline endpoint (``serve-model``'s oracle) reached over real HTTP;
the people are the UI's HumanPlayer fed by scripted hands (board keys through the games' input
maps; the web task's reference actions typed as the browser pane records them).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from playbench.app.agents.serve import ModelServer, ServeOptions
from playbench.app.agents.session import ModelPlayerFactory
from playbench.app.core.events import Deciding
from playbench.app.core.recorder import DbRecorder
from playbench.app.core.runs import RunRequest, run_many
from playbench.app.core.settings import get_setting
from playbench.app.players.factory import player_factory
from playbench.app.players.human import HumanInput, HumanPlayer
from playbench.app.players.scripted import SolverPlayer
from playbench.app.studies import create_study, load_study_file, run_sweep
from playbench.db.engine import open_database
from playbench.db.store import Store
from playbench.games.browser.browser import Browser
from playbench.games.web.config import WebConfig
from playbench.games.web.env import WebTaskEnv
from playbench.games.web.kind import VWA_BUDGET
from playbench.games.web.sources import load_tasks
from playbench.games.web.tasks import task_from_level
from playbench.resources.web.site import ClassifiedsServer
from tests.agents.helpers import server_profile
from tests.exports.conftest import annotate
from tests.studies.helpers import give_up_after, optimal, study_yaml

WEB_TASK = 2
"""The classifieds task played (a string-match answer: no judge needed)."""


async def play_web_task(store: Store, model_url: str) -> None:
    """The classifieds task :data:`WEB_TASK` in real Chromium, played by carol (its reference
    actions typed as the browser pane records them), the solver and the model at
    ``model_url``."""
    task = next(t for t in load_tasks("classifieds") if t.level.number == WEB_TASK)
    reference = list(task_from_level(task.level).reference)
    site = ClassifiedsServer()
    site.start()
    browser = Browser()
    await browser.start()
    try:
        def env(_task):
            return WebTaskEnv(browser=browser, config=WebConfig(), axtree=False,
                              sites={"CLASSIFIEDS": (site.base_url, site.reset_url)})

        human = HumanPlayer("carol")
        moves = iter(reference)

        def hand(event) -> None:
            if isinstance(event, Deciding):
                text = next(moves, None)
                human.submit(HumanInput.give_up() if text is None
                             else HumanInput.move(text, f"typed:{text}"))

        setting = get_setting("vwa:som", "web")
        models = ModelPlayerFactory(server_profile(model_url))
        try:
            for make, listeners in ((lambda t, r: human, [hand]),
                                    (lambda t, r: SolverPlayer(), []), (models, [])):
                request = RunRequest([task], make, setting, VWA_BUDGET, make_env=env)
                await run_many(request, DbRecorder(store), listeners=listeners)
        finally:
            await models.aclose()
    finally:
        await browser.close()
        site.stop()


async def _model_sweep(store: Store, model_url: str) -> None:
    models = ModelPlayerFactory(server_profile(model_url))
    try:
        await run_sweep(store, "pilot", models)
    finally:
        await models.aclose()


def build_mixed(directory: Path) -> Store:
    """The recording in ``directory/mixed.sqlite3``: study ``pilot`` (Sokoban and maze, with a
    practice task) played by alice (solves), bob (gives up after 4 moves), the model and the
    random script; the web task played by carol, the solver and the model."""
    store = Store(open_database(f"sqlite:///{directory / 'mixed.sqlite3'}"))
    create_study(store, load_study_file(study_yaml(directory)))
    asyncio.run(annotate(store, "alice", optimal))
    asyncio.run(annotate(store, "bob", give_up_after(4)))
    with ModelServer(ServeOptions(port=0)) as server:
        asyncio.run(_model_sweep(store, server.url))
        asyncio.run(run_sweep(store, "pilot", player_factory("random")))
        asyncio.run(play_web_task(store, server.url))
    return store
