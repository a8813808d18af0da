"""The library's browser-view tasks: task sets (bundled or added files) and one row per task
(no Qt).

Everything kind-specific comes from the task kind (``playbench.games.kind``): its bundled sources,
its loader and the listing facts of each task (``TaskKind.describe``). A row holds what a person
choosing a task wants to see before starting it: the objective, the difficulty, the evaluator
kinds that will score it, whether it needs pictures, and how many actions its reference takes;
or, for a kind that names its own columns (``library_columns``), that kind's values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playbench.app.ui.models.catalog import PackRef
from playbench.app.ui.models.wording import count
from playbench.games.base import Level, LevelError
from playbench.games.kind import TaskKind, library_columns, library_values


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
    columns: tuple[str, ...] = ()
    """The kind's own Library columns (``library_columns``), when it declares them."""
    values: tuple[str, ...] = ()
    """This task's values under :attr:`columns` (``library_values``)."""

    @property
    def facts(self) -> str:
        """One line for the start panel."""
        if self.columns:
            return " · ".join(f"{c.lower()} {v}" for c, v in zip(self.columns, self.values,
                                                                 strict=True))
        parts = [f"difficulty {self.difficulty}"]
        if self.evaluators:
            parts.append("evaluated by " + ", ".join(self.evaluators))
        if self.reference:
            parts.append(f"reference: {self.reference} actions")
        if self.images:
            parts.append(count(self.images, "input image"))
        if self.start:
            parts.append(f"starts at {self.start}")
        return " · ".join(parts)

    def matches(self, text: str) -> bool:
        hay = " ".join([str(self.task_id), self.intent, self.difficulty, *self.evaluators,
                        *self.values])
        return text.lower() in hay.lower()


def web_packs(kind: TaskKind, added_files: Sequence[str] = ()) -> list[PackRef]:
    """The kind's bundled task sets, then the task files a person added."""
    out = [PackRef(kind.name, s.title, s.name, True) for s in kind.sources()]
    out += [PackRef(kind.name, f"{Path(p).name} ({'folder' if Path(p).is_dir() else 'file'})",
                    p, False) for p in added_files]
    return out


def row_of(kind: TaskKind, level: Level) -> WebTaskRow:
    """The listing facts of one task level, as the kind describes it."""
    d: Mapping[str, Any] = kind.describe(level)
    evaluators = tuple(e.strip() for e in str(d.get("evaluators") or "").split(",") if e.strip())
    task = d.get("task", level.number)
    intent = d.get("intent") or level.title
    difficulty = d.get("difficulty") or "-"
    if "intent" not in d and d.get("prompt"):  # a game's task: its game, prompt and target
        intent = f"{d.get('game') or level.title} · {d['prompt']}"
        if isinstance(d.get("target"), (int, float)):
            difficulty = f"target {d['target']:g}"
    return WebTaskRow(level, task if isinstance(task, int) else level.number, str(intent),
                      str(difficulty), evaluators, int(d.get("images") or 0),
                      int(d.get("reference") or 0), str(d.get("start") or ""),
                      library_columns(kind), library_values(kind, level))


def load_rows(kind: TaskKind, pack: PackRef) -> list[WebTaskRow]:
    """Every task of a set; raises ``LevelError`` naming the file when it cannot be read."""
    if not pack.bundled and not Path(pack.source).exists():
        raise LevelError("the file is no longer there (moved or deleted?)", source=pack.source)
    return [row_of(kind, lv) for lv in kind.load(pack.source)]
