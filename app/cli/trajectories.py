"""``export --format hf|atif`` and ``export --verify`` (every format).

``playbench.app.cli.episodes`` chooses the episodes (``--episode``, ``--study``, sealed studies
left out) for the trajectory formats and hands them here; ``--verify`` keeps those that replay to
their records and says how many it refused.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from playbench.db.store import Store

TRAJECTORY_FORMATS = ("jsonl", "hf", "atif")
"""Formats written from a list of episode ids (csv and chat work from a results scope)."""


def verified(store: Store, ids: Sequence[int]) -> list[int]:
    """The ids of ``ids`` that replay to their records; the refused ones are named on stderr
    and counted on stdout."""
    from playbench.app.exports.verify import verify_episodes
    result = verify_episodes(store, ids)
    if result.refused:
        print(result.note(), file=sys.stderr)
    print(f"verified {len(ids)} episode(s): {len(result.kept)} replay to their records, "
          f"{len(result.refused)} refused")
    return result.kept


def check_extra(fmt: str) -> str | None:
    """Why ``fmt`` cannot be written here (its optional extra is missing), or None."""
    if fmt != "hf":
        return None
    from playbench.app.exports.hf import MissingExtra, require_libraries
    try:
        require_libraries()
    except MissingExtra as err:
        return str(err)
    return None


def export_dataset(args: argparse.Namespace, store: Store, ids: Sequence[int]) -> int:
    """Write ``ids`` as ``args.fmt`` (``hf`` or ``atif``) to ``args.out``."""
    out = Path(args.out)
    if args.fmt == "hf":
        from playbench.app.exports.hf import export_hf
        report = export_hf(store, out, ids)
        print(f"exported {report.episodes} episodes, {report.rows} steps in "
              f"{len(report.shards)} parquet shard(s) and a dataset card to {out}")
        return 0
    from playbench.app.exports.atif import export_atif
    atif = export_atif(store, out, ids)
    print(f"exported {atif.trajectories} ATIF trajectories ({atif.steps} actions, "
          f"{atif.images} images) to {out}")
    return 0
