"""What the Studies view shows about model sweeps (Qt-free): one row per sweep in the
database with its progress, read from the episodes (``playbench.app.sweeps.status``), so a
sweep running from the command line - locally or on a cluster - shows up as it goes."""

from __future__ import annotations

from dataclasses import dataclass

from playbench.app.sweeps import SweepStatus, sweep_statuses
from playbench.app.ui.models.wording import count
from playbench.db.store import Store

COLUMNS = ("Sweep", "Done", "Running", "Interrupted", "Failed", "Left")


@dataclass(frozen=True)
class SweepRow:
    name: str
    cells: tuple[str, ...]
    percent: int
    active: bool
    """Some cell is being played now (worth refreshing soon)."""


def row_of(s: SweepStatus) -> SweepRow:
    return SweepRow(s.name, (s.name, f"{s.done} of {s.planned}", str(s.running),
                             str(s.interrupted), str(s.failed), str(s.left)),
                    round(100 * s.fraction), s.running > 0)


def read_sweeps(store: Store) -> list[SweepRow]:
    """Every sweep's row (runs in the thread pool)."""
    return [row_of(s) for s in sweep_statuses(store)]


def summary(rows: list[SweepRow]) -> str:
    if not rows:
        return ("No model sweeps yet. Run one with `playbench sweep run FILE` (locally or "
                "--engine ray); its progress shows here - see docs/sweeps.md.")
    active = sum(r.active for r in rows)
    return (count(len(rows), "sweep")
            + (f", {active} running now" if active else ", none running now"))


__all__ = ["COLUMNS", "SweepRow", "read_sweeps", "row_of", "summary"]
