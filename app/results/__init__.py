"""Results (Qt-free): leaderboards with confidence intervals, annotator time and agreement, the
N-way compare model, and plots as matplotlib figures. The UI's results and compare views are
built on these functions; the command line prints them."""

from playbench.app.results.agreement import AnnotatorReport, annotator_report
from playbench.app.results.compare import Comparison, Lane, compare, task_choices, task_episode_ids
from playbench.app.results.data import EpisodeFacts, Scope, load_episodes
from playbench.app.results.leaderboard import Leaderboard, LeaderRow, leaderboard
from playbench.app.results.stats import Estimate

__all__ = ["AnnotatorReport", "annotator_report", "Comparison", "Lane", "compare",
           "task_choices", "task_episode_ids", "EpisodeFacts", "Scope", "load_episodes",
           "Leaderboard", "LeaderRow", "leaderboard", "Estimate"]
