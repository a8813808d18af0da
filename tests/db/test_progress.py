"""Level marks for the Library: one participant's plays of one game, level by level, from a
real SQLite file - counted per content hash, solved only by a ``solved`` score of 1, other
people and games left out, and one query for a thousand-level pack."""

from __future__ import annotations

import hashlib
import time
import uuid

import sqlalchemy as sa

from playbench.db.engine import open_database
from playbench.db.models import Episode, Task
from playbench.db.progress import LevelMark, level_marks
from playbench.db.store import Store


def _hash(n: int) -> str:
    return hashlib.sha256(f"level {n}".encode()).hexdigest()


def _play(store: Store, pid: int, tid: int, solved: float | None, status: str = "done") -> int:
    eid = store.begin_episode(participant_id=pid, task_id=tid, setting="default", player="p",
                              budget={}, rules={}, seed=0, owner="", start_state="",
                              start_frame=None)
    if status != "running":
        store.finish_episode(eid, status=status, end_reason=None,
                             scores={} if solved is None else {"solved": solved})
    return eid


def test_marks_count_plays_and_solves_of_one_person_and_game(db_url):
    store = Store(open_database(db_url))
    try:
        ann, bob = store.participant("human", "ann"), store.participant("human", "bob")
        bot = store.participant("model", "ann")  # same name, another kind
        one, two, three = (store.task("maze", _hash(i), f"board {i}") for i in (1, 2, 3))
        other_game = store.task("sokoban", _hash(1), "board 1")
        assert level_marks(store.db, "human", "ann", "maze") == {}  # nothing played yet
        _play(store, ann, one, 0.0)
        _play(store, ann, one, 1.0)
        _play(store, ann, two, 0.0, status="interrupted")
        _play(store, ann, three, None, status="running")  # a started play is a play
        _play(store, bob, two, 1.0)
        _play(store, bot, two, 1.0)
        _play(store, ann, other_game, 1.0)
        assert level_marks(store.db, "human", "ann", "maze") == {
            _hash(1): LevelMark(2, 1), _hash(2): LevelMark(1, 0), _hash(3): LevelMark(1, 0)}
        assert level_marks(store.db, "human", "bob", "maze") == {_hash(2): LevelMark(1, 1)}
        assert level_marks(store.db, "human", "ann", "sokoban") == {_hash(1): LevelMark(1, 1)}
        assert level_marks(store.db, "human", "nobody", "maze") == {}
    finally:
        store.db.dispose()


def test_a_thousand_level_pack_is_one_query(db_url):
    store = Store(open_database(db_url))
    try:
        ann = store.participant("human", "ann")
        with store.db.engine.begin() as conn:
            conn.execute(sa.insert(Task.__table__), [
                {"game": "maze", "level_hash": _hash(i), "level_text": str(i),
                 "level_number": i, "title": "", "source": "big", "meta": {}}
                for i in range(1000)])
            ids = dict(conn.execute(sa.select(Task.level_hash, Task.id)).all())
            conn.execute(sa.insert(Episode.__table__), [
                {"uid": str(uuid.uuid4()), "participant_id": ann, "task_id": ids[_hash(i)],
                 "status": "done", "budget": {}, "rules": {}, "meta": {}}
                for i in range(0, 1000, 2)])
        statements: list[str] = []
        sa.event.listen(store.db.engine, "before_cursor_execute",
                        lambda *args: statements.append(args[2]))
        started = time.perf_counter()
        marks = level_marks(store.db, "human", "ann", "maze")
        took = time.perf_counter() - started
        assert len(marks) == 500 and marks[_hash(998)] == LevelMark(1, 0)
        assert len([s for s in statements if s.lstrip().upper().startswith("SELECT")]) == 1
        assert took < 1.0, f"{took:.3f} s for a thousand-level pack"
    finally:
        store.db.dispose()
