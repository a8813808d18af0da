"""A step's write on SQLite as prepared SQL on the driver's own connection.

Recording a step is three statements in one transaction (the frame unless stored, the step's
row, the episode's step count). Through SQLAlchemy Core they cost 0.14 ms per step on SQLite,
of which SQLite itself (WAL, ``synchronous=NORMAL``, the commit included) takes 0.013 ms: the
rest is building each statement's execution context (measured with a board episode's steps,
``docs/recording.md``). A model step's whole harness budget is 1 ms (issue 32), so on SQLite
the same statements, compiled once by SQLAlchemy for the engine's dialect, are run on the
DBAPI connection of the transaction :meth:`playbench.db.engine.Database.writing` opened - the
same transaction, commit and checks - with each value passed through its column type's own
bind processor (JSON text, dates, booleans), so the stored values are the ones SQLAlchemy would
write. Other databases keep the Core statements (a server round trip dwarfs that overhead).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.sql.compiler import SQLCompiler

Processor = Callable[[Any], Any] | None


class _Prepared:
    """One statement as SQL text, its parameters' order and their bind processors."""

    def __init__(self, statement: sa.ClauseElement, dialect: sa.Dialect,
                 keys: Sequence[str] | None, types: Mapping[str, Any]) -> None:
        compiled = statement.compile(dialect=dialect, column_keys=list(keys) if keys else None)
        if not isinstance(compiled, SQLCompiler) or compiled.positiontup is None:
            raise ValueError(f"{dialect.name}: statements do not take positional parameters")
        self.sql = str(compiled)
        self.names = list(compiled.positiontup)
        self.processors: list[Processor] = [
            types[name].dialect_impl(dialect).bind_processor(dialect) if name in types else None
            for name in self.names]

    def params(self, values: Mapping[str, Any]) -> tuple[Any, ...]:
        return tuple(value if fn is None or value is None else fn(value)
                     for fn, value in zip(self.processors,
                                          (values[name] for name in self.names), strict=True))


class PreparedStepWrite:
    """The frame, step row and step count of one step, written on the DBAPI connection of an
    open SQLAlchemy transaction (SQLite only: see the module docstring)."""

    def __init__(self, dialect: sa.Dialect, insert_step: sa.Insert, step_table: sa.Table,
                 insert_frame: sa.Insert, frame_table: sa.Table, count_steps: sa.Update) -> None:
        self.dialect = dialect
        step_keys = [c.name for c in step_table.columns if not c.primary_key]
        self._step = _Prepared(insert_step, dialect, step_keys,
                               {c.name: c.type for c in step_table.columns})
        self._frame = _Prepared(insert_frame, dialect, [c.name for c in frame_table.columns],
                                {c.name: c.type for c in frame_table.columns})
        self._count = _Prepared(count_steps, dialect, None, {})  # two integers

    def __call__(self, conn: sa.Connection, frame: Mapping[str, Any] | None,
                 step: Mapping[str, Any], count: Mapping[str, Any]) -> None:
        """Run the step's statements in ``conn``'s transaction (committed by its owner). A
        driver error is raised as SQLAlchemy's, as the Core statements would raise it (so a
        full disk is still :class:`~playbench.db.engine.DiskFull`)."""
        driver = conn.connection.driver_connection
        assert driver is not None
        todo = [(self._frame, frame)] if frame is not None else []
        todo += [(self._step, step), (self._count, count)]
        dbapi = self.dialect.loaded_dbapi
        for prepared, values in todo:
            params = prepared.params(values)
            try:
                driver.execute(prepared.sql, params)
            except dbapi.Error as err:
                raise sa.exc.DBAPIError.instance(prepared.sql, params, err,
                                                 dbapi.Error) from err
