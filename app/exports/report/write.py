"""Writing a study report into a folder: ``report.html`` and ``data/``, all or nothing.

Everything is made in a hidden folder inside the target first and moved into place at the
end, so a failure (a refused study, a broken template, a full disk) leaves the folder as it
was. A folder that already holds a ``data/`` that is not an earlier report's release is
refused rather than overwritten.
"""

from __future__ import annotations

import os
import shutil
import uuid
from dataclasses import dataclass
from pathlib import Path

from playbench.app.exports.report.checklist import checklist
from playbench.app.exports.report.facts import gather_facts
from playbench.app.exports.report.figures import report_plots
from playbench.app.exports.report.release import write_release
from playbench.app.exports.report.render import ReportError, render
from playbench.app.results.baselines import HumanBaseline
from playbench.app.studies.access import RESEARCHER, Viewer
from playbench.db.store import Store

MARK = "checklist.csv"
"""A file every release holds: a ``data/`` with it is an earlier report's, replaced safely."""


@dataclass(frozen=True)
class Written:
    """What :func:`write_report` wrote."""

    html: Path
    data: Path
    episodes: int
    people: int
    not_stated: int
    """Checklist items the records could not state."""


def write_report(store: Store, study: str, out: Path, *, viewer: Viewer = RESEARCHER,
                 baseline: HumanBaseline | None = None, template: Path | None = None
                 ) -> Written:
    """Write ``out/report.html`` and ``out/data/`` for ``study``. Raises ``Blinded`` for a
    sealed study ``viewer`` has not unlocked and :class:`ReportError` for an unusable folder
    or template - in both cases before anything is written."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise ReportError(f"{out}: not a folder")
    old = out / "data"
    if old.exists() and not (old / MARK).is_file():
        raise ReportError(f"{old} exists and is not an earlier report's data folder; "
                          "choose another folder")
    facts = gather_facts(store, study, viewer=viewer, baseline=baseline)
    items = checklist(facts)
    html = render(facts, items, report_plots(facts.board, facts.included), template)
    out.mkdir(parents=True, exist_ok=True)
    work = out / f".report-{uuid.uuid4().hex[:8]}"
    work.mkdir()
    try:
        counts = write_release(store, facts, items, work / "data")
        (work / "report.html").write_text(html, encoding="utf-8")
        if old.exists():
            shutil.rmtree(old)
        os.replace(work / "data", old)
        os.replace(work / "report.html", out / "report.html")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return Written(out / "report.html", old, counts["episodes"], counts["people"],
                   sum(1 for i in items if not i.stated))
