"""``playbench study report NAME --out DIR``: the study report (``report.html``) and its data
release (``data/``), see docs/studies.md, "Report"."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from playbench.app.choices import RESAMPLING
from playbench.app.cli.common import (
    UsageError,
    add_db_option,
    add_researcher_option,
    cli_viewer,
    open_store,
)


def add_parser(ssub: argparse._SubParsersAction) -> None:
    r = ssub.add_parser("report", help="write the study report (one HTML file that opens "
                        "offline) and the data behind it")
    r.add_argument("name")
    r.add_argument("--out", required=True, metavar="DIR",
                   help="folder for report.html and data/ (made if missing)")
    r.add_argument("--human-baseline", metavar="RULE",
                   help="the human-baseline definition of the scores: pooled, person-mean, "
                   "median-person, best-person, second-best-first-run or solved-by-N "
                   "(default: a row per person)")
    r.add_argument("--resample", choices=RESAMPLING, default="levels",
                   help="unit the intervals resample: levels (default) or people")
    r.add_argument("--template", metavar="FILE",
                   help="a Jinja2 template of your own instead of the bundled one")
    add_researcher_option(r)
    add_db_option(r)
    r.set_defaults(handler=cmd_report)


def cmd_report(args: argparse.Namespace) -> int:
    from playbench.app.exports.report import ReportError, write_report
    from playbench.app.results.baselines import BaselineError, HumanBaseline
    from playbench.app.studies.access import Blinded
    try:
        baseline = (None if args.human_baseline is None
                    else HumanBaseline.parse(args.human_baseline, args.resample))
    except BaselineError as err:
        raise UsageError(f"--human-baseline: {err}") from None
    if baseline is None and args.resample != "levels":
        raise UsageError("--resample people needs a --human-baseline")
    template = None if args.template is None else Path(args.template)
    if template is not None and not template.is_file():
        raise UsageError(f"--template: {template} is not a file")
    store = open_store(args)
    try:
        written = write_report(store, args.name, Path(args.out), viewer=cli_viewer(args, store),
                               baseline=baseline, template=template)
    except Blinded as err:
        print(f"playbench study report: {err} (--researcher-key FILE or "
              "$PLAYBENCH_RESEARCHER_PASSPHRASE); nothing written", file=sys.stderr)
        return 1
    except ReportError as err:
        print(f"playbench study report: {err}; nothing written", file=sys.stderr)
        return 1
    print(f"report written to {written.html}")
    print(f"data release in {written.data}: {written.episodes} included episodes, "
          f"{written.people} people")
    if written.not_stated:
        print(f"{written.not_stated} checklist item(s) are not stated by the study's records "
              "(see the report's checklist)")
    return 0
