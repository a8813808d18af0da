"""Reading a Core query's rows straight from the DB-API cursor.

SQLAlchemy wraps every fetched row in a ``Row`` and runs the columns' result processors; for
a query of a hundred thousand rows whose columns the driver already returns as wanted
(integers, floats, strings) that wrapping is a quarter of the fetch (issue 32: a leaderboard
over 100,000 episodes fetched its episode rows in 0.19 s through ``Result.fetchall`` and in
0.15 s from the cursor, CPU time, SQLite). The statement is still compiled by the dialect,
so the same query runs on SQLite and PostgreSQL.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa


def driver_rows(conn: sa.Connection, query: sa.Select[*tuple[Any, ...]]
                ) -> list[tuple[Any, ...]]:
    """``query``'s rows as the DB-API cursor returns them (no result processing: only for
    columns whose values the driver already gives as wanted; a boolean may come back as 0/1
    from SQLite and as ``bool`` from PostgreSQL)."""
    compiled = query.compile(dialect=conn.dialect,
                             compile_kwargs={"render_postcompile": True})
    params = compiled.construct_params()
    cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
    try:
        if compiled.positional:
            cursor.execute(compiled.string,
                           tuple(params[k] for k in compiled.positiontup or []))
        else:
            cursor.execute(compiled.string, params)
        return list(cursor.fetchall())
    finally:
        cursor.close()


def read_snapshot(conn: sa.Connection) -> None:
    """Make the reads that follow on ``conn`` (until it is closed or rolled back) see one
    snapshot of the database, as one query would: several queries read what one aggregate
    query used to, and a recorder may finish or rescore an episode between them. SQLite's
    driver opens no transaction for a SELECT, so one is begun here (WAL: readers never block
    the writer); PostgreSQL's default READ COMMITTED gives each statement its own snapshot, so
    the transaction is made REPEATABLE READ. Call before the first statement."""
    name = conn.dialect.name
    if name == "sqlite":
        conn.exec_driver_sql("BEGIN")
    elif name == "postgresql":
        conn.exec_driver_sql("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
