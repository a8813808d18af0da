"""The shared store on a real PostgreSQL server: two ``playbench`` processes migrate and write
to one fresh database at the same moment; nothing is lost or duplicated; studies, queues,
results, exports and imports work against it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import sqlalchemy as sa

from playbench.app.exports.csv import export_csv
from playbench.app.players.human import HumanPlayer
from playbench.app.results import (
    annotator_report,
    compare,
    leaderboard,
    task_choices,
    task_episode_ids,
)
from playbench.app.results.data import Scope
from playbench.app.studies import StudyQueue
from playbench.db.engine import open_database
from playbench.db.models import Episode, Participant, Step, Task
from playbench.db.store import Store
from tests.studies.helpers import input_layer, level_files, optimal, run_cli, study_yaml


def start(args: list[str], db: str, cwd: Path) -> subprocess.Popen:
    env = dict(os.environ, PLAYBENCH_DB=db, SDL_VIDEODRIVER="dummy",
               PLAYBENCH_CONFIG_DIR=str(cwd / "config"))
    return subprocess.Popen([sys.executable, "-m", "playbench", *args], env=env, cwd=cwd,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish(proc: subprocess.Popen) -> tuple[int, str, str]:
    out, err = proc.communicate(timeout=300)
    return proc.returncode, out, err


def check_integrity(store: Store) -> dict[str, int]:
    """Every episode's steps are numbered 0..n-1 and n matches its step count."""
    with store.db.engine.connect() as conn:
        episodes = conn.execute(sa.select(Episode.id, Episode.n_steps, Episode.status)).all()
        steps = conn.execute(sa.select(Step.episode_id, Step.index)
                             .order_by(Step.episode_id, Step.index)).all()
        counts = {"episodes": len(episodes), "steps": len(steps),
                  "tasks": conn.scalar(sa.select(sa.func.count()).select_from(Task)),
                  "participants": conn.scalar(sa.select(sa.func.count())
                                              .select_from(Participant))}
    by_episode: dict[int, list[int]] = {}
    for eid, index in steps:
        by_episode.setdefault(eid, []).append(index)
    for eid, n, status in episodes:
        assert status == "done", (eid, status)
        assert by_episode.get(eid, []) == list(range(n)), eid
    return counts


def test_two_processes_migrate_and_write_at_once(pg_url, tmp_path):
    files = level_files(tmp_path)
    runs = [start(["run", "--game", "sokoban", "--levels", str(files["sokoban"]), "--player",
                   player, "--budget", "30", "--repeat", "2", "--concurrency", "3",
                   "--no-progress"], pg_url, tmp_path) for player in ("solver", "random")]
    for proc in runs:
        code, out, err = finish(proc)
        assert code == 0, err
    store = Store(open_database(pg_url))
    counts = check_integrity(store)
    # 6 levels x 2 repeats x 2 players; the levels both processes created at once exist once.
    assert counts["episodes"] == 24 and counts["tasks"] == 6 and counts["participants"] == 2
    board = {r.participant: r for r in leaderboard(store).rows}
    assert board["solver"].accuracy.value == 100.0 and board["solver"].episodes == 12
    assert board["random"].episodes == 12
    store.db.dispose()


async def test_studies_results_and_transfer_on_postgres(pg_server, pg_url, tmp_path):
    study = study_yaml(tmp_path, order="fixed")
    assert run_cli(["study", "create", str(study)], db=pg_url, cwd=tmp_path).code == 0
    sweeps = [start(["study", "run", "pilot", "--player", p, "--repeat", "2", "--concurrency",
                     "2", "--no-progress"], pg_url, tmp_path) for p in ("solver", "random")]
    for proc in sweeps:
        code, out, err = finish(proc)
        assert code == 0, err
        assert "10 episodes played, 0 already done" in out
    store = Store(open_database(pg_url))
    for name in ("alice", "bob"):
        queue = StudyQueue(store, "pilot", name)
        while (item := queue.next()) is not None:
            human = HumanPlayer(name)
            await queue.play(item, human, listeners=[input_layer(human, optimal)])
        assert queue.progress().finished
    counts = check_integrity(store)
    assert counts["episodes"] == 20 + 2 * 6 and counts["tasks"] == 6
    report = annotator_report(store, "pilot")
    assert [t.annotator for t in report.times] == ["alice", "bob"]
    assert report.agreement.levels == 5 and report.agreement.percent_agreement == 1.0
    on_pg = leaderboard(store, Scope(study="pilot")).records()
    humans = [r for r in on_pg if r["kind"] == "human"]
    assert {r["human_relative"] for r in humans} == {100.0}

    choices = task_choices(store, "pilot")
    assert len(choices) == 5 and choices[0].participants == 4
    view = compare(store, task_episode_ids(store, choices[0].task_id, study="pilot"))
    assert len(view.lanes) == choices[0].episodes and view.divergence is not None
    assert export_csv(store, tmp_path / "csv", Scope(study="pilot"))["episodes"] == 32

    r = run_cli(["results", "--study", "pilot", "--format", "json"], db=pg_url, cwd=tmp_path)
    assert r.code == 0, r.err
    assert r.json()["rows"] == on_pg

    # PostgreSQL -> export -> an empty SQLite file: the same leaderboard.
    assert run_cli(["export", "--out", "bundle", "--study", "pilot"], db=pg_url,
                   cwd=tmp_path).code == 0
    lite = f"sqlite:///{tmp_path / 'copy.sqlite3'}"
    imp = run_cli(["import", "bundle"], db=lite, cwd=tmp_path)
    assert imp.code == 0, imp.err
    copy = Store(open_database(lite))
    assert leaderboard(copy, Scope(study="pilot")).records() == on_pg
    copy.db.dispose()

    # ... and back into a second PostgreSQL database, which then keeps recording normally
    # (new rows get fresh ids: the import never writes ids, so sequences stay right).
    other = pg_server.create_database(pg_url.rsplit("/", 1)[1] + "_b")
    assert run_cli(["import", "bundle"], db=other, cwd=tmp_path).code == 0
    more = run_cli(["study", "run", "pilot", "--player", "idle"], db=other, cwd=tmp_path)
    assert more.code == 0, more.err
    second = Store(open_database(other))
    assert check_integrity(second)["episodes"] == 32 + 5
    second.db.dispose()
    store.db.dispose()


async def test_a_long_action_is_stored_as_on_sqlite(pg_url, tmp_path):
    """A step's action is held to the same cap on every database (db/caps.py: 256 KiB + the
    note): a model's WebUI page or a long ``type`` is stored whole on PostgreSQL too, and a
    50 MB one is cut with its note - not refused by a narrower column."""
    from playbench.app.core.recorder import DbRecorder
    from playbench.db.caps import FIELD_LIMIT, NOTE_ROOM
    from tests.db.test_field_caps import record, start

    store = Store(open_database(pg_url))
    recorder = DbRecorder(store)
    page = "```html\n<main>" + "<p>é-row</p>" * 2000 + "</main>\n```"
    huge = "t" * (3 * FIELD_LIMIT)
    episode = await recorder.begin(start(), None)
    await recorder.step(episode, record(0, action=page, raw=page), None)
    await recorder.step(episode, record(1, action=huge, raw="R"), None)
    stored = [s.action for s in store.steps(episode)]
    assert stored[0] == page
    assert stored[1].startswith("t" * 1000) and "[action cut by PlayBench" in stored[1]
    assert len(stored[1].encode()) <= FIELD_LIMIT + NOTE_ROOM


async def test_long_texts_behave_as_on_sqlite(pg_url):
    """A long level title, source or end reason is cut with "…", a too-long name refused
    with its field named (tests/db/test_lengths.py) - PostgreSQL used to abort the write."""
    from tests.db.test_lengths import long_texts_round

    await long_texts_round(pg_url)
