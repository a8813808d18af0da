"""Loading what results need, in one aggregate query: one row per episode with its scores
pivoted into columns. No step rows are read (the per-episode scores already hold what the
leaderboard needs), which keeps a 10,000-episode leaderboard well under a second on SQLite.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from playbench.app.studies.access import Viewer, hidden_study_ids
from playbench.app.studies.protocol import load_protocol
from playbench.db.results import played_levels, scored_episodes
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

SCORE_COLUMNS = ("solved", "completion", "efficiency", "magebench", "steps_over_optimal")


class EpisodeFacts(NamedTuple):
    """An episode as the results see it (a named tuple: ten thousand are made per
    leaderboard, and tuples are made several times faster than frozen dataclasses)."""

    id: int
    uid: str
    kind: str
    participant: str
    game: str
    level_hash: str
    level_number: int
    setting: str
    study: str | None
    practice: bool
    status: str
    actions: int
    solved: float | None
    completion: float | None
    efficiency: float | None
    magebench: float | None
    steps_over_optimal: float | None
    level_key: str
    """``game:level_hash``: the level, across games."""
    group: str = ""
    """The sub-group its kind puts the level in (``games.kind.result_group``: a browser
    game's GameWorld game), or "" for none; Results show a row per group beside the kind's."""

    @property
    def is_solved(self) -> bool:
        return bool(self.solved)


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


@dataclass
class Loaded:
    episodes: list[EpisodeFacts]
    excluded: dict[str, int]
    """Episodes in scope left out because of their status (e.g. ``error``: infrastructure
    failures are kept apart from agent failures)."""


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
    """Episode facts in ``scope``, ordered by game, level hash and episode uid (the same
    order in every database holding the same episodes), each with its level's sub-group
    (``registry``'s kinds are asked; the installed ones by default)."""
    rows = scored_episodes(
        store.db, SCORE_COLUMNS,
        study_id=None if scope.study is None else load_protocol(store, scope.study).id,
        game=scope.game, setting=scope.setting, kind=scope.kind,
        include_practice=scope.include_practice,
        hidden_study_ids=hidden_study_ids(store, scope.viewer))
    excluded: dict[str, int] = {}
    groups = level_groups(store, sorted({r[4] for r in rows if r[10] in scope.statuses}),
                          registry)
    if scope.episodes is not None:
        rows = [r for r in rows if r[0] in scope.episodes]
    statuses = set(scope.statuses)
    for r in rows:
        if r[10] not in statuses:
            excluded[r[10]] = excluded.get(r[10], 0) + 1
    make = EpisodeFacts._make
    # One comprehension, and a sort on one string: at 100,000 episodes the loop and the
    # sort on a tuple were a fifth of the leaderboard's time (issue 32).
    kept = [make((*r[:9], bool(r[9]), r[10], int(r[11]), *r[12:], key, groups.get(key, "")))
            for r in rows if r[10] in statuses for key in (f"{r[4]}:{r[5]}",)]
    # game, level hash, setting, uid: one string compares as the tuple would (no field holds
    # a NUL) and several times faster.
    kept.sort(key=lambda e: f"{e.game}\0{e.level_hash}\0{e.setting}\0{e.uid}")
    return Loaded(kept, excluded)
