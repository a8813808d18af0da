"""The library's web tasks: task sets (bundled or added files) and one row per task (no Qt).

A row holds what a person choosing a task wants to see before starting it: the objective
(VWA's ``intent``), the difficulty, the evaluator kinds that will score it, whether it needs
pictures, and how many actions its reference trajectory takes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from app.ui.models.catalog import PackRef
from app.web.tasks import bundled_names, load_web_tasks
from games.base import Level, LevelError
from games.web.tasks import WebTaskError, task_from_level

GAME = "web"


@dataclass(frozen=True)
class WebTaskRow:
    level: Level
    task_id: int
    intent: str
    difficulty: str
    evaluators: tuple[str, ...]
    images: int
    reference: int
    start: str = ""
    """The start page(s), with the site placeholders as written (``__CLASSIFIEDS__``)."""

    @property
    def facts(self) -> str:
        """One line for the start panel."""
        parts = [f"difficulty {self.difficulty}", "evaluated by " + ", ".join(self.evaluators)]
        if self.reference:
            parts.append(f"reference: {self.reference} actions")
        if self.images:
            parts.append(f"{self.images} input image{'s' if self.images > 1 else ''}")
        if self.start:
            parts.append(f"starts at {self.start}")
        return " · ".join(parts)

    def matches(self, text: str) -> bool:
        hay = " ".join([str(self.task_id), self.intent, self.difficulty, *self.evaluators])
        return text.lower() in hay.lower()


def web_packs(added_files: Sequence[str] = ()) -> list[PackRef]:
    """The bundled task sets, then the task files a person added."""
    out = [PackRef(GAME, f"{name} (bundled)", name, True) for name in bundled_names()]
    out += [PackRef(GAME, f"{Path(p).name} (file)", p, False) for p in added_files]
    return out


def row_of(level: Level) -> WebTaskRow:
    """The listing facts of one web task level (a task that cannot be read is listed with
    its problem as the objective, so that starting it explains itself)."""
    try:
        task = task_from_level(level)
    except WebTaskError as err:
        return WebTaskRow(level, level.number, f"(unreadable task: {err})", "-", (), 0, 0)
    config = task.config
    difficulty = str(config.get("overall_difficulty") or config.get("reasoning_difficulty")
                     or "-")
    kinds = tuple(str(k) for k in (task.eval.get("eval_types") or ()))
    return WebTaskRow(level, task.task_id, task.intent, difficulty, kinds, len(task.images),
                      len(task.reference), " and ".join(task.start_urls))


def load_rows(pack: PackRef) -> list[WebTaskRow]:
    """Every task of a set; raises ``LevelError`` naming the file when it cannot be read."""
    if not pack.bundled and not Path(pack.source).exists():
        raise LevelError("the file is no longer there (moved or deleted?)", source=pack.source)
    return [row_of(t.level) for t in load_web_tasks(pack.source)]
