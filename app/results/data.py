"""Loading what results need: the episodes in scope and their scores, read as plain rows
(``db.results.scored_episodes``: one query for the episodes, one per score) and kept as
columns (``episode_columns``). No step rows are read (the per-episode scores already hold what
the leaderboard needs); ``EpisodeFacts`` are made only when asked for (``Loaded.episodes``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from playbench.app.results.episode_columns import SCORES, Category, EpisodeColumns, Score
from playbench.app.results.episode_facts import EpisodeFacts
from playbench.app.results.paused_gc import paused_gc
from playbench.app.studies.access import Viewer, hidden_study_ids
from playbench.app.studies.protocol import load_protocol
from playbench.db.results import ScoredEpisodes, played_levels, scored_episodes
from playbench.db.store import Store
from playbench.games.base import Level
from playbench.games.kind import (
    KindError,
    Registry,
    TaskKind,
    UnknownKind,
    default_registry,
    has_result_groups,
    result_group,
)

SCORE_COLUMNS = SCORES


@dataclass(frozen=True)
class Scope:
    """Which episodes count: by study, game, setting, participant kind; practice episodes
    and episodes that did not finish normally are left out unless asked for."""

    study: str | None = None
    game: str | None = None
    setting: str | None = None
    kind: str | None = None
    include_practice: bool = False
    statuses: tuple[str, ...] = ("done",)
    viewer: Viewer = field(default_factory=Viewer)
    episodes: frozenset[int] | None = None
    """Only these episode ids (``export --verify`` keeps those that replay); None: any."""


class Loaded:
    """The episodes in scope, as columns (what the leaderboard reads) and, made on first use,
    as ``EpisodeFacts`` (:attr:`episodes`)."""

    def __init__(self, columns: EpisodeColumns, excluded: dict[str, int]) -> None:
        self.columns = columns
        self.excluded = excluded
        """Episodes in scope left out because of their status (e.g. ``error``:
        infrastructure failures are kept apart from agent failures)."""
        self._episodes: list[EpisodeFacts] | None = None

    @property
    def episodes(self) -> list[EpisodeFacts]:
        """One ``EpisodeFacts`` per episode, in the columns' order."""
        if self._episodes is None:
            with paused_gc():
                self._episodes = self.columns.facts()
        return self._episodes


def level_groups(store: Store, games: Sequence[str], registry: Registry | None = None
                 ) -> dict[str, str]:
    """Level key -> the sub-group its kind puts it in, for the played levels of those of
    ``games`` whose kind declares ``result_group`` (kinds not installed here have none)."""
    kinds = registry if registry is not None else default_registry()
    grouping: dict[str, TaskKind] = {}
    for game in games:
        try:
            kind = kinds.get(game)
        except (UnknownKind, KindError):
            continue
        if has_result_groups(kind):
            grouping[game] = kind
    out: dict[str, str] = {}
    for game, digest, text, number, title, meta in played_levels(store.db, sorted(grouping)):
        group = result_group(grouping[game], Level(game, text, number, title, meta))
        if group:
            out[f"{game}:{digest}"] = group
    return out


def load_episodes(store: Store, scope: Scope = Scope(),
                  registry: Registry | None = None) -> Loaded:
    """Episode facts in ``scope``, ordered by game, level hash, setting and episode uid (the
    same order in every database holding the same episodes), each with its level's sub-group
    (``registry``'s kinds are asked; the installed ones by default)."""
    found = scored_episodes(
        store.db, SCORE_COLUMNS,
        study_id=None if scope.study is None else load_protocol(store, scope.study).id,
        game=scope.game, setting=scope.setting, kind=scope.kind,
        include_practice=scope.include_practice,
        hidden_study_ids=hidden_study_ids(store, scope.viewer))
    with paused_gc():
        rows = found.episodes
        if scope.episodes is not None:
            rows = [r for r in rows if r[0] in scope.episodes]
        statuses = set(scope.statuses)
        excluded: dict[str, int] = {}
        for status in (r[7] for r in rows):
            if status not in statuses:
                excluded[status] = excluded.get(status, 0) + 1
        kept = [r for r in rows if r[7] in statuses]
        tasks = {tid: found.tasks[tid] for tid in {r[3] for r in kept}}
        groups = level_groups(store, sorted({game for game, _, _ in tasks.values()}),
                              registry)
        return Loaded(_columns(kept, tasks, groups, found), excluded)


def _columns(rows: list[tuple[Any, ...]], tasks: dict[int, tuple[str, str, int]],
             groups: dict[str, str], found: ScoredEpisodes) -> EpisodeColumns:
    """The columns of ``rows`` (``ScoredEpisodes.episodes``, by id), sorted by game, level
    hash, setting and uid. What comes from a task or a participant is looked up once per task
    or participant, the order is one ``lexsort`` of ranks, and each score column is placed by
    ``searchsorted`` on the ids."""
    if not rows:
        return EpisodeColumns.of([])
    ids, uids, pids, tids, sids, settings, practice, statuses, actions = zip(*rows, strict=True)
    ranked = sorted(tasks, key=tasks.__getitem__)  # (game, level hash): unique per task
    task_index = {tid: i for i, tid in enumerate(ranked)}
    task = np.fromiter(map(task_index.__getitem__, tids), np.int64, len(tids))
    setting = Category.of(settings)
    uid_rank = np.empty(len(uids), np.int64)
    uid_rank[np.argsort(np.asarray(uids))] = np.arange(len(uids))
    order = np.lexsort((uid_rank, setting.codes, task))
    task = task[order]
    keys = [f"{tasks[t][0]}:{tasks[t][1]}" for t in ranked]
    per_task: dict[str, list[Any]] = {
        "game": [tasks[t][0] for t in ranked], "level_hash": [tasks[t][1] for t in ranked],
        "level_number": [tasks[t][2] for t in ranked], "level_key": keys,
        "group": [groups.get(key, "") for key in keys]}
    people = sorted(found.participants)
    person_index = {pid: i for i, pid in enumerate(people)}
    person = np.fromiter(map(person_index.__getitem__, pids), np.int64, len(pids))[order]
    per_person: dict[str, list[Any]] = {
        "kind": [found.participants[p][0] for p in people],
        "participant": [found.participants[p][1] for p in people]}
    study = Category.of(sids).take(order)
    categories = {name: _spread(Category.of(values), task) for name, values in per_task.items()}
    categories |= {name: _spread(Category.of(values), person)
                   for name, values in per_person.items()}
    categories |= {"setting": setting.take(order), "status": Category.of(statuses).take(order),
                   "study": Category(study.codes, [None if s is None else found.studies[s]
                                                   for s in study.names])}
    id_column = np.asarray(ids, dtype=np.int64)
    return EpisodeColumns(
        id=id_column[order], uid=[uids[i] for i in order.tolist()],
        practice=np.fromiter(map(bool, practice), bool, len(practice))[order],
        actions=np.asarray(actions, dtype=np.int64)[order], categories=categories,
        scores={name: _score(id_column, found.scores.get(name, [])).take(order)
                for name in SCORE_COLUMNS})


def _spread(of_owner: Category, owner: np.ndarray) -> Category:
    """A category of tasks (or participants) as one of episodes: ``owner`` is each
    episode's task (participant) as an index into the values ``of_owner`` was made of."""
    return Category(of_owner.codes[owner], of_owner.names)


def _score(ids: np.ndarray, pairs: list[tuple[int, float]]) -> Score:
    """A score of the episodes of ``ids`` (ascending) from ``(episode id, value)`` pairs:
    missing where an episode has no pair (a stored NaN stays NaN); pairs of other episodes
    are ignored."""
    values = np.full(ids.size, np.nan)
    known = np.zeros(ids.size, bool)
    if pairs:
        episode_ids, stored = zip(*pairs, strict=True)
        wanted = np.asarray(episode_ids, dtype=np.int64)
        pos = np.minimum(np.searchsorted(ids, wanted), ids.size - 1)
        mine = ids[pos] == wanted
        values[pos[mine]] = np.asarray(stored, dtype=float)[mine]
        known[pos[mine]] = True
    return Score(values, known)
