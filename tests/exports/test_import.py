"""``playbench import``: a faithful, idempotent merge; refusal of newer schemas and corrupt
lines before anything is written; laptops of one study merged into one database."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import shutil
from pathlib import Path

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from playbench.app.core.events import Deciding
from playbench.app.exports.importer import ImportProblem, import_bundle
from playbench.app.exports.jsonl import export_jsonl
from playbench.app.players.human import HumanPlayer
from playbench.app.results import annotator_report, leaderboard
from playbench.app.results.data import Scope
from playbench.app.studies import StudyQueue, create_study, load_study_file
from playbench.db.engine import open_database
from playbench.db.models import Episode, Frame, Participant, Study, Task
from playbench.db.store import Store
from tests.exports.conftest import annotate, snapshot
from tests.studies.helpers import (
    detour_then_optimal,
    input_layer,
    optimal,
    press,
    run_cli,
    study_yaml,
)


def fresh(path: Path) -> Store:
    return Store(open_database(f"sqlite:///{path}"))


def counts(store: Store) -> list[int]:
    with store.db.engine.connect() as conn:
        return [conn.scalar(sa.select(sa.func.count()).select_from(t))
                for t in (Episode, Frame, Participant, Task, Study)]


def test_round_trip_is_faithful_and_idempotent(source, tmp_path):
    target = fresh(tmp_path / "t.sqlite3")
    report = import_bundle(target, source.bundle)
    original = snapshot(source.store)
    assert report.episodes_new == len(original["episodes"]) and report.warnings == []
    assert report.steps == len(original["steps"])
    assert snapshot(target) == original
    assert leaderboard(target, Scope(study="pilot")).records() == \
        leaderboard(source.store, Scope(study="pilot")).records()
    assert annotator_report(target, "pilot").agreement == \
        annotator_report(source.store, "pilot").agreement
    again = import_bundle(target, source.bundle)
    assert (again.episodes_new, again.steps, again.frames) == (0, 0, 0)
    assert again.episodes_skipped == len(original["episodes"])
    assert snapshot(target) == original
    # the imported study keeps working: queues resume with the recorded orders
    assert StudyQueue(target, "pilot", "alice").order == \
        StudyQueue(source.store, "pilot", "alice").order
    target.db.dispose()


def copy_bundle(source, tmp_path) -> Path:
    out = tmp_path / "copy"
    shutil.copytree(source.bundle, out)
    return out


def edit_line(path: Path, n: int, change) -> None:
    lines = path.read_text().splitlines()
    lines[n - 1] = change(lines[n - 1])
    path.write_text("\n".join(lines) + "\n")


def set_field(name, value):
    def change(line: str) -> str:
        obj = json.loads(line)
        obj[name] = value
        return json.dumps(obj)
    return change


CORRUPTIONS = [
    ("steps.jsonl", 7, lambda line: line[:-5], "steps.jsonl:7: not valid JSON"),
    ("steps.jsonl", 3, set_field("valid", "yes"), "steps.jsonl:3: field 'valid' has the wrong"),
    ("steps.jsonl", 4, set_field("index", 99), "steps.jsonl:4: step 99 of episode"),
    ("steps.jsonl", 2, set_field("episode", "nobody"), "steps.jsonl:2: episode nobody is not"),
    ("steps.jsonl", 5, set_field("frame", "../../etc.png"), "steps.jsonl:5: frame"),
    ("episodes.jsonl", 2, set_field("n_steps", 999), "episodes.jsonl:2: episode"),
    ("episodes.jsonl", 3, set_field("schema", 2), "episodes.jsonl:3: schema version 2 is newer"),
    ("episodes.jsonl", 1, set_field("status", "great"), "episodes.jsonl:1: unknown status"),
    ("episodes.jsonl", 4, set_field("participant", {"kind": "cat", "name": "x"}),
     "episodes.jsonl:4: participant must have a kind"),
    ("episodes.jsonl", 2, lambda line: "[1, 2]", "episodes.jsonl:2: expected a JSON object"),
    ("studies.jsonl", 1, set_field("protocol", {}), "studies.jsonl:1: protocol has no task"),
]


@pytest.mark.parametrize("name,line,change,message", CORRUPTIONS)
def test_a_corrupt_line_is_named_and_nothing_is_imported(source, tmp_path, name, line, change,
                                                         message):
    bundle = copy_bundle(source, tmp_path)
    edit_line(bundle / name, line, change)
    target = fresh(tmp_path / "t.sqlite3")
    before = counts(target)
    with pytest.raises(ImportProblem) as caught:
        import_bundle(target, bundle)
    assert str(caught.value).startswith(message), str(caught.value)
    assert counts(target) == before == [0, 0, 0, 0, 0]
    target.db.dispose()


def test_newer_schema_missing_frames_and_the_command(source, tmp_path):
    bundle = copy_bundle(source, tmp_path)
    manifest = json.loads((bundle / "manifest.json").read_text())
    (bundle / "manifest.json").write_text(json.dumps({**manifest, "schema_version": 2}))
    url = f"sqlite:///{tmp_path / 'cli.sqlite3'}"
    r = run_cli(["import", str(bundle)], db=url, cwd=tmp_path)
    assert r.code == 1
    assert r.err.strip().endswith("manifest.json: schema version 2 is newer than this "
                                  "PlayBench reads (1); upgrade PlayBench - nothing imported")
    (bundle / "manifest.json").write_text(json.dumps(manifest))
    victim = sorted((bundle / "frames").iterdir())[0]
    victim.unlink()
    r = run_cli(["import", str(bundle)], db=url, cwd=tmp_path)
    assert r.code == 1 and f"frame {victim.name} is missing from frames/" in r.err
    check = run_cli(["import", "--check", str(source.bundle)], db=url, cwd=tmp_path)
    assert check.code == 0 and check.out.startswith("ok: ")
    store = Store(open_database(url))
    assert counts(store) == [0, 0, 0, 0, 0]
    store.db.dispose()
    ok = run_cli(["import", str(source.bundle)], db=url, cwd=tmp_path)
    assert ok.code == 0 and "new episodes" in ok.out


def test_a_different_study_with_the_same_name_is_refused(source, tmp_path):
    target = fresh(tmp_path / "t.sqlite3")
    create_study(target, load_study_file(study_yaml(
        tmp_path, tasks=[{"game": "sokoban", "levels": "rooms.xsb:5"}])))
    with pytest.raises(ImportProblem, match="studies.jsonl:1: a different study named 'pilot'"):
        import_bundle(target, source.bundle)
    assert counts(target)[0] == 0
    target.db.dispose()


def test_laptops_merge_into_one_study_database(tmp_path):
    """Two annotators' laptops each created the study from the same file; their exports merge
    into one central database with one study and both annotators."""
    laptops = []
    for who, policy in (("alice", optimal), ("bob", detour_then_optimal("U"))):
        d = tmp_path / who
        d.mkdir()
        store = fresh(d / "laptop.sqlite3")
        create_study(store, load_study_file(study_yaml(d)))
        asyncio.run(annotate(store, who, policy))
        export_jsonl(store, d / "bundle")
        laptops.append(store)
    central = fresh(tmp_path / "central.sqlite3")
    first = import_bundle(central, tmp_path / "alice" / "bundle")
    second = import_bundle(central, tmp_path / "bob" / "bundle")
    assert first.studies == 1 and second.studies == 0
    assert any("created separately" in w for w in second.warnings)
    assert counts(central)[4] == 1
    report = annotator_report(central, "pilot")
    assert [t.annotator for t in report.times] == ["alice", "bob"]
    assert report.agreement.levels == 5
    names = {r.participant for r in leaderboard(central, Scope(study="pilot")).rows}
    assert names == {"alice", "bob"}
    for s in (*laptops, central):
        s.db.dispose()


async def test_a_later_export_extends_a_paused_episode(tmp_path):
    d = tmp_path / "laptop"
    d.mkdir()
    store = fresh(d / "laptop.sqlite3")
    create_study(store, load_study_file(study_yaml(d)))
    queue = StudyQueue(store, "pilot", "carol")
    item = queue.next()
    human = HumanPlayer("carol")
    task = None
    asked = []

    def leave(event):
        if isinstance(event, Deciding):
            asked.append(1)
            if len(asked) <= 2:
                press(human, event.context, optimal(event.context))
            else:
                asyncio.get_running_loop().call_soon(task.cancel)

    task = asyncio.ensure_future(queue.play(item, human, listeners=[leave]))
    with pytest.raises(asyncio.CancelledError):
        await task
    export_jsonl(store, d / "monday")
    central = fresh(tmp_path / "central.sqlite3")
    import_bundle(central, d / "monday")
    first = central.episodes()[0].episode
    assert (first.status, first.n_steps) == ("interrupted", 2)
    human2 = HumanPlayer("carol")
    await queue.play(queue.next(), human2, listeners=[input_layer(human2, optimal)])
    export_jsonl(store, d / "tuesday")
    report = import_bundle(central, d / "tuesday")
    assert report.episodes_extended == 1 and report.episodes_new == 0
    merged = central.episode(first.id)
    assert merged.episode.status == "done" and merged.scores["solved"] == 1.0
    assert [s.index for s in central.steps(first.id)] == list(range(merged.episode.n_steps))
    assert snapshot(central)["steps"] == snapshot(store)["steps"]
    store.db.dispose()
    central.db.dispose()


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(st.data())
def test_imports_in_any_split_and_order_give_the_same_database(source, tmp_path_factory, data):
    ids = source.store.all_episode_ids()
    parts = data.draw(st.lists(st.lists(st.sampled_from(ids), min_size=1, max_size=len(ids),
                                        unique=True), min_size=1, max_size=3))
    covered = sorted({i for p in parts for i in p})
    work = tmp_path_factory.mktemp("split")
    bundles = []
    for n, part in enumerate(parts):
        export_jsonl(source.store, work / f"b{n}", part)
        bundles.append(work / f"b{n}")
    order = data.draw(st.permutations(bundles + bundles[:1]))
    target = fresh(work / "t.sqlite3")
    for b in order:
        import_bundle(target, b)
    whole = fresh(work / "whole.sqlite3")
    export_jsonl(source.store, work / "all", covered)
    import_bundle(whole, work / "all")
    assert snapshot(target) == snapshot(whole)
    target.db.dispose()
    whole.db.dispose()


async def test_a_long_action_survives_export_and_import(tmp_path):
    """An action as long as the store keeps (a model's WebUI page, cut at db/caps.py's limit
    with its note) is exported and imported back whole: the line format allows what the
    database stores."""
    from playbench.app.core.recorder import DbRecorder
    from playbench.db.caps import FIELD_LIMIT
    from tests.db.test_field_caps import record, start

    source = fresh(tmp_path / "s.sqlite3")
    recorder = DbRecorder(source)
    page = "```html\n" + "<p>row</p>" * 3000 + "\n```"
    level = dataclasses.replace(start(), level_text="#####\n#@$.#\n#####", level_hash="long")
    episode = await recorder.begin(level, None)
    await recorder.step(episode, record(0, action=page, raw=page), None)
    await recorder.step(episode, record(1, action="x" * (2 * FIELD_LIMIT), raw="R"), None)
    await recorder.finish(episode, "done", None, {})
    stored = [s.action for s in source.steps(episode)]
    export_jsonl(source, tmp_path / "out")
    target = fresh(tmp_path / "t.sqlite3")
    report = import_bundle(target, tmp_path / "out")
    assert report.episodes_new == 1 and report.steps == 2
    (copy,) = target.all_episode_ids()
    assert [s.action for s in target.steps(copy)] == stored
