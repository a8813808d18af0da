"""What one participant has played of one game, level by level: the Library marks the levels
an annotator has played and solved with it.

One aggregate query per call, however many levels the game has: the Library asks for a whole
pack (a thousand levels is a normal pack) every time it is shown.
"""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa

from playbench.db.engine import Database
from playbench.db.models import Episode, Participant, Score, Task


@dataclass(frozen=True)
class LevelMark:
    """How often the participant played one level, and how many of those plays solved it."""

    played: int
    solved: int


def level_marks(db: Database, kind: str, name: str, game: str) -> dict[str, LevelMark]:
    """Level content hash -> :class:`LevelMark` for every level of ``game`` that the
    participant ``(kind, name)`` has an episode of (any status, setting or study: a started
    play is a play); levels never played are absent.

    Keyed by content hash, not by pack: a task is its board (``tasks`` is unique on game and
    hash), so the same board in two packs is one level and carries its marks into both. An
    episode counts as solved when its ``solved`` score is 1.
    """
    solved = sa.func.sum(sa.case((Score.value >= 1.0, 1), else_=0))
    q = (sa.select(Task.level_hash, sa.func.count(Episode.id), solved)
         .join(Episode, Episode.task_id == Task.id)
         .join(Participant, Participant.id == Episode.participant_id)
         .outerjoin(Score, sa.and_(Score.episode_id == Episode.id, Score.name == "solved"))
         .where(Participant.kind == kind, Participant.name == name, Task.game == game)
         .group_by(Task.level_hash))
    with db.engine.connect() as conn:
        return {h: LevelMark(int(n), int(s or 0)) for h, n, s in conn.execute(q)}
