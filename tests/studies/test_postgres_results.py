"""The leaderboard's column load on a real PostgreSQL server (issue 32): the driver's own
rows (psycopg's bools and floats, its parameter style) and a stored NaN, which PostgreSQL
keeps where SQLite stores NULL, give the facts and rows the old pivot load gives."""

from __future__ import annotations

import math
import random

from playbench.app.results.data import Scope, load_episodes
from playbench.app.results.leaderboard import definition_rows, leaderboard
from playbench.db.engine import open_database
from playbench.db.store import Store
from tests.results.reference_load import (
    reference_load,
    rescored_between_reads,
    varied_database,
)


def test_the_column_load_on_postgres_is_the_old_pivot_load(pg_url):
    store = Store(open_database(pg_url))
    varied_database(store, random.Random(41), 300, nan=True)
    for scope in (Scope(), Scope(game="maze", include_practice=True),
                  Scope(kind="human", statuses=("done", "error")),
                  Scope(episodes=frozenset(range(1, 300, 2)))):
        loaded = load_episodes(store, scope)
        episodes, excluded = reference_load(store, scope)
        assert repr(loaded.episodes) == repr(episodes), scope
        assert loaded.excluded == excluded, scope
    every = load_episodes(store).episodes
    assert any(isinstance(e.completion, float) and math.isnan(e.completion) for e in every)
    facts, _ = reference_load(store)
    assert (repr(leaderboard(store, resamples=60).rows)
            == repr(definition_rows(facts, resamples=60)))
    store.db.dispose()


def test_the_reads_see_one_snapshot_on_postgres(pg_url, monkeypatch):
    """READ COMMITTED would show a rescoring committed between the reads; the reads run
    REPEATABLE READ instead."""
    store = Store(open_database(pg_url))
    varied_database(store, random.Random(3), 50)
    seen = rescored_between_reads(store, pg_url, monkeypatch)
    assert seen and 12345.0 not in seen
    store.db.dispose()
