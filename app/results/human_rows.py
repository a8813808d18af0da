"""The human-baseline row of a leaderboard (one per game, setting and sub-group) under a
``HumanBaseline`` definition, with its intervals.

Each metric is first reduced to a person x level matrix (the mean of a person's episodes on a
level). The rule turns the matrix into one figure; the interval repeats that on resampled
levels (columns) or resampled people (rows), as the definition asks, and takes the percentile
interval. Resampling is seeded from the row's identity, so the same data gives the same
interval in every database.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from playbench.app.results.baselines import (
    HumanBaseline,
    chosen_episodes,
    first_runs,
    humans_of,
    person_rank,
)
from playbench.app.results.data import EpisodeFacts
from playbench.app.results.stats import (
    CONFIDENCE,
    RESAMPLES,
    Estimate,
    human_relative,
    stable_seed,
    weighted_mean,
)

Value = Callable[[EpisodeFacts], float | None]
_CHUNK = 250
"""Bootstrap draws evaluated at once (bounds the person x draw x level block in memory)."""


@dataclass(frozen=True)
class Grid:
    """Sums and counts of one metric per person (rows) and level (columns)."""

    people: list[str]
    levels: list[str]
    sums: np.ndarray
    counts: np.ndarray

    @classmethod
    def of(cls, episodes: Sequence[EpisodeFacts], value: Value, people: list[str],
           levels: list[str]) -> Grid:
        row = {p: i for i, p in enumerate(people)}
        col = {lv: j for j, lv in enumerate(levels)}
        sums = np.zeros((len(people), len(levels)))
        counts = np.zeros_like(sums)
        for e in episodes:
            v = value(e)
            if v is None or v != v:  # v != v: NaN
                continue
            sums[row[e.participant], col[e.level_key]] += v
            counts[row[e.participant], col[e.level_key]] += 1
        return cls(people, levels, sums, counts)

    def means(self) -> np.ndarray:
        """Per person and level means, NaN where the person has no value on the level."""
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(self.counts > 0, self.sums / np.maximum(self.counts, 1), np.nan)


def _nanmean(x: np.ndarray, axis: int) -> np.ndarray:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.nanmean(x, axis=axis)


def _nanmedian(x: np.ndarray, axis: int) -> np.ndarray:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.nanmedian(x, axis=axis)


def _pooled(sums: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Pooled per-level means averaged over levels; people on axis -2, levels on axis -1."""
    s, c = sums.sum(axis=-2), counts.sum(axis=-2)
    with np.errstate(invalid="ignore", divide="ignore"):
        per_level = np.where(c > 0, s / np.maximum(c, 1), np.nan)
    return _nanmean(per_level, axis=-1)


def _across_people(scores: np.ndarray, rule: str, axis: int) -> np.ndarray:
    if rule == "median-person":
        return _nanmedian(scores, axis=axis)
    return _nanmean(scores, axis=axis)


def _interval(draws: np.ndarray, confidence: float) -> tuple[float | None, float | None]:
    draws = draws[~np.isnan(draws)]
    if draws.size < 2:
        return None, None
    alpha = (1.0 - confidence) / 2.0
    return float(np.quantile(draws, alpha)), float(np.quantile(draws, 1.0 - alpha))


RANKED = {"best-person": 0, "second-best-first-run": 1}
"""Rules that report one ranked person: the position taken in the ranking."""


class RowEstimator:
    """Figures of one baseline row: ``estimate(value)`` per metric. ``episodes`` are the
    rule's pool: all human episodes, or first runs for ``second-best-first-run``."""

    def __init__(self, episodes: Sequence[EpisodeFacts], baseline: HumanBaseline, seed: int,
                 resamples: int, confidence: float) -> None:
        self.episodes = list(episodes)
        self.baseline = baseline
        self.confidence = confidence
        self.people = sorted({e.participant for e in self.episodes})
        self.levels = sorted({e.level_key for e in self.episodes})
        ranked = person_rank(self.episodes)
        self.rank_of = np.array([ranked.index(p) for p in self.people], dtype=float)
        pick = RANKED.get(baseline.rule)
        self.person: int | None = None
        if pick is not None and len(ranked) > pick:
            self.person = self.people.index(ranked[pick])
        rng = np.random.default_rng([seed, len(self.people), len(self.levels)])
        unit = len(self.levels) if baseline.resample == "levels" else len(self.people)
        self.draws = (rng.integers(0, unit, size=(resamples, unit)) if unit >= 2
                      else np.empty((0, unit), dtype=int))

    def estimate(self, value: Value) -> Estimate:
        grid = Grid.of(self.episodes, value, self.people, self.levels)
        point = self._figure(grid)
        if point is None:
            return Estimate(None)
        counts = grid.counts if self.person is None else grid.counts[[self.person]]
        n = int(np.count_nonzero(counts.sum(axis=0)))
        low, high = _interval(self._draws(grid), self.confidence)
        return Estimate(point, low, high, n)

    def _figure(self, grid: Grid) -> float | None:
        rule = self.baseline.rule
        if rule == "pooled":
            value = float(_pooled(grid.sums, grid.counts))
        elif rule in RANKED:
            if self.person is None:
                return None
            value = float(_nanmean(grid.means()[self.person], axis=0))
        else:
            value = float(_across_people(_nanmean(grid.means(), axis=1), rule, axis=0))
        return None if value != value else value

    def _draws(self, grid: Grid) -> np.ndarray:
        if not len(self.draws) or (self.baseline.rule in RANKED and self.person is None):
            return np.empty(0)
        out = np.empty(len(self.draws))
        for start in range(0, len(self.draws), _CHUNK):
            idx = self.draws[start:start + _CHUNK]
            if self.baseline.resample == "levels":
                out[start:start + len(idx)] = self._level_draws(grid, idx)
            else:
                out[start:start + len(idx)] = self._people_draws(grid, idx)
        return out

    def _level_draws(self, grid: Grid, idx: np.ndarray) -> np.ndarray:
        rule = self.baseline.rule
        if rule == "pooled":  # -> draw, people, level
            return _pooled(np.moveaxis(grid.sums[:, idx], 0, 1),
                           np.moveaxis(grid.counts[:, idx], 0, 1))
        means = grid.means()
        if rule in RANKED:
            return _nanmean(means[self.person][idx], axis=1)
        return _across_people(_nanmean(means[:, idx], axis=2), rule, axis=0)

    def _people_draws(self, grid: Grid, idx: np.ndarray) -> np.ndarray:
        rule = self.baseline.rule
        if rule == "pooled":  # draw, people, level
            return _pooled(grid.sums[idx], grid.counts[idx])
        scores = _nanmean(grid.means(), axis=1)
        if rule in RANKED:
            ranks = np.sort(self.rank_of[idx], axis=1)
            best = ranks[:, 0]
            if RANKED[rule] == 1:  # the second distinct person drawn, if any
                later = np.where(ranks > best[:, None], ranks, np.inf)
                best = later.min(axis=1)
            picked = np.full(len(idx), np.nan)
            ok = np.isfinite(best)
            by_rank = np.empty(len(self.people))
            by_rank[self.rank_of.astype(int)] = scores
            picked[ok] = by_rank[best[ok].astype(int)]
            return picked
        return _across_people(scores[idx], rule, axis=1)


class SolvedByK:
    """The ``solved-by-k`` figure: percent of levels at least k different people solved."""

    def __init__(self, episodes: Sequence[EpisodeFacts], baseline: HumanBaseline, seed: int,
                 resamples: int, confidence: float) -> None:
        people = sorted({e.participant for e in episodes})
        self.levels = sorted({e.level_key for e in episodes})
        row = {p: i for i, p in enumerate(people)}
        col = {lv: j for j, lv in enumerate(self.levels)}
        self.solved = np.zeros((len(people), len(self.levels)), dtype=bool)
        for e in episodes:
            if e.is_solved:
                self.solved[row[e.participant], col[e.level_key]] = True
        self.k = baseline.k
        self.resample = baseline.resample
        self.seed, self.resamples, self.confidence = seed, resamples, confidence

    def estimate(self) -> Estimate:
        if not self.levels:
            return Estimate(None)
        hit = self.solved.sum(axis=0) >= self.k
        point = 100.0 * float(hit.mean())
        unit = hit.size if self.resample == "levels" else self.solved.shape[0]
        if unit < 2:
            return Estimate(point, None, None, hit.size)
        rng = np.random.default_rng([self.seed, unit])
        idx = rng.integers(0, unit, size=(self.resamples, unit))
        if self.resample == "levels":
            draws = 100.0 * hit[idx].mean(axis=1)
        else:
            draws = 100.0 * (self.solved[idx].sum(axis=1) >= self.k).mean(axis=1)
        low, high = _interval(draws, self.confidence)
        return Estimate(point, low, high, hit.size)


def baseline_row_figures(episodes: Sequence[EpisodeFacts], baseline: HumanBaseline,
                         actions: dict[tuple[str, str], float], key: tuple[str, ...], *,
                         resamples: int = RESAMPLES, confidence: float = CONFIDENCE
                         ) -> dict[str, object]:
    """The keyword arguments of a ``LeaderRow`` for the human baseline over ``episodes``
    (one game and setting, optionally one sub-group; human and not practice): the counts and
    every metric's estimate. ``actions`` is ``action_baselines`` under the same definition."""
    chosen = chosen_episodes(episodes, baseline)
    seed = stable_seed("human-baseline", baseline.name, baseline.resample, *key)
    empty = Estimate(None)
    by_level: dict[str, int] = {}
    for e in chosen:
        by_level[e.level_key] = by_level.get(e.level_key, 0) + 1
    setting = chosen[0].setting if chosen else ""
    base: dict[str, object] = {
        "episodes": len(chosen), "levels": len(by_level),
        "repeats": max(by_level.values(), default=0),
        "baseline_levels": sum(1 for lv in by_level if (lv, setting) in actions),
        "mean_actions": (sum(e.actions for e in chosen) / len(chosen)) if chosen else None,
    }
    if baseline.rule == "solved-by-k":
        acc = SolvedByK(chosen, baseline, seed, resamples, confidence).estimate()
        return {**base, "accuracy": acc, "completion": empty, "efficiency": empty,
                "efficiency_pooled": None, "magebench": empty, "steps_over_optimal": empty,
                "human_relative": empty}

    humans = humans_of(episodes)
    pool = first_runs(humans) if baseline.rule == "second-best-first-run" else humans
    est = RowEstimator(pool, baseline, seed, resamples, confidence)

    def hre(e: EpisodeFacts) -> float | None:
        if e.solved is None:
            return None
        r = human_relative(e.is_solved, e.actions, actions.get((e.level_key, e.setting)))
        return None if r is None else 100.0 * r

    eff = [(e.efficiency, e.actions) for e in chosen if e.efficiency is not None]
    return {
        **base,
        "accuracy": est.estimate(lambda e: None if e.solved is None else 100.0 * e.solved),
        "completion": est.estimate(lambda e: e.completion),
        "efficiency": est.estimate(lambda e: e.efficiency),
        "efficiency_pooled": weighted_mean([v for v, _ in eff], [n for _, n in eff]),
        "magebench": est.estimate(lambda e: e.magebench),
        "steps_over_optimal": est.estimate(
            lambda e: e.steps_over_optimal if e.is_solved else None),
        "human_relative": est.estimate(hre),
    }
