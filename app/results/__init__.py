"""Results (Qt-free): leaderboards with confidence intervals, annotator time and agreement, the
N-way compare model, and plots as matplotlib figures. The UI's results and compare views are
built on these functions; the command line prints them.

The names below load their module on first use (PEP 562), so that importing one light module
of this package (``names``, read by the command line's parsers) does not pull in NumPy and
the database layer."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playbench.app.results.agreement import AnnotatorReport, annotator_report
    from playbench.app.results.compare import (
        Comparison,
        Lane,
        compare,
        task_choices,
        task_episode_ids,
    )
    from playbench.app.results.data import EpisodeFacts, Scope, load_episodes
    from playbench.app.results.leaderboard import Leaderboard, LeaderRow, leaderboard
    from playbench.app.results.stats import Estimate

_HOME = {"AnnotatorReport": "agreement", "annotator_report": "agreement",
         "Comparison": "compare", "Lane": "compare", "compare": "compare",
         "task_choices": "compare", "task_episode_ids": "compare",
         "EpisodeFacts": "data", "Scope": "data", "load_episodes": "data",
         "Leaderboard": "leaderboard", "LeaderRow": "leaderboard", "leaderboard": "leaderboard",
         "Estimate": "stats"}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{home}"), name)


__all__ = ["AnnotatorReport", "annotator_report", "Comparison", "Lane", "compare",
           "task_choices", "task_episode_ids", "EpisodeFacts", "Scope", "load_episodes",
           "Leaderboard", "LeaderRow", "leaderboard", "Estimate"]
