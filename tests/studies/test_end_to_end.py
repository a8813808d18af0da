"""The whole study workflow on a real SQLite file: a blind study with two annotators (the UI's
HumanPlayer fed through the games' input maps and the study queue, as the GUI does; one of
them pausing and continuing in a new session) and two model profiles served by
``playbench serve-model`` processes; the leaderboard and compare view built from it; export,
import into an empty database, identical leaderboard.
"""

from __future__ import annotations

import asyncio
import os
import re
import statistics
import subprocess
import sys

import pytest

from playbench.app.core.events import Deciding
from playbench.app.players.human import HumanPlayer
from playbench.app.results import annotator_report, compare, leaderboard, task_episode_ids
from playbench.app.results.data import Scope, load_episodes
from playbench.app.studies import Blinded, StudyQueue, Viewer
from playbench.db.engine import open_database
from playbench.db.store import Store
from tests.studies.helpers import give_up_after, input_layer, optimal, press, run_cli, study_yaml


@pytest.fixture
def model_servers(tmp_path):
    """Two serve-model processes: the oracle, and the oracle with 40 % noisy replies."""
    procs, urls = [], {}
    for name, extra in (("m-oracle", []), ("m-noisy", ["--noise", "0.4", "--seed", "3"])):
        proc = subprocess.Popen(
            [sys.executable, "-m", "playbench", "serve-model", "--port", "0", *extra],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env=dict(os.environ, PLAYBENCH_CONFIG_DIR=str(tmp_path / "config")))
        procs.append(proc)
        line = proc.stdout.readline()  # printed once the socket listens
        found = re.search(r"listening on (\S+)", line)
        assert found, f"serve-model did not start: {line!r} {proc.stderr.read()[-500:]}"
        urls[name] = found.group(1)
    yield urls
    for proc in procs:
        proc.terminate()
        proc.communicate(timeout=30)


def detour(ctx) -> str:
    """A move that is not the solver's first move, then optimal play."""
    if ctx.step == 0:
        best = (ctx.oracle() or [None])[0]
        return next(m for m in ctx.vocabulary() if m != best)
    return optimal(ctx)


async def annotate(db_url: str, name: str, policies: dict, pause_at: str | None = None):
    """Work through the queue in one session; with ``pause_at`` the app is closed after two
    moves of that task and the rest is done in a second session (new connection)."""
    store = Store(open_database(db_url))
    queue = StudyQueue(store, "pilot", name)
    paused: list[int] = []
    while (item := queue.next()) is not None:
        if item.status == "interrupted":
            paused.append(item.episode_id)
        human = HumanPlayer(name)
        policy = policies.get(item.key, optimal)
        if item.key == pause_at and item.status == "pending":
            task = None
            asked = []

            def leave(event, human=human, policy=policy):
                if isinstance(event, Deciding):
                    asked.append(1)
                    if len(asked) <= 2:
                        press(human, event.context, policy(event.context))
                    else:
                        asyncio.get_running_loop().call_soon(task.cancel)

            task = asyncio.ensure_future(queue.play(item, human, listeners=[leave]))
            with pytest.raises(asyncio.CancelledError):
                await task
            store.db.dispose()
            store = Store(open_database(db_url))  # another day
            queue = StudyQueue(store, "pilot", name)
            continue
        result = await queue.play(item, human, listeners=[input_layer(human, policy)])
        if item.status == "interrupted":  # continued, not started over
            assert result.episode_id == item.episode_id
    assert queue.progress().finished
    store.db.dispose()
    return paused


async def test_study_with_annotators_and_models_end_to_end(tmp_path, db_url, model_servers):
    cwd = tmp_path

    def cli(*args):
        r = run_cli(list(args), db=db_url, cwd=cwd)
        assert r.code == 0, r.err
        return r

    cli("study", "create", str(study_yaml(tmp_path, blind=True)))
    for name, url in model_servers.items():
        cli("models", "add", name, "--base-url", url, "--model", "playbench-oracle",
            "--state-hints", "--max-retries", "1")

    # Annotators: alice plays optimally; bob detours on the Sokoban tasks, gives up on the
    # second maze, and closes the app in the middle of t2, continuing it the next day.
    await annotate(db_url, "alice", {})
    paused = await annotate(db_url, "bob", {"t1": detour, "t2": detour, "t3": detour,
                                            "t5": give_up_after(1)}, pause_at="t2")
    assert len(paused) == 1
    # Models sweep the same tasks (practice is for people).
    for name in model_servers:
        out = cli("study", "run", "pilot", "--player", f"model:{name}", "--repeat", "2",
                  "--concurrency", "2", "--no-progress").out
        assert f"model:{name}: 10 episodes played, 0 already done" in out

    store = Store(open_database(db_url))
    facts = load_episodes(store, Scope(study="pilot")).episodes
    assert len(facts) == 2 * 5 + 2 * 10  # practice left out
    steps_of = {(e.participant, e.level_key): e for e in facts if e.kind == "human"}

    # -- the leaderboard ----------------------------------------------------------------------
    board = cli("results", "--study", "pilot", "--format", "json").json()
    rows = {(r["game"], r["participant"]): r for r in board["rows"]}
    assert set(rows) == {(g, p) for g in ("sokoban", "maze")
                         for p in ("alice", "bob", "m-oracle", "m-noisy")}
    assert rows[("sokoban", "alice")]["episodes"] == 3 and rows[("maze", "bob")]["episodes"] == 2
    assert rows[("sokoban", "m-oracle")]["accuracy"] == 100.0
    assert rows[("sokoban", "m-oracle")]["steps_over_optimal"] == 1.0
    assert rows[("sokoban", "m-oracle")]["repeats"] == 2
    assert rows[("maze", "bob")]["accuracy"] == 50.0  # gave up on one of two mazes
    # Human-relative efficiency, recomputed here from the episodes: per level the median of
    # the solving humans' actions, (median / actions)^2 capped at 1, 0 if unsolved.
    for (game, who), row in rows.items():
        per_level = {}
        for e in facts:
            if e.game != game or e.participant != who:
                continue
            solvers = [h.actions for (p, key), h in steps_of.items()
                       if key == e.level_key and h.is_solved]
            value = min(1.0, (statistics.median(solvers) / e.actions) ** 2) if e.is_solved \
                else 0.0
            per_level.setdefault(e.level_key, []).append(100 * value)
        expected = statistics.mean(statistics.mean(v) for v in per_level.values())
        assert row["human_relative"] == pytest.approx(expected), (game, who)
        assert row["human_relative_low"] <= row["human_relative"] <= row["human_relative_high"]
    assert rows[("sokoban", "alice")]["human_relative"] == 100.0
    assert rows[("sokoban", "bob")]["human_relative"] < 100.0

    # Blind study: the annotators may not see it; the researcher sees everything.
    with pytest.raises(Blinded):
        leaderboard(store, Scope(study="pilot", viewer=Viewer("bob")))

    # -- time per annotator and agreement -------------------------------------------------------
    status = cli("study", "status", "pilot", "--format", "json").json()
    times = {t["annotator"]: t for t in status["annotators"]}
    assert times["alice"]["tasks_done"] == times["bob"]["tasks_done"] == 5
    assert times["bob"]["practice_done"] == 1 and times["bob"]["active_seconds"] > 0
    agree = status["agreement"]
    both = [key for key in {k for _, k in steps_of}
            if steps_of[("alice", key)].is_solved == steps_of[("bob", key)].is_solved]
    assert agree["levels"] == 5 and agree["percent_agreement"] == pytest.approx(len(both) / 5)
    report = annotator_report(store, "pilot")
    assert report.agreement.pairs[0].levels == 5

    # -- the compare view ---------------------------------------------------------------------
    bob_t1 = next(e for e in facts if e.participant == "bob" and e.game == "sokoban"
                  and store.episode(e.id).episode.meta["study_task"] == "t1")
    task_id = store.episode(bob_t1.id).task.id
    ids = task_episode_ids(store, task_id, study="pilot")
    view = compare(store, ids)
    assert len(view.lanes) == 6 and {lane.kind for lane in view.lanes} == {"human", "model"}
    assert view.divergence is not None and view.divergence.row == 0
    assert view.divergence.kind in ("action", "state")
    alice_lane = next(lane for lane in view.lanes if lane.participant == "alice")
    # the annotators' steps came through the play view's input map: arrow keys
    assert {s.raw.split(":")[0] for s in alice_lane.steps} == {"key"}
    oracle_lanes = [lane for lane in view.lanes if lane.participant == "m-oracle"]
    same = compare(store, [alice_lane.episode_id, oracle_lanes[0].episode_id])
    assert same.divergence is None  # the annotator and the oracle model played alike
    assert all(lane.frame_at(view.rows - 1) for lane in view.lanes)
    assert store.frame_png(view.lanes[0].frame_at(-1)).startswith(b"\x89PNG")
    final = [lane.cumulative_at(view.rows) for lane in view.lanes]
    assert all(isinstance(v, float) for v in final)

    # -- export, import into an empty database, identical leaderboard ----------------------------
    cli("export", "--format", "jsonl", "--out", "bundle", "--study", "pilot")
    empty = f"sqlite:///{tmp_path / 'empty.sqlite3'}"
    imported = run_cli(["import", "bundle"], db=empty, cwd=cwd)
    assert imported.code == 0, imported.err
    assert "imported 32 new episodes" in imported.out  # 30 scored + 2 practice
    again = run_cli(["results", "--study", "pilot", "--format", "json"], db=empty, cwd=cwd)
    assert again.json()["rows"] == board["rows"]
    twice = run_cli(["import", "bundle"], db=empty, cwd=cwd)
    assert "imported 0 new episodes" in twice.out and "skipped 32 already here" in twice.out
    status_copy = run_cli(["study", "status", "pilot", "--format", "json"], db=empty, cwd=cwd)
    assert status_copy.json()["agreement"] == agree
    # The annotators' recorded orders travelled too: their queues are the same there.
    copy = Store(open_database(empty))
    assert StudyQueue(copy, "pilot", "bob").order == StudyQueue(store, "pilot", "bob").order
    copy.db.dispose()
    resumed = store.episode(paused[0])
    assert resumed.episode.status == "done" and resumed.episode.meta["study_task"] == "t2"
    store.db.dispose()
