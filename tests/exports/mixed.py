"""A small mixed recording for the trajectory formats: a study with its population fields, two
annotators and scripted sweeps on boards (as ``build_source``), model episodes played over
real HTTP against a ``serve-model`` endpoint answering with some noise (invalid replies, tokens,
costs), and, when asked for, a web task in real Chromium played by a person, the solver and
the model (``mixed_source.play_web_task``, as the Inspect round trip records it)."""

from __future__ import annotations

import asyncio
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from playbench.app.agents.serve import ModelServer, ServeOptions
from playbench.app.agents.session import ModelPlayerFactory
from playbench.app.core.recorder import DbRecorder
from playbench.app.core.runs import RunRequest, run_many
from playbench.app.core.settings import get_setting
from playbench.app.core.task import Task
from playbench.app.players.factory import player_factory
from playbench.app.studies import create_study, load_study_file, run_sweep
from playbench.db.engine import open_database
from playbench.db.store import Store
from playbench.games import registry
from tests.agents.helpers import ingvp_pack, server_profile
from tests.exports.conftest import annotate
from tests.exports.mixed_source import play_web_task
from tests.studies.helpers import give_up_after, optimal, study_yaml

POPULATION = "Two lab members who had not seen the levels before"
SAMPLING = "Everyone in the lab on the day"
COMPENSATION = "None"


@dataclass
class Mixed:
    url: str
    path: Path
    store: Store


async def _models(store: Store, url: str, directory: Path) -> None:
    for game, setting in (("sokoban", "ingvp:text-multi"), ("maze", "tools:image")):
        spec = registry.get(game)
        tasks = [Task(game, lv, spec.rule_options({}), "ingvp-pack")
                 for lv in ingvp_pack(game, directory, count=2)]
        factory = ModelPlayerFactory(server_profile(url))
        chosen = get_setting(setting, game)
        try:
            await asyncio.wait_for(run_many(RunRequest(tasks, factory, chosen, chosen.budget,
                                                       concurrency=2), DbRecorder(store)),
                                   timeout=60)
        finally:
            await factory.aclose()


def build_mixed(directory: Path, web: bool = False) -> Mixed:
    """The recording in ``directory/mixed.sqlite3``; with ``web``, the web task in real
    Chromium too (a test that asks for it is in the browser tier)."""
    path = directory / "mixed.sqlite3"
    url = f"sqlite:///{path}"
    store = Store(open_database(url))
    create_study(store, load_study_file(study_yaml(
        directory, population=POPULATION, sampling=SAMPLING, compensation=COMPENSATION)))
    asyncio.run(annotate(store, "alice", optimal))
    asyncio.run(annotate(store, "bob", give_up_after(4)))
    asyncio.run(run_sweep(store, "pilot", player_factory("random")))
    asyncio.run(run_sweep(store, "pilot", player_factory("solver")))
    server = ModelServer(ServeOptions(port=0, noise=0.3, seed=5)).start()
    try:
        asyncio.run(_models(store, server.url, directory))
        if web:
            asyncio.run(play_web_task(store, server.url))
    finally:
        server.stop()
    return Mixed(url, path, store)


def copy_database(source: Path, target: Path) -> str:
    """A consistent copy of an SQLite file (WAL included) through SQLite's backup API; returns
    the copy's URL."""
    with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
        src.backup(dst)
    return f"sqlite:///{target}"
