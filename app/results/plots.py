"""Result plots as matplotlib :class:`~matplotlib.figure.Figure` objects, made without pyplot
(no global figure state, no backend chosen here): the UI puts a figure on a Qt canvas, the
command line and tests save it with :func:`save_figure` as PNG, SVG or PDF.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from playbench.app.results.data import EpisodeFacts
from playbench.app.results.leaderboard import METRICS, Leaderboard, LeaderRow

if TYPE_CHECKING:
    from matplotlib.figure import Figure

# matplotlib is imported inside the functions that draw: importing it takes longer than the
# desktop window's whole start-up budget (issue 32), and the window names LABELS at start.

FORMATS = ("png", "svg", "pdf")
LABELS = {"accuracy": "accuracy (%)", "completion": "completion (0-100)",
          "efficiency": "action efficiency (%)", "magebench": "MageBench score",
          "steps_over_optimal": "steps / optimal",
          "human_relative": "human-relative efficiency (%)"}


class PlotError(ValueError):
    """Nothing to plot, or a format that cannot be written."""


def human_vs_models(board: Leaderboard, metric: str = "accuracy",
                    setting: str | None = None) -> Figure:
    """Grouped bars per game: one bar per participant, with the confidence interval as an
    error bar; each participant has its own colour and a legend entry (people in cool colours,
    models hatched in warm ones: :mod:`~playbench.app.results.plot_looks`). Rows of other
    settings are left out when ``setting`` is set, and so are a kind's rows per sub-group (its
    overall row already has a bar)."""
    if metric not in METRICS:
        raise PlotError(f"unknown metric {metric!r} (valid: {', '.join(METRICS)})")
    rows = [r for r in board.rows if not r.group
            and (setting is None or r.setting == setting)
            and r.metric(metric).value is not None]
    if not rows:
        raise PlotError(f"no {metric} values to plot")
    games = sorted({r.game for r in rows})
    from matplotlib.figure import Figure

    from playbench.app.results.plot_looks import looks
    fig = Figure(figsize=(max(5.0, 1.8 * len(games) + 2), 4.0), layout="constrained")
    ax = fig.add_subplot()
    several_settings = setting is None and len({r.setting for r in rows}) > 1

    def label_of(r: LeaderRow) -> str:
        return r.participant + (f" [{r.setting}]" if several_settings else "")
    ordered = sorted(rows, key=lambda r: (r.kind != "human", label_of(r)))
    look = looks((r.kind, label_of(r)) for r in ordered)
    seen_labels: set[tuple[str, str]] = set()
    for gi, game in enumerate(games):
        game_rows = sorted((r for r in rows if r.game == game),
                           key=lambda r: (r.kind != "human", r.participant, r.setting))
        width = 0.8 / len(game_rows)
        for j, r in enumerate(game_rows):
            est = r.metric(metric)
            value = est.value
            assert value is not None  # rows without a value were left out above
            x = gi - 0.4 + width * (j + 0.5)
            key = (r.kind, label_of(r))
            err = None
            if est.value is not None and est.low is not None and est.high is not None:
                err = [[max(0.0, est.value - est.low)], [max(0.0, est.high - est.value)]]
            ax.bar(x, value, width * 0.9, yerr=err, capsize=3, color=look[key].colour,
                   hatch=look[key].hatch, label=key[1] if key not in seen_labels else None,
                   edgecolor="black", linewidth=0.4)
            seen_labels.add(key)
    ax.set_xticks(range(len(games)), games)
    ax.set_ylabel(LABELS.get(metric, metric))
    pct = int(round(board.confidence * 100))
    ax.set_title(f"{LABELS.get(metric, metric)} per game ({pct} % intervals)")
    # Beside the axes, not over the bars: a study with many people has a long legend.
    ax.legend(fontsize="small", frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.grid(axis="y", alpha=0.3)
    # x-small text fits about 16 characters per inch: a narrow figure (one game) wraps its
    # baseline line sooner instead of cutting it off at the figure's edge.
    ax.set_xlabel(textwrap.fill(board.baseline_text(), min(100, int(fig.get_figwidth() * 16))),
                  fontsize="x-small")
    return fig


def score_distribution(episodes: Sequence[EpisodeFacts], metric: str = "completion",
                       game: str | None = None) -> Figure:
    """Per participant, the distribution of one per-episode score (box plot with the
    individual episodes as points, in the participant's colour and marker). ``metric`` is an
    episode score: solved, completion, efficiency, magebench, steps_over_optimal, or
    ``actions``."""
    valid = ("solved", "completion", "efficiency", "magebench", "steps_over_optimal", "actions")
    if metric not in valid:
        raise PlotError(f"unknown episode score {metric!r} (valid: {', '.join(valid)})")
    groups: dict[str, list[float]] = {}
    kinds: dict[str, str] = {}
    for e in episodes:
        if game is not None and e.game != game:
            continue
        v = getattr(e, metric)
        if v is None:
            continue
        name = f"{e.kind}:{e.participant}"
        groups.setdefault(name, []).append(float(v))
        kinds[name] = e.kind
    if not groups:
        raise PlotError(f"no {metric} values to plot")
    names = sorted(groups, key=lambda n: (kinds[n] != "human", n))
    from matplotlib.figure import Figure

    from playbench.app.results.plot_looks import looks
    look = looks((kinds[n], n) for n in names)
    fig = Figure(figsize=(max(5.0, 0.9 * len(names) + 2), 4.0), layout="constrained")
    ax = fig.add_subplot()
    ax.boxplot([groups[n] for n in names], showfliers=False)
    rng = np.random.default_rng(0)
    for i, n in enumerate(names, 1):
        ys = groups[n]
        xs = i + rng.uniform(-0.12, 0.12, len(ys))
        ax.scatter(xs, ys, s=12, alpha=0.7, color=look[kinds[n], n].colour,
                   marker=look[kinds[n], n].marker, label=n)
    ax.set_xticks(range(1, len(names) + 1), names, rotation=20, ha="right")
    for tick, n in zip(ax.get_xticklabels(), names, strict=True):
        tick.set_color(look[kinds[n], n].colour)  # the name in its points' colour
    ax.set_ylabel(LABELS.get(metric, metric))
    ax.set_title(f"{metric} per episode" + (f" ({game})" if game else ""))
    ax.grid(axis="y", alpha=0.3)
    return fig


def save_figure(fig: Figure, path: Path, fmt: str | None = None, dpi: int = 150) -> Path:
    """Write ``fig`` as PNG, SVG or PDF (from ``fmt`` or the file suffix)."""
    path = Path(path)
    fmt = (fmt or path.suffix.lstrip(".")).lower()
    if fmt not in FORMATS:
        raise PlotError(f"cannot save a figure as {fmt!r} (valid: {', '.join(FORMATS)})")
    # A figure shown on a Qt canvas keeps that canvas; an Agg canvas is only attached to
    # figures that have none yet, so saving never disturbs the UI's.
    if fig.canvas is None or type(fig.canvas).__name__ == "FigureCanvasBase":
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        FigureCanvasAgg(fig)
    fig.savefig(path, format=fmt, dpi=dpi)
    return path
