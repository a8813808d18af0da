"""What the Results view computes and writes, without Qt: the scope from the filters, the
leaderboard with its bootstrap intervals, the episodes behind the plots, the episodes left out,
cell texts such as ``72.0 [61.3, 80.1]``, and the table and plot files.

:func:`compute` (the bootstrap) and the ``write_*`` functions are slow enough to be run in an
executor; everything else is formatting. matplotlib is imported only when a plot is made,
so opening the app does not pay for it.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from playbench.app.results import (
    EpisodeFacts,
    Estimate,
    Leaderboard,
    Scope,
    leaderboard,
    load_episodes,
)
from playbench.app.results.baselines import HumanBaseline
from playbench.app.results.leaderboard import kind_notes
from playbench.app.studies import RESEARCHER, Viewer
from playbench.db.results import games_and_settings
from playbench.db.store import Store

if TYPE_CHECKING:
    from matplotlib.figure import Figure

COLUMNS: tuple[tuple[str, str, int], ...] = (
    ("accuracy", "Accuracy %", 1),
    ("completion", "Completion", 1),
    ("efficiency", "Efficiency % (ING-VP)", 1),
    ("magebench", "MageBench", 1),
    ("steps_over_optimal", "Steps / optimal", 2),
    ("human_relative", "Human-relative %", 1),
)
"""Metric, column heading, decimals."""

HEADINGS = ("Game", "Setting", "Participant", "Episodes", "Levels",
            *[c[1] for c in COLUMNS], "Efficiency pooled %")

EXPLAIN = {
    "accuracy": "Share of episodes that solved the level.",
    "completion": "ING-VP completion: 100 minus a unit per move still missing, floored at 0.",
    "efficiency": "ING-VP action efficiency: actions that changed the state / all actions, "
                  "mean of per-level means.",
    "magebench": "MageBench's Sokoban score (Sokoban rows only).",
    "steps_over_optimal": "Actions / optimal solution length, solved episodes only.",
    "human_relative": "ARC-AGI-3-style: min(1, (human baseline's actions / actions)^2); "
                      "0 when unsolved; levels no human solved are left out.",
}

PLOT_KINDS = (("human_vs_models", "Human vs models per game"),
              ("score_distribution", "Score distribution per participant"))
EPISODE_SCORES = ("completion", "solved", "efficiency", "magebench", "steps_over_optimal",
                  "actions")
TABLE_FORMATS = ("csv", "json")


@dataclass(frozen=True)
class ResultsQuery:
    """The filters of the Results view."""

    study: str | None = None
    game: str | None = None
    setting: str | None = None
    kind: str | None = None
    include_practice: bool = False
    human_baseline: str | None = None
    """A ``HumanBaseline`` rule name (``median-person``, ``solved-by-2``...); None: a row
    per person."""
    resample: str = "levels"
    viewer: Viewer = RESEARCHER

    def baseline(self) -> HumanBaseline | None:
        if self.human_baseline is None:
            return None
        return HumanBaseline.parse(self.human_baseline, self.resample)

    def scope(self) -> Scope:
        return Scope(study=self.study, game=self.game, setting=self.setting, kind=self.kind,
                     include_practice=self.include_practice, viewer=self.viewer)


@dataclass
class ResultsData:
    query: ResultsQuery
    board: Leaderboard
    episodes: list[EpisodeFacts]
    left_out: list[EpisodeFacts] = field(default_factory=list)
    """Episodes in scope that do not count (interrupted, error, still running)."""
    notes: list[str] = field(default_factory=list)
    """The kinds' notes about their rows (``games.kind.results_note``)."""


@dataclass(frozen=True)
class Choices:
    """What the filter menus offer."""

    studies: list[str]
    games: list[str]
    settings: list[str]


def choices(store: Store) -> Choices:
    games, settings = games_and_settings(store.db)
    return Choices(store.study_names(), games, [s for s in settings if s])


def compute(store: Store, query: ResultsQuery) -> ResultsData:
    """The leaderboard (raises ``Blinded`` for an annotator asking for a blind study), the
    counted episodes and the episodes left out."""
    scope = query.scope()
    board = leaderboard(store, scope, baseline=query.baseline())
    episodes = load_episodes(store, scope).episodes
    if board.dropped:  # checks and excluded people, as in the table
        episodes = [e for e in episodes if e.id not in board.dropped]
    others = tuple(s for s in ("running", "interrupted", "error") if s not in scope.statuses)
    left_out = load_episodes(store, dataclasses.replace(scope, statuses=others)).episodes
    return ResultsData(query, board, episodes, left_out, kind_notes(board))


def estimate_text(e: Estimate, digits: int = 1) -> str:
    """``72.0 [61.3, 80.1]``; the value alone without an interval; ``-`` without a value."""
    if e.value is None:
        return "-"
    if e.low is None or e.high is None:
        return f"{e.value:.{digits}f}"
    return f"{e.value:.{digits}f} [{e.low:.{digits}f}, {e.high:.{digits}f}]"


def metric_text(e: Estimate, digits: int = 1) -> str:
    """A table cell: the estimate and the number of levels behind it."""
    text = estimate_text(e, digits)
    return text if e.value is None else f"{text}  n={e.n}"


def row_cells(data: ResultsData) -> list[list[str]]:
    """The table's text, row by row, in :data:`HEADINGS` order."""
    out = []
    for r in data.board.rows:
        pooled = "-" if r.efficiency_pooled is None else f"{r.efficiency_pooled:.1f}"
        out.append([r.label, r.setting, f"{r.participant} ({r.kind})", str(r.episodes),
                    str(r.levels), *[metric_text(r.metric(m), d) for m, _, d in COLUMNS],
                    pooled])
    return out


def left_out_text(data: ResultsData) -> str:
    excluded = data.board.excluded
    if not excluded:
        return "No episode in this scope was left out."
    parts = ", ".join(f"{n} {status}" for status, n in sorted(excluded.items()))
    return f"Left out: {parts} (only finished episodes count)."


def left_out_lines(data: ResultsData, limit: int = 200) -> list[str]:
    lines = [f"#{e.id}  {e.participant} ({e.kind})  {e.game} level {e.level_number}  "
             f"{e.setting}  {e.status}, {e.actions} actions" for e in data.left_out[:limit]]
    if len(data.left_out) > limit:
        lines.append(f"… and {len(data.left_out) - limit} more")
    return lines


def scope_text(data: ResultsData) -> str:
    q = data.query
    parts = [f"study {q.study}" if q.study else "all studies and free play",
             q.game or "all games", f"setting {q.setting}" if q.setting else "all settings",
             f"{q.kind} players" if q.kind else "all players",
             "practice included" if q.include_practice else "practice left out"]
    pct = int(round(data.board.confidence * 100))
    notes = "".join(f" {note}" for note in data.notes)
    unit = "person-level" if data.query.resample == "people" and data.board.baseline \
        else "level-cluster"
    return (" · ".join(parts) + f". Brackets: {pct} % {unit} bootstrap interval; "
            "n: levels behind the value. Hover a heading for its definition. "
            + data.board.baseline_text()[0].upper() + data.board.baseline_text()[1:] + "."
            + "".join(f" {line[0].upper()}{line[1:]}." for line in (
                data.board.screening.lines() if data.board.screening else []))
            + notes)


# -- plots ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class PlotChoice:
    kind: str = "human_vs_models"
    metric: str = "accuracy"
    game: str | None = None
    """Score distribution only: one game, or all."""


def make_figure(data: ResultsData, choice: PlotChoice) -> Figure:
    """A new figure for ``choice`` (raises ``PlotError`` when there is nothing to plot)."""
    from playbench.app.results.plots import PlotError, human_vs_models, score_distribution
    if choice.kind == "human_vs_models":
        return human_vs_models(data.board, choice.metric)
    if choice.kind == "score_distribution":
        return score_distribution(data.episodes, choice.metric, choice.game)
    raise PlotError(f"unknown plot {choice.kind!r}")


def write_plot(data: ResultsData, choice: PlotChoice, path: str | Path) -> Path:
    """Draw ``choice`` afresh (never the figure on screen, which belongs to the UI thread)
    and save it as PNG, SVG or PDF by the file's suffix."""
    from playbench.app.results.plots import save_figure
    return save_figure(make_figure(data, choice), Path(path))


def write_table(data: ResultsData, path: str | Path) -> Path:
    """The leaderboard as CSV (the command line's columns, with ``_low``/``_high``) or JSON
    (scope, confidence, left-out counts and rows), by the file's suffix."""
    path = Path(path)
    fmt = path.suffix.lstrip(".").lower()
    if fmt not in TABLE_FORMATS:
        raise ValueError(f"cannot save the table as {fmt or 'a file without suffix'!r} "
                         "(use .csv or .json)")
    if fmt == "csv":
        from playbench.app.exports.csv import write_leaderboard
        with path.open("w", encoding="utf-8", newline="") as out:
            write_leaderboard(data.board, out)
        return path
    scope = {k: v for k, v in dataclasses.asdict(data.board.scope).items() if k != "viewer"}
    baseline = data.board.baseline
    doc = {"scope": scope, "human_baseline": None if baseline is None else baseline.record(),
           "human_baseline_text": data.board.baseline_text(),
           "screening": None if data.board.screening is None
           else data.board.screening.record(),
           "confidence": data.board.confidence, "excluded": data.board.excluded,
           "rows": data.board.records()}
    path.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    return path
