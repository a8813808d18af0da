"""The report's plots as PNG ``data:`` URIs, so the HTML file carries them and opens offline."""

from __future__ import annotations

import base64
import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from playbench.app.results.data import EpisodeFacts
from playbench.app.results.leaderboard import Leaderboard
from playbench.app.results.plots import LABELS, PlotError, human_vs_models, score_distribution

if TYPE_CHECKING:  # matplotlib loads when a report is drawn, not with the window (issue 32)
    from matplotlib.figure import Figure

METRICS = ("accuracy", "completion", "human_relative")
"""Human-vs-model bars drawn for each of these (when any row has a value)."""


@dataclass(frozen=True)
class Plot:
    title: str
    uri: str
    """``data:image/png;base64,...``"""
    caption: str


def data_uri(fig: Figure, dpi: int = 110) -> str:
    """``fig`` as an embedded PNG."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    FigureCanvasAgg(fig)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def report_plots(board: Leaderboard, episodes: Sequence[EpisodeFacts]) -> list[Plot]:
    """Human-vs-model bars per metric with their intervals, and the actions each participant
    used per episode; a plot with nothing to show is left out (its table says so)."""
    out = []
    for metric in METRICS:
        try:
            fig = human_vs_models(board, metric)
        except PlotError:
            continue
        out.append(Plot(LABELS[metric], data_uri(fig),
                        f"{LABELS[metric]} per game and participant, humans in blue; error "
                        f"bars are the intervals of the scores table. {board.baseline_text()}"))
    try:
        fig = score_distribution(episodes, "actions")
    except PlotError:
        return out
    out.append(Plot("actions per episode", data_uri(fig),
                    "Actions used per included episode, by participant (box: quartiles; "
                    "points: episodes) - the effort side of effort parity."))
    return out
