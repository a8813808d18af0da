"""One leaderboard row's episodes as numpy columns, for the per-level sums its metrics need.

A leaderboard row averages each metric per level first (``stats.level_means``). Doing that with
a Python loop per episode and metric cost 1.4 s of CPU over 100,000 episodes (issue 32); here
each column is made once, the episodes are put in level order once, and each level's values
are one slice. The sums are still Python's ``sum`` over the same values in the same order
(Python 3.12 sums floats with compensation, which ``numpy`` does not), so every figure is
equal to the last bit to the loop's (the definition, ``leaderboard.build_row``;
tests/results/test_leaderboard_fast.py holds them equal).

A missing value (``None``, or NaN) counts for nothing, as in ``level_means``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from playbench.app.results.episode_columns import EpisodeColumns
from playbench.app.results.episode_facts import EpisodeFacts
from playbench.app.results.stats import HRE_CAP, HRE_POWER

Column = np.ndarray
"""Float64, one value per episode in the row's order; NaN where the value is missing."""


class RowArrays:
    """The columns of one row's episodes, and each episode's level as an index into
    :attr:`levels` (the level keys, sorted as ``level_means`` sorts them)."""

    def __init__(self, episodes: Sequence[EpisodeFacts] | EpisodeColumns,
                 index: np.ndarray | None = None) -> None:
        """The row of ``episodes`` (facts, or columns with ``index`` the row's positions in
        them, in order; None: all)."""
        table = episodes if isinstance(episodes, EpisodeColumns) else EpisodeColumns.of(episodes)
        rows = np.arange(len(table)) if index is None else index
        level = table.category("level_key")
        present, codes = np.unique(level.codes[rows], return_inverse=True)
        self.levels: list[str] = [level.names[i] for i in present.tolist()]
        self.codes = codes.reshape(rows.size).astype(np.int64)
        self._order = np.argsort(self.codes, kind="stable")
        """Episode positions by level, each level's in the episodes' order."""
        counts = np.bincount(self.codes, minlength=len(self.levels))
        ends = np.cumsum(counts).tolist()
        self._spans = list(zip([0, *ends[:-1]], ends, strict=True))
        """Where each level's episodes are in ``_order``."""
        self.actions = table.actions[rows]
        self._scores = {name: table.score(name).take(rows) for name in table.scores}
        solved = self._scores["solved"]
        self.solved_known = solved.known
        self.is_solved = solved.known & (solved.values != 0)
        """``EpisodeFacts.is_solved``: ``bool(solved)`` (NaN counts as solved, as there)."""

    def column(self, name: str) -> Column:
        """A score column (``None`` becomes NaN)."""
        return self._scores[name].values

    def accuracy(self) -> Column:
        """100 x solved (missing where solved is unknown)."""
        return 100.0 * self.column("solved")

    def steps_over_optimal(self) -> Column:
        """Actions over the optimal length, solved episodes only."""
        return np.where(self.is_solved, self.column("steps_over_optimal"), np.nan)

    def human_relative(self, level_baselines: Sequence[float | None]) -> Column:
        """``stats.human_relative`` per episode, in percent: missing where solved is unknown
        or the level has no human baseline; 0 unsolved; the cap for no actions."""
        base = np.asarray([np.nan if b is None else b for b in level_baselines],
                          dtype=float)[self.codes]
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.minimum(HRE_CAP, (base / self.actions) ** HRE_POWER)
        value = np.where(self.actions <= 0, HRE_CAP, ratio)
        value = np.where(self.is_solved, value, 0.0)
        value = np.where(self.solved_known & ~np.isnan(base), value, np.nan)
        return 100.0 * value

    def _present(self, values: Column) -> tuple[list[float], list[int]]:
        """The values that exist (not NaN) in level order, and where each level's end among
        them: NaNs dropped by numpy, not by a Python test per value."""
        ordered = values[self._order]
        present = ~np.isnan(ordered)
        counts = np.bincount(self.codes[self._order][present], minlength=len(self.levels))
        return ordered[present].tolist(), np.cumsum(counts).tolist()

    def level_means(self, values: Column) -> list[float]:
        """Per-level means of the values that exist, for the levels that have one, in
        :attr:`levels` order (Python's ``sum`` of each level's values in order, as
        ``stats.level_means`` adds them)."""
        kept, ends = self._present(values)
        return [sum(kept[start:end]) / (end - start)
                for start, end in zip([0, *ends[:-1]], ends, strict=True) if end > start]

    def repeats(self, values: Column) -> list[float]:
        """The values of the one level that has any (a row whose metric exists on a single
        level resamples its repeats)."""
        kept, ends = self._present(values)
        for start, end in zip([0, *ends[:-1]], ends, strict=True):
            if end > start:
                return kept[start:end]
        return []

    def most_repeats(self) -> int:
        """Most episodes on one level."""
        return int(np.max(np.bincount(self.codes)))

    def mean_actions(self) -> float:
        return int(self.actions.sum()) / len(self.actions)

    def efficiency_pooled(self) -> float | None:
        """``stats.weighted_mean`` of efficiency weighted by actions (Python's sum of the
        same products in the same order)."""
        eff = self.column("efficiency")
        ok = self._scores["efficiency"].known
        weights = self.actions[ok]
        total = float(weights.sum())
        if total <= 0:
            return None
        return float(sum((eff[ok] * weights).tolist()) / total)
