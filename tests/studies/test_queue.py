"""Annotators' queues: recorded orders, practice first, next task and progress, pause and
continue across restarts, blind mode - driven through StudyQueue.play like the GUI."""

from __future__ import annotations

import asyncio

import pytest

from playbench.app.core.events import Deciding
from playbench.app.players.human import HumanPlayer
from playbench.app.results import compare, leaderboard, task_episode_ids
from playbench.app.results.data import Scope
from playbench.app.studies import (
    Blinded,
    QueueError,
    StudyQueue,
    Viewer,
    create_study,
    load_study_file,
)
from playbench.app.studies.queue import task_order
from playbench.db.engine import open_database
from playbench.db.store import Store
from tests.studies.helpers import give_up_after, input_layer, optimal, press, study_yaml


@pytest.fixture
def store(tmp_path, db_url):
    s = Store(open_database(db_url))
    yield s
    s.db.dispose()


def make_study(store, tmp_path, **changes):
    return create_study(store, load_study_file(study_yaml(tmp_path, **changes)))


async def play_next(queue: StudyQueue, policy=optimal):
    human = HumanPlayer(queue.annotator)
    item = queue.next()
    result = await queue.play(item, human, listeners=[input_layer(human, policy)])
    return item, result


def test_orders_are_drawn_once_recorded_and_reproducible(store, tmp_path):
    protocol = make_study(store, tmp_path)
    alice = StudyQueue(store, "pilot", "alice")
    bob = StudyQueue(store, "pilot", "bob")
    assert alice.order[0] == bob.order[0] == "p1"  # practice first
    assert sorted(alice.order[1:]) == sorted(bob.order[1:]) == ["t1", "t2", "t3", "t4", "t5"]
    assert alice.order != bob.order  # random per annotator (seeds differ)
    assert alice.order == task_order(protocol, alice.seed)
    # Reopening (another session, another Store) gives the recorded order and seed.
    again = StudyQueue(Store(open_database(store.db.url)), "pilot", "alice")
    assert (again.seed, again.order) == (alice.seed, alice.order)
    # The study seed makes orders reproducible in another database too.
    other = Store(open_database(f"sqlite:///{tmp_path / 'other.sqlite3'}"))
    make_study(other, tmp_path)
    assert StudyQueue(other, "pilot", "alice").order == alice.order


def test_fixed_order_is_the_listed_order(store, tmp_path):
    make_study(store, tmp_path, order="fixed")
    assert StudyQueue(store, "pilot", "carol").order == ["p1", "t1", "t2", "t3", "t4", "t5"]


async def test_next_task_progress_and_outcomes(store, tmp_path):
    make_study(store, tmp_path)
    queue = StudyQueue(store, "pilot", "alice")
    assert queue.progress().done == 0 and queue.next().key == "p1"
    item, result = await play_next(queue)
    assert item.practice and result.status == "done" and result.end_reason == "solved"
    items = queue.items()
    assert items[0].status == "done" and items[0].solved == 1.0 and items[0].steps > 0
    assert queue.next().key == queue.order[1]
    with pytest.raises(QueueError, match="is done"):
        queue.plan(items[0])
    for _ in range(5):
        await play_next(queue, give_up_after(2))
    progress = queue.progress()
    assert progress.finished and (progress.scored_done, progress.practice_done) == (5, 1)
    assert queue.next() is None
    row = store.episode(result.episode_id).episode
    assert row.practice and row.study_id is not None and row.meta["study_task"] == "p1"
    # Practice is recorded but left out of the results.
    board = leaderboard(store, Scope(study="pilot"))
    assert sum(r.episodes for r in board.rows) == 5
    assert sum(r.episodes for r in leaderboard(
        store, Scope(study="pilot", include_practice=True)).rows) == 6


async def test_pause_and_continue_another_day(store, tmp_path):
    """Closing the app mid-task interrupts the episode; a new session continues it from the
    recorded steps."""
    make_study(store, tmp_path)
    queue = StudyQueue(store, "pilot", "bob")
    await play_next(queue)  # practice
    human = HumanPlayer("bob")
    item = queue.next()
    asked = []
    play = None

    def annotator_leaves_after_two_moves(event):
        """Answers two decisions; at the third the app is closed while it waits for a key."""
        if isinstance(event, Deciding):
            asked.append(event.context.step)
            if len(asked) <= 2:
                press(human, event.context, optimal(event.context))
            else:
                asyncio.get_running_loop().call_soon(play.cancel)

    play = asyncio.ensure_future(queue.play(item, human,
                                            listeners=[annotator_leaves_after_two_moves]))
    with pytest.raises(asyncio.CancelledError):
        await play
    assert store.episode(queue.items()[1].episode_id).episode.status == "interrupted"
    # Another day: a fresh database connection and queue.
    later = Store(open_database(store.db.url))
    queue2 = StudyQueue(later, "pilot", "bob")
    paused = queue2.next()
    assert (paused.key, paused.status) == (item.key, "interrupted")
    assert queue2.progress().done == 1
    plan = queue2.plan(paused)
    assert plan.resume_episode_id == paused.episode_id
    human2 = HumanPlayer("bob")
    result = await queue2.play(paused, human2, listeners=[input_layer(human2, optimal)])
    assert result.episode_id == paused.episode_id and result.end_reason == "solved"
    steps = later.steps(result.episode_id)
    assert [s.index for s in steps] == list(range(len(steps))) and len(steps) > 2
    assert queue2.items()[1].status == "done" and queue2.progress().done == 2
    later.db.dispose()


async def test_a_queue_only_plays_its_own_annotator(store, tmp_path):
    make_study(store, tmp_path)
    queue = StudyQueue(store, "pilot", "alice")
    with pytest.raises(QueueError, match="belongs to human:alice"):
        await queue.play(queue.next(), HumanPlayer("mallory"))


async def test_blind_mode_hides_scores_and_other_participants(store, tmp_path):
    make_study(store, tmp_path, blind=True, order="fixed")
    alice, bob = StudyQueue(store, "pilot", "alice"), StudyQueue(store, "pilot", "bob")
    assert alice.blind
    for q in (alice, bob):
        await play_next(q)
        await play_next(q)
    item = alice.items()[1]
    assert item.status == "done" and item.solved is None and item.steps is None
    with pytest.raises(Blinded, match="blind"):
        leaderboard(store, Scope(study="pilot", viewer=Viewer("alice")))
    # The researcher sees everything; an annotator's global view leaves the blind study out.
    assert leaderboard(store, Scope(study="pilot")).rows
    assert leaderboard(store, Scope(viewer=Viewer("alice"))).rows == []
    ids = task_episode_ids(store, store.episode(item.episode_id).task.id)
    assert len(ids) == 2
    mine = compare(store, ids, Viewer("alice"))
    assert [lane.participant for lane in mine.lanes] == ["alice"] and mine.hidden == 1
    assert all(s.cumulative is None and s.reward is None for s in mine.lanes[0].steps)
    assert mine.lanes[0].solved is None
    full = compare(store, ids)
    assert len(full.lanes) == 2 and full.lanes[0].solved == 1.0
