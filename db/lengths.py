"""The declared lengths of the store's short text columns, applied before a row is written.

SQLite ignores a ``VARCHAR(n)`` length and PostgreSQL refuses a longer value mid-transaction
("value too long for type character varying(n)"), so the same input used to be stored on one
database and crash an episode's start on the other. Every short text a person or a file can set
goes through one of these two rules, on every database alike:

- :func:`fitted` - a display text (a level's title, where it came from) keeps its first
  ``n - 1`` characters and ends with "…": the row is still written;
- :func:`checked` - a name that identifies something (a participant, a player, a setting) is
  refused with :class:`TooLong`, naming the field, before anything is written: cutting it could
  merge two different participants into one.

The lengths are read from :mod:`playbench.db.models`, so they cannot drift from the schema.
"""

from __future__ import annotations

import sqlalchemy as sa

from playbench.db.models import Base


class TooLong(ValueError):
    """A name longer than its column: nothing was written."""


def limit(table: str, column: str) -> int:
    """The declared length of ``table.column`` (a ``String(n)`` column of the models)."""
    kind = Base.metadata.tables[table].columns[column].type
    if not isinstance(kind, sa.String) or kind.length is None:
        raise KeyError(f"{table}.{column} has no declared length")
    return int(kind.length)


def fitted(table: str, column: str, value: str) -> str:
    """``value`` if it fits ``table.column``, else its head and "…" in exactly the limit."""
    n = limit(table, column)
    return value if len(value) <= n else value[:n - 1] + "…"


def checked(table: str, column: str, value: str, what: str) -> str:
    """``value`` if it fits ``table.column``; else :class:`TooLong` naming ``what``."""
    n = limit(table, column)
    if len(value) > n:
        raise TooLong(f"the {what} is {len(value):,} characters long; at most {n:,} are stored")
    return value
