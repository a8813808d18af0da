"""Rendering a study report's facts into one self-contained HTML file with Jinja2.

The template is a data file (``resources/reports/study-report.html.j2``); a user may give
their own. It runs in Jinja2's immutable sandbox: a template reads the facts and calls their
plain methods, but cannot reach Python internals or change anything. Every value is
HTML-escaped (autoescape): study texts are the organizer's and
pseudonyms the annotators', and neither may turn into markup or script in the report. The
page loads nothing: styles are inline, plots are ``data:`` URIs, and the bundled template
declares a Content-Security-Policy that forbids any network request.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from playbench import resources
from playbench.app.exports.report.checklist import NOT_STATED, Item
from playbench.app.exports.report.facts import ReportFacts
from playbench.app.exports.report.figures import Plot
from playbench.app.results.leaderboard import METRICS
from playbench.app.results.plots import LABELS
from playbench.app.results.stats import Estimate

TEMPLATE = "study-report.html.j2"


class ReportError(ValueError):
    """A report that cannot be written (a broken template, an unusable folder); the message
    names the file and, for a template, the line."""


def _num(value: float | None, digits: int = 1) -> str:
    if value is None:
        return "-"
    return f"{value:.{digits}f}"


def _interval(est: Estimate, digits: int = 1) -> str:
    if est.value is None:
        return "-"
    if est.low is None or est.high is None:
        return _num(est.value, digits)
    return f"{_num(est.value, digits)} [{_num(est.low, digits)}, {_num(est.high, digits)}]"


if TYPE_CHECKING:  # Jinja2 loads when a report is written, not with the window (issue 32)
    import jinja2


def _stated(value: Any) -> Any:
    return NOT_STATED if value is None else value


def environment(template: Path | None) -> tuple[jinja2.Environment, str]:
    """The environment and template name: the bundled one, or the user's file."""
    import jinja2
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    folder = resources.path("reports") if template is None else template.parent
    env = ImmutableSandboxedEnvironment(loader=jinja2.FileSystemLoader(str(folder)),
                                        autoescape=True, undefined=jinja2.StrictUndefined,
                                        auto_reload=False)
    env.filters.update(num=_num, interval=_interval, stated=_stated)
    return env, TEMPLATE if template is None else template.name


def render(facts: ReportFacts, items: Sequence[Item], plots: Sequence[Plot],
           template: Path | None = None) -> str:
    """The report's HTML; raises :class:`ReportError` naming the template and line."""
    import jinja2

    env, name = environment(template)
    where = str(template) if template is not None else TEMPLATE
    try:
        page = env.get_template(name)
        return page.render(f=facts, items=items, plots=plots, metrics=METRICS,
                           labels=LABELS, not_stated=NOT_STATED,
                           pct=int(round(facts.board.confidence * 100)))
    except jinja2.TemplateNotFound:
        raise ReportError(f"{where}: report template not found") from None
    except jinja2.TemplateSyntaxError as err:
        raise ReportError(f"{err.filename or where}: line {err.lineno}: {err.message}") \
            from None
    except jinja2.TemplateError as err:
        raise ReportError(f"{where}: {err}") from None
