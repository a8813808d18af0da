"""``playbench import DIR`` and the CSV and chat branches of ``playbench export``.

``export --format jsonl`` (``playbench.app.cli.episodes``) writes the trajectory export that
``import`` reads back; ``csv`` writes score tables; ``chat`` writes behaviour-cloning data.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from playbench.app.cli.common import UsageError, add_db_option, cli_viewer, open_store

if TYPE_CHECKING:
    from playbench.app.results.data import Scope
    from playbench.db.store import Store

EXPORT_FORMATS = ("jsonl", "csv", "chat", "inspect", "hf", "atif")


def add_parsers(sub) -> None:
    i = sub.add_parser("import", help="merge a JSONL export, or Inspect logs PlayBench wrote, "
                                      "into this database (no duplicates)")
    i.add_argument("directory", metavar="DIR", help="a directory written by `playbench export` "
                   "(jsonl), or an Inspect log (.eval/.json) or directory of them (inspect)")
    i.add_argument("--check", action="store_true", help="only check the export; write nothing")
    add_db_option(i)
    i.set_defaults(handler=cmd_import)


def add_export_options(parser: argparse.ArgumentParser) -> None:
    """Options of ``export`` beyond the JSONL ones (called by ``playbench.app.cli.episodes``)."""
    parser.add_argument("--study", metavar="NAME", help="only this study's episodes")
    parser.add_argument("--game", help="only this game's episodes (csv, chat, inspect)")
    parser.add_argument("--per", choices=["episode", "step"], default="episode",
                        help="chat: one JSON line per episode or per decision")
    parser.add_argument("--success-only", action="store_true",
                        help="chat: only solved episodes")
    parser.add_argument("--images", choices=["latest", "all"], default="latest",
                        help="chat, per episode: keep the image of the newest user turn only "
                             "(default) or of every turn")
    parser.add_argument("--verify", action="store_true",
                        help="re-play each episode first and write only those that replay to "
                             "their records (the refused ones are counted)")


def study_episode_ids(store, study: str, viewer=None) -> list[int]:
    from playbench.app.results.data import Scope, load_episodes
    from playbench.app.studies.access import RESEARCHER
    viewer = RESEARCHER if viewer is None else viewer
    scope = Scope(study=study, include_practice=True,
                  statuses=("running", "done", "interrupted", "error"), viewer=viewer)
    return sorted(e.id for e in load_episodes(store, scope).episodes)


def export_other(args: argparse.Namespace) -> int:
    """``export --format csv|chat|inspect``."""
    from playbench.app.results.data import Scope
    from playbench.app.studies.access import Blinded, check_results_allowed
    store = open_store(args)
    if args.episode:
        raise UsageError("--episode goes with --format jsonl, hf or atif; use --study or --game "
                         "here")
    viewer = cli_viewer(args, store)
    try:
        check_results_allowed(store, args.study, viewer)
    except Blinded as err:
        raise UsageError(f"{err}: give --researcher-key or $PLAYBENCH_RESEARCHER_PASSPHRASE") \
            from None
    scope = Scope(study=args.study, game=args.game, viewer=viewer)
    if args.verify:
        scope = _verified_scope(store, scope)
        if not scope.episodes:
            print("no episode replays to its record; nothing exported", file=sys.stderr)
            return 1
    out = Path(args.out)
    if args.fmt == "inspect":
        return _export_inspect(store, out, scope)
    if args.fmt == "csv":
        from playbench.app.exports.csv import export_csv
        counts = export_csv(store, out, scope)
        print(f"wrote {counts['episodes']} episode rows and {counts['leaderboard']} "
              f"leaderboard rows to {out}")
        return 0
    from playbench.app.exports.chat import export_chat
    report = export_chat(store, out, scope, per=args.per, success_only=args.success_only,
                         images=args.images)
    skipped = ", ".join(f"{n} {why}" for why, n in sorted(report.skipped.items()))
    print(f"wrote {report.lines} chat lines from {report.episodes} episodes, "
          f"{report.images} images to {out}" + (f" (skipped: {skipped})" if skipped else ""))
    return 0


INSPECT_EXTRA = ("Inspect logs need the optional 'inspect' extra (inspect-ai): "
                 "pip install 'playbench[inspect]'")


def _need_inspect() -> None:
    try:
        import inspect_ai  # noqa: F401
    except ImportError:
        raise UsageError(INSPECT_EXTRA) from None


def _export_inspect(store, out: Path, scope) -> int:
    """``export --format inspect``: every episode in scope (practice and unfinished ones too,
    marked in each sample's metadata), one log per task set, participant and setting."""
    import dataclasses

    from playbench.app.results.data import load_episodes
    _need_inspect()
    from playbench.app.exports.inspect_log import export_inspect
    every = dataclasses.replace(scope, include_practice=True,
                                statuses=("running", "done", "interrupted", "error"))
    ids = [e.id for e in load_episodes(store, every).episodes]
    if not ids:
        print("no episodes in scope; nothing exported")
        return 0
    report = export_inspect(store, out, ids)
    print(f"wrote {len(report.logs)} Inspect logs ({report.episodes} episodes, {report.steps} "
          f"steps) to {out}; view them with: inspect view --log-dir {out}")
    return 0


def _verified_scope(store: Store, scope: Scope) -> Scope:
    """``scope`` narrowed to its episodes (practice and unfinished ones too, as the CSV lists
    them) that replay to their records."""
    import dataclasses

    from playbench.app.cli.trajectories import verified
    from playbench.app.results.data import load_episodes
    every = dataclasses.replace(scope, include_practice=True,
                                statuses=("running", "done", "interrupted", "error"))
    ids = [e.id for e in load_episodes(store, every).episodes]
    return dataclasses.replace(scope, episodes=frozenset(verified(store, ids)))


class ProgressLine:
    """Says what a long import is doing on stderr (``checking: 250,000 steps (41,000/s)``), at
    most once per ``every`` seconds and never during the first ``every`` seconds, so a short
    import prints nothing. Called with (phase, steps so far) by the importer."""

    def __init__(self, stream: TextIO, every: float = 5.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.stream = stream
        self.every = every
        self.clock = clock
        self.start = clock()
        self.last = self.start
        self.phase = ""
        self.phase_start = self.start

    def __call__(self, phase: str, steps: int) -> None:
        now = self.clock()
        if phase != self.phase:  # the first phase counts from the start, later ones from now
            self.phase, self.phase_start = phase, now if self.phase else self.start
        if now - self.last < self.every:
            return
        self.last = now
        rate = steps / max(now - self.phase_start, 1e-9)
        print(f"{phase}: {steps:,} steps ({rate:,.0f}/s, {now - self.start:.0f} s so far)",
              file=self.stream, flush=True)


def cmd_import(args: argparse.Namespace) -> int:
    from playbench.app.exports.importer import ImportProblem, check_bundle, import_bundle
    directory = Path(args.directory)
    if directory.suffix in (".eval", ".json") or (
            directory.is_dir() and not (directory / "manifest.json").exists()
            and any(p.suffix in (".eval", ".json") for p in directory.iterdir())):
        return _import_inspect(args, directory)
    if not directory.is_dir():
        print(f"playbench import: {directory}: no such directory", file=sys.stderr)
        return 1
    store = open_store(args)
    progress = ProgressLine(sys.stderr)
    try:
        if args.check:
            seen = check_bundle(store, directory, progress=progress)
            print(f"ok: {len(seen.episodes)} episodes, {sum(seen.step_counts.values())} steps, "
                  f"{len(seen.frames)} frames, {len(seen.studies)} studies")
            return 0
        report = import_bundle(store, directory, progress=progress)
    except ImportProblem as err:
        print(f"playbench import: {directory}/{err} - nothing imported", file=sys.stderr)
        return 1
    _print_report(report)
    return 0


def _print_report(report) -> None:
    print(f"imported {report.episodes_new} new episodes ({report.steps} steps, "
          f"{report.frames} frames), extended {report.episodes_extended}, "
          f"skipped {report.episodes_skipped} already here; new: {report.participants} "
          f"participants, {report.tasks} tasks, {report.studies} studies")
    for w in report.warnings:
        print(f"note: {w}", file=sys.stderr)


def _import_inspect(args: argparse.Namespace, path: Path) -> int:
    """``import`` of Inspect logs written by ``export --format inspect``."""
    _need_inspect()
    from playbench.app.exports.inspect_import import check_inspect, import_inspect, inspect_logs
    from playbench.app.exports.lines import ImportProblem
    logs = inspect_logs(path)
    if not logs:
        print(f"playbench import: {path}: not an Inspect log (a .eval archive or a .json log)",
              file=sys.stderr)
        return 1
    store = open_store(args)
    try:
        if args.check:
            episodes, steps, frames, studies = check_inspect(store, logs)
            print(f"ok: {episodes} episodes, {steps} steps, {frames} frames, {studies} studies "
                  f"in {len(logs)} Inspect logs")
            return 0
        report = import_inspect(store, logs, progress=ProgressLine(sys.stderr))
    except ImportProblem as err:
        print(f"playbench import: {path}: {err} - nothing imported", file=sys.stderr)
        return 1
    _print_report(report)
    return 0
