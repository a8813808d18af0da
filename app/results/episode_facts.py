"""An episode as the results see it: one named tuple of the facts every table, plot and
export of results reads (``data.load_episodes`` makes them; ``episode_columns`` holds the same
facts as columns)."""

from __future__ import annotations

from typing import NamedTuple


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
