"""The study report (issue 29, item 5): one self-contained HTML file answering the reporting
checklist for human baselines from a study's own records, and the data behind it.

``gather_facts`` reads the records (``facts``, ``people``, ``timing``), ``checklist`` fills the
checklist, ``figures`` draws the plots, ``render`` writes the HTML from a Jinja2 template and
``release`` the data folder; :func:`write_report` does all of it.
"""

from playbench.app.exports.report.facts import ReportFacts, gather_facts
from playbench.app.exports.report.render import ReportError
from playbench.app.exports.report.write import Written, write_report

__all__ = ["ReportError", "ReportFacts", "Written", "gather_facts", "write_report"]
