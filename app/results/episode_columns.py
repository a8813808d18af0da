"""Episodes as columns: what the leaderboard reads of each episode, one array or list per
fact, with the repeated strings (game, setting, participant, level...) held as codes into a
short list of the distinct values.

A leaderboard over 100,000 episodes made 100,000 ``EpisodeFacts`` tuples, grouped them with a
dict per episode and took them apart again into columns per row: 0.6 s of its 1.5 s of CPU
(issue 32, cProfile on bench_results' database). Here the loader's columns are kept as they
come, rows are found by sorting codes, and ``EpisodeFacts`` are made only when asked for
(:meth:`EpisodeColumns.facts`: exports, plots and the human-baseline rows use them).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from playbench.app.results.episode_facts import EpisodeFacts

SCORES = ("solved", "completion", "efficiency", "magebench", "steps_over_optimal")
"""The score columns, in ``EpisodeFacts`` order."""

CATEGORIES = ("kind", "participant", "game", "level_hash", "level_number", "setting", "study",
              "status", "level_key", "group")
"""The facts held as codes into their distinct values."""


@dataclass(frozen=True)
class Category:
    """One fact per episode as ``codes`` into ``names`` (the distinct values; sorted when
    :meth:`of` made them, so comparing codes compares the values)."""

    codes: np.ndarray
    names: list[Any]

    @classmethod
    def of(cls, values: Sequence[Hashable]) -> Category:
        """Codes of ``values`` into their sorted distinct values (None sorts first)."""
        names = sorted(set(values), key=lambda v: (v is not None, v if v is not None else 0))
        index = {name: i for i, name in enumerate(names)}
        return cls(np.fromiter(map(index.__getitem__, values), np.int64, len(values)), names)

    def values(self) -> list[Any]:
        """The value of each episode."""
        return list(map(self.names.__getitem__, self.codes.tolist()))

    def take(self, index: np.ndarray) -> Category:
        return Category(self.codes[index], self.names)


@dataclass(frozen=True)
class Score:
    """A score per episode: ``values`` (NaN where missing) and ``known`` (False where the
    episode has no value, i.e. the fact is None; a stored NaN is known)."""

    values: np.ndarray
    known: np.ndarray

    def facts(self) -> list[float | None]:
        return [v if k else None
                for v, k in zip(self.values.tolist(), self.known.tolist(), strict=True)]

    def take(self, index: np.ndarray) -> Score:
        return Score(self.values[index], self.known[index])


@dataclass(frozen=True)
class EpisodeColumns:
    """Episodes (in the loader's order: game, level hash, setting, uid) as columns."""

    id: np.ndarray
    uid: list[str]
    practice: np.ndarray
    actions: np.ndarray
    categories: dict[str, Category]
    scores: dict[str, Score]

    def __len__(self) -> int:
        return int(self.id.size)

    def category(self, name: str) -> Category:
        return self.categories[name]

    def score(self, name: str) -> Score:
        return self.scores[name]

    @property
    def is_solved(self) -> np.ndarray:
        """``EpisodeFacts.is_solved``: ``bool(solved)``, so NaN counts as solved."""
        solved = self.scores["solved"]
        return solved.known & (solved.values != 0)

    def take(self, index: np.ndarray) -> EpisodeColumns:
        """The episodes at ``index`` (positions or a mask), in that order."""
        picked = np.arange(len(self))[index] if index.dtype == bool else index
        return replace(self, id=self.id[picked], uid=[self.uid[i] for i in picked.tolist()],
                       practice=self.practice[picked], actions=self.actions[picked],
                       categories={k: c.take(picked) for k, c in self.categories.items()},
                       scores={k: s.take(picked) for k, s in self.scores.items()})

    def without(self, ids: frozenset[int] | set[int]) -> EpisodeColumns:
        """These episodes less those whose id is in ``ids``."""
        if not ids:
            return self
        return self.take(~np.isin(self.id, np.fromiter(ids, np.int64, len(ids))))

    def facts(self) -> list[EpisodeFacts]:
        """One ``EpisodeFacts`` per episode, in order."""
        if not len(self):
            return []
        cat = {name: c.values() for name, c in self.categories.items()}
        columns = [self.id.tolist(), self.uid, cat["kind"], cat["participant"], cat["game"],
                   cat["level_hash"], cat["level_number"], cat["setting"], cat["study"],
                   self.practice.tolist(), cat["status"], self.actions.tolist(),
                   *(self.scores[name].facts() for name in SCORES), cat["level_key"],
                   cat["group"]]
        return list(map(EpisodeFacts._make, zip(*columns, strict=True)))

    @classmethod
    def of(cls, episodes: Sequence[EpisodeFacts]) -> EpisodeColumns:
        """The columns of already-made facts (tests, and callers holding a list)."""
        fields = EpisodeFacts._fields
        if episodes:
            raw = dict(zip(fields, zip(*episodes, strict=True), strict=True))
        else:
            raw = {name: () for name in fields}
        n = len(episodes)
        scores = {}
        for name in SCORES:
            column = raw[name]
            scores[name] = Score(np.asarray(column, dtype=float).reshape(n),
                                 np.fromiter((v is not None for v in column), bool, n))
        return cls(id=np.asarray(raw["id"], dtype=np.int64).reshape(n), uid=list(raw["uid"]),
                   practice=np.fromiter(map(bool, raw["practice"]), bool, n),
                   actions=np.asarray(raw["actions"], dtype=np.int64).reshape(n),
                   categories={name: Category.of(raw[name]) for name in CATEGORIES},
                   scores=scores)
