"""The Inspect AI export read back with inspect_ai itself, and imported back into PlayBench: a
mixed recording (people, a model and scripts on Sokoban, maze and a web task in real Chromium)
in a real SQLite file."""

from __future__ import annotations

import base64
from collections import Counter
from pathlib import Path

import pytest
from inspect_ai.log import read_eval_log
from inspect_ai.model import ChatMessageAssistant, ContentImage

from playbench.app.exports.inspect_import import import_inspect, inspect_logs
from playbench.app.exports.inspect_log import export_inspect
from playbench.db.engine import open_database
from playbench.db.store import Store
from tests.exports.conftest import snapshot
from tests.exports.mixed_source import build_mixed
from tests.studies.helpers import run_cli

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    directory = tmp_path_factory.mktemp("mixed")
    store = build_mixed(directory)
    report = export_inspect(store, directory / "logs")
    yield store, report, directory
    store.db.dispose()


def _logs(report):
    return {p: read_eval_log(str(p), resolve_attachments=True) for p in report.logs}


def test_one_log_per_task_set_participant_and_setting(mixed):
    store, report, _ = mixed
    rows = store.episodes(newest_first=False)
    groups = {("pilot" if r.episode.study_id else r.task.game, r.participant.kind,
               r.participant.name, r.episode.setting) for r in rows}
    logs = _logs(report)
    found = set()
    for log in logs.values():
        meta = log.eval.metadata["playbench"]
        who = meta["participant"]
        found.add((log.eval.task, who["kind"], who["name"], meta["setting"]))
        assert log.eval.model == f"{who['kind']}/{who['name']}" and log.status == "success"
    assert found == groups and len(logs) == len(groups) == 11
    assert {p.parent for p in logs} == {report.logs[0].parent}
    # people, the model and the scripts of one task see the same sample id side by side
    web = [log for log in logs.values() if log.eval.task == "web"]
    assert {w.eval.model for w in web} == {"human/carol", "script/solver", "model/stand-in"}
    assert len({s.id for w in web for s in w.samples}) == 1


def test_read_eval_log_gives_back_scores_ids_and_steps(mixed):
    store, report, _ = mixed
    rows = {r.episode.uid: r for r in store.episodes()}
    seen = Counter()
    for log in _logs(report).values():
        for sample in log.samples:
            row = rows[sample.uuid]
            seen[sample.uuid] += 1
            steps = store.steps(row.episode.id)
            expected = {k: v for k, v in row.scores.items() if v is not None}
            assert {k: s.value for k, s in sample.scores.items()} == expected
            assert list(sample.scores)[0] == "solved"
            assert sample.metadata["playbench"]["episode"]["n_steps"] == len(steps) \
                == row.episode.n_steps > 0
            assert [s["index"] for s in sample.metadata["playbench"]["steps"]] == \
                list(range(len(steps)))
            answers = [m for m in sample.messages if isinstance(m, ChatMessageAssistant)]
            assert len(answers) == len({s.decision for s in steps})
            assert sample.working_time == pytest.approx(sum(s.think_ms for s in steps) / 1000)
            assert sample.total_time == pytest.approx(
                (row.episode.ended - row.episode.started).total_seconds())
            kind = row.participant.kind
            if kind == "model":
                usage = sample.model_usage[log.eval.model]
                assert usage.input_tokens == sum(s.prompt_tokens for s in steps) > 0
                assert usage.output_tokens == sum(s.completion_tokens for s in steps) > 0
                assert answers[0].text == steps[0].raw
            else:
                assert sample.model_usage == {}
                assert answers[0].text == steps[0].action
            images = [c for m in sample.messages if not isinstance(m.content, str)
                      for c in m.content if isinstance(c, ContentImage)]
            assert images and all(base64.b64decode(i.image.split(",", 1)[1])
                                  .startswith(b"\x89PNG") for i in images)
        scored = [s for s in log.samples if "solved" in s.scores]
        mean = sum(s.scores["solved"].value for s in scored) / len(scored)
        headline = log.results.scores[0]
        assert headline.name == "solved" and headline.metrics["mean"].value == mean
    assert set(seen) == set(rows) and set(seen.values()) == {1}


def test_import_recreates_every_episode_step_frame_and_score(mixed, tmp_path):
    store, report, directory = mixed
    target = Store(open_database(f"sqlite:///{tmp_path / 'copy.sqlite3'}"))
    result = import_inspect(target, inspect_logs(report.logs[0].parent))
    assert result.episodes_new == len(store.episodes()) == 25 and result.studies == 1
    assert snapshot(target) == snapshot(store)
    again = import_inspect(target, inspect_logs(report.logs[0].parent))
    assert (again.episodes_new, again.episodes_skipped) == (0, 25)
    target.db.dispose()


def test_the_commands_export_a_study_and_import_it(mixed, tmp_path):
    store, _, directory = mixed
    source = str(store.db.engine.url)
    out = tmp_path / "study-logs"
    done = run_cli(["export", "--format", "inspect", "--out", str(out), "--study", "pilot"],
                   db=source, cwd=tmp_path)
    assert done.code == 0, done.err
    assert "wrote 8 Inspect logs (22 episodes" in done.out
    copy = f"sqlite:///{tmp_path / 'copy.sqlite3'}"
    checked = run_cli(["import", "--check", str(out)], db=copy, cwd=tmp_path)
    assert checked.code == 0 and "ok: 22 episodes" in checked.out, checked.err
    imported = run_cli(["import", str(out)], db=copy, cwd=tmp_path)
    assert imported.code == 0 and "imported 22 new episodes" in imported.out, imported.err
    one = sorted(Path(out).glob("*.eval"))[0]
    again = run_cli(["import", str(one)], db=copy, cwd=tmp_path)
    assert again.code == 0 and "imported 0 new episodes" in again.out, again.err
