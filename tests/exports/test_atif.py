"""``export --format atif``: one ATIF v1.6 trajectory per episode that keeps the RFC's field
rules (tests/exports/atif_rules.py), with its images beside it, and reads back as the recorded
actions, outcomes and token counts. The recording holds people, a model and scripts on boards
and on a web task in real Chromium."""

from __future__ import annotations

import copy
import json
from itertools import groupby

import pytest

from playbench.app.exports.atif import trajectory
from playbench.app.exports.walk import episode_groups
from tests.exports.atif_rules import atif_problems, image_paths
from tests.exports.mixed import build_mixed
from tests.studies.helpers import run_cli

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    m = build_mixed(tmp_path_factory.mktemp("mixed"), web=True)
    yield m
    m.store.db.dispose()


@pytest.fixture(scope="module")
def exported(mixed, tmp_path_factory):
    out = tmp_path_factory.mktemp("atif")
    r = run_cli(["export", "--format", "atif", "--out", str(out / "t")], db=mixed.url,
                cwd=out)
    assert r.code == 0, r.err
    return out / "t", r


def test_every_trajectory_keeps_the_rfc_rules(mixed, exported):
    out, r = exported
    ids = mixed.store.all_episode_ids()
    files = sorted(p for p in out.glob("*.json") if p.name != "manifest.json")
    assert len(files) == len(ids) and f"exported {len(ids)} ATIF trajectories" in r.out
    shown = set()
    for path in files:
        doc = json.loads(path.read_text())
        assert atif_problems(doc) == [], path.name
        for image in image_paths(doc):
            assert (out / image).read_bytes().startswith(b"\x89PNG")
            shown.add(image)
    assert {p.name for p in (out / "images").iterdir()} == {s.split("/")[1] for s in shown}
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["schema_version"] == "ATIF-v1.6" and manifest["trajectories"] == len(ids)


def test_trajectories_read_back_as_recorded(mixed, exported):
    out, _ = exported
    kinds = set()
    for eid in mixed.store.all_episode_ids():
        row = mixed.store.episode(eid)
        steps = mixed.store.steps(eid)
        doc = json.loads((out / f"{row.episode.uid}.json").read_text())
        assert doc["session_id"] == row.episode.uid and doc["agent"]["name"] == \
            row.participant.name
        agent_steps = [s for s in doc["steps"] if s["source"] == "agent"]
        decisions = [list(g) for _, g in groupby(steps, key=lambda s: s.decision)]
        assert len(agent_steps) == len(decisions)
        for got, decision in zip(agent_steps, decisions, strict=True):
            assert got["message"] == decision[0].raw
            calls = [c["arguments"]["action"] for c in got.get("tool_calls", [])]
            assert calls == [s.action for s in decision if s.action is not None]
            results = got["observation"]["results"]
            assert len(results) == len(decision)
            for result, s in zip(results, decision, strict=True):
                assert result["content"][0]["text"].startswith(
                    "applied" if s.valid else "not applied")
                if s.frame:
                    assert result["content"][1]["source"]["path"] == f"images/{s.frame}.png"
            tokens = sum(s.prompt_tokens for s in decision)
            if tokens:
                assert got["metrics"]["prompt_tokens"] == tokens
                assert got["model_name"] == row.participant.details["model"]
            else:
                assert "metrics" not in got
            assert [x["state_hash"] for x in got["extra"]["steps"]] == \
                [s.state_hash for s in decision]
        assert doc["final_metrics"]["total_prompt_tokens"] == \
            sum(s.prompt_tokens for s in steps)
        assert doc["steps"][-1]["extra"]["scores"] == row.scores
        kinds.add((row.task.game == "web", row.participant.kind))
    # people, models and scripts, each on boards and on the web task
    assert kinds == {(web, k) for web in (False, True) for k in ("human", "script", "model")}


def test_the_checker_refuses_what_the_rfc_forbids(mixed):
    """The checker is not vacuous: each planted fault is named."""
    ids = mixed.store.all_episode_ids()
    model_ep = next(ep for g in episode_groups(mixed.store, ids) for ep in g.episodes
                    if ep.row.participant.kind == "model")
    good = trajectory(model_ep)
    assert atif_problems(good) == []
    agent_at = next(i for i, s in enumerate(good["steps"]) if s["source"] == "agent")

    def broken(change) -> list[str]:
        doc = copy.deepcopy(good)
        change(doc)
        return atif_problems(doc)

    assert broken(lambda d: d.pop("session_id")) == ["session_id: required"]
    assert broken(lambda d: d["steps"][1].update(step_id=5)) == [
        "steps[1].step_id: must be 2 (sequential from 1)"]
    assert broken(lambda d: d["steps"][0].update(reasoning_content="x")) == [
        "steps[0].reasoning_content: only agent steps may have it"]
    assert broken(lambda d: d["steps"][1]["message"][1].pop("source")) == [
        "steps[1].message[1].source: required object on an image part"]
    assert broken(lambda d: d["steps"][1]["message"][1]["source"].update(
        media_type="image/bmp"))[0].startswith("steps[1].message[1].source.media_type")
    assert broken(lambda d: d["steps"][agent_at]["observation"]["results"][0].update(
        source_call_id="nope")) == [
        f"steps[{agent_at}].observation.results[0].source_call_id: names no tool call of "
        "this step"]
    assert broken(lambda d: d["agent"].pop("version")) == ["agent.version: required"]
    assert broken(lambda d: d.update(schema_version="ATIF-v1.5")) == [
        "schema_version: must be 'ATIF-v1.6'"]
