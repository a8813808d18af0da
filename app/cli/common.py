"""Pieces every command uses: errors and exit codes, opening the database, tables; and what
the commands that play episodes share (budget options, step lines, the summary table)."""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections.abc import Awaitable, Callable, Iterable, Sequence
from statistics import mean
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from playbench.app.core.budget import Budget
    from playbench.app.core.events import EpisodeEvent
    from playbench.app.core.player import PlayerFactory
    from playbench.db.store import Store


EXIT_OK, EXIT_RUNTIME, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """Wrong arguments: exit code 2."""


def add_db_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", metavar="URL",
                        help="database URL (default: $PLAYBENCH_DB, else a SQLite file in the "
                             "user data directory)")


def add_researcher_option(parser: argparse.ArgumentParser) -> None:
    """``--researcher-key``: the credential that unlocks sealed blind studies."""
    parser.add_argument("--researcher-key", metavar="FILE",
                        help="key file of sealed blind studies (or give their passphrase in "
                             "$PLAYBENCH_RESEARCHER_PASSPHRASE); without it their scores and "
                             "episodes stay hidden")


def cli_viewer(args: argparse.Namespace, store: Store) -> Any:
    """The viewer a command shows data to: the researcher, with the sealed studies whose
    credential was given (``--researcher-key`` or the passphrase variable) unlocked."""
    import os
    from pathlib import Path

    from playbench.app.studies.access import RESEARCHER, unlock
    from playbench.app.studies.credential import ENV_PASSPHRASE, CredentialError, read_key_file
    viewer = RESEARCHER
    key = getattr(args, "researcher_key", None)
    if key:
        try:
            viewer = unlock(store, viewer, read_key_file(Path(key)))
        except CredentialError as err:
            raise UsageError(str(err)) from None
    if os.environ.get(ENV_PASSPHRASE):
        viewer = unlock(store, viewer, os.environ[ENV_PASSPHRASE])
    return viewer


def open_store(args: argparse.Namespace) -> Store:
    """Open and migrate the database, and mark episodes of dead processes interrupted."""
    from playbench.app.core.owner import is_alive
    from playbench.db.engine import open_database
    from playbench.db.store import Store
    store = Store(open_database(getattr(args, "db", None)))
    store.mark_interrupted(is_alive)
    return store


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    """``text`` safe for a terminal: control characters (escape codes that could recolour,
    move the cursor or retitle the window, carriage returns, new lines) shown as ``\\x1b``
    and the like instead of acting."""
    return _CONTROL.sub(lambda m: repr(m[0])[1:-1], text)


def fmt(value: Any, digits: int = 2) -> str:
    """A table cell: numbers shortened, None and NaN as "-", text made :func:`printable`."""
    if value is None:
        return "-"
    if isinstance(value, float):
        if math.isnan(value):
            return "-"
        return f"{value:.{digits}f}".rstrip("0").rstrip(".") if digits else f"{value:.0f}"
    return printable(str(value))


def table(headers: Sequence[str], rows: Iterable[Sequence[Any]], out=None) -> None:
    """A plain aligned text table (numbers right-aligned)."""
    out = out or sys.stdout
    raw_rows = list(rows)
    text_rows = [[fmt(c) for c in r] for r in raw_rows]
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
    for cells, raw in zip(text_rows, raw_rows, strict=True):
        print(line(cells, raw), file=out)


def parse_key_values(items: Sequence[str] | None, what: str) -> dict[str, str]:
    """``NAME=VALUE`` arguments as a mapping (games.commands.key_values, which kinds' own
    commands use too); a malformed one is a usage error."""
    from playbench.games.commands import CommandError, key_values
    try:
        return key_values(items, what)
    except CommandError as err:
        raise UsageError(str(err)) from None


# -- playing episodes (``run``, ``study``) --------------------------------------------------------

SUMMARY = ("solved", "completion", "efficiency", "magebench", "steps")
T = TypeVar("T")


def budget_from_args(args: argparse.Namespace, default: Budget) -> Budget:
    """``default`` changed by ``--budget``, ``--decisions``, ``--time-limit``,
    ``--invalid-cost``."""
    from playbench.app.core.budget import BudgetError
    changes: dict[str, Any] = {}
    if args.budget is not None:
        changes["max_actions"] = args.budget
    if args.decisions is not None:
        changes["max_decisions"] = args.decisions
    if args.time_limit is not None:
        changes["seconds"] = args.time_limit
    if args.invalid_cost is not None:
        changes["invalid_cost"] = args.invalid_cost
    try:
        return default.merged(**changes)
    except BudgetError as err:
        raise UsageError(str(err)) from None


def step_logger(enabled: bool) -> list[Callable[[Any], None]]:
    """A listener printing one JSON line per committed step (``--log-steps``), or none."""
    from playbench.app.core.events import Stepped
    def log(event: EpisodeEvent) -> None:
        if isinstance(event, Stepped):
            r = event.record
            print(json.dumps({"episode": event.episode_id, "index": r.index, "action": r.action,
                              "valid": r.valid}), flush=True)
    return [log] if enabled else []


async def closing(factory: PlayerFactory, work: Awaitable[T]) -> T:
    """Await ``work``, then release what the player factory holds (model clients, a stand-in
    endpoint), inside the same event loop."""
    try:
        return await work
    finally:
        await factory.aclose()


def summary(results: Sequence[Any]) -> None:
    """One row per episode (and their means), the efficiency note above the table."""
    from playbench.evaluators import aggregate
    rows = []
    for r in results:
        rows.append([r.episode_id, r.status, r.end_reason,
                     *[r.scores.get(k) for k in SUMMARY]])
    if len(results) > 1:
        means = []
        for k in SUMMARY:
            vals = [r.scores[k] for r in results if r.scores.get(k) is not None]
            means.append(mean(vals) if vals else None)
        rows.append(["mean", "", "", *means])
        # Printed above the table, which stays the last thing on stdout.
        print(aggregate.efficiency_note([
            aggregate.record_from_scores(r.scores, sum(1 for s in r.steps if s.changed))
            for r in results if r.scores]))
    table(["episode", "status", "end", *SUMMARY], rows)
