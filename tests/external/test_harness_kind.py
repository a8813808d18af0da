"""The harness endpoint (an app feature, ``playbench.app.harness``) and the kind its episodes
are recorded under meet only through ``playbench.games.harness``: the endpoint finds the kind by
its ``task_for`` capability, never by its name, and the kind makes its environment only from a
live session the endpoint hands it."""

from __future__ import annotations

import asyncio
import importlib.metadata

import pytest

from playbench.app.harness.env import ExternalEnv, Session
from playbench.games.base import LevelError
from playbench.games.external.kind import KIND
from playbench.games.harness import HarnessSession, HarnessTasks, harness_kind
from playbench.games.kind import ENTRY_POINT_GROUP, EnvServices, Registry, UnknownKind
from playbench.games.sokoban.kind import KIND as SOKOBAN


def test_the_endpoint_finds_the_kind_by_its_capability_not_its_name():
    assert not isinstance(SOKOBAN, HarnessTasks)
    with pytest.raises(UnknownKind, match="records outside harnesses"):
        harness_kind(Registry(entry_points=[], kinds=[SOKOBAN]))
    assert harness_kind(Registry(entry_points=[], kinds=[SOKOBAN, KIND])) is KIND
    # a plugin that fails to load is passed over, not fatal to the endpoint
    broken = importlib.metadata.EntryPoint("broken", "playbench_no_such_module:KIND",
                                           ENTRY_POINT_GROUP)
    assert harness_kind(Registry(entry_points=[broken], kinds=[KIND])) is KIND
    # the installed kinds include one, and its tasks are (harness, task) pairs
    installed = harness_kind(Registry())
    task = installed.task_for("vab", "task-7")
    assert task.game == installed.name and "vab" in task.level.text


def test_the_kind_makes_its_env_only_from_a_live_session():
    task = KIND.task_for("vab", "task-7")
    with pytest.raises(LevelError, match="serve-human"):
        KIND.make_env(task)
    with pytest.raises(LevelError, match="serve-human"):
        KIND.make_env(task, services=EnvServices(extra={"session": "not a session"}))

    async def go() -> None:
        session = Session("vab", "task-7", asyncio.get_running_loop(), idle_seconds=1)
        assert isinstance(session, HarnessSession)
        env = KIND.make_env(task, services=EnvServices(extra={"session": session}))
        assert isinstance(env, ExternalEnv) and env.session is session
        assert env.game == KIND.name
        await env.close()

    asyncio.run(go())


def test_the_library_and_levels_do_not_list_the_harness_kind_for_play(capsys):
    """The kind is there for recorded episodes only: the Library lists board games and the
    kinds with a task panel, ``playbench levels`` the kinds with levels - and it is in none."""
    from playbench.app.cli import main
    from playbench.app.ui.browser_library import browser_kinds
    from playbench.app.ui.models.catalog import games

    name = harness_kind(Registry()).name
    assert games() and name not in {g.name for g in games()}
    assert browser_kinds() and name not in {k.name for k in browser_kinds()}
    with pytest.raises(SystemExit) as stopped:
        main(["levels", name])
    assert stopped.value.code != 0
    assert f"{name} has no task sets to list" in capsys.readouterr().err
