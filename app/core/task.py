"""What is played: a game, one level (board or web task), and the rule options in force."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from games.base import Level


@dataclass(frozen=True)
class Task:
    game: str
    level: Level
    options: Mapping[str, str] = field(default_factory=dict)
    source: str = ""
    """Where the level came from (pack name or file path), for the record."""

    @property
    def level_hash(self) -> str:
        return self.level.content_hash
