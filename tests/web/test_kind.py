"""The web task kind: found through its entry point, owning its settings (VWA's budget, once),
its sources, its environment and its Library facts, and sitting below the app."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from playbench.app.agents.judge import env_services
from playbench.app.core.settings import get_setting
from playbench.app.ui.models.records import EpisodeSummary, kind_resumable
from playbench.games.base import LevelError
from playbench.games.kind import EnvServices, Registry, TaskKind, default_registry
from playbench.games.web import KIND
from playbench.games.web.env import WebTaskEnv
from playbench.games.web.kind import VWA_BUDGET
from playbench.games.web.sources import bundled_dir, load_tasks

ROOT = Path(__file__).resolve().parents[2]


def test_the_installed_registry_finds_web_through_its_entry_point():
    kinds = default_registry()
    assert "web" in kinds.names()
    kind = kinds.get("web")
    assert kind is KIND and isinstance(kind, TaskKind)
    assert (kind.view, kind.replay.resumable, kind.undo) == ("browser", False, False)
    assert "server" in kind.replay.reason
    assert kind.answers is None and kind.gym_actions is None and kind.input_map() is None


def test_every_setting_starts_from_vwas_budget():
    # web.md, VWA's code: 30 steps; stop after 3 unparseable outputs or 5 identical actions.
    assert (VWA_BUDGET.max_actions, VWA_BUDGET.stop_after_unparseable,
            VWA_BUDGET.stop_after_identical) == (30, 3, 5)
    settings = KIND.settings()
    assert list(settings) == ["default", "vwa:som", "vwa:text"]
    assert {s.budget for s in settings.values()} == {VWA_BUDGET}
    assert not any(s.undo or s.one_step for s in settings.values())
    assert settings["vwa:text"].observation == "text"
    assert get_setting("vwa:som", "web") is settings["vwa:som"]


def test_sources_list_the_bundled_sets_with_their_task_counts():
    bundled = sorted(p.stem for p in bundled_dir().glob("*.json"))
    found = KIND.sources()
    assert [s.name for s in found] == bundled
    for s in found:
        data = json.loads((bundled_dir() / f"{s.name}.json").read_text(encoding="utf-8"))
        assert s.count == len(data)


def test_load_takes_a_range_over_task_ids_from_a_set_or_a_file(tmp_path):
    assert [lv.number for lv in KIND.load("classifieds:0-2,5")] == [0, 1, 2, 5]
    path = tmp_path / "mine.json"
    path.write_text(json.dumps([{"task_id": 7, "intent": "x", "start_url": "__CLASSIFIEDS__",
                                 "eval": {"eval_types": ["string_match"]}}]))
    assert [lv.number for lv in KIND.load(f"{path}:7")] == [7]
    with pytest.raises(LevelError, match="selects no task"):
        KIND.load(f"{path}:8")
    with pytest.raises(LevelError, match="no web task file"):
        KIND.load("no-such-set")


def test_describe_gives_the_library_facts_of_a_task():
    level = next(lv for lv in KIND.load("classifieds") if "image" in json.loads(lv.text))
    facts = KIND.describe(level)
    config = json.loads(level.text)
    assert facts["task"] == config["task_id"] and facts["intent"] == config["intent"]
    assert facts["evaluators"] == ", ".join(config["eval"]["eval_types"])
    assert facts["reference"] == len(level.meta.get("reference", ()))
    broken = replace(level, text="not json")
    assert KIND.describe(broken)["intent"].startswith("(unreadable task:")
    assert KIND.thumbnail(level, 64) is None


def test_make_env_hands_the_services_to_the_environment(tmp_path):
    task = load_tasks("classifieds:0")[0]
    (tmp_path / "web.json").write_text(json.dumps({"sites": {"SHOPPING": "http://h:7770"}}))
    shared = object()
    env = KIND.make_env(task, services=EnvServices(config_dir=tmp_path,
                                                   extra={"browser": shared, "axtree": False,
                                                          "unknown": 1}))
    assert isinstance(env, WebTaskEnv)
    assert env.browser is shared and env.axtree is False
    assert env.config.site_map()["SHOPPING"] == "http://h:7770"
    app_env = KIND.make_env(task, services=env_services(environ={
        "PLAYBENCH_CONFIG_DIR": str(tmp_path)}))
    assert app_env.config.site_map()["SHOPPING"] == "http://h:7770"


def test_resumability_comes_from_the_kind():
    assert kind_resumable("web") is False and kind_resumable("sokoban") is True
    assert kind_resumable("no-such-kind") is False
    assert kind_resumable("web", Registry(entry_points=[], kinds=[KIND])) is False
    row = EpisodeSummary(1, "web", "t", "human", "a", "human", "default", "interrupted", None, 2,
                         None, None, kind_resumable=kind_resumable("web"))
    assert not row.resumable


def test_games_and_resources_import_nothing_from_the_app():
    code = ("import sys, playbench.games.web, playbench.games.web.env, playbench.games.web.kind, "
            "playbench.resources.web.site; "
            "print(sorted({'.'.join(m.split('.')[:2]) for m in sys.modules}"
            " & {'playbench.app', 'playbench.db', 'PySide6'}))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"
    code = ("import sys, playbench.resources.web.site; "
            "print(sorted({'.'.join(m.split('.')[:2]) for m in sys.modules}"
            " & {'playbench.app', 'playbench.games'}))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"
