"""Leaderboard tables per game, setting and participant (definitions in docs/studies.md).

Each row averages per level first, then over levels, so a level played ten times weighs as much
as a level played once; intervals come from a level-cluster bootstrap (``stats``).

- accuracy: share of episodes solved, percent (ING-VP accuracy)
- completion: ING-VP completion, 0-100
- efficiency: ING-VP action efficiency (share of actions that changed the state, percent),
  per-level mean; ``efficiency_pooled`` is the action-weighted mean over all episodes
  (sum of changed actions / sum of actions in multi-step settings)
- magebench: MageBench's Sokoban score (Sokoban rows only)
- steps_over_optimal: actions / optimal length, solved episodes only
- human_relative: ARC-AGI-3-style action efficiency against the human action count of the
  same level and setting, ``min(1, (h / a) ** 2)``, 0 when unsolved, percent; ``h`` follows
  the chosen human baseline (``baselines``: the median solving human episode by default);
  levels with no solving human are left out of it (``baseline_levels`` counts the others)

Human rows: one per person by default; with a ``HumanBaseline`` the people are replaced by one
row that the definition computes (``human_rows``), labelled with it.

A kind that sorts its levels into sub-groups (``games.kind.result_group``: browser games by
GameWorld game) gets a row per sub-group beside its overall row, so GameWorld's SR (accuracy)
and PG (completion) show per game and overall.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

import numpy as np

from playbench.app.choices import METRICS
from playbench.app.results.baselines import HumanBaseline, action_baselines
from playbench.app.results.board_rows import column_action_baselines, row_members
from playbench.app.results.data import EpisodeFacts, Scope, load_episodes
from playbench.app.results.episode_columns import EpisodeColumns
from playbench.app.results.human_rows import baseline_row_figures
from playbench.app.results.paused_gc import paused_gc
from playbench.app.results.row_arrays import RowArrays
from playbench.app.results.stats import (
    CONFIDENCE,
    RESAMPLES,
    Estimate,
    Resampler,
    bootstrap_intervals,
    clustered_estimate,
    human_relative,
    stable_seed,
    weighted_mean,
)
from playbench.app.studies.access import check_results_allowed
from playbench.app.studies.screening import Screening, check_episode_ids, screen_study
from playbench.db.store import Store
from playbench.games.kind import (
    KindError,
    Registry,
    UnknownKind,
    default_registry,
    results_note,
)


@dataclass(frozen=True)
class LeaderRow:
    game: str
    setting: str
    kind: str
    participant: str
    episodes: int
    levels: int
    repeats: int
    """Most episodes on one level."""
    accuracy: Estimate
    completion: Estimate
    efficiency: Estimate
    efficiency_pooled: float | None
    magebench: Estimate
    steps_over_optimal: Estimate
    human_relative: Estimate
    baseline_levels: int
    mean_actions: float | None
    group: str = ""
    """The kind's sub-group this row summarises (``EpisodeFacts.group``); "" for the row over
    all of the game's levels."""

    @property
    def label(self) -> str:
        """The game column's text: ``game`` or ``game / group``."""
        return f"{self.game} / {self.group}" if self.group else self.game

    def metric(self, name: str) -> Estimate:
        return getattr(self, name)

    def record(self) -> dict[str, Any]:
        """A flat dict (CSV and JSON rows): each metric with ``_low`` and ``_high``."""
        out: dict[str, Any] = {"game": self.game, "group": self.group,
                               "setting": self.setting, "kind": self.kind,
                               "participant": self.participant, "episodes": self.episodes,
                               "levels": self.levels, "repeats": self.repeats}
        for name in METRICS:
            est = self.metric(name)
            out[name] = est.value
            out[f"{name}_low"] = est.low
            out[f"{name}_high"] = est.high
        out["efficiency_pooled"] = self.efficiency_pooled
        out["baseline_levels"] = self.baseline_levels
        out["mean_actions"] = self.mean_actions
        return out


@dataclass
class Leaderboard:
    rows: list[LeaderRow]
    scope: Scope
    excluded: dict[str, int] = field(default_factory=dict)
    confidence: float = CONFIDENCE
    baseline: HumanBaseline | None = None
    """The human-baseline definition of the human row (None: a row per person, efficiency
    against the pooled median)."""
    screening: Screening | None = None
    """For a study's results: its check tasks and exclusions, already applied to ``rows``."""
    dropped: frozenset[int] = frozenset()
    """Ids of the episodes in scope the rows leave out (check tasks, excluded people)."""

    def baseline_text(self) -> str:
        """The line every table and plot of this board prints about its human baseline."""
        if self.baseline is None:
            return ("human rows: one per person; human-relative efficiency against the median "
                    "solving human episode (all human episodes pooled)")
        return self.baseline.describe()

    def records(self) -> list[dict[str, Any]]:
        return [r.record() for r in self.rows]

    def games(self) -> list[str]:
        return sorted({r.game for r in self.rows})


def build_row(key: tuple[str, str, str, str], episodes: Sequence[EpisodeFacts],
              baselines: Mapping[tuple[str, str], float], *, resamples: int = RESAMPLES,
              confidence: float = CONFIDENCE, group: str = "") -> LeaderRow:
    """One leaderboard row from its episodes (pure: no database); ``group`` names the
    kind's sub-group they are (and seeds the bootstrap apart from the overall row's).

    The definition, one episode at a time; :func:`fast_row` computes the same row from
    columns (tests/results/test_leaderboard_fast.py holds them equal)."""
    game, setting, kind, name = key
    resampler = Resampler(stable_seed(*key, *([group] if group else [])), resamples)
    by_level: dict[str, list[EpisodeFacts]] = {}
    for e in episodes:
        by_level.setdefault(e.level_key, []).append(e)

    def est(value: Callable[[EpisodeFacts], float | None]) -> Estimate:
        groups = {lv: [value(e) for e in eps] for lv, eps in by_level.items()}
        return clustered_estimate(groups, resampler.seed, resamples=resamples,
                                  confidence=confidence, resampler=resampler)

    def hre(e: EpisodeFacts) -> float | None:
        if e.solved is None:  # unscorable (e.g. a web task whose judge was missing)
            return None
        r = human_relative(e.is_solved, e.actions, baselines.get((e.level_key, e.setting)))
        return None if r is None else 100.0 * r

    eff = [(e.efficiency, e.actions) for e in episodes if e.efficiency is not None]
    return LeaderRow(
        game=game, setting=setting, kind=kind, participant=name, episodes=len(episodes),
        levels=len(by_level), repeats=max(len(v) for v in by_level.values()),
        accuracy=est(lambda e: None if e.solved is None else 100.0 * e.solved),
        completion=est(lambda e: e.completion),
        efficiency=est(lambda e: e.efficiency),
        efficiency_pooled=weighted_mean([v for v, _ in eff], [n for _, n in eff]),
        magebench=est(lambda e: e.magebench),
        steps_over_optimal=est(lambda e: e.steps_over_optimal if e.is_solved else None),
        human_relative=est(hre),
        baseline_levels=sum(1 for lv, eps in by_level.items()
                            if (lv, eps[0].setting) in baselines),
        mean_actions=sum(e.actions for e in episodes) / len(episodes), group=group)


def _estimates(arrays: RowArrays, columns: Sequence[Any], resampler: Resampler, *,
               confidence: float) -> list[Estimate]:
    """``clustered_estimate`` of each metric's column: the same per-level means, in the same
    order, summed the same way, and the same resamples (``bootstrap_intervals``), so the
    figures are equal to the last bit."""
    all_means = [arrays.level_means(values) for values in columns]
    samples = [np.asarray(means if len(means) >= 2 else arrays.repeats(values), dtype=float)
               for means, values in zip(all_means, columns, strict=True)]
    intervals = bootstrap_intervals(samples, resampler, confidence=confidence)
    return [Estimate(sum(means) / len(means), low, high, len(means)) if means
            else Estimate(None)
            for means, (low, high) in zip(all_means, intervals, strict=True)]


def fast_row(key: tuple[str, str, str, str], episodes: Sequence[EpisodeFacts],
             baselines: Mapping[tuple[str, str], float], *, resamples: int = RESAMPLES,
             confidence: float = CONFIDENCE, group: str = "") -> LeaderRow:
    """:func:`build_row` from numpy columns: per-level sums by ``bincount`` instead of a
    Python loop per episode and metric (issue 32: a leaderboard over 100,000 episodes spent
    1.4 of its 1.8 s of CPU in those loops)."""
    return _row(key, RowArrays(episodes), len(episodes), baselines, resamples=resamples,
                confidence=confidence, group=group)


def _row(key: tuple[str, str, str, str], a: RowArrays, episodes: int,
         baselines: Mapping[tuple[str, str], float], *, resamples: int, confidence: float,
         group: str) -> LeaderRow:
    """The row whose episodes' columns are ``a``."""
    game, setting, kind, name = key
    resampler = Resampler(stable_seed(*key, *([group] if group else [])), resamples)
    level_baselines = [baselines.get((lv, setting)) for lv in a.levels]
    accuracy, completion, efficiency, magebench, steps_over_optimal, hre = _estimates(
        a, [a.accuracy(), a.column("completion"), a.column("efficiency"), a.column("magebench"),
            a.steps_over_optimal(), a.human_relative(level_baselines)], resampler,
        confidence=confidence)
    return LeaderRow(
        game=game, setting=setting, kind=kind, participant=name, episodes=episodes,
        levels=len(a.levels), repeats=a.most_repeats(), accuracy=accuracy,
        completion=completion, efficiency=efficiency, efficiency_pooled=a.efficiency_pooled(),
        magebench=magebench, steps_over_optimal=steps_over_optimal, human_relative=hre,
        baseline_levels=sum(1 for b in level_baselines if b is not None),
        mean_actions=a.mean_actions(), group=group)


def compute_leaderboard(episodes: Sequence[EpisodeFacts] | EpisodeColumns, *,
                        pool_humans: bool = False, baseline: HumanBaseline | None = None,
                        resamples: int = RESAMPLES, confidence: float = CONFIDENCE
                        ) -> list[LeaderRow]:
    """Rows for already-loaded episodes, sorted by game, setting, kind, participant; each
    row over a game's levels is followed by its rows per sub-group (if the kind has any).
    ``baseline`` replaces the people's rows by one human-baseline row under that definition
    (``pool_humans`` is ``baseline=HumanBaseline("pooled")``). The same rows as
    :func:`definition_rows`, computed from columns (``board_rows``)."""
    if pool_humans and baseline is None:
        baseline = HumanBaseline("pooled")
    with paused_gc():
        table = (episodes if isinstance(episodes, EpisodeColumns)
                 else EpisodeColumns.of(episodes))
        actions = column_action_baselines(table, baseline or HumanBaseline("pooled"))
        rows = []
        for k, index in row_members(table, baseline.label if baseline else None):
            if baseline is not None and k[2] == "human":
                figures = baseline_row_figures(table.take(index).facts(), baseline, actions,
                                               k, resamples=resamples,
                                               confidence=confidence)
                if not figures["episodes"]:
                    continue
                rows.append(LeaderRow(game=k[0], setting=k[1], kind=k[2], participant=k[3],
                                      group=k[4], **figures))  # type: ignore[arg-type]
            else:
                rows.append(_row(k[:4], RowArrays(table, index), int(index.size), actions,
                                 resamples=resamples, confidence=confidence, group=k[4]))
    return rows


def definition_rows(episodes: Sequence[EpisodeFacts], *, baseline: HumanBaseline | None = None,
                    resamples: int = RESAMPLES, confidence: float = CONFIDENCE
                    ) -> list[LeaderRow]:
    """:func:`compute_leaderboard` one episode at a time, as the rows are defined (each row
    by :func:`build_row`): the reference the fast path is tested against."""
    actions = action_baselines(episodes, baseline or HumanBaseline("pooled"))
    groups: dict[tuple[str, str, str, str, str], list[EpisodeFacts]] = {}
    row_of = attrgetter("game", "setting", "kind", "participant", "group")
    for e in episodes:
        game, setting, kind, name, group = row_of(e)
        if baseline and kind == "human":
            name = baseline.label
        groups.setdefault((game, setting, kind, name, ""), []).append(e)
        if group:
            groups.setdefault((game, setting, kind, name, group), []).append(e)
    rows = []
    for k in sorted(groups):
        if baseline is not None and k[2] == "human":
            figures = baseline_row_figures(groups[k], baseline, actions, k,
                                           resamples=resamples, confidence=confidence)
            if not figures["episodes"]:
                continue
            rows.append(LeaderRow(game=k[0], setting=k[1], kind=k[2], participant=k[3],
                                  group=k[4], **figures))  # type: ignore[arg-type]
        else:
            rows.append(build_row(k[:4], groups[k], actions, resamples=resamples,
                                  confidence=confidence, group=k[4]))
    return rows


def kind_notes(board: Leaderboard, registry: Registry | None = None) -> list[str]:
    """The notes (``games.kind.results_note``) of the kinds with rows on ``board``, for the
    line under a table; kinds not installed here have none."""
    kinds = registry if registry is not None else default_registry()
    notes = []
    for game in board.games():
        try:
            note = results_note(kinds.get(game))
        except (UnknownKind, KindError):
            continue
        if note:
            notes.append(note)
    return notes


def leaderboard(store: Store, scope: Scope = Scope(), *, pool_humans: bool = False,
                baseline: HumanBaseline | None = None,
                resamples: int = RESAMPLES, confidence: float = CONFIDENCE,
                registry: Registry | None = None) -> Leaderboard:
    """The leaderboard of the episodes in ``scope`` (raises ``Blinded`` when an annotator
    asks for a blind study's results); ``registry``'s kinds say which levels form sub-groups
    (the installed kinds by default)."""
    check_results_allowed(store, scope.study, scope.viewer)
    loaded = load_episodes(store, scope, registry)
    screening = None if scope.study is None else screen_study(store, scope.study)
    left_out = screening.left_out if screening is not None else check_episode_ids(store)
    # check tasks never count; a study's exclusions apply to its own results
    episodes = loaded.columns.without(left_out)
    if pool_humans and baseline is None:
        baseline = HumanBaseline("pooled")
    rows = compute_leaderboard(episodes, baseline=baseline, resamples=resamples,
                               confidence=confidence)
    return Leaderboard(rows, scope, loaded.excluded, confidence, baseline, screening,
                       frozenset(left_out))
