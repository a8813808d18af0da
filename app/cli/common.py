"""Pieces every command uses: errors and exit codes, opening the database, tables."""

from __future__ import annotations

import argparse
import math
import sys
from typing import Any, Iterable, Sequence

from app.core.owner import is_alive
from db.engine import open_database
from db.store import Store

EXIT_OK, EXIT_RUNTIME, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """Wrong arguments: exit code 2."""


def add_db_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", metavar="URL",
                        help="database URL (default: $PLAYBENCH_DB, else a SQLite file in the "
                             "user data directory)")


def open_store(args: argparse.Namespace) -> Store:
    """Open and migrate the database, and mark episodes of dead processes interrupted."""
    store = Store(open_database(getattr(args, "db", None)))
    store.mark_interrupted(is_alive)
    return store


def fmt(value: Any, digits: int = 2) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        if math.isnan(value):
            return "-"
        return f"{value:.{digits}f}".rstrip("0").rstrip(".") if digits else f"{value:.0f}"
    return str(value)


def table(headers: Sequence[str], rows: Iterable[Sequence[Any]], out=None) -> None:
    """A plain aligned text table (numbers right-aligned)."""
    out = out or sys.stdout
    text_rows = [[fmt(c) for c in r] for r in rows]
    widths = [len(h) for h in headers]
    for r in text_rows:
        for i, c in enumerate(r):
            widths[i] = max(widths[i], len(c))

    def line(cells: Sequence[str], raw: Sequence[Any] | None = None) -> str:
        parts = []
        for i, c in enumerate(cells):
            numeric = raw is not None and isinstance(raw[i], (int, float)) and not isinstance(
                raw[i], bool)
            parts.append(c.rjust(widths[i]) if numeric else c.ljust(widths[i]))
        return "  ".join(parts).rstrip()

    print(line(list(headers)), file=out)
    print("  ".join("-" * w for w in widths), file=out)
    raw_rows = list(rows) if not isinstance(rows, list) else rows
    for cells, raw in zip(text_rows, raw_rows):
        print(line(cells, raw), file=out)


def parse_key_values(items: Sequence[str] | None, what: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise UsageError(f"{what} must look like NAME=VALUE, got {item!r}")
        out[key.strip()] = value.strip()
    return out
