"""``playbench results``: the leaderboard per game, setting and participant, as a table, CSV
or JSON, optionally with a plot file (PNG, SVG or PDF). Kinds with sub-groups (browser games:
GameWorld's games) also get a row per sub-group, shown as ``game / group``."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from playbench.app.choices import METRICS, RESAMPLING
from playbench.app.cli.common import (
    UsageError,
    add_db_option,
    add_researcher_option,
    cli_viewer,
    fmt,
    open_store,
    table,
)

if TYPE_CHECKING:
    from playbench.app.results.data import Scope
    from playbench.app.results.leaderboard import Leaderboard
    from playbench.app.results.stats import Estimate


KINDS = ("human", "model", "script")


def add_parsers(sub) -> None:
    p = sub.add_parser("results", help="leaderboard per game, setting and participant")
    p.add_argument("--study", metavar="NAME", help="only this study's episodes")
    p.add_argument("--game", help="only this game")
    p.add_argument("--setting", help="only this setting")
    p.add_argument("--kind", choices=KINDS, help="only this kind of participant")
    p.add_argument("--human-baseline", metavar="RULE",
                   help="replace the people's rows by one human-baseline row: pooled, "
                   "person-mean, median-person, best-person, second-best-first-run or "
                   "solved-by-N (levels at least N people solved); human-relative efficiency "
                   "follows it (docs/studies.md)")
    p.add_argument("--pool-humans", action="store_true",
                   help="the same as --human-baseline pooled")
    p.add_argument("--resample", choices=RESAMPLING, default="levels",
                   help="unit the intervals resample: levels (default) or people")
    p.add_argument("--include-practice", action="store_true",
                   help="count practice episodes too (normally left out)")
    p.add_argument("--format", dest="fmt", choices=["table", "csv", "json"], default="table")
    p.add_argument("--confidence", type=float, default=0.95,
                   help="confidence level of the intervals (default 0.95)")
    p.add_argument("--plot", metavar="FILE", help="also save a human-vs-models bar chart "
                   "(.png, .svg or .pdf)")
    p.add_argument("--metric", choices=METRICS, default="accuracy", help="metric to plot")
    add_researcher_option(p)
    add_db_option(p)
    p.set_defaults(handler=cmd_results)


def _cell(e: Estimate, digits: int = 1) -> str:
    if e.value is None:
        return "-"
    if e.low is None or e.high is None:
        return fmt(e.value, digits)
    return f"{fmt(e.value, digits)} [{fmt(e.low, digits)}, {fmt(e.high, digits)}]"


def print_table(board: Leaderboard) -> None:
    from playbench.app.results.leaderboard import kind_notes
    rows = [[r.label, r.setting, f"{r.kind}:{r.participant}", r.episodes, r.levels,
             _cell(r.accuracy), _cell(r.completion), _cell(r.efficiency),
             _cell(r.magebench), _cell(r.steps_over_optimal, 2), _cell(r.human_relative)]
            for r in board.rows]
    table(["game", "setting", "participant", "eps", "levels", "accuracy %", "completion",
           "efficiency %", "magebench", "steps/opt", "human-rel %"], rows)
    pct = int(round(board.confidence * 100))
    unit = "level-cluster" if board.baseline is None or board.baseline.resample == "levels" \
        else "person-level"
    print(f"\n[low, high]: {pct} % {unit} bootstrap intervals; practice "
          f"{'included' if board.scope.include_practice else 'excluded'}")
    print(board.baseline_text())
    for line in board.screening.lines() if board.screening else []:
        print(line)
    if board.excluded:
        left = ", ".join(f"{n} {s}" for s, n in sorted(board.excluded.items()))
        print(f"left out: {left} (only finished episodes count)")
    for note in kind_notes(board):
        print(note)


def print_counts_only(store, scope: Scope, why: str) -> int:
    """A sealed study's results without its credential: finished episodes per participant
    kind and the number of people, nothing else."""
    from playbench.app.studies.status import study_counts
    counts = study_counts(store, scope.study or "")
    print(f"{why}.\nCounts only: " + ", ".join(f"{n} {k} episode(s) finished"
                                              for k, n in sorted(counts["episodes"].items()))
          + f"; {counts['people']} people took part.")
    return 0


def cmd_results(args: argparse.Namespace) -> int:
    from playbench.app.exports.csv import write_leaderboard
    from playbench.app.results.baselines import BaselineError, HumanBaseline
    from playbench.app.results.data import Scope
    from playbench.app.results.leaderboard import leaderboard
    from playbench.app.studies.access import Blinded
    if not 0.5 <= args.confidence < 1:
        raise UsageError("--confidence must be at least 0.5 and below 1")
    rule = args.human_baseline or ("pooled" if args.pool_humans else None)
    try:
        baseline = None if rule is None else HumanBaseline.parse(rule, args.resample)
    except BaselineError as err:
        raise UsageError(f"--human-baseline: {err}") from None
    if baseline is None and args.resample != "levels":
        raise UsageError("--resample people needs a --human-baseline (people are resampled "
                         "for the human-baseline row)")
    store = open_store(args)
    scope = Scope(study=args.study, game=args.game, setting=args.setting, kind=args.kind,
                  include_practice=args.include_practice, viewer=cli_viewer(args, store))
    try:
        board = leaderboard(store, scope, baseline=baseline, confidence=args.confidence)
    except Blinded as err:
        return print_counts_only(store, scope, str(err))
    if args.fmt == "json":
        out = {"scope": {k: v for k, v in dataclasses.asdict(scope).items() if k != "viewer"},
               "confidence": board.confidence, "excluded": board.excluded,
               "human_baseline": None if baseline is None else baseline.record(),
               "human_baseline_text": board.baseline_text(),
               "screening": None if board.screening is None else board.screening.record(),
               "rows": board.records()}
        print(json.dumps(out, indent=2))
    elif args.fmt == "csv":
        write_leaderboard(board, sys.stdout)
    else:
        print_table(board)
    if args.plot:
        from playbench.app.results.plots import PlotError, human_vs_models, save_figure
        try:
            save_figure(human_vs_models(board, args.metric), Path(args.plot))
        except PlotError as err:
            print(f"playbench results: {err}", file=sys.stderr)
            return 1
        print(f"plot written to {args.plot}", file=sys.stderr)
    return 0
