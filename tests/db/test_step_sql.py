"""A step written on SQLite as prepared SQL (playbench.db.step_sql) is stored exactly as the
SQLAlchemy Core statements store it, in one transaction, and fails as they fail."""

from __future__ import annotations

import os
import re
import sqlite3
from pathlib import Path

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from playbench.app.core.recorder import EpisodeStart, StoreWriter
from playbench.db.engine import open_database
from playbench.db.steps import StepRecord
from playbench.db.store import Store

START = EpisodeStart(
    game="sokoban", level_hash="sql", level_text="#####", level_number=1, level_title="",
    level_source="test", level_meta={}, participant_kind="script", participant_name="sql",
    participant_details={}, setting="default", player="script:sql", budget={}, rules={},
    seed=0, owner=f"pid:{os.getpid()}", start_state="")

texts = st.text(max_size=40)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**40, 2**40) | texts
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(texts, inner, max_size=3),
    max_leaves=8)
records = st.builds(
    StepRecord, index=st.just(0), decision=st.integers(0, 10**6), action=st.none() | texts,
    raw=texts, valid=st.booleans(), invalid_kind=st.none() | st.text(max_size=10),
    invalid_reason=st.none() | texts, changed=st.booleans(),
    reward=st.floats(-1e6, 1e6), state_hash=st.text(max_size=16),
    think_ms=st.floats(0, 1e6), prompt_tokens=st.integers(0, 10**6),
    completion_tokens=st.integers(0, 10**6), cost=st.floats(0, 100),
    latency_ms=st.floats(0, 1e6), info=st.dictionaries(texts, json_values, max_size=4))
frames = st.none() | st.tuples(st.text("0123456789abcdef", min_size=64, max_size=64),
                               st.integers(1, 900), st.integers(1, 900),
                               st.none() | st.binary(max_size=200))

DATETIME = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}$")


@pytest.fixture(scope="module")
def stores(tmp_path_factory):
    """A store writing prepared SQL and one writing Core statements, each on its own file."""
    made = {}
    for prepared in (True, False):
        path = tmp_path_factory.mktemp("steps") / f"{prepared}.sqlite3"
        made[prepared] = (Store(open_database(f"sqlite:///{path}"), prepared_steps=prepared),
                          path)
    yield made
    for store, _ in made.values():
        store.db.dispose()


def _rows(path: Path, episode_id: int) -> tuple[list[tuple], list[tuple], list[str]]:
    """The episode's step rows (without id and creation time), frame rows and creation times."""
    conn = sqlite3.connect(path)
    try:
        steps = conn.execute("SELECT * FROM steps WHERE episode_id = ?", (episode_id,))
        names = [d[0] for d in steps.description]
        rows = [dict(zip(names, r, strict=True)) for r in steps.fetchall()]
        frame_rows = conn.execute(
            "SELECT hash, width, height, png FROM frames WHERE hash IN (SELECT frame FROM steps "
            "WHERE episode_id = ?)", (episode_id,)).fetchall()
        count = conn.execute("SELECT n_steps FROM episodes WHERE id = ?",
                             (episode_id,)).fetchone()
    finally:
        conn.close()
    created = [r.pop("created") for r in rows]
    for r in rows:
        r.pop("id")
    return [tuple(sorted(r.items())) for r in rows] + [count], frame_rows, created


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(record=records, frame=frames)
def test_a_prepared_step_is_stored_as_the_core_statements_store_it(stores, record, frame):
    stored = {}
    known = frame is not None and frame[3] is None  # "already stored": store it first
    last = StepRecord(**{**record.__dict__, "index": 1}) if known else record
    for prepared, (store, path) in stores.items():
        eid = StoreWriter(store).begin(START, None)
        if known:
            store.add_step(eid, record, (*frame[:3], b"png"))
        store.add_step(eid, last, frame)
        rows, frame_rows, created = _rows(path, eid)
        assert all(DATETIME.match(c) for c in created), created
        assert store.steps(eid)[-1].record == StepRecord.from_row(last.to_row())
        stored[prepared] = (rows, frame_rows)
    assert stored[True] == stored[False]


def test_a_failing_prepared_step_raises_sqlalchemys_error_and_stores_nothing(stores):
    store, path = stores[True]
    step = StepRecord(index=0, decision=0, action="U", raw="U", valid=True, invalid_kind=None,
                      invalid_reason=None, changed=True, reward=0.0, state_hash="s")
    missing = 10**6  # no such episode: the foreign key refuses the row
    with pytest.raises(sa.exc.IntegrityError, match="FOREIGN KEY"):
        store.add_step(missing, step, ("f" * 64, 4, 4, b"png"))
    conn = sqlite3.connect(path)
    try:  # the frame inserted before the refused row went with the rolled-back transaction
        assert conn.execute("SELECT count(*) FROM frames WHERE hash = ?",
                            ("f" * 64,)).fetchone() == (0,)
    finally:
        conn.close()
