"""Small statistics the results need, with numpy only: per-level means, a cluster bootstrap
interval, medians, and the human-relative efficiency of one episode.

Why a cluster bootstrap: repeats of one level are not independent of each other (the level's
difficulty is shared), so the unit of resampling is the level. Each bootstrap sample draws
levels with replacement and averages their per-level means; the interval is the percentile
interval of those averages. With a single level there is nothing to resample across, so the
repeats are resampled instead; with a single episode there is no interval. Resampling uses a
seed derived from the row's identity, so the same data always gives the same interval (an
imported copy of a database shows the identical leaderboard).
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

RESAMPLES = 2000
CONFIDENCE = 0.95
HRE_POWER = 2.0
HRE_CAP = 1.0
"""Human-relative efficiency per episode: (median human actions / player actions) ** 2, capped
at 1 - as ARC-AGI-3 scores action efficiency; unsolved episodes score 0."""


@dataclass(frozen=True)
class Estimate:
    """A mean with its confidence interval (None when it cannot be computed)."""

    value: float | None
    low: float | None = None
    high: float | None = None
    n: int = 0
    """Number of levels behind the value."""

    def scaled(self, factor: float) -> Estimate:
        def s(x: float | None) -> float | None:
            return None if x is None else x * factor
        return Estimate(s(self.value), s(self.low), s(self.high), self.n)


def stable_seed(*parts: object) -> int:
    """A seed from text parts, the same in every process and database."""
    return zlib.crc32("\x1f".join(str(p) for p in parts).encode())


def level_means(groups: Mapping[str, Sequence[float | None]]) -> tuple[list[str], list[float]]:
    """Per-level means of the values that exist, levels sorted by their key (levels with no
    value are left out)."""
    keys, means = [], []
    for key in sorted(groups):
        vals = [v for v in groups[key] if v is not None and v == v]  # v == v: not NaN
        if vals:
            keys.append(key)
            means.append(sum(vals) / len(vals))
    return keys, means


class Resampler:
    """Bootstrap draws for one leaderboard row: the index matrix for ``n`` values depends only
    on the row's seed and ``n``, and is made once and shared by the row's metrics (common
    random numbers: each interval is still a plain percentile bootstrap)."""

    MAX_CELLS = 4_000_000

    def __init__(self, seed: int, resamples: int = RESAMPLES) -> None:
        self.seed = seed
        self.resamples = resamples
        self._cache: dict[int, np.ndarray] = {}

    def columns(self, n: int) -> np.ndarray | None:
        """The (n x resamples) index matrix for ``n`` values, one resample per column; None
        when it would be too large to keep (see :meth:`means`)."""
        if n * self.resamples > self.MAX_CELLS:
            return None
        cols = self._cache.get(n)
        if cols is None:
            rng = np.random.default_rng([self.seed, n])
            # The same draws as before, kept one resample per column: summing the gathered
            # values down the columns runs over contiguous rows, twice as fast as a row mean
            # of the (resamples x n) gather, the leaderboard's largest cost (issue 32).
            cols = self._cache[n] = rng.integers(0, n, size=(self.resamples, n)).T.copy()
        return cols

    def means(self, x: np.ndarray) -> np.ndarray:
        """Means of ``resamples`` resamples (with replacement) of ``x``."""
        n = x.size
        cols = self.columns(n)
        if cols is None:  # very many levels: chunk, do not keep
            rng = np.random.default_rng([self.seed, n])
            out = np.empty(self.resamples)
            step = max(1, self.MAX_CELLS // n)
            for start in range(0, self.resamples, step):
                stop = min(self.resamples, start + step)
                out[start:stop] = _column_means(
                    x, rng.integers(0, n, size=(stop - start, n)).T.copy())
            return out
        return _column_means(x, cols)


def _column_means(x: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """Mean of ``x`` over each column of indexes in ``cols`` (n x resamples)."""
    sums: np.ndarray = np.take(x, cols).sum(axis=0)
    return sums / cols.shape[0]


def bootstrap_interval(values: Sequence[float], seed: int, *, resamples: int = RESAMPLES,
                       confidence: float = CONFIDENCE,
                       resampler: Resampler | None = None) -> tuple[float | None, float | None]:
    """Percentile interval of the mean of ``values`` under resampling with replacement."""
    x = np.asarray(values, dtype=float)
    if x.size < 2:
        return None, None
    if np.all(x == x[0]):
        return float(x[0]), float(x[0])
    means = (resampler or Resampler(seed, resamples)).means(x)
    alpha = (1.0 - confidence) / 2.0
    return _quantile(means, alpha), _quantile(means, 1.0 - alpha)


def _quantile(x: np.ndarray, q: float) -> float:
    """``np.quantile(x, q)`` (linear interpolation) by partial sorting, which is what a
    leaderboard of a hundred rows times six metrics spends its time on otherwise."""
    pos = q * (x.size - 1)
    lo = int(np.floor(pos))
    hi = min(lo + 1, x.size - 1)
    part = np.partition(x, [lo, hi])
    return float(part[lo] + (part[hi] - part[lo]) * (pos - lo))


def bootstrap_intervals(samples: Sequence[np.ndarray], resampler: Resampler, *,
                        confidence: float = CONFIDENCE
                        ) -> list[tuple[float | None, float | None]]:
    """:func:`bootstrap_interval` of each sample under one ``resampler``, the samples of one
    size resampled together: one gather, one sum and one partial sort for a row's metrics
    instead of one each (issue 32: a leaderboard's 500 intervals were half its time at 10,000
    episodes). The same draws and the same arithmetic, so the same bits."""
    out: list[tuple[float | None, float | None]] = [(None, None)] * len(samples)
    by_size: dict[int, list[int]] = {}
    for i, x in enumerate(samples):
        if x.size < 2:
            continue
        if np.all(x == x[0]):
            out[i] = (float(x[0]), float(x[0]))
        else:
            by_size.setdefault(x.size, []).append(i)
    alpha = (1.0 - confidence) / 2.0
    for n, which in by_size.items():
        cols = resampler.columns(n)
        if cols is None:
            for i in which:
                means = resampler.means(samples[i])
                out[i] = (_quantile(means, alpha), _quantile(means, 1.0 - alpha))
            continue
        # (n x samples): each drawn index gathers its values of every sample at once;
        # summing the (n x resamples x samples) gather over its first axis adds in the
        # order _column_means adds (measured: 0.67 ms for six samples, 0.89 one by one).
        stacked = np.stack([samples[i] for i in which], axis=1)
        means = np.ascontiguousarray((np.take(stacked, cols, axis=0).sum(axis=0) / n).T)
        lows, highs = _quantiles(means, (alpha, 1.0 - alpha))
        for i, low, high in zip(which, lows, highs, strict=True):
            out[i] = (low, high)
    return out


def _quantiles(x: np.ndarray, qs: tuple[float, float]) -> tuple[list[float], list[float]]:
    """:func:`_quantile` of each row of ``x`` at both ``qs``, from one partial sort."""
    size = x.shape[1]
    spots = []
    for q in qs:
        pos = q * (size - 1)
        lo = int(np.floor(pos))
        spots.append((pos, lo, min(lo + 1, size - 1)))
    part = np.partition(x, sorted({i for _, lo, hi in spots for i in (lo, hi)}), axis=1)
    low, high = ((part[:, lo] + (part[:, hi] - part[:, lo]) * (pos - lo)).tolist()
                 for pos, lo, hi in spots)
    return low, high


def clustered_estimate(groups: Mapping[str, Sequence[float | None]], seed: int, *,
                       resamples: int = RESAMPLES, confidence: float = CONFIDENCE,
                       resampler: Resampler | None = None) -> Estimate:
    """Mean over levels of per-level means, with a level-cluster bootstrap interval (or a
    repeats bootstrap when there is one level)."""
    keys, means = level_means(groups)
    if not means:
        return Estimate(None)
    value = sum(means) / len(means)
    if len(means) >= 2:
        low, high = bootstrap_interval(means, seed, resamples=resamples, confidence=confidence,
                                       resampler=resampler)
    else:
        repeats = [v for v in groups[keys[0]] if v is not None and v == v]
        low, high = bootstrap_interval(repeats, seed, resamples=resamples,
                                       confidence=confidence, resampler=resampler)
    return Estimate(value, low, high, len(means))


def median(values: Sequence[float]) -> float | None:
    return float(np.median(values)) if len(values) else None


def human_relative(solved: bool, actions: int, human_median: float | None) -> float | None:
    """(human median actions / actions) ** 2, capped at 1; 0 when unsolved; None without a
    human baseline for the level."""
    if human_median is None:
        return None
    if not solved:
        return 0.0
    if actions <= 0:
        return HRE_CAP
    return min(HRE_CAP, (human_median / actions) ** HRE_POWER)


def weighted_mean(values: Sequence[float], weights: Sequence[float]) -> float | None:
    total = float(sum(weights))
    if total <= 0:
        return None
    return float(sum(v * w for v, w in zip(values, weights, strict=True)) / total)
