"""Short text columns behave alike on every database (db/lengths.py): a long level title,
source or end reason is stored cut with "…"; a too-long name is refused, naming the field,
before anything is written. Run on a real SQLite file here and on a real PostgreSQL server in
tests/studies/test_postgres.py (where a longer value used to abort the write)."""

from __future__ import annotations

import dataclasses

import pytest
import sqlalchemy as sa
from hypothesis import given, settings
from hypothesis import strategies as st

from playbench.app.core.recorder import DbRecorder
from playbench.db.engine import open_database
from playbench.db.lengths import TooLong, checked, fitted, limit
from playbench.db.models import Episode, Participant, Task
from playbench.db.store import Store
from tests.db.test_field_caps import record, start


async def long_texts_round(url: str) -> None:
    """The shared check, on the database at ``url``."""
    store = Store(open_database(url))
    recorder = DbRecorder(store)
    begin = dataclasses.replace(start(), level_title="T" * 400, level_source="S" * 600,
                                level_hash="long-title")
    episode = await recorder.begin(begin, None)
    await recorder.step(episode, record(0), None)
    await recorder.finish(episode, "error", "error: " + "x" * 1000, {})
    with store.db.engine.connect() as conn:
        title, source = conn.execute(sa.select(Task.title, Task.source)
                                     .where(Task.level_hash == "long-title")).one()
        reason = conn.scalar(sa.select(Episode.end_reason).where(Episode.id == episode))
    assert title == "T" * 299 + "…" and source == "S" * 499 + "…"
    assert reason.startswith("error: xxx") and len(reason) == 300
    with store.db.engine.connect() as conn:
        before = [conn.scalar(sa.select(sa.func.count()).select_from(t))
                  for t in (Participant, Task, Episode)]
    for field, what in (("participant_name", "participant name"), ("player", "player"),
                        ("setting", "setting")):
        bad = dataclasses.replace(start(), level_hash=f"bad-{field}", **{field: "n" * 250})
        with pytest.raises(TooLong, match=f"the {what} is 250 characters long; at most"):
            await recorder.begin(bad, None)
    with store.db.engine.connect() as conn:
        after = [conn.scalar(sa.select(sa.func.count()).select_from(t))
                 for t in (Participant, Task, Episode)]
    # a refused participant name writes nothing; a refused player or setting may leave the
    # participant and task rows (shared, reused) but never an episode
    assert after[2] == before[2] and after[0] == before[0]
    store.db.dispose()


async def test_long_texts_on_sqlite(tmp_path):
    await long_texts_round(f"sqlite:///{tmp_path / 'lengths.sqlite3'}")


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=700))
def test_fitted_keeps_short_texts_and_cuts_long_ones_to_the_limit(text):
    n = limit("tasks", "title")
    out = fitted("tasks", "title", text)
    assert len(out) <= n
    assert out == text if len(text) <= n else (out.endswith("…") and text.startswith(out[:-1]))
    if len(text) <= n:
        assert checked("tasks", "title", text, "title") == text
    else:
        with pytest.raises(TooLong):
            checked("tasks", "title", text, "title")
