"""A person (serve-human) and a model behind the proxy (serve-model upstream) play the same
harness task with the example harness: one task, two episodes, side by side in Compare, in the
Results' data and in the JSONL and CSV exports."""

from __future__ import annotations

import csv
import json

from playbench.app.agents.serve import ModelServer, ServeOptions
from playbench.app.exports.csv import export_csv
from playbench.app.exports.jsonl import export_jsonl
from playbench.app.harness.hub import ProxyPlayer
from playbench.app.harness.queue import Reply, ToolCall
from playbench.app.results.compare import compare, task_choices, task_episode_ids
from playbench.app.results.data import Scope, load_episodes
from playbench.app.results.leaderboard import leaderboard
from playbench.games.external.kind import KIND
from tests.external.helpers import answering, running
from tests.external.test_serve_human import HARNESS, colour_of


def test_a_person_and_a_proxied_model_side_by_side(db_url, tmp_path):
    with running(db_url) as srv, answering(srv.queue, lambda r: Reply(
            tool_call=ToolCall("answer", {"colour": colour_of(r)})) if r.tools
            else Reply("a clean square")):
        human = HARNESS.run(srv.url, colour="green", task="square")
        srv.wait_idle()
    upstream = ModelServer(ServeOptions(port=0)).start()
    try:
        def maker(_queue):
            return lambda _ex: ProxyPlayer(upstream.url, "playbench-oracle")

        with running(db_url, make_player=maker, via="proxy") as srv:
            model = HARNESS.run(srv.url, colour="green", task="square",
                                model="playbench-oracle")
            srv.wait_idle()
            store = srv.store
    finally:
        upstream.stop()
    assert human.correct and not model.correct  # serve-model without hints cannot see it
    ids = [human.report["episode"], model.report["episode"]]

    (choice,) = task_choices(store, game=KIND.name)
    assert choice.episodes == 2 and choice.participants == 2
    assert task_episode_ids(store, choice.task_id) == ids
    comparison = compare(store, ids)
    assert [lane.kind for lane in comparison.lanes] == ["human", "model"]
    assert [lane.solved for lane in comparison.lanes] == [1.0, 0.0]
    assert comparison.lanes[0].start_frame == comparison.lanes[1].start_frame is not None
    assert comparison.divergence is not None and comparison.divergence.row == 0
    assert comparison.divergence.kind == "action"
    human_first = comparison.row(0)[0]
    assert human_first is not None and human_first.action.startswith("answer ")

    facts = load_episodes(store, Scope(game=KIND.name)).episodes
    assert sorted((f.kind, f.solved) for f in facts) == [("human", 1.0), ("model", 0.0)]
    board = leaderboard(store, Scope(game=KIND.name))
    assert board is not None

    manifest = export_jsonl(store, tmp_path / "jsonl", ids)
    assert manifest
    lines = (tmp_path / "jsonl" / "episodes.jsonl").read_text().splitlines()
    exported = [json.loads(line) for line in lines]
    assert len(exported) == 2
    steps = [json.loads(line) for line in
             (tmp_path / "jsonl" / "steps.jsonl").read_text().splitlines()]
    assert len(steps) == 4
    assert any("tools" in json.dumps(s) for s in steps)
    assert list((tmp_path / "jsonl" / "frames").iterdir())

    export_csv(store, tmp_path / "csv", Scope(game=KIND.name))
    with open(tmp_path / "csv" / "episodes.csv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 2 and {r["kind"] for r in rows} == {"human", "model"}
    assert sorted(float(r["score"]) for r in rows) == [0.0, 1.0]
    assert {r["end_reason"] for r in rows} == {"harness_ended"}
